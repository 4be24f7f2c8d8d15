package npy

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/testkit"
)

// fuzzSeeds adds the fixtures in ../../testdata (when present) and some headers
// built here to f's corpus.
func fuzzSeeds(f *testing.F) {
	var seeds []string
	for _, glob := range []string{"../../testdata/*.np[yz]", "../../testdata/malformed/*"} {
		files, _ := filepath.Glob(glob)
		seeds = append(seeds, files...)
	}
	for _, path := range seeds {
		if strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".json") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	f.Add(EncodeHeader(dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}))
	f.Add(EncodeHeader(dtype.Dtype{Kind: 'c', Size: 16, Order: '>'}, []int{}))
	f.Add(EncodeHeader(dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{0, 7, 1}))
	f.Add(wrapHeader("{'descr': '<i8', 'fortran_order': True, 'shape': (2L, 3), } # comment"))
	f.Add(testkit.NpyHeader(2, `{"shape": (0x10,), 'descr': b'>u2', 'fortran_order': False}`))
	f.Add(testkit.NpyHeader(3, "{'descr': '<f2', 'fortran_order': False, 'shape': (1_000, 2,)}"))
	f.Add(testkit.NpyHeader(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}"))
	f.Add(testkit.NpyHeader(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807,)}"))
	f.Add(testkit.NpyHeader(1, `{'descr': '\x3c\u0066\1064', 'fortran_order': False, 'shape': ()}`))
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"))
}

// FuzzHeader feeds arbitrary bytes to ReadHeader. It must never panic or
// hang; a header it accepts must satisfy the invariants below and survive a
// re-encode.
func FuzzHeader(f *testing.F) {
	fuzzSeeds(f)

	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ReadHeader(bytes.NewReader(b))
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		if h.DataOffset > int64(len(b)) {
			t.Fatalf("DataOffset %d is past the %d input bytes", h.DataOffset, len(b))
		}
		if len(h.Shape) > MaxDims {
			t.Fatalf("shape %v has more than %d dimensions", h.Shape, MaxDims)
		}
		for _, d := range h.Shape {
			if d < 0 {
				t.Fatalf("shape %v has a negative dimension", h.Shape)
			}
		}
		nbytes, ok := CheckedNBytes(h.Shape, h.Dtype.Size)
		if !ok || nbytes != h.NBytes() || nbytes < 0 {
			t.Fatalf("shape %v of %d-byte elements: NBytes %d overflows", h.Shape, h.Dtype.Size, h.NBytes())
		}
		if d, err := ParseDescr(h.Dtype.Descr()); err != nil || d != h.Dtype {
			t.Fatalf("dtype %+v: Descr %q parses back as %+v, %v", h.Dtype, h.Dtype.Descr(), d, err)
		}

		enc := EncodeHeader(h.Dtype, h.Shape)
		if len(enc)%64 != 0 {
			t.Fatalf("EncodeHeader gave %d bytes, not a multiple of 64", len(enc))
		}
		h2, err := ReadHeader(bytes.NewReader(enc))
		if err != nil {
			t.Fatalf("re-encoded header does not parse: %v\n%q", err, enc)
		}
		if h2.Dtype != h.Dtype || !slices.Equal(h2.Shape, h.Shape) || h2.Fortran || h2.DataOffset != int64(len(enc)) {
			t.Fatalf("re-encoded header reads back as %+v, want %+v in C order", h2, h)
		}
	})
}

// FuzzOpen feeds arbitrary bytes to Open and OpenHeader as standard input,
// which covers the data reader and the .npz path too.
func FuzzOpen(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		h, herr := OpenHeader("-", bytes.NewReader(b))
		a, err := Open("-", bytes.NewReader(b), AccessAll)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		defer a.Close()
		if herr != nil {
			t.Fatalf("Open succeeded where OpenHeader failed: %v", herr)
		}
		if int64(len(a.Data)) != a.NBytes() && a.strides == nil || h.NBytes() != a.NBytes() {
			t.Fatalf("%d data bytes, NBytes %d, OpenHeader's NBytes %d", len(a.Data), a.NBytes(), h.NBytes())
		}
		align := uintptr(16)
		if sniffTensorFile(b) != notTensorFile {
			align = uintptr(min(a.Dtype.Size, 8)) // tensors: aligned for their type
		}
		if len(a.Data) > 0 && sysmem.AddrOf(a.Data)%align != 0 {
			t.Fatalf("Data is not aligned")
		}
	})
}
