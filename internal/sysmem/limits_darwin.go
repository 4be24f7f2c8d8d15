package sysmem

import (
	"math"
	"os"

	"golang.org/x/sys/unix"
)

// MemAvailable is not read on macOS (no MemAvailable figure without the
// private host statistics): no allocation is refused up front.
func MemAvailable() (int64, bool) { return 0, false }

// FreeSpace returns the bytes a new file in dir can still take: the free
// blocks less those reserved for root, unless this process is root.
func FreeSpace(dir string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	blocks := st.Bavail
	if os.Geteuid() == 0 {
		blocks = st.Bfree
	}
	bsize := uint64(st.Bsize)
	if bsize == 0 || blocks > math.MaxInt64/bsize {
		return math.MaxInt64, true
	}
	return int64(blocks * bsize), true
}
