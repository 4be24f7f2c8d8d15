//go:build !linux && !windows

package cmd

// dieOfSIGPIPE does nothing where strider cannot restore the default
// SIGPIPE disposition: the closed pipe is then reported as an error.
func dieOfSIGPIPE() {}
