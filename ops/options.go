package ops

import (
	"runtime"
	"sync/atomic"
)

// Options tune how an operation runs; the zero value is valid.
type Options struct {
	// Threads is the number of goroutines; 0 or less means GOMAXPROCS.
	Threads int
	// Done, when set, is advanced by the bytes written as chunks finish, so
	// a caller can report progress.
	Done *atomic.Int64

	// tune overrides the engine's thresholds; nil means defaultTuning.
	// Tests set it per call, so they can run in parallel.
	tune *tuning
}

// tuning holds the thresholds that pick between an operation's paths. Each
// is measured where it is used; tests move them to send small inputs down
// every path.
type tuning struct {
	parallelMin     int // work below this many bytes runs on the calling goroutine
	parallelSortMin int // strips this long are sorted with several threads
	blockBytes      int // bound on a block of strided strips' buffers; 0: no blocks
	radixMin        int // shorter inputs are insertion-sorted
	msdMin          int // inputs this long take a most-significant-digit pass first
	wideBucket      int // the most bytes of records the wide split leaves in a bucket
	packLimit       int // the most bits a key and a position may share in one word
	inPlaceMin      int // the shortest strip sorted inside its output
	msdValuesMin    int // the shortest strip of values sortValuesWide takes
	// pairwiseCompare turns off AllClose's batch kernels for native
	// floats, so tests can check them against the pair-by-pair fold.
	pairwiseCompare bool
	simd            simdLevel // the widest assembly kernels to run; tests lower it
	// reduceBuf is the buffer size of NumPy's reductions the reduction
	// engine reproduces: NPY_BUFSIZE; tests lower it, with the reference
	// simulation, to cut small arrays into many calls.
	reduceBuf int
	// varSlab is the most bytes of rows var and std (and their nan twins)
	// take both their passes over at a time (reduce_slabs.go); 0: none.
	// Half of each core's L2 on the Xeon (2 MiB): std, var and nanstd by
	// rows of 256 MiB f32 (8192²) 48, 51 and 50 ms against 52, 56 and 60
	// ms whole (cat 38 ms).
	varSlab int
	// varColumns is the bytes of each row var and std (and their nan
	// twins) take both passes over at a time where they reduce the first
	// axes (reduce_slabs.go); 0: none. On the Xeon (2 MiB L2, 300 MiB L3),
	// std along axis 0 of 8192² f32, whole 66 ms (cat 36): 2 KiB 65 ms,
	// 4 KiB 48-56 ms, 8 KiB 47 ms (blocks of 64 MiB, two on each core).
	varColumns int
}

// defaultTuning is the thresholds every caller outside the tests runs with;
// the comments where each is used say how it was measured.
func defaultTuning() tuning {
	return tuning{
		parallelMin:     parallelMin,
		parallelSortMin: 1 << 16,
		blockBytes:      4 << 20,
		radixMin:        64,
		msdMin:          1 << 20,
		wideBucket:      256 << 10,
		packLimit:       64,
		inPlaceMin:      1 << 16,
		msdValuesMin:    1 << 18,
		simd:            detectSIMD(),
		reduceBuf:       npyBufSize,
		varSlab:         1 << 20,
		varColumns:      8 << 10,
	}
}

// defaults is defaultTuning, made once; nothing writes it.
var defaults = defaultTuning()

// tuning returns the thresholds to run with.
func (o Options) tuning() *tuning {
	if o.tune != nil {
		return o.tune
	}
	return &defaults
}

func (o Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// Work below this many bytes runs on the calling goroutine: starting threads
// costs more than it saves. Operations without a tuning field use it as it
// is; the others read Options.tuning().parallelMin.
const parallelMin = 1 << 18
