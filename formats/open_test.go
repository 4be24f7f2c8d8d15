package formats

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/testkit"
)

// npyBytes returns a .npy file: NumPy's header for d and shape, then data.
func npyBytes(d dtype.Dtype, shape []int, data []byte) []byte {
	return append(npy.EncodeHeader(d, shape), data...)
}

func writeFile(t *testing.T, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type member struct {
	name   string
	body   []byte
	method uint16
}

// writeNpz writes a zip archive of the members to path.
func writeNpz(t *testing.T, path string, members ...member) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: m.method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.body); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, path, buf.Bytes())
}

func pattern(n int) []byte {
	b := make([]byte, n)
	testkit.Fill(b)
	return b
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	f4 := dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}
	data := pattern(48)
	plain := npyBytes(f4, []int{3, 4}, data)
	writeFile(t, filepath.Join(dir, "a.npy"), plain)
	writeFile(t, filepath.Join(dir, "trailing.npy"), append(append([]byte(nil), plain...), "junk after the data"...))
	writeFile(t, filepath.Join(dir, "odd:name.npy"), plain)
	writeFile(t, filepath.Join(dir, "fortran.npy"), append(testkit.NpyHeader(1, "{'descr': '>i2', 'fortran_order': True, 'shape': (4, 6), }"), data...))
	// A header of 75 bytes puts the data at offset 85, which is not
	// aligned: Open must still hand out aligned data.
	text := "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4)}"
	text += strings.Repeat(" ", 74-len(text)) + "\n"
	writeFile(t, filepath.Join(dir, "misaligned.npy"), append([]byte("\x93NUMPY\x01\x00\x4b\x00"+text), data...))
	writeFile(t, filepath.Join(dir, "v3.npy"), append(testkit.NpyHeader(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"), data...))
	writeFile(t, filepath.Join(dir, "empty.npy"), npyBytes(f4, []int{0, 4}, nil))
	writeNpz(t, filepath.Join(dir, "z.npz"),
		member{"a.npy", plain, zip.Store},
		member{"b.npy", npyBytes(dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{5}, []byte("hello")), zip.Deflate},
		member{"c.npy", plain, zip.Deflate})
	writeNpz(t, filepath.Join(dir, "one.npz"), member{"only.npy", plain, zip.Deflate})
	writeNpz(t, filepath.Join(dir, "zipnosuffix"), member{"only.npy", plain, zip.Store})
	writeNpz(t, filepath.Join(dir, "x:y.npz"), member{"arr_0.npy", plain, zip.Deflate})

	in := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name    string
		spec    string
		stdin   []byte
		dtype   dtype.Dtype
		shape   []int
		fortran bool
		data    []byte
		major   int
	}{
		{"npy", in("a.npy"), nil, f4, []int{3, 4}, false, data, 1},
		{"trailing bytes ignored", in("trailing.npy"), nil, f4, []int{3, 4}, false, data, 1},
		{"colon in an existing name", in("odd:name.npy"), nil, f4, []int{3, 4}, false, data, 1},
		{"fortran big-endian", in("fortran.npy"), nil, dtype.Dtype{Kind: 'i', Size: 2, Order: '>'}, []int{4, 6}, true, data, 1},
		{"misaligned data", in("misaligned.npy"), nil, f4, []int{3, 4}, false, data, 1},
		{"version 3.0", in("v3.npy"), nil, f4, []int{3, 4}, false, data, 3},
		{"empty", in("empty.npy"), nil, f4, []int{0, 4}, false, []byte{}, 1},
		{"npz stored member", in("z.npz") + ":a", nil, f4, []int{3, 4}, false, data, 1},
		{"npz member with suffix", in("z.npz") + ":a.npy", nil, f4, []int{3, 4}, false, data, 1},
		{"npz deflated member", in("z.npz") + ":b", nil, dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{5}, false, []byte("hello"), 1},
		{"npz deflated member c", in("z.npz") + ":c", nil, f4, []int{3, 4}, false, data, 1},
		{"npz single member", in("one.npz"), nil, f4, []int{3, 4}, false, data, 1},
		{"zip without suffix", in("zipnosuffix"), nil, f4, []int{3, 4}, false, data, 1},
		{"zip without suffix member", in("zipnosuffix") + ":only", nil, f4, []int{3, 4}, false, data, 1},
		{"colon in archive name", in("x:y.npz") + ":arr_0", nil, f4, []int{3, 4}, false, data, 1},
		{"stdin", "-", append(append([]byte(nil), plain...), "trailing"...), f4, []int{3, 4}, false, data, 1},
		{"stdin npz", "-", testkit.MustRead(t, in("one.npz")), f4, []int{3, 4}, false, data, 1},
	}
	for _, tc := range tests {
		for _, access := range []npy.Access{npy.AccessSparse, npy.AccessAll} {
			t.Run(tc.name+map[npy.Access]string{npy.AccessSparse: "/sparse", npy.AccessAll: "/all"}[access], func(t *testing.T) {
				a, err := Open(tc.spec, bytes.NewReader(tc.stdin), access)
				if err != nil {
					t.Fatalf("Open(%q): %v", tc.spec, err)
				}
				t.Cleanup(func() { a.Close() })
				checkArray(t, a, tc.dtype, tc.shape, tc.fortran, tc.data, tc.major)

				h, err := OpenHeader(tc.spec, bytes.NewReader(tc.stdin))
				if err != nil {
					t.Fatalf("OpenHeader(%q): %v", tc.spec, err)
				}
				if h.Dtype != a.Dtype || !slices.Equal(h.Shape, a.Shape) || h.Fortran != a.Fortran || h.DataOffset != a.DataOffset {
					t.Fatalf("OpenHeader = %+v, Open = %+v", h, a.Header)
				}
			})
		}
	}
}

func checkArray(t *testing.T, a *npy.Array, d dtype.Dtype, shape []int, fortran bool, data []byte, major int) {
	t.Helper()
	if a.Dtype != d || !slices.Equal(a.Shape, shape) || a.Fortran != fortran || a.Major != major {
		t.Fatalf("header %+v, want %v %v fortran=%v version %d", a.Header, d, shape, fortran, major)
	}
	if !bytes.Equal(a.Data, data) {
		t.Fatalf("data %q, want %q", a.Data, data)
	}
	if int64(len(a.Data)) != a.NBytes() || cap(a.Data) != len(a.Data) {
		t.Fatalf("len, cap of Data = %d, %d, want %d", len(a.Data), cap(a.Data), a.NBytes())
	}
	if len(a.Data) > 0 && sysmem.AddrOf(a.Data)%16 != 0 {
		t.Fatalf("Data at %#x is not 16-byte aligned", sysmem.AddrOf(a.Data))
	}
}

func TestOpenStdinFile(t *testing.T) {
	// Standard input redirected from a file is mapped like the file.
	path := writeFile(t, filepath.Join(t.TempDir(), "a.npy"), npyBytes(dtype.Dtype{Kind: 'u', Size: 2, Order: '>'}, []int{3}, []byte("abcdef")))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := Open("-", f, npy.AccessAll)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	checkArray(t, a, dtype.Dtype{Kind: 'u', Size: 2, Order: '>'}, []int{3}, false, []byte("abcdef"), 1)
	if !a.Mapped() {
		t.Error("standard input from a regular file was not mapped")
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	f4 := dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}
	plain := npyBytes(f4, []int{3, 4}, pattern(48))
	writeFile(t, in("short.npy"), plain[:len(plain)-8])
	writeFile(t, in("a.npy"), plain)
	writeFile(t, in("empty.npy"), nil)
	writeFile(t, in("text.npy"), []byte("hello, world"))
	writeFile(t, in("fake.npz"), []byte("not a zip at all"))
	writeFile(t, in("object.npy"), append(testkit.NpyHeader(1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,)}"), "\x80\x03"...))
	writeFile(t, in("huge-hlen.npy"), []byte("\x93NUMPY\x02\x00\x00\x28\x6b\xee"+strings.Repeat(" ", 108)))
	writeNpz(t, in("z.npz"), member{"a.npy", plain, zip.Store}, member{"b.npy", plain, zip.Deflate})
	writeNpz(t, in("none.npz"))
	writeNpz(t, in("cut-header.npz"), member{"a.npy", plain[:100], zip.Deflate})
	writeNpz(t, in("cut-data.npz"), member{"a.npy", plain[:len(plain)-8], zip.Deflate})
	if err := os.Mkdir(in("folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		spec  string
		stdin []byte
		want  string
		is    error
	}{
		{"missing file", in("nope.npy"), nil, "cannot open: no such file or directory", fs.ErrNotExist},
		{"missing archive member spec", in("nope.npz") + ":a", nil, "no such file or directory", fs.ErrNotExist},
		{"folder", in("folder"), nil, "is a directory", nil},
		{"truncated data", in("short.npy"), nil, "data is 40 bytes but the header promises 48", npy.ErrFormat},
		{"empty file", in("empty.npy"), nil, "ends after 0 of the 8 bytes", io.ErrUnexpectedEOF},
		{"text", in("text.npy"), nil, `bad magic "hello, w"`, npy.ErrFormat},
		{"header length past the end", in("huge-hlen.npy"), nil, "header length 4000000000 runs past the end of the file (120 bytes)", npy.ErrFormat},
		{"object", in("object.npy"), nil, "unsupported dtype '|O' (object arrays are refused)", npy.ErrUnsupported},
		{"fake npz", in("fake.npz"), nil, "not a valid .npz archive", npy.ErrFormat},
		{"member of a .npy", in("a.npy") + ":x", nil, `not an .npz archive, so it has no member "x"`, npy.ErrFormat},
		{"npz with two members", in("z.npz"), nil, "archive holds 2 arrays (a, b): name one as file.npz:NAME", nil},
		{"npz with no members", in("none.npz"), nil, "archive holds 0 arrays (no arrays)", nil},
		{"missing member", in("z.npz") + ":c", nil, `archive has no array named "c" (it holds a, b)`, nil},
		{"member with a cut header", in("cut-header.npz"), nil, "header length 118 runs past the end of the member (100 bytes)", npy.ErrFormat},
		{"member with cut data", in("cut-data.npz") + ":a", nil, "data is 40 bytes but the header promises 48", npy.ErrFormat},
		{"stdin truncated", "-", plain[:len(plain)-8], "data is 40 bytes but the header promises 48", io.ErrUnexpectedEOF},
		{"stdin empty", "-", nil, "ends after 0 of the 8 bytes", io.ErrUnexpectedEOF},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Open(tc.spec, bytes.NewReader(tc.stdin), npy.AccessAll)
			if err == nil {
				a.Close()
				t.Fatalf("Open(%q) succeeded, want an error containing %q", tc.spec, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("error %q is not %v", err, tc.is)
			}
			if strings.Contains(err.Error(), dir) {
				t.Fatalf("error %q names the file; the caller does that", err)
			}
			testkit.CheckMessage(t, err.Error())
		})
	}
}

// lyingReader is a pipe that holds a header promising far more data than
// follows.
type lyingReader struct {
	r    io.Reader
	read int
}

func (l *lyingReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.read += n
	return n, err
}

func TestOpenStdinLyingHeader(t *testing.T) {
	// 2^40 bytes promised, 10 delivered: Open must fail without trying to
	// allocate a terabyte.
	b := npyBytes(dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{1 << 40}, []byte("0123456789"))
	a, err := Open("-", &lyingReader{r: bytes.NewReader(b)}, npy.AccessAll)
	if err == nil {
		a.Close()
		t.Fatal("Open succeeded")
	}
	if want := "data is 10 bytes but the header promises 1099511627776"; !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not contain %q", err, want)
	}
}

func TestOpenHeaderReadsNoData(t *testing.T) {
	dir := t.TempDir()
	// A 10 GiB sparse file: OpenHeader must not read or map it.
	path := filepath.Join(dir, "big.npy")
	head := npy.EncodeHeader(dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{1 << 30, 10})
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(len(head)) + 80<<30); err != nil {
		t.Skipf("cannot make a sparse file here: %v", err)
	}
	f.Close()
	start := time.Now()
	h, err := OpenHeader(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if h.NBytes() != 80<<30 || h.DataOffset != int64(len(head)) {
		t.Fatalf("header %+v", h)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("OpenHeader took %v", d)
	}

	// On a stream, OpenHeader reads the header and stops.
	lr := &lyingReader{r: io.MultiReader(bytes.NewReader(head), neverReader{})}
	if _, err := OpenHeader("-", lr); err != nil {
		t.Fatal(err)
	}
}

// neverReader fails the test's expectations loudly if read: it stands for
// data OpenHeader must not wait for.
type neverReader struct{}

func (neverReader) Read(p []byte) (int, error) { return 0, errors.New("read past the header") }
