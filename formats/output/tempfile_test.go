package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateTempFileRemovableOpen: a temporary output file can be removed
// while it is open, on every system (on Windows only because
// createTempFile asks for FILE_SHARE_DELETE), so RemoveTemps on Ctrl-C
// leaves nothing behind.
func TestCreateTempFileRemovableOpen(t *testing.T) {
	dir := t.TempDir()
	f, err := createTempFile(dir, ".x.npy"+tempPrefix+"*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	g, err := createTempFile(dir, ".x.npy"+tempPrefix+"*.tmp")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	base := filepath.Base(f.Name())
	if filepath.Dir(f.Name()) != dir || !strings.HasPrefix(base, ".x.npy.strider-") || !strings.HasSuffix(base, ".tmp") {
		t.Fatalf("temporary file %s, want .x.npy.strider-*.tmp in %s", f.Name(), dir)
	}
	if f.Name() == g.Name() {
		t.Fatalf("two temporary files named %s", f.Name())
	}
	if _, err := f.WriteAt([]byte("data"), 8); err != nil {
		t.Fatal(err)
	}
	if err := f.Chmod(0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f.Name()); err != nil {
		t.Fatalf("removing the open temporary file: %v", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir, filepath.Base(g.Name()))
}
