package torch

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// torchTestdata holds the fixtures PyTorch 1.13 and the safetensors writer
// of scripts/gen_torch_testdata.py wrote.
const torchTestdata = "../../testdata/torch"

// FuzzPickle feeds arbitrary bytes to the restricted unpickler as the
// data.pkl of a torch.save archive whose every persistent id names a
// storage of the numel it says. It must never panic nor run away; every
// tensor it finds must lie inside its storage.
func FuzzPickle(f *testing.F) {
	for _, b := range testkit.ReadFixtures(f, torchTestdata, "*.pt", "malformed/pt_*") {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			continue
		}
		for _, zf := range zr.File {
			if strings.HasSuffix(zf.Name, "/data.pkl") {
				rc, _ := zf.Open()
				p, _ := io.ReadAll(rc)
				rc.Close()
				f.Add(p)
			}
		}
	}
	f.Add([]byte("\x80\x02cposix\nsystem\nX\x02\x00\x00\x00lsR."))
	f.Add([]byte("\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01a\x94K\x01u."))
	f.Fuzz(func(t *testing.T, p []byte) {
		storages := map[string]*torchStorage{}
		persistent := func(pid any) (any, error) {
			tu, ok := pid.(pkTuple)
			if !ok || len(tu) != 5 {
				return nil, npy.Malformed("bad persistent id")
			}
			g, _ := tu[1].(pkGlobal)
			dt, known := torchStorageTypes[g.name]
			key, _ := tu[2].(string)
			numel, _ := tu[4].(int64)
			if !known || numel < 0 || numel > 1<<20 {
				return nil, npy.Malformed("bad storage")
			}
			if s := storages[key]; s != nil {
				return s, nil
			}
			s := &torchStorage{key: key, class: g.name, dt: dt, numel: numel}
			storages[key] = s
			return s, nil
		}
		root, err := unpickle(p, persistent)
		if err != nil {
			testkit.OneLine(t, err)
			return
		}
		tf := &npy.TensorFile{Format: "torch"}
		if err := newWalker(tf).walk(root, 0); err != nil {
			testkit.OneLine(t, err)
			return
		}
		for i := range tf.Tensors {
			tn := &tf.Tensors[i]
			if tn.Err != nil || tn.Loc.ItemSize == 0 {
				continue
			}
			span := tn.Span()
			if span > 0 {
				if s := onlyStorage(storages); s != nil && int64(tn.Offset)+span > s.numel {
					t.Fatalf("tensor %q reaches element %d of a storage of %d", tn.Name, int64(tn.Offset)+span-1, s.numel)
				}
			}
		}
	})
}

// onlyStorage is the storage a fuzzed tensor came from when the pickle
// made only one; nil when several could be ("" is a key like any other, so
// it cannot mean "none").
func onlyStorage(storages map[string]*torchStorage) *torchStorage {
	if len(storages) != 1 {
		return nil
	}
	for _, s := range storages {
		return s
	}
	return nil
}

// FuzzTorchZip feeds arbitrary bytes to the torch.save archive reader, and
// reads every tensor it lists. It must never panic nor run away: a
// compressed storage record (a deflate stream may inflate a thousandfold;
// testdata/fuzz/FuzzTorchZip has one) is inflated only as far as a tensor
// reaches.
func FuzzTorchZip(f *testing.F) {
	for _, b := range testkit.ReadFixtures(f, torchTestdata, "*.pt", "malformed/pt_*") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tf, err := Parse(b)
		if err != nil {
			testkit.OneLine(t, err)
			return
		}
		for i := range tf.Tensors {
			tn := &tf.Tensors[i]
			if tn.Err != nil {
				testkit.OneLine(t, tn.Err)
				continue
			}
			a, _, err := tn.Open(b, false)
			if err != nil {
				testkit.OneLine(t, err)
				continue
			}
			data := a.Data
			if want := tn.Span() * int64(tn.Dtype.Size); int64(len(data)) != want {
				t.Fatalf("tensor %q: %d bytes, want %d", tn.Name, len(data), want)
			}
		}
	})
}
