package cmd

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"strider/npy"
)

// progressDelay is how long work runs before progress appears.
const progressDelay = time.Second

// startProgress shows "<command>: NN%" on standard error while long work
// runs, when standard error is a terminal and --quiet is not given. stop
// clears the line.
func startProgress(c *cli.Context, total int64, done *atomic.Int64) (stop func()) {
	if c.Bool("quiet") || total == 0 || !isTerminal(os.Stderr) {
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
			fmt.Fprintf(os.Stderr, "\rstrider: %s: %3d%% of %s", c.Command.Name, 100*done.Load()/total, npy.HumanBytes(total))
			select {
			case <-quit:
				fmt.Fprint(os.Stderr, "\r\033[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(quit); <-finished }
}
