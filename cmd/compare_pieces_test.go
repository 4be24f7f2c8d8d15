package cmd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// writeNpyFunc writes a .npy of float32 (size 4) or float64 (size 8)
// elements of shape, in Fortran order when fortran, whose element at
// C-order position i is val(i).
func writeNpyFunc(t *testing.T, path string, size int, shape []int, fortran bool, val func(i int) float64) {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = fmt.Sprint(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	head := fmt.Sprintf("{'descr': '<f%d', 'fortran_order': %s, 'shape': (%s), }", size, map[bool]string{false: "False", true: "True"}[fortran], tuple)
	head += strings.Repeat(" ", 127-10-len(head)) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(head)), 0)
	b = append(b, head...)
	data := make([]byte, n*size)
	for i := 0; i < n; i++ {
		at := i
		if fortran { // C-order position i, stored at its Fortran-order place
			at = 0
			rest, stride := i, 1
			idx := make([]int, len(shape))
			for k := len(shape) - 1; k >= 0; k-- {
				idx[k], rest = rest%shape[k], rest/shape[k]
			}
			for k := range shape {
				at += idx[k] * stride
				stride *= shape[k]
			}
		}
		if size == 4 {
			binary.LittleEndian.PutUint32(data[at*4:], math.Float32bits(float32(val(i))))
		} else {
			binary.LittleEndian.PutUint64(data[at*8:], math.Float64bits(val(i)))
		}
	}
	if err := os.WriteFile(path, append(b, data...), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestRemoteCompareInPieces: compare of remote arrays, fetched and
// compared a piece at a time (closeInPieces), prints what compare of the
// local files prints, byte for byte: mismatches in the first, a middle and
// the last piece, NaN and infinities, --show's list, --json, two dtypes,
// one side local, a 0-d side, a Fortran-order side (fetched whole), a
// shape mismatch (nothing fetched), --exact.
func TestRemoteCompareInPieces(t *testing.T) {
	dir := t.TempDir()
	const rows, cols = 3, 400000 // 4.8 MB of float32: three pieces of 2 MiB
	n := rows * cols
	base := func(i int) float64 { return float64(i%1000) / 7 }
	changed := map[int]float64{0: 1, 5: math.NaN(), pieceBytes/4 + 3: math.Inf(1), pieceBytes/4 + 9: 1e6, 2*pieceBytes/4 + 1: -1e6, n - 1: 99}
	diff := func(i int) float64 {
		if v, ok := changed[i]; ok {
			return v
		}
		return base(i)
	}
	lastOnly := func(i int) float64 {
		if i == n-1 {
			return 12345
		}
		return base(i)
	}
	files := map[string]func(t *testing.T, path string){
		"a.npy":    func(t *testing.T, p string) { writeNpyFunc(t, p, 4, []int{rows, cols}, false, base) },
		"b.npy":    func(t *testing.T, p string) { writeNpyFunc(t, p, 4, []int{rows, cols}, false, diff) },
		"last.npy": func(t *testing.T, p string) { writeNpyFunc(t, p, 4, []int{rows, cols}, false, lastOnly) },
		"b8.npy":   func(t *testing.T, p string) { writeNpyFunc(t, p, 8, []int{rows, cols}, false, diff) },
		"bf.npy":   func(t *testing.T, p string) { writeNpyFunc(t, p, 4, []int{rows, cols}, true, diff) },
		"s.npy":    func(t *testing.T, p string) { writeNpyFunc(t, p, 8, nil, false, func(int) float64 { return 3 }) },
		"c.npy":    func(t *testing.T, p string) { writeNpyFunc(t, p, 4, []int{cols, rows}, false, base) },
	}
	s := testkit.NewServer(t)
	for name, write := range files {
		p := filepath.Join(dir, name)
		write(t, p)
		s.PutBytes("/"+name, readFile(t, p))
	}
	t.Setenv("STRIDER_HTTP_TIMEOUT", "10s")
	for _, c := range []struct {
		args  []string
		local []bool // which inputs stay local
	}{
		{args: []string{"a.npy", "b.npy"}},
		{args: []string{"a.npy", "b.npy", "--show", "9"}},
		{args: []string{"b.npy", "a.npy", "--json", "--show", "3"}},
		{args: []string{"a.npy", "b.npy", "--equal-nan=false", "--atol", "0.5"}},
		{args: []string{"a.npy", "last.npy"}},
		{args: []string{"a.npy", "a.npy"}},
		{args: []string{"a.npy", "b8.npy", "--show", "4"}},
		{args: []string{"a.npy", "b.npy", "--show", "5"}, local: []bool{true, false}},
		{args: []string{"b8.npy", "a.npy", "--json"}, local: []bool{false, true}},
		{args: []string{"s.npy", "b.npy", "--show", "2"}},
		{args: []string{"b8.npy", "s.npy", "--json"}},
		{args: []string{"a.npy", "bf.npy", "--show", "6"}},
		{args: []string{"a.npy", "c.npy"}},
		{args: []string{"a.npy", "b.npy", "--exact"}},
	} {
		t.Run(strings.Join(c.args, "_"), func(t *testing.T) {
			var lines [2][]string
			for k, remote := range []bool{false, true} {
				for i, a := range c.args {
					if strings.HasSuffix(a, ".npy") {
						if remote && (c.local == nil || !c.local[i]) {
							a = s.URL + "/" + a
						} else {
							a = filepath.Join(dir, a)
						}
					}
					lines[k] = append(lines[k], a)
				}
			}
			l := run(t, nil, append([]string{"compare"}, lines[0]...)...)
			r := run(t, nil, append([]string{"compare"}, lines[1]...)...)
			for i := range c.args {
				r.stdout = bytes.ReplaceAll(r.stdout, []byte(lines[1][i]), []byte(lines[0][i]))
			}
			if l.code != r.code || !bytes.Equal(l.stdout, r.stdout) || !bytes.Equal(l.stderr, r.stderr) {
				t.Errorf("remote: exit %d, stdout\n%s\nstderr %q\nlocal: exit %d, stdout\n%s\nstderr %q", r.code, r.stdout, r.stderr, l.code, l.stdout, l.stderr)
			}
			if l.code > 1 {
				t.Errorf("local: exit %d: %s", l.code, l.stderr)
			}
		})
	}
	// The shapes differ: nothing but the headers is fetched.
	s.Reset()
	run(t, nil, "compare", s.URL+"/a.npy", s.URL+"/c.npy")
	reqs, _ := s.Counts()
	for _, q := range reqs {
		if q.Range != "bytes=0-1023" {
			t.Errorf("compare of two shapes: requests %v; want the first KiB of each only", reqs)
			break
		}
	}
	// A range that fails mid-compare: one line, exit 2.
	s.Hook(func(w http.ResponseWriter, r *http.Request, k int) bool {
		if r.URL.Path == "/b.npy" && r.Header.Get("Range") != "bytes=0-1023" {
			w.WriteHeader(http.StatusForbidden)
			return true
		}
		return false
	})
	res := run(t, nil, "compare", s.URL+"/a.npy", s.URL+"/b.npy")
	testkit.WantOneLine(t, res.code, string(res.stderr), "compare", s.URL+"/b.npy: HTTP 403")
}
