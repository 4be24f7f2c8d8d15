package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fillFolder creates files in f with the given contents.
func fillFolder(t *testing.T, f *Folder, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(f.File(name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFolderCommit: a new folder appears whole on Commit; a folder of
// .npy files there is replaced whole (its files gone, not merged); no
// temporary folder stays.
func TestFolderCommit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	f, err := CreateFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	fillFolder(t, f, map[string]string{"a.npy": "A", "b.npy": "B"})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the folder is there before Commit: %v", err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, out, "a.npy", "b.npy")
	f, err = CreateFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	fillFolder(t, f, map[string]string{"c.npy": "C"})
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, out, "c.npy")
	assertOnly(t, dir, "out")
}

// TestFolderAbort: Abort, and RemoveTemps (a signal), leave the target as
// it was and no temporary folder.
func TestFolderAbort(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "old.npy"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := CreateFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	fillFolder(t, f, map[string]string{"new.npy": "new"})
	f.Abort()
	assertOnly(t, out, "old.npy")
	assertOnly(t, dir, "out")
	f, err = CreateFolder(out)
	if err != nil {
		t.Fatal(err)
	}
	fillFolder(t, f, map[string]string{"new.npy": "new"})
	RemoveTemps()
	if err := f.Commit(); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("Commit after RemoveTemps: %v", err)
	}
	assertOnly(t, out, "old.npy")
	assertOnly(t, dir, "out")
}

// TestFolderRefused: a folder that holds anything but .npy files, and a
// file, are not replaced.
func TestFolderRefused(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "mixed")
	if err := os.MkdirAll(filepath.Join(out, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFolder(out); err == nil || !strings.Contains(err.Error(), `holds "sub", which is not a .npy file`) {
		t.Fatalf("folder with a subfolder: %v", err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateFolder(file); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a file: %v", err)
	}
	if _, err := CreateFolder("-"); err == nil {
		t.Fatal("standard output taken as a folder")
	}
	assertOnly(t, dir, "file", "mixed")
}
