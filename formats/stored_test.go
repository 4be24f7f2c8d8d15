package formats

import (
	"bytes"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// TestOpenStored: a bfloat16 tensor is listed as widened, its header is
// float32, and OpenStored reads its stored bits, those of the file; a
// tensor NumPy has reads as Open reads it; an .npz member has no entry.
func TestOpenStored(t *testing.T) {
	ar, ok, err := OpenArchive("../testdata/torch/dtypes.safetensors")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer ar.Close()
	tn, err := ar.Tensor("x_bf16")
	if err != nil || tn == nil || !tn.Widened || tn.Stored != "bfloat16" {
		t.Fatalf("Tensor: %+v, %v", tn, err)
	}
	if h, err := ar.Header("x_bf16"); err != nil || h.Dtype.Descr() != "<f4" {
		t.Fatalf("Header: %v, %v", h.Dtype.Descr(), err)
	}
	raw, err := ar.OpenStored("x_bf16", npy.AccessAll)
	if err != nil {
		t.Fatal(err)
	}
	file := testkit.ReadFile(t, "../testdata/torch/dtypes.safetensors")
	if raw.Dtype.Descr() != "<u2" || !bytes.Equal(raw.Data, file[tn.Loc.Begin:tn.Loc.End]) {
		t.Fatalf("OpenStored: %s % x", raw.Dtype.Descr(), raw.Data)
	}
	f32, err := ar.OpenStored("x_f32", npy.AccessAll)
	if err != nil || f32.Dtype.Descr() != "<f4" {
		t.Fatalf("x_f32: %v", err)
	}
	if files, err := ar.Files([]string{"x_bf16", "x_f32"}); err != nil || len(files) != 1 {
		t.Fatalf("Files: %q, %v", files, err)
	}
	z, ok, err := OpenArchive("../testdata/single.npz")
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer z.Close()
	if tn, err := z.Tensor("x"); tn != nil || err != nil {
		t.Fatalf("npz Tensor: %v, %v", tn, err)
	}
	if h, err := z.Header("x"); err != nil || h.Dtype.Descr() != "<f8" || len(h.Shape) != 2 {
		t.Fatalf("npz Header: %+v, %v", h, err)
	}
}
