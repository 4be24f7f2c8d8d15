package cmd

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats"
	"strider/formats/npy"
)

// TestJoin runs concat and stack end to end on the NumPy-written fixture
// pairs (the same values in C and Fortran order): joining a file with
// itself along axis 0, stacking it, and flattening the Fortran twin and
// the C file with --axis none all give the C file's data twice, under the
// header NumPy writes for the result. Mixed dtypes and byte orders are
// checked against NumPy by scripts/parity_concat.py.
func TestJoin(t *testing.T) {
	fromRoot(t)
	fs := glob(t, "testdata/roundtrip_*_c.npy")
	if len(fs) < 10 {
		t.Fatalf("only %d fixtures", len(fs))
	}
	out := filepath.Join(t.TempDir(), "out.npy")
	for _, c := range fs {
		a, err := formats.Open(c, nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		d, shape, n := a.Dtype, a.Shape, int(a.NBytes())
		a.Close()
		if len(shape) == 0 {
			continue // concat refuses 0-d arrays (TestJoinRefusals)
		}
		file := readFile(t, c)
		data := file[len(file)-n:]
		twice := append(slices.Clone(data), data...)
		doubled := slices.Clone(shape)
		doubled[0] *= 2
		f := strings.TrimSuffix(c, "_c.npy") + "_f.npy"
		for _, tc := range []struct {
			args  []string
			shape []int
		}{
			{[]string{"concat", c, c}, doubled},
			{[]string{"stack", c, c}, append([]int{2}, shape...)},
			{[]string{"concat", "--axis", "none", f, c}, []int{2 * len(data) / d.Size}},
		} {
			r := run(t, nil, append(tc.args, "-o", out)...)
			if r.code != 0 {
				t.Fatalf("%v: exit %d %s", tc.args, r.code, r.stderr)
			}
			if d.Order == '>' {
				// Back to the input's byte order, exactly, to compare its bytes.
				if r := run(t, nil, "cast", out, "--dtype", d.Descr(), "-o", out); r.code != 0 {
					t.Fatalf("cast back: %s", r.stderr)
				}
			}
			want := append(npy.EncodeHeader(d, tc.shape), twice...)
			if got := readFile(t, out); !bytes.Equal(got, want) {
				t.Fatalf("%v: output differs (%d vs %d bytes)", tc.args, len(got), len(want))
			}
		}
	}
}

// TestJoinRefusals: shapes that do not match, an axis out of range, two
// standard inputs: exit 2, one line naming the values.
func TestJoinRefusals(t *testing.T) {
	fromRoot(t)
	x := "testdata/example_f4_2x3x4_c.npy"
	y := "testdata/roundtrip_f4le_3x4_c.npy"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"concat", x, y}, "the array at index 0 has 3 dimension(s) and the array at index 1 has 2 dimension(s)"},
		{[]string{"stack", x, x, y}, "all input arrays must have the same shape"},
		{[]string{"stack", x, "--axis", "4"}, "axis 4 is out of bounds for array of dimension 4"},
		{[]string{"concat", "-", "-"}, "standard input (-) is given 2 times"},
		{[]string{"concat", x, "--axis", "first"}, `--axis "first" is not an integer or none`},
		{[]string{"concat"}, "missing the inputs"},
	} {
		r := run(t, nil, append(tc.args, "-o", filepath.Join(t.TempDir(), "o.npy"))...)
		lines := strings.Split(strings.TrimSpace(string(r.stderr)), "\n")
		if r.code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: "+tc.args[0]+": ") || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%v: exit %d, stderr %q: want exit 2 and one line with %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}
