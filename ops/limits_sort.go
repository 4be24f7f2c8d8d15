package ops

import (
	"slices"

	"strider/internal/dtype"
)

// SortScratch estimates the most heap memory, in bytes, that Sort takes
// for its scratch buffers beyond the destinations it is given: each worker
// holds a strip's keys twice (the radix sort's ping-pong buffers), as
// (key, position) records when positions are wanted, plus the lists of
// zeros and NaNs and a block buffer. It errs high: a command checks it
// against the memory available before sorting, so that a sort too large
// for the machine fails up front rather than under the out-of-memory
// killer. withIdx is whether indices are written; d is the elements' dtype.
func SortScratch(shape []int, axis int, d dtype.Dtype, withIdx bool, opt Options) int64 {
	elem := d.Size
	if axis < 0 || axis >= len(shape) || slices.Contains(shape, 0) {
		return 0
	}
	sp := newSortPlan(shape, axis, elem, opt)
	var perElem int64
	switch {
	case d.Kind == 'c':
		perElem = 2*16 + 8 // two record buffers, the high halves of complex128 keys
	case withIdx && packs(elem*8, int(sp.n), sp.tune):
		perElem = 2 * 8 // two buffers of words: key and position packed in one
	case withIdx:
		perElem = 2 * 16 // two buffers of (key, position) records
	default:
		perElem = 3 * int64(elem) // two key buffers, the zeros and NaNs
	}
	const wideCounts = 8 << 16 // sortWide's per-chunk counts: 1<<16 ints
	scratch := sp.workers()*(sp.n*perElem+int64(sp.tune.blockBytes)) + int64(opt.threads())*wideCounts
	if !withIdx && d.Kind != 'c' && elem == 4 && sp.n >= int64(sp.tune.msdValuesMin) {
		// sortValuesWide: each thread's counts of the top 16 bits, line
		// buffers for the split (64 bytes per digit value) and two
		// buffers for a bucket of up to four times tuning.wideBucket.
		scratch += int64(opt.threads()) * (4<<16 + 64<<16 + 8*int64(sp.tune.wideBucket))
	}
	return scratch
}
