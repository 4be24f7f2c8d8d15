package output

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strider/formats/safetensors"
	"strider/internal/dtype"
	"strider/internal/testkit"
)

var (
	i4le = dtype.Dtype{Kind: 'i', Size: 4, Order: '<'}
	i4be = dtype.Dtype{Kind: 'i', Size: 4, Order: '>'}
	f2le = dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}
)

// writeTensor writes data as tensor path ("file.safetensors:NAME") of
// dtype d and shape.
func writeTensor(t *testing.T, path string, d dtype.Dtype, shape []int, data []byte) {
	t.Helper()
	o, err := Create(path, nil, d, shape)
	if err != nil {
		t.Fatal(err)
	}
	copy(o.Data, data)
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
}

func library(t *testing.T, name string) testkit.LibraryFile {
	for _, lf := range testkit.LibraryFiles {
		if lf.Name == name {
			return lf
		}
	}
	t.Fatalf("no library file %s", name)
	return testkit.LibraryFile{}
}

// TestSafetensorsMemberLibraryLayout: -o FILE.safetensors:NAME writes the
// files the safetensors library's tests assert, byte for byte: a new file,
// a tensor replaced (the others and the metadata kept), a tensor added,
// and a big-endian array written little-endian.
func TestSafetensorsMemberLibraryLayout(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.safetensors")
	// save_file({"test": zeros}) into a new file.
	writeTensor(t, path+":test", i4le, []int{2, 2}, nil)
	if got := testkit.MustRead(t, path); !bytes.Equal(got, library(t, "serialization").Bytes) {
		t.Fatalf("new file:\n got %q\nwant %q", got, library(t, "serialization").Bytes)
	}
	// data[1, 1] = 1, written big-endian: the file is little-endian.
	writeTensor(t, path+":test", i4be, []int{2, 2}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1})
	if got := testkit.MustRead(t, path); !bytes.Equal(got, library(t, "serialization_one").Bytes) {
		t.Fatalf("replaced, big-endian:\n got %q\nwant %q", got, library(t, "serialization_one").Bytes)
	}
	// A tensor added to a file with metadata: the metadata stays first,
	// test1 stays, test2 (F16) goes after it.
	meta := library(t, "metadata")
	if err := os.WriteFile(path, meta.Bytes, 0o644); err != nil {
		t.Fatal(err)
	}
	writeTensor(t, path+":test2", f2le, []int{2, 2}, []byte{1, 2, 3, 4, 5, 6, 7, 8})
	want := []byte("\xa0\x00\x00\x00\x00\x00\x00\x00" + `{"__metadata__":{"framework":"pt"},"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]},"test2":{"dtype":"F16","shape":[2,2],"data_offsets":[16,24]}}` +
		"    " + strings.Repeat("\x00", 16) + "\x01\x02\x03\x04\x05\x06\x07\x08")
	if got := testkit.MustRead(t, path); !bytes.Equal(got, want) {
		t.Fatalf("added:\n got %q\nwant %q", got, want)
	}
	// Replacing test2 by zeros of the same shape is the library's own
	// file again, less test2: rewrite test2, then check test1's bytes.
	writeTensor(t, path+":test2", f2le, []int{2, 2}, make([]byte, 8))
	got := testkit.MustRead(t, path)
	if !bytes.HasPrefix(got[8:], []byte(`{"__metadata__":{"framework":"pt"},"test1"`)) || !bytes.Equal(got[len(got)-24:], make([]byte, 24)) {
		t.Fatalf("replaced with metadata: %q", got)
	}
	assertOnly(t, dir, "m.safetensors")
}

// TestSafetensorsMemberKeepsOthers: tensors strider does not read (F4,
// F8_E8M0) and metadata of several keys, in the file's order and with
// escapes in serde_json's form, are kept byte for byte when another
// tensor is replaced.
func TestSafetensorsMemberKeepsOthers(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.safetensors")
	h := safetensors.Header{
		Metadata:    []safetensors.Meta{{Key: "z", Value: "last key first"}, {Key: "a", Value: "tab\tnewline\n\u00fc"}},
		HasMetadata: true,
		Tensors: []safetensors.Entry{
			{Name: "packed", Dtype: "F4", Shape: []int{4}, Size: 2},
			{Name: "scale", Dtype: "F8_E8M0", Shape: []int{2}, Size: 2},
			{Name: "w", Dtype: "I32", Shape: []int{1}, Size: 4},
		},
	}
	prefix, order, _, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	data := [][]byte{{0xab, 0xcd}, {0x7f, 0x80}, {1, 0, 0, 0}}
	file := append([]byte{}, prefix...)
	for _, i := range order {
		file = append(file, data[i]...)
	}
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	writeTensor(t, path+":w", i4le, []int{1}, []byte{2, 0, 0, 0})
	want := bytes.Replace(file, []byte{1, 0, 0, 0}, []byte{2, 0, 0, 0}, 1)
	if got := testkit.MustRead(t, path); !bytes.Equal(got, want) {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
}

// TestSafetensorsMemberRefused: what a member output refuses, each in one
// line, leaving nothing behind.
func TestSafetensorsMemberRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, "r.safetensors") + ":" + name }
	c16 := dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}
	for _, c := range []struct {
		path string
		d    dtype.Dtype
		want string
	}{
		{p(""), i4le, "no tensor name after the ':'"},
		{p("a\x1b[2Jb"), i4le, `"a\x1b[2Jb" holds a control character`},
		{p("a\nb"), i4le, "holds a control character"},
		{p("a\xffb"), i4le, "is not UTF-8"},
		{p("a:b"), i4le, "holds a ':'"},
		{p("__metadata__"), i4le, "key of the file's metadata"},
		{p(strings.Repeat("n", safetensors.MaxName+1)), i4le, "longer than"},
		{p("c"), c16, "safetensors has no dtype for complex128"},
		{filepath.Join(dir, "r.safetensors"), i4le, "needs the name of the tensor"},
	} {
		_, err := Create(c.path, nil, c.d, []int{1})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60q: %v, want %q", c.path, err, c.want)
			continue
		}
		testkit.OneLine(t, err)
	}
	if _, err := CreateFortran(p("f"), nil, i4le, []int{2, 2}); err == nil || !strings.Contains(err.Error(), "C order") {
		t.Errorf("Fortran order: %v", err)
	}
	if _, err := CreateRaw(p("text"), nil, 3); err == nil || !strings.Contains(err.Error(), "not text") {
		t.Errorf("text: %v", err)
	}
	for _, name := range []string{"layers/0\\weight", "é", strings.Repeat("n", safetensors.MaxName), "a b"} {
		o, err := Create(p(name), nil, i4le, []int{1})
		if err != nil {
			t.Errorf("%.40q: %v", name, err)
			continue
		}
		o.Abort()
	}
	assertOnly(t, dir)
}

// TestSafetensorsMemberAtomic: a file that is not a .safetensors file is
// refused and kept, and one that turns bad between Create and Commit
// fails the Commit and is kept: no temporary file stays either way.
func TestSafetensorsMemberAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.safetensors")
	bad := []byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"x\": 1}       ")
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(path+":w", nil, i4le, []int{1}); err == nil || !strings.Contains(err.Error(), "not a .safetensors file whose tensors can be kept") {
		t.Fatalf("bad file: %v", err)
	}
	good := library(t, "metadata").Bytes
	if err := os.WriteFile(path, good, 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Create(path+":w", nil, i4le, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := o.Commit(); err == nil {
		t.Fatal("Commit over a file that is no longer a .safetensors file succeeded")
	}
	if got := testkit.MustRead(t, path); !bytes.Equal(got, bad) {
		t.Fatalf("the file changed: %q", got)
	}
	assertOnly(t, dir, "a.safetensors")
}
