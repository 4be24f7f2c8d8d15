package cmd

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"strider/formats/npy"
)

// npyOf is the .npy NumPy saves for vals in shape: float64 (f8) or int64
// (i8), little endian.
func npyOf(t *testing.T, descr string, shape []int, vals []float64) []byte {
	t.Helper()
	d, err := npy.ParseDescr(descr)
	if err != nil {
		t.Fatal(err)
	}
	out := npy.EncodeHeader(d, shape)
	for _, x := range vals {
		u := uint64(int64(x))
		if descr == "<f8" {
			u = math.Float64bits(x)
		}
		out = binary.LittleEndian.AppendUint64(out, u)
	}
	return out
}

// TestUniqueConsecutive runs the command end to end on the case of its
// help text: NaNs are each their own run, -0.0 joins 0.0 and the run keeps
// its first element; with --axis whole rows are compared. The expected
// files are what torch.unique_consecutive gives (checked by
// scripts/parity_unique_consecutive.py against torch itself).
func TestUniqueConsecutive(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	nan := math.NaN()
	if err := os.WriteFile(in, npyOf(t, "<f8", []int{7}, []float64{1, 1, nan, nan, math.Copysign(0, -1), 0, 2}), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := filepath.Join(dir, "rows.npy")
	if err := os.WriteFile(rows, npyOf(t, "<i8", []int{4, 2}, []float64{1, 1, 1, 1, 2, 2, 1, 1}), 0o644); err != nil {
		t.Fatal(err)
	}
	v, i, c := filepath.Join(dir, "v.npy"), filepath.Join(dir, "i.npy"), filepath.Join(dir, "c.npy")
	for _, tc := range []struct {
		args          []string
		vals, inv, cn []byte
	}{
		{[]string{in}, npyOf(t, "<f8", []int{5}, []float64{1, nan, nan, math.Copysign(0, -1), 2}),
			npyOf(t, "<i8", []int{7}, []float64{0, 0, 1, 2, 3, 3, 4}), npyOf(t, "<i8", []int{5}, []float64{2, 1, 1, 2, 1})},
		{[]string{rows, "--axis", "-2"}, npyOf(t, "<i8", []int{3, 2}, []float64{1, 1, 2, 2, 1, 1}),
			npyOf(t, "<i8", []int{4}, []float64{0, 0, 1, 2}), npyOf(t, "<i8", []int{3}, []float64{2, 1, 1})},
		{[]string{rows}, npyOf(t, "<i8", []int{3}, []float64{1, 2, 1}),
			npyOf(t, "<i8", []int{4, 2}, []float64{0, 0, 0, 0, 1, 1, 2, 2}), npyOf(t, "<i8", []int{3}, []float64{4, 2, 2})},
	} {
		r := run(t, nil, append([]string{"unique-consecutive", "-o", v, "--inverse", i, "--counts", c}, tc.args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, r.code, r.stderr)
		}
		// NaN bits: compare bytes, which holds since strider copies elements.
		for _, f := range []struct {
			path string
			want []byte
		}{{v, tc.vals}, {i, tc.inv}, {c, tc.cn}} {
			if got := readFile(t, f.path); !bytes.Equal(got, f.want) {
				t.Errorf("%v: %s differs:\n got %x\nwant %x", tc.args, filepath.Base(f.path), got, f.want)
			}
		}
	}
}

// TestUniqueConsecutiveRefusals: exit 2, one line, and no output left.
func TestUniqueConsecutiveRefusals(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.npy")
	if err := os.WriteFile(empty, npyOf(t, "<f8", []int{3, 0}, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.npy")
	for _, args := range [][]string{
		{empty, "--axis", "0", "-o", out},
		{"testdata/example_f4_2x3x4_c.npy", "--axis", "3", "-o", out},
		{"testdata/example_f4_2x3x4_c.npy", "-o", "-", "--counts", "-"},
		{"testdata/example_f4_2x3x4_c.npy", "-o", out, "--inverse", out},
		{"testdata/example_f4_2x3x4_c.npy", "-o", out, "--counts", ""},
	} {
		r := run(t, nil, append([]string{"unique-consecutive"}, args...)...)
		wantError(t, r, "unique-consecutive")
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v left an output file", args)
		}
	}
}
