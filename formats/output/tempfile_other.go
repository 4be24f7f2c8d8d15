//go:build !windows

package output

import "os"

// createTempFile is os.CreateTemp: an open file can be removed here (see
// tempfile_windows.go).
func createTempFile(dir, pattern string) (*os.File, error) {
	return os.CreateTemp(dir, pattern)
}
