package formats

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// The fixtures in ../testdata are written by NumPy (scripts/gen_testdata.py).
// The tests tolerate a checkout without them, but once a folder exists it
// must hold what the generator writes.

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestFixturesInfo opens every valid fixture and compares its header with
// the line NumPy wrote for it in expected_info.jsonl.
func TestFixturesInfo(t *testing.T) {
	const expected = "../testdata/expected_info.jsonl"
	if !exists(expected) {
		t.Logf("%s is absent: nothing to check", expected)
		return
	}
	f, err := os.Open(expected)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type info struct {
		Path    string `json:"path"`
		Member  string `json:"member"` // a line of a bare archive's listing
		Shape   []int  `json:"shape"`
		Dtype   string `json:"dtype"`
		Descr   string `json:"descr"`
		Fortran bool   `json:"fortran_order"`
		Count   int64  `json:"count"`
		NBytes  int64  `json:"nbytes"`
		Version string `json:"version"`
	}
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var want info
		if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
			t.Fatalf("%s: %v", expected, err)
		}
		n++
		t.Run(want.Path, func(t *testing.T) {
			spec := "../" + want.Path
			if want.Member != "" {
				spec += ":" + want.Member
			}
			for _, open := range []string{"OpenHeader", "Open"} {
				var h npy.Header
				if open == "OpenHeader" {
					if h, err = OpenHeader(spec, nil); err != nil {
						t.Fatalf("OpenHeader: %v", err)
					}
				} else {
					a, err := Open(spec, nil, npy.AccessSparse)
					if err != nil {
						t.Fatalf("Open: %v", err)
					}
					t.Cleanup(func() { a.Close() })
					if int64(len(a.Data)) != want.NBytes {
						t.Fatalf("Open: %d data bytes, want %d", len(a.Data), want.NBytes)
					}
					h = a.Header
				}
				got := info{want.Path, want.Member, h.Shape, h.Dtype.Name(), h.Dtype.Descr(), h.Fortran, h.Count(), h.NBytes(),
					fmt.Sprintf("%d.%d", h.Major, h.Minor)}
				if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
					t.Fatalf("%s:\n got %s\nwant %s", open, g, w)
				}
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s lists no files", expected)
	}
}

// TestFixturesFortranMatchesC reads each roundtrip_*_f.npy through its
// Fortran strides and checks every element against roundtrip_*_c.npy, which
// holds the same values in C order.
func TestFixturesFortranMatchesC(t *testing.T) {
	if !exists("../testdata") {
		t.Log("../testdata is absent: nothing to check")
		return
	}
	files, err := filepath.Glob("../testdata/roundtrip_*_c.npy")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("../testdata holds no roundtrip_*_c.npy")
	}
	for _, cpath := range files {
		fpath := strings.TrimSuffix(cpath, "_c.npy") + "_f.npy"
		t.Run(filepath.Base(cpath), func(t *testing.T) {
			c, err := Open(cpath, nil, npy.AccessAll)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(func() { c.Close() })
			f, err := Open(fpath, nil, npy.AccessAll)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(func() { f.Close() })
			if c.Fortran || !f.Fortran || c.Dtype != f.Dtype || !slices.Equal(c.Shape, f.Shape) {
				t.Fatalf("headers %+v and %+v do not pair", c.Header, f.Header)
			}
			cs, fs, size := c.Strides(), f.Strides(), c.Dtype.Size
			idx := make([]int, len(c.Shape))
			for i := int64(0); i < c.Count(); i++ {
				co, fo := 0, 0
				for k, x := range idx {
					co += x * cs[k]
					fo += x * fs[k]
				}
				if !bytes.Equal(c.Data[co*size:(co+1)*size], f.Data[fo*size:(fo+1)*size]) {
					t.Fatalf("element %v differs", idx)
				}
				for k := len(idx) - 1; k >= 0; k-- {
					if idx[k]++; idx[k] < c.Shape[k] {
						break
					}
					idx[k] = 0
				}
			}
		})
	}
}

// TestFixturesMalformed checks that every file in ../testdata/malformed is
// refused with a one-line error and without a panic; OpenHeader may accept
// only the files whose header is fine.
func TestFixturesMalformed(t *testing.T) {
	const dir = "../testdata/malformed"
	if !exists(dir) {
		t.Logf("%s is absent: nothing to check", dir)
		return
	}
	headerOK := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err == nil {
		var manifest []struct {
			File          string `json:"file"`
			InfoMayAccept bool   `json:"info_may_accept"`
		}
		if err := json.Unmarshal(b, &manifest); err != nil {
			t.Fatalf("manifest.json: %v", err)
		}
		for _, m := range manifest {
			headerOK[m.File] = m.InfoMayAccept
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		name := filepath.Base(path)
		if name == "README.md" || name == "manifest.json" {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			a, err := Open(path, nil, npy.AccessAll)
			if err == nil {
				a.Close()
				t.Fatal("Open succeeded")
			}
			testkit.CheckMessage(t, err.Error())
			t.Logf("Open: %v", err)
			if _, err := OpenHeader(path, nil); err == nil && !headerOK[name] {
				t.Fatal("OpenHeader succeeded")
			} else if err != nil {
				testkit.CheckMessage(t, err.Error())
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if a, err := Open("-", bytes.NewReader(b), npy.AccessAll); err == nil {
				a.Close()
				t.Fatal("Open of standard input succeeded")
			} else {
				testkit.CheckMessage(t, err.Error())
			}
		})
	}
	if n == 0 {
		t.Fatalf("%s holds no files", dir)
	}
}
