package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CheckMessage fails t unless msg is an error message as strider writes
// them: one line, starting in lower case.
func CheckMessage(t *testing.T, msg string) {
	t.Helper()
	if strings.ContainsAny(msg, "\n\r") {
		t.Errorf("error %q is more than one line", msg)
	}
	if msg == "" || msg[0] < 'a' || msg[0] > 'z' {
		t.Errorf("error %q does not start in lower case", msg)
	}
}

// Fill writes a recognisable pattern into data: byte i is i*7+1.
func Fill(data []byte) {
	for i := range data {
		data[i] = byte(i*7 + 1)
	}
}

// MustRead returns the bytes of the file at path, or fails t.
func MustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// OneLine fails t unless err's message is one line, not empty.
func OneLine(t *testing.T, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("error %q is not one line", msg)
	}
}

// ReadFixtures returns the files in the folder dir that match the globs,
// whole, in the globs' order; none when dir is absent.
func ReadFixtures(tb testing.TB, dir string, globs ...string) [][]byte {
	tb.Helper()
	var out [][]byte
	for _, glob := range globs {
		files, _ := filepath.Glob(filepath.Join(dir, glob))
		for _, path := range files {
			b, err := os.ReadFile(path)
			if err != nil {
				tb.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}
