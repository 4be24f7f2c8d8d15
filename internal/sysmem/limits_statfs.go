//go:build linux || darwin

package sysmem

import (
	"math"
	"os"
)

// freeBytes is FreeSpace from a file system's statfs: the blocks left to
// a user (avail) or, for root, all the free ones (free), of bsize bytes
// each; a size past int64 (or a block size that makes no sense) is
// math.MaxInt64.
func freeBytes(avail, free uint64, bsize int64) int64 {
	blocks := avail
	if os.Geteuid() == 0 {
		blocks = free
	}
	if bsize <= 0 || blocks > uint64(math.MaxInt64/bsize) {
		return math.MaxInt64
	}
	return int64(blocks) * bsize
}
