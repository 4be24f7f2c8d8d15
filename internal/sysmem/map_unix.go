//go:build unix

package sysmem

import (
	"fmt"
	"math"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// MapFile maps the first length bytes of f read-only. populate asks the
// kernel to read the pages in now (MAP_POPULATE on Linux), for callers that
// will touch every byte; random turns read-ahead off, for callers that jump
// around.
func MapFile(f *os.File, length int64, populate, random bool) ([]byte, error) {
	if length <= 0 || length > math.MaxInt {
		return nil, fmt.Errorf("cannot map %d bytes", length)
	}
	flags := syscall.MAP_SHARED
	if populate {
		flags |= populateFlag
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(length), syscall.PROT_READ, flags)
	if err == nil && random {
		// Sparse readers (diagonal, slice) jump around: no read-ahead, so a
		// read touches only the pages it needs. Advice only; errors ignored.
		_ = unix.Madvise(m, unix.MADV_RANDOM)
	}
	return m, err
}

// MapWritable maps the first length bytes of f read-write and shared, so
// stores reach the file.
func MapWritable(f *os.File, length int64) ([]byte, error) {
	if length <= 0 || length > math.MaxInt {
		return nil, fmt.Errorf("cannot map %d bytes", length)
	}
	return syscall.Mmap(int(f.Fd()), 0, int(length), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
}

// Unmap releases a mapping that MapFile or MapWritable made.
func Unmap(b []byte) error { return syscall.Munmap(b) }

// Prefetch reads the pages of m in, as MAP_POPULATE would have:
// MADV_POPULATE_READ (Linux 5.14) where there is one, else the
// asynchronous MADV_WILLNEED.
func Prefetch(m []byte) {
	if populateAdvice != 0 && unix.Madvise(m, populateAdvice) == nil {
		return
	}
	_ = unix.Madvise(m, unix.MADV_WILLNEED)
}
