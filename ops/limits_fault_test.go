package ops

import (
	"sync"
	"testing"
)

// TestWorkerPanicReachesCaller: a panic on a guarded worker goroutine is
// recovered there and raised again on the goroutine that waits for it, so
// the caller can recover it (a crash otherwise).
func TestWorkerPanicReachesCaller(t *testing.T) {
	got := func() (r any) {
		defer func() { r = recover() }()
		var fault workerPanic
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer fault.guard()()
				if i == 2 {
					panic("worker 2")
				}
			}()
		}
		wg.Wait()
		fault.rethrow()
		return nil
	}()
	if got != "worker 2" {
		t.Fatalf("recovered %v, want the worker's panic", got)
	}
	var quiet workerPanic
	quiet.rethrow() // no panic: nothing to raise
}
