package sysmem

import (
	"fmt"
	"sync"
	"unsafe"
)

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

// Register records b, a mapping of the input or output name (as the user
// named it), for FaultError; write tells an output.
func Register(b []byte, name string, write bool) {
	if len(b) == 0 {
		return
	}
	start := AddrOf(b)
	mappings.Lock()
	mappings.m[start] = mapped{start: start, end: start + uintptr(len(b)), name: name, write: write}
	mappings.Unlock()
}

// Unregister forgets the mapping b, keeping it among the last released.
func Unregister(b []byte) {
	if len(b) == 0 {
		return
	}
	mappings.Lock()
	defer mappings.Unlock()
	if m, ok := mappings.m[AddrOf(b)]; ok {
		delete(mappings.m, m.start)
		if len(mappings.retired) == 32 {
			mappings.retired = mappings.retired[1:]
		}
		mappings.retired = append(mappings.retired, m)
	}
}

// FaultError describes a memory fault at addr inside a mapping that was
// registered (Register): an input that another program truncated (or whose storage
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

// AddrOf is the address of b's first byte.
func AddrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
