package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// identityAxes is "0,1,...,n-1" for the number of axes in a fixture name's
// shape token (3x4 → 2, scalar → 0).
func identityAxes(name string) string {
	parts := strings.Split(filepath.Base(name), "_")
	shape := parts[2]
	if shape == "scalar" {
		return ""
	}
	n := len(strings.Split(shape, "x"))
	ax := make([]string, n)
	for i := range ax {
		ax[i] = fmt.Sprint(i)
	}
	return strings.Join(ax, ",")
}

// TestRoundTrip: every fixture, read and written back in C order, is
// byte-identical to NumPy's own C-order save of the same values.
func TestRoundTrip(t *testing.T) {
	fromRoot(t)
	for _, f := range glob(t, "testdata/roundtrip_*.npy") {
		twin := strings.TrimSuffix(f, "_f.npy") + "_c.npy"
		if strings.HasSuffix(f, "_c.npy") {
			twin = f
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.npy")
			r := run(t, nil, "transpose", "--axes="+identityAxes(f), f, "-o", out)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !bytes.Equal(readFile(t, out), readFile(t, twin)) {
				t.Fatalf("output differs from %s", twin)
			}
			// The same through standard input and standard output.
			r = run(t, readFile(t, f), "transpose", "--axes="+identityAxes(f), "-")
			if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, twin)) {
				t.Fatalf("stdin/stdout: exit %d, %s", r.code, r.stderr)
			}
		})
	}
}

// TestOrderKeep: with --order keep a view that numpy.save writes in
// Fortran order (F- and not C-contiguous) is written so, byte for byte as
// NumPy wrote the _f fixtures (np.save(np.asfortranarray(a))); any other
// view, and every view without the option, is written in C order.
func TestOrderKeep(t *testing.T) {
	fromRoot(t)
	fs := glob(t, "testdata/roundtrip_*x*_f.npy")
	if len(fs) < 10 {
		t.Fatalf("only %d Fortran fixtures", len(fs))
	}
	dir := t.TempDir()
	for _, f := range fs {
		c := strings.TrimSuffix(f, "_f.npy") + "_c.npy"
		name := filepath.Base(f)
		wantF, wantC := readFile(t, f), readFile(t, c)
		var info struct{ Count int }
		if err := json.Unmarshal(run(t, nil, "info", "--json", f).stdout, &info); err != nil {
			t.Fatal(err)
		}
		if info.Count == 0 {
			// An empty array is C- and F-contiguous: np.save writes it in
			// C order (the _f fixture's Fortran header is hand-made).
			wantF = wantC
		}
		out := filepath.Join(dir, "out.npy")
		for _, tc := range []struct {
			args []string
			want []byte
		}{
			// The whole F array as a view: NumPy saves it in Fortran order.
			{[]string{"slice", f, "...", "--order", "keep"}, wantF},
			{[]string{"slice", f, ":, :", "--order", "keep"}, wantF},
			{[]string{"transpose", "--axes", identityAxes(name), f, "--order=keep"}, wantF},
			// Without --order keep: C order, always.
			{[]string{"slice", f, "..."}, wantC},
			{[]string{"slice", f, "...", "--order", "C"}, wantC},
			// The transpose of an F array is C-contiguous: C order.
			{[]string{"transpose", "--order", "keep", f}, nil},
		} {
			t.Run(name+"/"+strings.Join(tc.args[2:], " ")+"/"+tc.args[0], func(t *testing.T) {
				r := run(t, nil, append(tc.args, "-o", out)...)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				got := readFile(t, out)
				if tc.want == nil {
					// strider transpose of the F fixture equals its own C-order
					// transpose of the C fixture.
					r := run(t, nil, "transpose", c)
					tc.want = r.stdout
				}
				if !bytes.Equal(got, tc.want) {
					t.Fatalf("output differs from NumPy's file (%d vs %d bytes)", len(got), len(tc.want))
				}
			})
		}
	}
	// transpose twice with --order keep: an F file, then the C original.
	c := "testdata/roundtrip_f4le_2x3x4_c.npy"
	t1 := filepath.Join(dir, "t1.npy")
	if r := run(t, nil, "transpose", "--order", "keep", c, "-o", t1); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r := run(t, nil, "info", "--json", t1)
	var info struct {
		Fortran bool  `json:"fortran_order"`
		Shape   []int `json:"shape"`
	}
	if err := json.Unmarshal(r.stdout, &info); err != nil || !info.Fortran || len(info.Shape) != 3 || info.Shape[0] != 4 {
		t.Fatalf("transpose --order keep of a C array: %s (%v), want a Fortran-order (4, 3, 2)", r.stdout, err)
	}
	r = run(t, nil, "transpose", "--order", "keep", t1)
	if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, c)) {
		t.Fatalf("transposing back: exit %d, %s; want the original bytes", r.code, r.stderr)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"slice", c, "[0, 1], ...", "--order", "keep"}, `strider: slice: --order keep: "[0, 1], ..." has list indices, so its result is not a view; only views (integers, slices, ..., None) keep their order`},
		{[]string{"transpose", c, "--order", "F"}, `strider: transpose: --order "F" is not C or keep`},
	} {
		r := run(t, nil, append(tc.args, "-o", filepath.Join(dir, "no.npy"))...)
		if r.code != 2 || string(r.stderr) != tc.want+"\n" {
			t.Errorf("%v: exit %d, stderr %q; want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
