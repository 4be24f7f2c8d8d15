package sysmem

import (
	"math"
	"unsafe"

	"golang.org/x/sys/windows"
)

// memoryStatusEx is Win32's MEMORYSTATUSEX.
type memoryStatusEx struct {
	length, memoryLoad                     uint32
	totalPhys, availPhys                   uint64
	totalPageFile, availPageFile           uint64
	totalVirtual, availVirtual, availExtra uint64
}

var globalMemoryStatusEx = windows.NewLazySystemDLL("kernel32.dll").NewProc("GlobalMemoryStatusEx")

// MemAvailable returns the physical memory Windows reports available.
func MemAvailable() (int64, bool) {
	st := memoryStatusEx{}
	st.length = uint32(unsafe.Sizeof(st))
	if r, _, _ := globalMemoryStatusEx.Call(uintptr(unsafe.Pointer(&st))); r == 0 {
		return 0, false
	}
	if st.availPhys > math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(st.availPhys), true
}

// FreeSpace returns the bytes this user can still write in dir.
func FreeSpace(dir string) (int64, bool) {
	p, err := windows.UTF16PtrFromString(dir)
	if err != nil {
		return 0, false
	}
	var avail, total, free uint64
	if err := windows.GetDiskFreeSpaceEx(p, &avail, &total, &free); err != nil {
		return 0, false
	}
	if avail > math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(avail), true
}
