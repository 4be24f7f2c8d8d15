package cmd

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// brokenPipe reports a write to a pipe whose reader has gone (strider ... |
// more, then q). Windows has no EPIPE: an anonymous pipe whose read end is
// closed answers ERROR_NO_DATA ("The pipe is being closed"), a named pipe
// ERROR_BROKEN_PIPE, and Wine ERROR_PIPE_NOT_CONNECTED.
func brokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, windows.ERROR_NO_DATA) ||
		errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED)
}
