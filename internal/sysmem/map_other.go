//go:build !unix

package sysmem

import (
	"errors"
	"os"
)

var errNoMmap = errors.New("memory mapping is not supported on this system")

// MapFile always fails here, so callers read the file into memory instead.
func MapFile(f *os.File, length int64, populate, random bool) ([]byte, error) { return nil, errNoMmap }

// MapWritable always fails here, so outputs are buffered in memory instead.
func MapWritable(f *os.File, length int64) ([]byte, error) { return nil, errNoMmap }

// Unmap does nothing here: nothing is mapped.
func Unmap(b []byte) error { return nil }

// Prefetch does nothing here: nothing is mapped.
func Prefetch(m []byte) {}
