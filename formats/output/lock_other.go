//go:build (!unix && !windows) || aix

package output

import "os"

// Where there is no flock or LockFileEx, outputs that rewrite a file are
// not serialized (lockBeside takes no lock).
const (
	canLock        = false
	removeLockFile = false
	openNonblock   = 0
)

func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
