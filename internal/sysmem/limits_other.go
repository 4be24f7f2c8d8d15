//go:build !linux && !darwin && !windows

package sysmem

// MemAvailable is unknown on this system: no allocation is refused up front.
func MemAvailable() (int64, bool) { return 0, false }

// FreeSpace is unknown on this system: the write itself reports a full disk.
func FreeSpace(dir string) (int64, bool) { return 0, false }
