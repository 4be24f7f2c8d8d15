package output

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/testkit"
)

func TestCreateRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		dtype dtype.Dtype
		shape []int
	}{
		{"f4le/3x4", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}},
		{"f8be/2x3x4", dtype.Dtype{Kind: 'f', Size: 8, Order: '>'}, []int{2, 3, 4}},
		{"b1/5", dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{5}},
		{"u1/0-d", dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{}},
		{"c16le/7", dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}, []int{7}},
		{"i2be/empty", dtype.Dtype{Kind: 'i', Size: 2, Order: '>'}, []int{4, 0}},
		{"f2le/1000x33", dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}, []int{1000, 33}},
	}
	for _, tc := range tests {
		for _, access := range []npy.Access{npy.AccessSparse, npy.AccessAll} {
			name := tc.name + map[npy.Access]string{npy.AccessSparse: "/sparse", npy.AccessAll: "/all"}[access]
			t.Run(name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "out.npy")
				o, err := Create(path, nil, tc.dtype, tc.shape)
				if err != nil {
					t.Fatal(err)
				}
				want := int64(tc.dtype.Size)
				for _, d := range tc.shape {
					want *= int64(d)
				}
				if int64(len(o.Data)) != want {
					t.Fatalf("len(Data) = %d, want %d", len(o.Data), want)
				}
				testkit.Fill(o.Data)
				expect := append([]byte(nil), o.Data...)
				if err := o.Commit(); err != nil {
					t.Fatal(err)
				}
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if head := npy.EncodeHeader(tc.dtype, tc.shape); !bytes.Equal(raw, append(head, expect...)) {
					t.Fatalf("file is not header + data (%d bytes, want %d)", len(raw), len(head)+len(expect))
				}
				a, err := formats.Open(path, nil, access)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { a.Close() })
				if a.Dtype != tc.dtype || !slices.Equal(a.Shape, tc.shape) || a.Fortran {
					t.Fatalf("Open header = %+v", a.Header)
				}
				if !bytes.Equal(a.Data, expect) {
					t.Fatalf("Open data differs from what was written")
				}
				if err := a.Close(); err != nil {
					t.Fatal(err)
				}
				if err := a.Close(); err != nil {
					t.Fatalf("second Close: %v", err)
				}
				assertOnly(t, filepath.Dir(path), "out.npy")
			})
		}
	}
}

// assertOnly checks that dir holds exactly the named files: no temporary
// file is left behind.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("folder holds %q, want %q", got, names)
	}
}

func TestCreateStdout(t *testing.T) {
	var buf bytes.Buffer
	d := dtype.Dtype{Kind: 'i', Size: 4, Order: '<'}
	o, err := Create("-", &buf, d, []int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		binary.LittleEndian.PutUint32(o.Data[4*i:], uint32(i*i))
	}
	if buf.Len() != 0 {
		t.Fatal("Create wrote before Commit")
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	a, err := formats.Open("-", &buf, npy.AccessAll)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		if got := binary.LittleEndian.Uint32(a.Data[4*i:]); got != uint32(i*i) {
			t.Fatalf("element %d = %d, want %d", i, got, i*i)
		}
	}
	if err := o.Commit(); err == nil {
		t.Fatal("second Commit succeeded")
	}
}

type failWriter struct{}

func (failWriter) Write(p []byte) (int, error) { return 0, fs.ErrClosed }

func TestCreateStdoutWriteError(t *testing.T) {
	o, err := Create("-", failWriter{}, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	err = o.Commit()
	if !errors.Is(err, fs.ErrClosed) || !strings.Contains(err.Error(), "standard output") {
		t.Fatalf("Commit error = %v, want one about standard output wrapping fs.ErrClosed", err)
	}
}

func TestCreateAlignment(t *testing.T) {
	for _, path := range []string{"-", filepath.Join(t.TempDir(), "a.npy")} {
		for _, n := range []int{1, 3, 17, 1000} {
			o, err := Create(path, &bytes.Buffer{}, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{n})
			if err != nil {
				t.Fatal(err)
			}
			if p := sysmem.AddrOf(o.Data); p%npy.DataAlign != 0 {
				t.Errorf("%s/%d: Data at %#x is not %d-byte aligned", path, n, p, npy.DataAlign)
			}
			o.Abort()
		}
	}
}

func TestAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.npy")
	if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := Create(path, nil, dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{100})
	if err != nil {
		t.Fatal(err)
	}
	testkit.Fill(o.Data)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 || !strings.HasPrefix(entries[0].Name(), ".keep.npy.strider-") || !strings.HasSuffix(entries[0].Name(), ".tmp") {
		t.Fatalf("want keep.npy and one .keep.npy.strider-*.tmp, folder holds %v", entries)
	}
	o.Abort()
	o.Abort() // idempotent
	if err := o.Commit(); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}
	assertOnly(t, dir, "keep.npy")
	if b, _ := os.ReadFile(path); string(b) != "old contents" {
		t.Fatalf("target changed to %q", b)
	}

	// Abort of a new file leaves nothing.
	o, err = Create(filepath.Join(dir, "new.npy"), nil, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	o.Abort()
	assertOnly(t, dir, "keep.npy")
}

func TestAbortAfterCommitIsNoOp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	o, err := Create(path, nil, dtype.Dtype{Kind: 'u', Size: 2, Order: '<'}, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	o.Abort()
	assertOnly(t, dir, "x.npy")
}

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	if err := os.WriteFile(path, bytes.Repeat([]byte("z"), 10000), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := Create(path, nil, dtype.Dtype{Kind: 'i', Size: 8, Order: '<'}, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(o.Data, math.MaxUint64)
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if len(raw) != 128+16 {
		t.Fatalf("replaced file is %d bytes, want %d", len(raw), 128+16)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := os.FileMode(0o600); fi.Mode().Perm() != want {
		t.Fatalf("mode %v, want %v kept from the file replaced", fi.Mode().Perm(), want)
	}
	assertOnly(t, dir, "x.npy")
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		path  string
		dtype dtype.Dtype
		shape []int
		want  string
		is    error
	}{
		{"missing folder", filepath.Join(dir, "nope", "x.npy"), dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{2},
			"cannot create " + filepath.Join(dir, "nope", "x.npy") + ": folder " + filepath.Join(dir, "nope") + ": no such file or directory", fs.ErrNotExist},
		{"directory target", dir, dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{2}, "it is a directory", nil},
		{"negative dimension", filepath.Join(dir, "x.npy"), dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{-1, 2}, "shape (-1, 2) of 4-byte elements is negative or too large", nil},
		{"overflow", filepath.Join(dir, "x.npy"), dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{1 << 62, 4}, "is negative or too large", nil},
		{"33-d", filepath.Join(dir, "x.npy"), dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, make([]int, 33), "more than 32", nil},
		{"bad dtype", filepath.Join(dir, "x.npy"), dtype.Dtype{Kind: 'f', Size: 3, Order: '<'}, []int{2}, "unknown dtype '<f3'", npy.ErrUnsupported},
		{"stdout without writer", "-", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{2}, "no standard output", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := Create(tc.path, nil, tc.dtype, tc.shape)
			if err == nil {
				o.Abort()
				t.Fatalf("Create succeeded, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %q is not %v", err, tc.is)
			}
			testkit.CheckMessage(t, err.Error())
		})
	}
	assertOnly(t, dir)
}

func TestCommitRenameFailureKeepsNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	o, err := Create(path, nil, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	// A directory appearing at the target makes the rename fail.
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err = o.Commit()
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Commit error = %v, want one naming %s", err, path)
	}
	assertOnly(t, dir, "x.npy")
	if fi, _ := os.Stat(path); !fi.IsDir() {
		t.Fatal("the directory at the target was replaced")
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	var outs []*Output
	for i := range 4 {
		o, err := Create(filepath.Join(dir, strings.Repeat("a", i+1)+".npy"), nil, dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{1000})
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, o)
	}
	// Writers keep filling their mappings while the temporaries go.
	var wg sync.WaitGroup
	for _, o := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				testkit.Fill(o.Data)
			}
		}()
	}
	RemoveTemps()
	RemoveTemps()
	wg.Wait()
	assertOnly(t, dir)
	for _, o := range outs {
		if err := o.Commit(); err == nil {
			t.Fatal("Commit after RemoveTemps succeeded")
		}
		o.Abort()
	}
	assertOnly(t, dir)
}

func TestRemoveTempsConcurrentWithCreate(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				o, err := Create(filepath.Join(dir, strings.Repeat("b", i+1)+".npy"), nil, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{j})
				if err != nil {
					t.Error(err)
					return
				}
				if j%2 == 0 {
					o.Commit() // may fail when RemoveTemps got there first
				} else {
					o.Abort()
				}
			}
		}()
	}
	for range 50 {
		RemoveTemps()
	}
	wg.Wait()
	RemoveTemps()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}

// TestDirectPieces: a file output from directMin bytes on takes its data
// from WritePiece, written to the temporary file after the header; the
// target is replaced (its mode kept) only when every byte came, and an
// output short of its data is refused and leaves the target as it was.
func TestDirectPieces(t *testing.T) {
	defer func(m int64) { directMin = m }(directMin)
	directMin = 64
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	if err := os.WriteFile(path, []byte("old contents"), 0o640); err != nil {
		t.Fatal(err)
	}
	d := dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}
	data := make([]byte, 4*1000)
	testkit.Fill(data)
	for _, short := range []bool{true, false} {
		o, err := CreatePieces(path, nil, d, []int{10, 100}, false, true)
		if err != nil {
			t.Fatal(err)
		}
		if !o.Direct() || !o.Streaming() || o.Data != nil {
			t.Fatalf("a %d-byte file output from CreatePieces: Direct %v, Streaming %v, Data %d bytes", len(data), o.Direct(), o.Streaming(), len(o.Data))
		}
		end := len(data)
		if short {
			end -= 4
		}
		for at := 0; at < end; at += 1200 {
			if err := o.WritePiece(data[at:min(at+1200, end)]); err != nil {
				t.Fatal(err)
			}
		}
		if err := o.WritePiece(data[:8]); !short && err == nil {
			t.Fatal("a piece past the end was taken")
		}
		err = o.Commit()
		if short {
			if err == nil || !strings.Contains(err.Error(), "only") {
				t.Fatalf("Commit of a short output: %v", err)
			}
			if b, _ := os.ReadFile(path); string(b) != "old contents" {
				t.Fatalf("target changed to %q", b)
			}
			assertOnly(t, dir, "x.npy")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		want := append(npy.EncodeHeader(d, []int{10, 100}), data...)
		if b, _ := os.ReadFile(path); !bytes.Equal(b, want) {
			t.Fatalf("file holds %d bytes, want the header and the pieces (%d bytes)", len(b), len(want))
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Fatalf("mode %v, want 0640 kept", fi.Mode().Perm())
		}
		assertOnly(t, dir, "x.npy")
	}
	// Below directMin, and for Create, the output is mapped as before.
	o, err := CreatePieces(filepath.Join(dir, "small.npy"), nil, d, []int{4}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if o.Direct() || o.Streaming() || len(o.Data) != 16 {
		t.Fatalf("a 16-byte output: Direct %v, Streaming %v, Data %d bytes", o.Direct(), o.Streaming(), len(o.Data))
	}
	o.Abort()
	// Without direct (pieces made on the GPU, or too large), the file is mapped.
	o, err = CreatePieces(filepath.Join(dir, "mapped.npy"), nil, d, []int{1000}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if o.Direct() || o.Streaming() || len(o.Data) != 4000 {
		t.Fatalf("CreatePieces without direct: Direct %v, Streaming %v, Data %d bytes", o.Direct(), o.Streaming(), len(o.Data))
	}
	o.Abort()
	// A stream is never direct.
	var sink bytes.Buffer
	o, err = CreatePieces("-", &sink, d, []int{1000}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if o.Direct() || !o.Streaming() {
		t.Fatalf("a stream output: Direct %v, Streaming %v", o.Direct(), o.Streaming())
	}
	o.Abort()
	o, err = Create(filepath.Join(dir, "whole.npy"), nil, d, []int{1000})
	if err != nil {
		t.Fatal(err)
	}
	if o.Direct() || len(o.Data) != 4000 {
		t.Fatalf("Create: Direct %v, Data %d bytes", o.Direct(), len(o.Data))
	}
	o.Abort()
}
