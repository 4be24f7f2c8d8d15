package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strider/formats"
	"strider/formats/npy"
)

// TestCast runs cast end to end on the NumPy-written fixtures: to the same
// dtype (even with --casting no) it writes the C-order file byte for byte,
// from the Fortran twin too; to the other byte order and back it is exact.
// The conversions between dtypes are checked against NumPy by
// scripts/parity_cast.py.
func TestCast(t *testing.T) {
	fromRoot(t)
	fs := glob(t, "testdata/roundtrip_*_c.npy")
	if len(fs) < 10 {
		t.Fatalf("only %d fixtures", len(fs))
	}
	dir := t.TempDir()
	out, back := filepath.Join(dir, "out.npy"), filepath.Join(dir, "back.npy")
	for _, c := range fs {
		a, err := formats.Open(c, nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		d := a.Dtype
		a.Close()
		want := readFile(t, c)
		f := strings.TrimSuffix(c, "_c.npy") + "_f.npy"
		flipped := d
		flipped.Order = map[byte]byte{'<': '>', '>': '<', '|': '|'}[d.Order]
		for _, args := range [][]string{
			{c, "--dtype", d.Descr(), "--casting", "no"},
			{f, "--dtype", d.Descr()},
		} {
			if _, err := os.Stat(args[0]); err != nil {
				continue
			}
			r := run(t, nil, append(append([]string{"cast"}, args...), "-o", out)...)
			if r.code != 0 || !bytes.Equal(readFile(t, out), want) {
				t.Fatalf("cast %v: exit %d %s; or the output is not %s", args, r.code, r.stderr, c)
			}
		}
		r := run(t, nil, "cast", c, "--dtype", flipped.Descr(), "--casting", "equiv", "-o", out)
		if r.code != 0 {
			t.Fatalf("%s to %s: exit %d %s", c, flipped.Descr(), r.code, r.stderr)
		}
		r = run(t, nil, "cast", out, "--dtype", d.Descr(), "--casting", "equiv", "-o", back)
		if r.code != 0 || !bytes.Equal(readFile(t, back), want) {
			t.Fatalf("%s to %s and back: exit %d %s, or not the same bytes", c, flipped.Descr(), r.code, r.stderr)
		}
	}
}

// TestCastRefusals: a rule that forbids the cast, an unknown dtype or rule:
// exit 2, one line naming the values, no output file.
func TestCastRefusals(t *testing.T) {
	fromRoot(t)
	in := "testdata/example_f4_2x3x4_c.npy"
	out := filepath.Join(t.TempDir(), "out.npy")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dtype", "int32", "--casting", "safe"}, "cannot cast array data from dtype('float32') to dtype('int32') according to the rule 'safe'"},
		{[]string{"--dtype", ">f4", "--casting", "no"}, "dtype('>f4') according to the rule 'no'"},
		{[]string{"--dtype", "float16", "--casting", "same_kind"}, ""},
		{[]string{"--dtype", "f3"}, "--dtype"},
		{[]string{"--dtype", "object"}, "--dtype"},
		{[]string{"--dtype", "f8", "--casting", "sometimes"}, `--casting "sometimes" is not no, equiv, safe, same_kind or unsafe`},
		{[]string{}, "missing --dtype"},
	} {
		r := run(t, nil, append([]string{"cast", in, "-o", out}, tc.args...)...)
		if tc.want == "" {
			if r.code != 0 {
				t.Errorf("%v: exit %d %s", tc.args, r.code, r.stderr)
			}
			os.Remove(out)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(r.stderr)), "\n")
		if r.code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: cast: ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line with %q", tc.args, r.code, r.stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v left an output file", tc.args)
		}
	}
}
