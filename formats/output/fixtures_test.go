package output

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/testkit"
)

// The fixtures in ../../testdata are written by NumPy (scripts/gen_testdata.py).

// TestFixturesRewriteIsByteIdentical rewrites every C-order fixture that
// numpy.save wrote through Create and demands the same bytes.
func TestFixturesRewriteIsByteIdentical(t *testing.T) {
	if _, err := os.Stat("../../testdata"); err != nil {
		t.Log("../../testdata is absent: nothing to check")
		return
	}
	files, err := filepath.Glob("../../testdata/roundtrip_*_c.npy")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("../../testdata holds no roundtrip_*_c.npy")
	}
	out := t.TempDir()
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			a, err := formats.Open(path, nil, npy.AccessAll)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(func() { a.Close() })
			dst := filepath.Join(out, filepath.Base(path))
			o, err := Create(dst, nil, a.Dtype, a.Shape)
			if err != nil {
				t.Fatal(err)
			}
			copy(o.Data, a.Data)
			if err := o.Commit(); err != nil {
				t.Fatal(err)
			}
			want, got := testkit.MustRead(t, path), testkit.MustRead(t, dst)
			if !bytes.Equal(got, want) {
				t.Fatalf("rewritten file differs from NumPy's:\n got %q\nwant %q", got[:min(len(got), 128)], want[:min(len(want), 128)])
			}
		})
	}
}
