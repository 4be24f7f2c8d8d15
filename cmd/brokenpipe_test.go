package cmd

import (
	"os"
	"testing"
)

// TestBrokenPipe: the error this system gives a write to a pipe whose read
// end is closed is the one brokenPipe knows (EPIPE on Unix; on Windows
// ERROR_NO_DATA, or ERROR_PIPE_NOT_CONNECTED under Wine), so Run ends
// silently there instead of printing it as an error.
func TestBrokenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	_, err = w.Write([]byte("x"))
	if err == nil {
		t.Fatal("a write to a pipe with no reader succeeded")
	}
	if !brokenPipe(err) {
		t.Fatalf("brokenPipe(%v) = false for a write to a pipe with no reader", err)
	}
	if brokenPipe(os.ErrNotExist) {
		t.Fatal("brokenPipe(ErrNotExist) = true")
	}
}
