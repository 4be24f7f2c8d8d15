package testkit

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadFile is os.ReadFile that fails the test when the file cannot be read.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return b
}

// Glob is filepath.Glob that fails the test when nothing matches: the
// fixtures are missing.
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no files match %s (run scripts/gen_testdata.py): %v", pattern, err)
	}
	return m
}

// Names lists the folder's entries, to prove nothing was left behind.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// WantNames fails when the folder holds other entries than want (sorted).
func WantNames(t testing.TB, dir string, want ...string) {
	t.Helper()
	if got := Names(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("folder %s holds %q, want %q", dir, got, want)
	}
}

// WriteNpy writes a .npy file of the given descr (whose last character is
// its element size) and C-order shape whose data is data, or, when data is
// nil, a sparse file of zeros of the full size, with the shortest header
// (padded to 64 bytes, no room to grow). It returns the data's offset in
// the file.
func WriteNpy(t testing.TB, path, descr string, shape []int, data []byte) int64 {
	t.Helper()
	dims := make([]string, len(shape))
	size := int64(map[byte]int{'1': 1, '2': 2, '4': 4, '8': 8}[descr[len(descr)-1]])
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
		size *= int64(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	hdr := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)
	pad := 64 - (10+len(hdr)+1)%64
	text := hdr + strings.Repeat(" ", pad) + "\n"
	head := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
	head = append(head, text...)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if data != nil {
		if int64(len(data)) != size {
			t.Fatalf("WriteNpy: %d data bytes for %d", len(data), size)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	} else if err := f.Truncate(int64(len(head)) + size); err != nil {
		t.Fatal(err)
	}
	return int64(len(head))
}

// Int8Npy is the bytes of a .npy of int8 values, as WriteNpy writes it.
func Int8Npy(t testing.TB, vals ...byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.npy")
	WriteNpy(t, path, "|i1", []int{len(vals)}, vals)
	return ReadFile(t, path)
}

// Member is one member of an archive that ZipOf writes: a struct type, not
// a named one, so that tests write members as {name, data}.
type Member = struct {
	Name string
	Data []byte
}

// ZipOf is an archive of the members in order, deflated when deflate is
// set, else stored.
func ZipOf(t testing.TB, deflate bool, members ...Member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		method := zip.Store
		if deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.Name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// WriteZip writes an archive of the members, in order, stored.
func WriteZip(t testing.TB, path string, members ...Member) {
	t.Helper()
	if err := os.WriteFile(path, ZipOf(t, false, members...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// WriteZipNames writes an archive of empty members of the given names, as
// completion reads one: from its directory alone.
func WriteZipNames(t testing.TB, path string, names ...string) {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, n := range names {
		if _, err := z.Create(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// OpenDir is a new folder with the given mode whatever the umask, in a
// folder other users can reach (t.TempDir's parent is private), removed
// when the test ends.
func OpenDir(t testing.TB, mode os.FileMode) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "strider-safety-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WantNoTemps fails when a temporary file of strider's (".strider-") is
// in dir.
func WantNoTemps(t testing.TB, dir string) {
	t.Helper()
	for _, n := range Names(t, dir) {
		if strings.Contains(n, ".strider-") {
			t.Fatalf("temporary file left in %s: %s", dir, n)
		}
	}
}
