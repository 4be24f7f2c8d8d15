package cmd

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"strider/internal/sysmem"
)

// progressHook is the key in App.Metadata of a func(command string, done,
// total int64) that each stop of startProgress calls with the bytes the
// work reported out of its total: tests set it to check that every command
// reports all its progress, terminal or not.
const progressHook = "strider.progress"

// progressDelay is how long work runs before progress appears.
const progressDelay = time.Second

// startProgress shows "<command>: NN%" on standard error while long work
// runs, when standard error is a terminal and --quiet is not given. stop
// clears the line.
func (e *env) startProgress(total int64, done *atomic.Int64) (stop func()) {
	if e.hook != nil {
		defer func() {
			s := stop
			stop = func() { s(); e.hook(e.name, done.Load(), total) }
		}()
	}
	f, ok := e.stderr.(*os.File)
	if e.quiet || total == 0 || !ok || !isTerminal(f) {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		timer := time.NewTimer(progressDelay)
		defer timer.Stop()
		select {
		case <-quit:
			return
		case <-timer.C:
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprintf(f, "\rstrider: %s: %3d%% of %s", e.name, 100*done.Load()/total, sysmem.HumanBytes(total))
			select {
			case <-quit:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(quit); <-finished }
}
