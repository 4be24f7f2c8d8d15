package ops

import (
	"math"

	"strider/internal/dtype"
)

// This file exposes to package text the engine pieces its readers and
// writers share with ops: the thread count of an Options, the work
// splitter, and the float16 rounding. Nothing here is used by package ops
// itself.

// ThreadCount is the number of goroutines an operation run with o uses:
// o.Threads, or GOMAXPROCS when that is 0 or less.
func (o Options) ThreadCount() int { return o.threads() }

// Parallel calls work on consecutive ranges covering [0, items), on this
// goroutine when threads is 1, else in chunks handed out to threads
// goroutines, as every operation of ops splits its work; a panic in work
// is raised again on the calling goroutine.
func Parallel(items, threads int, work func(lo, hi int)) { parallel(items, threads, work) }

// FloatToInt is Cast's conversion of x to the integer dtype to, NumPy's
// on x86-64 (see Cast), as the low to.Size bytes of its bits.
func FloatToInt(x float64, to dtype.Dtype) uint64 {
	return floatToInt(to)(complex(x, 0)) & (math.MaxUint64 >> (64 - 8*uint(to.Size)))
}
