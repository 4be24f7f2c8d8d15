package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// TestReduceMatchesNumPy runs reduce through the command line on arrays
// NumPy wrote (C and Fortran order, big-endian, a float32 whose sum
// depends on the order of the additions) and compares the file with what
// np.save writes for NumPy's own result, byte for byte; the --as-numpy
// script must write the same bytes. scripts/parity_reduce.py covers every
// operation and dtype at random; this is the command's own check.
func TestReduceMatchesNumPy(t *testing.T) {
	python := testkit.NumPy(t, "to check reduce against")
	dir := t.TempDir()
	gen := `
import numpy as np, sys
d = sys.argv[1]
rng = np.random.default_rng(7)
a = (rng.standard_normal((4, 1000, 3)) * np.array([1e-4, 1.0, 1e4])).astype(np.float32)
np.save(d + '/c.npy', a)
np.save(d + '/f.npy', np.asfortranarray(a))
np.save(d + '/be.npy', a.astype('>f8'))
np.save(d + '/i.npy', rng.integers(-9, 9, (6, 5)).astype(np.int16))
np.save(d + '/nan.npy', np.array([[np.nan, 1.0], [2.0, np.nan]]))
`
	if out, err := exec.Command(python, "-c", gen, dir).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	cases := []struct {
		args, numpy string // strider's arguments after OP IN; NumPy's call on a
	}{
		{"sum c.npy", "np.sum(a)"},
		{"sum c.npy --axis 1", "np.sum(a, axis=1)"},
		{"sum f.npy --axis 1", "np.sum(a, axis=1)"},
		{"mean f.npy --axis 0,2 --keepdims", "np.mean(a, axis=(0, 2), keepdims=True)"},
		{"std be.npy --axis -2 --ddof 1", "np.std(a, axis=-2, ddof=1)"},
		{"argmax c.npy --axis 1", "np.argmax(a, axis=1)"},
		{"sum i.npy --axis 0", "np.sum(a, axis=0)"},
		{"mean i.npy", "np.mean(a)"},
		{"prod i.npy --axis 1 --dtype int8", "np.prod(a, axis=1, dtype='int8')"},
		{"max nan.npy --axis 0", "np.max(a, axis=0)"},
		{"nanmax nan.npy --axis 1", "np.nanmax(a, axis=1)"},
		{"count-nonzero c.npy --axis 2", "np.count_nonzero(a, axis=2)"},
		{"sum c.npy '1:3, ::-7'", "np.sum(a[1:3, ::-7])"},
	}
	for _, tc := range cases {
		t.Run(tc.args, func(t *testing.T) {
			fields := strings.Fields(strings.ReplaceAll(tc.args, "'", ""))
			if i := strings.Index(tc.args, "'"); i >= 0 {
				fields = append(strings.Fields(tc.args[:i]), strings.Trim(tc.args[i:], "'"))
			}
			op, in := fields[0], filepath.Join(dir, fields[1])
			args := append([]string{"reduce", op, in}, fields[2:]...)
			got := filepath.Join(t.TempDir(), "got.npy")
			if r := run(t, nil, append(args, "-o", got)...); r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			want := filepath.Join(t.TempDir(), "want.npy")
			ref := "import numpy as np, sys\na = np.load(sys.argv[1])\nnp.save(sys.argv[2], np.asarray(" + tc.numpy + "))\n"
			if out, err := exec.Command(python, "-c", ref, in, want).CombinedOutput(); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if !bytes.Equal(testkit.ReadFile(t, got), testkit.ReadFile(t, want)) {
				t.Fatalf("strider's file differs from np.save(%s)", tc.numpy)
			}
			scripted := filepath.Join(t.TempDir(), "script.npy")
			r := run(t, nil, append(args, "--as-numpy", "-o", scripted)...)
			if r.code != 0 {
				t.Fatalf("--as-numpy: exit %d: %s", r.code, r.stderr)
			}
			if out, err := exec.Command(python, "-c", string(r.stdout)).CombinedOutput(); err != nil {
				t.Fatalf("the script fails: %v: %s\n%s", err, out, r.stdout)
			}
			if !bytes.Equal(testkit.ReadFile(t, scripted), testkit.ReadFile(t, want)) {
				t.Fatalf("the --as-numpy script's file differs from np.save(%s)", tc.numpy)
			}
		})
	}
}

// TestReduceRefusals: NumPy's refusals and the command line's mistakes are
// one "strider: reduce: " line, exit 2, and no output file; NumPy's
// warnings go to standard error and the result is still written.
func TestReduceRefusals(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x.npy")
	testkit.WriteNpy(t, x, "<f8", []int{2, 0}, nil)
	out := filepath.Join(dir, "out.npy")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"min", x, "--axis", "1"}, "zero-size array to reduction operation minimum which has no identity"},
		{[]string{"argmax", x, "--axis", "0,1"}, "'tuple' object cannot be interpreted as an integer"},
		{[]string{"sum", x, "--axis", "2"}, "axis 2 is out of bounds for array of dimension 2"},
		{[]string{"sum", x, "--axis", "0,0"}, "duplicate value in 'axis'"},
		{[]string{"max", x, "--ddof", "1"}, "got an unexpected keyword argument 'ddof'"},
		{[]string{"median", x}, `unknown OP "median"`},
		{[]string{"sum"}, "expected OP IN"},
		{[]string{"sum", x, "--dtype", "f3"}, "--dtype"},
		{[]string{"sum", x, "--ddof", "x"}, `--ddof "x" is not an integer`},
	} {
		r := run(t, nil, append(append([]string{"reduce"}, tc.args...), "-o", out)...)
		wantError(t, r, "reduce")
		if !strings.Contains(string(r.stderr), tc.want) {
			t.Errorf("%v: %q does not say %q", tc.args, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: an output file was left", tc.args)
		}
	}
	r := run(t, nil, "reduce", "mean", x, "--axis", "1", "-o", out)
	if r.code != 0 || !strings.Contains(string(r.stderr), "strider: reduce: warning: RuntimeWarning: Mean of empty slice.") {
		t.Fatalf("mean of an empty slice: exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("mean of an empty slice wrote nothing: %v", err)
	}
}
