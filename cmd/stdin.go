package cmd

import (
	"io"
	"os"
	"sync/atomic"

	"github.com/urfave/cli/v2"
)

// stdinUsed records that the command named standard input ("-") as an
// input, so that Run drains what it left unread.
var stdinUsed atomic.Bool

// stdinFor returns the app's standard input for formats.Open, noting its use
// when spec names it.
func stdinFor(c *cli.Context, spec string) *os.File {
	if spec == "-" {
		stdinUsed.Store(true)
	}
	return appStdin(c.App)
}

// appStdin is app.Reader as the file npy reads standard input from (it
// stats it, and maps or reads it as a file or a stream): os.Stdin unless
// the app was given another file.
func appStdin(app *cli.App) *os.File {
	if f, ok := app.Reader.(*os.File); ok {
		return f
	}
	return os.Stdin
}

// drainStdin reads and discards what is left of standard input, when the
// command read from it and it is a pipe or a socket: a command that needs
// only part of it (info reads the header) then never closes the pipe under
// the program writing it, which completes instead of failing with EPIPE or
// dying of SIGPIPE (and failing a `set -o pipefail` script).
func drainStdin(in *os.File) {
	if !stdinUsed.Swap(false) {
		return
	}
	fi, err := in.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return
	}
	_, _ = io.Copy(io.Discard, in)
}
