package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"strider/formats"
	"strider/formats/npy"
	"strider/ops"
)

// TestReshape runs reshape on the NumPy-written fixture pairs (the same
// values saved in C and in Fortran order): flattening in C index order
// gives the C file's data, in F index order the F file's data, whichever
// file is the input; reshaping the flat array back gives the C file itself.
func TestReshape(t *testing.T) {
	fromRoot(t)
	fs := glob(t, "testdata/roundtrip_*x*_f.npy")
	if len(fs) < 10 {
		t.Fatalf("only %d Fortran fixtures", len(fs))
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.npy")
	for _, f := range fs {
		c := strings.TrimSuffix(f, "_f.npy") + "_c.npy"
		a, err := formats.Open(c, nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		dtype, shape, n := a.Dtype, a.Shape, a.NBytes()
		a.Close()
		fileC, fileF := readFile(t, c), readFile(t, f)
		dataC, dataF := fileC[len(fileC)-int(n):], fileF[len(fileF)-int(n):]
		count := ops.Count(shape)
		flat := append(npy.EncodeHeader(dtype, []int{count}), dataC...)
		flatF := append(npy.EncodeHeader(dtype, []int{count}), dataF...)
		if count == 0 {
			flatF = flat
		}
		full := joinInts(shape) // "2,3,4"
		for _, tc := range []struct {
			args []string
			want []byte
		}{
			{[]string{"reshape", f, "-1"}, flat},
			{[]string{"reshape", c, "(" + strconv.Itoa(count) + ",)"}, flat},
			{[]string{"reshape", "--order", "F", f, "-1"}, flatF},
			{[]string{"reshape", c, "--order=F", strconv.Itoa(count)}, flatF},
			{[]string{"reshape", c, full}, fileC},
		} {
			t.Run(filepath.Base(f)+"/"+strings.Join(tc.args, " "), func(t *testing.T) {
				r := run(t, nil, append(tc.args, "-o", out)...)
				if r.code != 0 {
					t.Fatalf("exit %d: %s", r.code, r.stderr)
				}
				if got := readFile(t, out); !bytes.Equal(got, tc.want) {
					t.Fatalf("output differs (%d vs %d bytes)", len(got), len(tc.want))
				}
			})
		}
		// Back from flat: the C file, byte for byte.
		flatPath := filepath.Join(dir, "flat.npy")
		if err := os.WriteFile(flatPath, flat, 0o644); err != nil {
			t.Fatal(err)
		}
		if r := run(t, nil, "reshape", flatPath, full, "-o", out); r.code != 0 || !bytes.Equal(readFile(t, out), fileC) {
			t.Fatalf("%s: flat back to %s: exit %d %s", f, full, r.code, r.stderr)
		}
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for k, n := range v {
		s[k] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
