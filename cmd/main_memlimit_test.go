//go:build linux && !race

package cmd

import (
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// limitMemory caps the test process's private writable memory (the Go
// heap among it) with RLIMIT_DATA, so that a runaway allocation in an
// in-process run fails that run ("fatal error: runtime: out of memory",
// naming the test) instead of filling the machine; a limit already lower
// is kept. The soft limit below it makes the garbage collector work harder
// as the heap nears the cap, so that garbage alone does not reach it.
// strider's own memory checks read the same limit (sysmem.MemAvailable), as
// they read the end-to-end cases' prlimit.
//
// Not under the race detector (this file is built without it): its shadow
// memory is private writable mappings too, several times the heap, and
// counts against RLIMIT_DATA.
func limitMemory() {
	const hard, soft = 4 << 30, 3 << 30
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_DATA, &lim); err != nil {
		return
	}
	if lim.Cur == unix.RLIM_INFINITY || lim.Cur > hard {
		lim.Cur = hard
		_ = unix.Setrlimit(unix.RLIMIT_DATA, &lim)
	}
	debug.SetMemoryLimit(soft)
}
