package formats

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"strider/formats/npy"
)

// TestArchiveOpenMatchesOpen: every member an Archive opens from its one
// index is the array Open(spec) gives, for the names np.load resolves
// ("a" before "a.npy", the last of two members with one name), for .npz,
// .safetensors, torch.save and folders.
func TestArchiveOpenMatchesOpen(t *testing.T) {
	dir := t.TempDir()
	u1, err := npy.ParseDescr("|u1")
	if err != nil {
		t.Fatal(err)
	}
	npyOf := func(v byte) []byte { return append(npy.EncodeHeader(u1, []int{1}), v) }
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, name := range []string{"a.npy", "a", "b.npy", "b.npy", "c.npy", "a.npy.npy"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(npyOf(byte(i)))
	}
	zw.Close()
	npz := filepath.Join(dir, "x.npz")
	if err := os.WriteFile(npz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	specs := []string{npz}
	for _, f := range []string{"../testdata/torch/dtypes.safetensors", "../testdata/torch/nested.pt", "../testdata/torch/dtypes.pt"} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("fixture: %v", err)
		}
		specs = append(specs, f)
	}
	folder := filepath.Join(dir, "folder")
	os.Mkdir(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "p.npy"), npyOf(7), 0o644)
	specs = append(specs, folder)
	for _, spec := range specs {
		t.Run(filepath.Base(spec), func(t *testing.T) {
			ar, ok, err := OpenArchive(spec)
			if !ok || err != nil {
				t.Fatalf("OpenArchive: %v %v", ok, err)
			}
			defer ar.Close()
			names := append(append([]string{}, ar.Names...), "a.npy", "nosuch")
			for _, name := range names {
				got, gerr := ar.Open(name, npy.AccessAll)
				want, werr := Open(ar.Spec(name), nil, npy.AccessAll)
				if (gerr == nil) != (werr == nil) {
					t.Fatalf("%s: Archive.Open error %v, Open error %v", name, gerr, werr)
				}
				if gerr != nil {
					continue
				}
				if got.Dtype != want.Dtype || !bytes.Equal(got.Data, want.Data) || !slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.Strides(), want.Strides()) {
					t.Fatalf("%s: Archive.Open %v %v %x, Open %v %v %x", name, got.Dtype, got.Shape, got.Data, want.Dtype, want.Shape, want.Data)
				}
				got.Close()
				want.Close()
			}
		})
	}
}
