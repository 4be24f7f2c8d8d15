//go:build !windows

package output

import (
	"os"
	"time"
)

// replaceFile renames tmp over target. A rename replaces a read-only or an
// open target here, so there is nothing to wait for (see replace_windows.go).
func replaceFile(tmp, target string, wait time.Duration) error {
	return os.Rename(tmp, target)
}
