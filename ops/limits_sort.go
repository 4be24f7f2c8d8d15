package ops

import (
	"math/bits"

	"strider/internal/dtype"
)

// SortScratch estimates the most heap memory, in bytes, that Sort takes
// for its scratch buffers beyond the destinations it is given: each worker
// holds a strip's keys twice (the radix sort's ping-pong buffers), as
// (key, position) records when positions are wanted, plus the lists of
// zeros and NaNs and a block buffer. It errs high: a command checks it
// against the memory available before sorting, so that a sort too large
// for the machine fails up front rather than under the out-of-memory
// killer. withIdx is whether indices are written; elem and kind are the
// element's size and dtype kind ('c' for complex).
func SortScratch(shape []int, axis int, d dtype.Dtype, withIdx bool, opt Options) int64 {
	elem := d.Size
	if axis < 0 || axis >= len(shape) {
		return 0
	}
	n := int64(shape[axis])
	count := int64(1)
	for _, d := range shape {
		count *= int64(d)
	}
	if n == 0 || count == 0 {
		return 0
	}
	strips := count / n
	var perElem int64
	switch {
	case d.Kind == 'c':
		perElem = 2*16 + 8 // two record buffers, the high halves of complex128 keys
	case withIdx && elem*8+bits.Len64(uint64(n-1)) <= packLimit:
		perElem = 2 * 8 // two buffers of words: key and position packed in one
	case withIdx:
		perElem = 2 * 16 // two buffers of (key, position) records
	default:
		perElem = 3 * int64(elem) // two key buffers, the zeros and NaNs
	}
	workers := int64(opt.threads())
	if count*int64(elem+8) < int64(parallelMin) {
		workers = 1
	}
	if strips < workers && n >= int64(parallelSortMin) {
		workers = 1 // long strips: one at a time, every thread on it
	}
	workers = min(workers, strips)
	const wideCounts = 8 << 16 // sortWide's per-chunk counts: 1<<16 ints
	return workers*(n*perElem+int64(blockBytes)) + int64(opt.threads())*wideCounts
}
