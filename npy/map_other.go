//go:build !unix

package npy

import (
	"errors"
	"os"
)

// umask is zero where there is no umask: the mode bits are then 0666.
var umask os.FileMode

var errNoMmap = errors.New("memory mapping is not supported on this system")

// mapFile always fails here, so callers read the file into memory instead.
func mapFile(f *os.File, length int64, populate, random bool) ([]byte, error) { return nil, errNoMmap }

// mapWritable always fails here, so outputs are buffered in memory instead.
func mapWritable(f *os.File, length int64) ([]byte, error) { return nil, errNoMmap }

func unmap(b []byte) error { return nil }

func prefetch(m []byte) {}
