package testkit

import (
	"strings"
	"testing"
)

// WantError checks the command-line contract for a failure: exit 2, one
// line on standard error starting with "strider: COMMAND: ", nothing on
// standard output, and no panic. The end-to-end tests (the root package)
// and the in-process ones (cmd) hold strider to it alike.
func WantError(t testing.TB, code int, stdout, stderr []byte, command string) {
	t.Helper()
	if code != 2 {
		t.Fatalf("exit %d, want 2 (stderr %q)", code, stderr)
	}
	if len(stdout) != 0 {
		t.Fatalf("stdout not empty on error: %q", stdout)
	}
	lines := strings.Split(strings.TrimSuffix(string(stderr), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: "+command+": ") || !strings.HasSuffix(string(stderr), "\n") {
		t.Fatalf("stderr is not one 'strider: %s: ...' line: %q", command, stderr)
	}
	if strings.Contains(string(stderr), "goroutine") || strings.Contains(string(stderr), "panic") {
		t.Fatalf("stderr shows a panic: %q", stderr)
	}
}
