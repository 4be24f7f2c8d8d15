package testkit

import (
	"bytes"
	"os/exec"
	"testing"
)

// Mount mounts a tmpfs of size bytes ("1m") on a new folder, read-only
// when ro, and unmounts it when the test ends. It skips the test, saying
// so, where mounting is not permitted (not root, or no CAP_SYS_ADMIN).
func Mount(t testing.TB, size string, ro bool) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: cannot mount a tmpfs (needs root): %v %s", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	if ro {
		if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
			t.Skipf("SKIPPED: cannot remount the tmpfs read-only: %v %s", err, out)
		}
	}
	return dir
}
