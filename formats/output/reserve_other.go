//go:build !linux

package output

import "os"

// reserve cannot allocate disk ahead of writing on this system, so outputs
// are buffered in memory and a full disk fails at Commit.
func reserve(f *os.File, off, size int64, grow bool) error { return errNoReserve }

func release(f *os.File, off, size int64) {}

func appends(f *os.File) bool { return false }
