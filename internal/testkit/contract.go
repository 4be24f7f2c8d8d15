package testkit

import (
	"strings"
	"testing"
	"unicode/utf8"
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

// WantOneLine is WantError for a run whose standard output is not looked
// at, and checks that the line mentions want.
func WantOneLine(t testing.TB, code int, stderr, command, want string) {
	t.Helper()
	WantError(t, code, nil, []byte(stderr), command)
	if !strings.Contains(stderr, want) {
		t.Fatalf("stderr %q does not mention %q", stderr, want)
	}
}

// WantNoControls fails when b holds a byte or character a terminal acts
// on, other than the newlines that end lines: C0 and C1 controls, DEL,
// the bidirectional embeddings and overrides, and bytes that are not
// UTF-8.
func WantNoControls(t testing.TB, what string, b []byte) {
	t.Helper()
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		bad := r == utf8.RuneError && n == 1 || r < 0x20 && r != '\n' || r == 0x7f ||
			r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e
		if bad {
			t.Fatalf("%s holds raw %q at byte %d: %q", what, b[i:i+n], i, b)
		}
		i += n
	}
}
