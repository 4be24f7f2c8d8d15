package cmd

import (
	"bytes"
	"strings"
	"testing"
)

// TestGatherDiagonalOptions covers fixes found by scripts/parity.py: gather
// on a 0-d input with --axis 0 or -1 (numpy.take ravels it to shape (1,)),
// and integer options read as decimal (an IntFlag read --offset 010 as 8 and
// took 0x10).
func TestGatherDiagonalOptions(t *testing.T) {
	fromRoot(t)
	scalar := "testdata/roundtrip_f8le_scalar_c.npy"
	ex := "testdata/example_f4_2x3x4_c.npy"
	same := func(t *testing.T, a, b []string) {
		t.Helper()
		ra, rb := run(t, nil, append(a, "-o", "-")...), run(t, nil, append(b, "-o", "-")...)
		if ra.code != 0 || rb.code != 0 || !bytes.Equal(ra.stdout, rb.stdout) {
			t.Fatalf("%v (exit %d %s) differs from %v (exit %d %s)", a, ra.code, ra.stderr, b, rb.code, rb.stderr)
		}
	}
	same(t, []string{"gather", "--index", "[0,-1]", "--axis", "-1", scalar}, []string{"gather", "--index", "[0,-1]", scalar})
	same(t, []string{"gather", "--index", "0", "--axis", "0", scalar}, []string{"gather", "--index", "0", scalar})
	same(t, []string{"diagonal", "--offset", "010", "--axis1", "+1", "--dim2", " 2", ex}, []string{"diagonal", "--offset", "10", "--axis1", "1", "--axis2", "2", ex})
	same(t, []string{"diagonal", "--offset=-01", "--axis1=-1", "--axis2=0", ex}, []string{"diagonal", "--offset", "-1", "--axis1", "2", "--axis2", "0", ex})
	errs := []struct {
		command string
		args    []string
		want    string
	}{
		{"gather", []string{"--index", "0", "--axis", "1", scalar}, "axis 1 is out of bounds for array of dimension 1"},
		{"diagonal", []string{"--offset", "0x1", ex}, `--offset "0x1" is not an integer`},
		{"diagonal", []string{"--axis2", "1.0", ex}, `--axis2 "1.0" is not an integer`},
		{"gather-elements", []string{"--indices", "testdata/roundtrip_i4be_3x4_c.npy", "--dim", "0x0", ex}, `--axis "0x0" is not an integer`},
	}
	for _, e := range errs {
		r := run(t, nil, append([]string{e.command}, e.args...)...)
		wantError(t, r, e.command)
		if !strings.Contains(string(r.stderr), e.want) {
			t.Fatalf("%v: stderr %q does not mention %q", e.args, r.stderr, e.want)
		}
	}
}
