//go:build linux

package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// Numeric options out of range, and requests larger than the machine
// refused up front (issue 8), on sparse files of up to 128 GiB.

// TestBadFlags: numeric options are range-checked with the value in the
// message, and requests larger than the machine are refused up front.
func TestBadFlags(t *testing.T) {
	fromRoot(t)
	ex := "testdata/example_f4_2x3x4_c.npy"
	dir := t.TempDir()
	// Sparse inputs whose work would need far more memory than exists.
	huge := filepath.Join(dir, "huge.npy") // 128 GiB of f8
	testkit.WriteNpy(t, huge, "<f8", []int{1 << 34}, nil)
	wide := filepath.Join(dir, "wide.npy") // 2^31 x 8 f8: 128 GiB
	testkit.WriteNpy(t, wide, "<f8", []int{1 << 31, 8}, nil)
	idx := filepath.Join(dir, "idx.npy") // 2^34 int8 indices: 16 GiB as a file, 144 GiB decoded
	testkit.WriteNpy(t, idx, "|i1", []int{1 << 34}, nil)
	cases := []struct {
		command string
		args    []string
		want    string
	}{
		{"transpose", []string{ex, "--threads", "0"}, "--threads 0 is out of range 1..4096"},
		{"transpose", []string{ex, "--threads", "-3"}, "--threads -3 is out of range"},
		{"transpose", []string{ex, "--threads", "99999999999999999999"}, `--threads "99999999999999999999" is not an integer`},
		{"transpose", []string{ex, "--threads", "0x10"}, `--threads "0x10" is not an integer`},
		{"transpose", []string{ex, "--axes", "0,1,-4"}, "axis -4 is out of bounds for array of dimension 3"},
		{"transpose", []string{ex, "--axes", "0,1,99999999999999999999"}, `--axes "0,1,99999999999999999999" is not a list of integers`},
		{"diagonal", []string{ex, "--axis1", "3"}, "axis 3 is out of bounds"},
		{"diagonal", []string{ex, "--axis2", "-4"}, "axis -4 is out of bounds"},
		{"diagonal", []string{ex, "--axis1", "1", "--axis2", "-2"}, "axis1 and axis2 cannot be the same"},
		{"diagonal", []string{ex, "--offset", "9223372036854775808"}, `--offset "9223372036854775808" is not an integer`},
		{"gather", []string{ex, "--index", "0", "--axis", "-9223372036854775808"}, "axis -9223372036854775808 is out of bounds"},
		{"gather", []string{ex, "--index", "24"}, "index 24 is out of bounds for axis 0 with size 24"},
		{"gather", []string{ex, "--index", "-9223372036854775808"}, "index -9223372036854775808 is out of bounds"},
		{"gather-elements", []string{ex, "--indices", "testdata/roundtrip_i4be_3x4_c.npy", "--axis", "5"}, "indices and array must have the same number of dimensions"},
		{"sort", []string{ex, "--axis", "3"}, "axis 3 is out of bounds for array of dimension 3"},
		{"sort", []string{ex, "--axis", "-4"}, "axis -4 is out of bounds"},
		{"tril-indices", []string{"-1"}, "ROWS -1 is negative"},
		{"triu-indices", []string{"3", "-2"}, "COLS -2 is negative"},
		{"tril-indices", []string{"3037000500"}, "more than the 1099511627776-byte limit"},
		{"tril-indices", []string{"3", "--offset", "1e3"}, `--offset "1e3" is not an integer`},
		{"slice", []string{ex, "0, 0, 0, 0"}, "too many indices for array"},
		{"slice", []string{ex, "5"}, "index 5 is out of bounds for axis 0 with size 2"},
		{"slice", []string{ex, "::0"}, "slice step cannot be zero"},
		{"compare", []string{ex, ex, "--rtol", "-1"}, "--rtol -1: a tolerance must be a number >= 0"},
		// More than the machine has: refused before any work or output.
		// A result that can be computed in pieces (tril-indices, transpose,
		// gather) is streamed to standard output (TestSafetyStreamBounded);
		// one that cannot (a slice with an index array) is refused when it
		// would take over half the memory.
		{"slice", []string{wide, ":, [0, 1]", "-o", "-"}, "of memory for the result on standard output"},
		{"sort", []string{huge, "-o", filepath.Join(dir, "out.npy")}, "of memory for the sort's scratch space"},
		{"gather", []string{ex, "--indices", idx, "-o", filepath.Join(dir, "out.npy")}, "of memory for 17179869184 indices"},
	}
	for _, c := range cases {
		t.Run(c.command+"/"+strings.Join(c.args, " "), func(t *testing.T) {
			args := append([]string{c.command}, c.args...)
			if !strings.Contains(strings.Join(c.args, " "), "-o ") {
				args = append(args, "-o", filepath.Join(dir, "out.npy"))
			}
			if c.command == "compare" {
				args = args[:len(args)-2]
			}
			r := run(t, nil, args...)
			testkit.WantOneLine(t, r.code, string(r.stderr), c.command, c.want)
		})
	}
	testkit.WantNames(t, dir, "huge.npy", "idx.npy", "wide.npy")
	t.Run("threads are decimal", func(t *testing.T) {
		if r := run(t, nil, "transpose", ex, "--threads", "010", "-o", "-"); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
}
