package npy

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// FuzzHeader feeds arbitrary bytes to ReadHeader. It must never panic or
// hang; a header it accepts must satisfy the invariants below and survive a
// re-encode.
func FuzzHeader(f *testing.F) {
	testkit.NpySeeds(f, "../../testdata",
		EncodeHeader(dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}),
		EncodeHeader(dtype.Dtype{Kind: 'c', Size: 16, Order: '>'}, []int{}),
		EncodeHeader(dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{0, 7, 1}))

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
