package npy

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// ErrNoRoom is matched by errors that refuse work up front because the
// machine lacks the memory or the disk space it would need.
var ErrNoRoom = errors.New("not enough memory or disk space")

// CheckMemory refuses an allocation of n bytes for what (a phrase such as
// "the sort's scratch space") when more than the machine has available,
// so the command fails with a message instead of being killed by the
// out-of-memory killer halfway through. Where the figure is unknown it
// allows everything.
func CheckMemory(what string, n int64) error {
	avail, ok := MemAvailable()
	if !ok || n <= avail {
		return nil
	}
	return classify(ErrNoRoom, "needs %s of memory for %s, but only %s is available", HumanBytes(n), what, HumanBytes(avail))
}

// checkDisk refuses to create a file of n bytes in dir when the file
// system reports less free space, before anything is created. The
// reservation that follows (fallocate) is the real guard: this only gives
// the error its figures.
func checkDisk(path, dir string, n int64) error {
	free, ok := FreeSpace(dir)
	if !ok || n <= free {
		return nil
	}
	return classify(ErrNoRoom, "cannot create %s: it needs %s of disk space, but the file system of %s has %s free", path, HumanBytes(n), dir, HumanBytes(free))
}

// HumanBytes writes n in binary units: "512 B", "1.5 GiB".
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// mappings records every live mapping, so that a memory fault (a file
// truncated under the mapping, an I/O error behind it) can be reported as
// an error about the file rather than as a crash.
//
// A fault unwinds through the deferred Close of the array it hit before
// the error is reported, so the last mappings released are remembered too.
var mappings = struct {
	sync.Mutex
	m       map[uintptr]mapped
	retired []mapped // most recent last
}{m: map[uintptr]mapped{}}

type mapped struct {
	start uintptr
	end   uintptr
	name  string // the input as the user named it, or the output's path
	write bool   // an output
}

func register(b []byte, name string, write bool) {
	if len(b) == 0 {
		return
	}
	start := addrOf(b)
	mappings.Lock()
	mappings.m[start] = mapped{start: start, end: start + uintptr(len(b)), name: name, write: write}
	mappings.Unlock()
}

func unregister(b []byte) {
	if len(b) == 0 {
		return
	}
	mappings.Lock()
	defer mappings.Unlock()
	if m, ok := mappings.m[addrOf(b)]; ok {
		delete(mappings.m, m.start)
		if len(mappings.retired) == 32 {
			mappings.retired = mappings.retired[1:]
		}
		mappings.retired = append(mappings.retired, m)
	}
}

// FaultError describes a memory fault at addr inside a mapping this
// package made: an input that another program truncated (or whose storage
// failed) while it was mapped, or an output whose storage failed. It
// returns nil for an address outside every mapping, which is a bug.
func FaultError(addr uintptr) error {
	mappings.Lock()
	defer mappings.Unlock()
	found := func(m mapped) bool { return addr >= m.start && addr < m.end }
	var hit *mapped
	for _, m := range mappings.m {
		if found(m) {
			hit = &m
			break
		}
	}
	for i := len(mappings.retired) - 1; hit == nil && i >= 0; i-- {
		if found(mappings.retired[i]) {
			hit = &mappings.retired[i]
		}
	}
	switch {
	case hit == nil:
		return nil
	case hit.write:
		return fmt.Errorf("cannot write %s: its storage failed while it was being written (memory fault at byte %d of the file)", hit.name, addr-hit.start)
	}
	return fmt.Errorf("%s: the file was truncated or could not be read while strider was reading it (memory fault at byte %d of the file)", hit.name, addr-hit.start)
}

func addrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
