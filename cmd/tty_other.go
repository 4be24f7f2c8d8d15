//go:build !linux

package cmd

import "os"

// isTerminal reports whether f is a character device; without the Linux
// ioctl this also counts /dev/null.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
