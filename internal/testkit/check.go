package testkit

import (
	"os"
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
