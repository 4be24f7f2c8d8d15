package ops

import (
	"runtime/debug"
	"sync"
)

// workerPanic carries a panic from the goroutines parallel starts to the
// goroutine that called parallel.
//
// The workers read memory-mapped files. When another program truncates a
// mapped input, the next read of a page past the new end faults (SIGBUS),
// and the runtime crashes the whole process with a stack dump unless the
// faulting goroutine asked for a panic instead (debug.SetPanicOnFault, a
// per-goroutine setting that new goroutines do not inherit). A panic on a
// worker cannot be recovered by the caller either, so each worker arms the
// setting, recovers, and parallel panics again with the first value on the
// calling goroutine, where strider's command runner turns it into a
// one-line error naming the file. parallel uses it as
//
//	var fault workerPanic
//	... go func() { defer wg.Done(); defer fault.guard()(); ... }()
//	wg.Wait()
//	fault.rethrow()
type workerPanic struct {
	mu  sync.Mutex
	set bool
	val any
}

// guard arms panic-on-fault for the calling goroutine and returns the
// function to defer right after, which recovers the goroutine's panic.
func (w *workerPanic) guard() func() {
	debug.SetPanicOnFault(true)
	return func() {
		if r := recover(); r != nil {
			w.mu.Lock()
			if !w.set {
				w.set, w.val = true, r
			}
			w.mu.Unlock()
		}
	}
}

// rethrow panics with the first value a worker panicked with, if any.
func (w *workerPanic) rethrow() {
	w.mu.Lock()
	set, val := w.set, w.val
	w.mu.Unlock()
	if set {
		panic(val)
	}
}
