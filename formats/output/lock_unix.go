//go:build unix && !aix

package output

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

const (
	canLock = true
	// removeLockFile: a flock lock outlives its file's removal.
	removeLockFile = true
	// openNonblock opens a FIFO without waiting for a reader, so that a
	// member output refuses it at once instead of blocking in open.
	openNonblock = unix.O_NONBLOCK
)

// lockFile waits for an exclusive flock lock of f.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// unlockFile releases the lock; closing f would too.
func unlockFile(f *os.File) {
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
}
