package cmd

import (
	"os"
	"syscall"
)

// dieOfSIGPIPE ends strider silently when its reader has gone, as SIGPIPE
// ends it on Linux, with the status a Unix shell shows for that (141), so a
// script that checks for it reads the same on both. Windows has no SIGPIPE
// to die of. The caller has removed the temporary outputs.
func dieOfSIGPIPE() {
	os.Exit(128 + int(syscall.SIGPIPE))
}
