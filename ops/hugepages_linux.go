package ops

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks the kernel to back the 2 MiB pages that lie wholly
// inside s with huge pages when they are first touched (transparent huge
// pages in "madvise" mode): a sort's scratch buffer of 64 MiB then costs
// 32 page faults instead of 16384 (a sixth of a 16M float sort's CPU time
// went to faulting it in). Advice only: an error changes nothing.
func adviseHugePages[E any](s []E) {
	var e E
	base := unsafe.Pointer(unsafe.SliceData(s))
	p := uintptr(base)
	end := p + uintptr(len(s))*unsafe.Sizeof(e)
	const huge = 2 << 20
	lo, hi := (p+huge-1)&^(huge-1), end&^(huge-1)
	if len(s) > 0 && hi > lo {
		_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, lo-p)), hi-lo), unix.MADV_HUGEPAGE)
	}
}
