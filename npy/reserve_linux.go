package npy

import (
	"errors"
	"os"
	"syscall"
)

const populateFlag = syscall.MAP_POPULATE

// reserve allocates size bytes of disk for f, so that a full disk fails
// here with ENOSPC rather than as a SIGBUS when a store to a mapping finds
// no block behind it. It returns errNoReserve where the file system cannot
// allocate ahead.
func reserve(f *os.File, size int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, 0, size)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS):
			return errNoReserve
		}
		return err
	}
}
