//go:build !windows

package cmd

import (
	"errors"
	"syscall"
)

// brokenPipe reports a write to a pipe whose reader has gone: EPIPE, which
// strider sees instead of dying because it catches SIGPIPE (handleSignals).
func brokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE)
}
