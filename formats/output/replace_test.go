package output

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReplaceFile: an output's rename replaces a read-only target on every
// system, as a rename does on Unix; a target this process holds open is
// replaced on Unix and refused on Windows with the reason, after the wait,
// leaving both files as they were.
func TestReplaceFile(t *testing.T) {
	write := func(t *testing.T, path, data string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(t *testing.T, path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t.Run("read-only", func(t *testing.T) {
		dir := t.TempDir()
		target, tmp := filepath.Join(dir, "x.npy"), filepath.Join(dir, ".x.npy.strider-1.tmp")
		write(t, target, "old")
		if err := os.Chmod(target, 0o444); err != nil {
			t.Fatal(err)
		}
		write(t, tmp, "new")
		if err := replaceFile(tmp, target, 0); err != nil {
			t.Fatalf("replacing a read-only file: %v", err)
		}
		if got := read(t, target); got != "new" {
			t.Fatalf("target holds %q, want %q", got, "new")
		}
		assertOnly(t, dir, "x.npy")
	})
	t.Run("open", func(t *testing.T) {
		dir := t.TempDir()
		target, tmp := filepath.Join(dir, "x.npy"), filepath.Join(dir, ".x.npy.strider-1.tmp")
		write(t, target, "old")
		write(t, tmp, "new")
		f, err := os.Open(target)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		start := time.Now()
		err = replaceFile(tmp, target, 50*time.Millisecond)
		if runtime.GOOS != "windows" {
			if err != nil {
				t.Fatalf("replacing an open file: %v", err)
			}
			return
		}
		if err == nil || !strings.Contains(err.Error(), "holds open") {
			t.Fatalf("replacing an open file on Windows: %v, want an error that says it is open", err)
		}
		if d := time.Since(start); d < 50*time.Millisecond {
			t.Fatalf("gave up after %v, before the 50ms wait", d)
		}
		if got := read(t, target); got != "old" {
			t.Fatalf("target holds %q after the failed rename, want %q", got, "old")
		}
		if got := read(t, tmp); got != "new" {
			t.Fatalf("temporary file holds %q after the failed rename", got)
		}
	})
	t.Run("missing-folder", func(t *testing.T) {
		dir := t.TempDir()
		tmp := filepath.Join(dir, "t")
		write(t, tmp, "new")
		if err := replaceFile(tmp, filepath.Join(dir, "nope", "x.npy"), time.Second); err == nil {
			t.Fatal("a rename into a missing folder succeeded")
		}
	})
}
