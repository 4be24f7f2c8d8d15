package ops

import (
	"sync/atomic"
	"time"
)

// ReduceWork is the bytes Reduce reports to its options' Done in all: the
// input's bytes once for each pass a reduction makes over them when no
// NaN, infinity or zero extreme sends it over them again (std, var, nanstd
// and nanvar read them twice, the others once). The kernels count the
// passes they do make, which vary with the data; Reduce passes their
// count on, at most this total, and all of it when it ends, so that a
// progress line knows its total before the work starts.
func ReduceWork(op ReduceOp, in View) int64 {
	return int64(in.Count()) * int64(in.Elem) * int64(op.passes())
}

// passes is the passes op makes over its input when its values take no
// fallback (reduce_extreme.go, the NaN functions' first sum).
func (op ReduceOp) passes() int {
	switch op {
	case ReduceStd, ReduceVar, ReduceNanstd, ReduceNanvar:
		return 2
	}
	return 1
}

// reportWork runs work with a counter of its own, whose count it passes
// on to done (when not nil) every tick, capped at total, and tops done up
// to total once work returns.
func reportWork(done *atomic.Int64, total int64, work func(own *atomic.Int64)) {
	if done == nil {
		work(nil)
		return
	}
	var own atomic.Int64
	var passed int64
	pass := func() {
		n := min(own.Load(), total)
		done.Add(n - passed)
		passed = n
	}
	stop, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				pass()
			}
		}
	}()
	work(&own)
	close(stop)
	<-finished
	done.Add(total - passed)
}
