package output

import (
	"os"

	"golang.org/x/sys/windows"
)

const (
	canLock = true
	// removeLockFile: an open file cannot be removed without
	// FILE_SHARE_DELETE, which os.OpenFile does not ask for, so the lock
	// file stays beside the archive.
	removeLockFile = false
	openNonblock   = 0
)

// lockFile waits for an exclusive LockFileEx lock of f's first byte.
func lockFile(f *os.File) error {
	var ol windows.Overlapped
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}

// unlockFile releases the lock; closing f would too.
func unlockFile(f *os.File) {
	var ol windows.Overlapped
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
