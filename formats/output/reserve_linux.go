package output

import (
	"errors"
	"os"
	"syscall"
)

// Flags of fallocate(2).
const (
	keepSize  = 0x1 // FALLOC_FL_KEEP_SIZE
	punchHole = 0x2 // FALLOC_FL_PUNCH_HOLE
)

// reserve allocates the size bytes of disk from off for f, so that a full
// disk fails here with ENOSPC rather than as a SIGBUS when a store to a
// mapping finds no block behind it, or as a partial write. With grow the
// file is extended to off+size (a temporary output about to be mapped);
// without it, it keeps its size (standard output redirected to a file). It
// returns errNoReserve where the file system cannot allocate ahead.
func reserve(f *os.File, off, size int64, grow bool) error {
	mode := uint32(keepSize)
	if grow {
		mode = 0
	}
	for {
		err := syscall.Fallocate(int(f.Fd()), mode, off, size)
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

// release frees the disk blocks of f's size bytes from off, which lie past
// its end: a reservation that was not used. Best effort.
func release(f *os.File, off, size int64) {
	_ = syscall.Fallocate(int(f.Fd()), punchHole|keepSize, off, size)
	if fi, err := f.Stat(); err == nil {
		// Some file systems free blocks past the end only on a truncate.
		_ = f.Truncate(fi.Size())
	}
}

// appends reports whether f was opened with O_APPEND (a >> redirection).
func appends(f *os.File) bool {
	fl, err := fcntl(f.Fd(), syscall.F_GETFL)
	return err == nil && fl&syscall.O_APPEND != 0
}

func fcntl(fd uintptr, cmd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
