package sysmem

import "golang.org/x/sys/unix"

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
	return freeBytes(st.Bavail, st.Bfree, int64(st.Bsize)), true
}
