package ops

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sync"
)

// PreferReadAt reports whether v, over storage that is a file, is cheaper
// to read with ReadRuns' preads than through a memory mapping: when no page
// holds two of v's elements, as on a diagonal of a wide matrix, a mapping
// would take a page fault per element, which costs more than a small pread.
// The preads are counted as ReadRuns makes them (one per element of a
// strided row), and the pages as pagesTouched estimates them: a diagonal of
// (2, 2, n) has its two elements per output row 3n apart, yet each of its
// n-long rows is dense, so a mapping faults in n/1024 pages per row while
// the preads would be 2n syscalls of 4 bytes.
func PreferReadAt(v View) bool {
	if v.Count() == 0 {
		return false
	}
	p := makePlan(Contiguous(v.Elem, v.Shape, nil), v)
	return p.kernel != kernelRuns && readCalls(p) <= pagesTouched(v)
}

// readCalls is the number of read calls ReadRuns makes for the plan p: one
// per row of runs, one per element otherwise.
func readCalls(p plan) int {
	if p.kernel == kernelRuns {
		return p.bytes / p.cols.n
	}
	return p.bytes / p.elem
}

// pagesTouched estimates how many pages of its storage v's elements lie
// on. Taking the axes from the smallest step to the largest, a block of
// the inner axes spans some bytes over some pages; n copies of it, step
// bytes apart, lie on n times its pages, or on the pages of their combined
// span where that is fewer (the copies share pages).
func pagesTouched(v View) int {
	type axis struct{ n, step int }
	axes := make([]axis, 0, len(v.Shape))
	for k, n := range v.Shape {
		if n == 0 {
			return 0
		}
		if n > 1 {
			axes = append(axes, axis{n, abs(v.Strides[k]) * v.Elem})
		}
	}
	slices.SortStableFunc(axes, func(a, b axis) int { return cmp.Compare(a.step, b.step) })
	span, pages := v.Elem, 1
	for _, a := range axes {
		span += (a.n - 1) * a.step
		pages = min(pages*a.n, ceilDiv(span, pageSize))
	}
	return max(pages, 1)
}

// ReadRuns is Copy for a view whose storage is not in memory: element
// offsets index a store of size bytes that read fills from. The plan is
// Copy's; ReadRuns yields its runs, each contiguous run or each element of
// a strided row as one call read(part, off) that must fill part (a piece of
// dst) with the store's bytes from off. Threads share the rows; the first
// error read returns ends the copy and is returned.
func ReadRuns(dst []byte, v View, size int64, opt Options, read func(part []byte, off int64) error) error {
	if size > math.MaxInt {
		return fmt.Errorf("storage of %d bytes is too large", size)
	}
	if err := v.checkSize(int(size)); err != nil {
		return err
	}
	if want := v.Count() * v.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the copy writes %d", len(dst), want)
	}
	if len(dst) == 0 {
		return nil
	}
	v.Data = nil
	p := makePlan(Contiguous(v.Elem, v.Shape, nil), v)
	loops := append(append([]loop{}, p.outer...), p.rows)
	shape := make([]int, len(loops))
	items := 1
	for k, l := range loops {
		shape[k] = l.n
		items *= l.n
	}
	calc := NewOffsetCalculator(shape, srcSteps(loops), dstSteps(loops))
	threads := opt.threads()
	if items*p.cols.n < 64 {
		threads = 1
	}
	var failed firstError
	parallel(items, threads, func(lo, hi int) {
		idx := make([]int, len(loops))
		so, do := calc.Index(lo, idx)
		for i := lo; i < hi; i++ {
			if !p.readRow(dst, p.base+so, do, read, &failed) {
				return
			}
			so, do = advance(loops, idx, so, do)
		}
		if opt.Done != nil {
			opt.Done.Add(int64((hi - lo) * (p.bytes / items)))
		}
	})
	return failed.err
}

// readRow reads one row of the plan, the source's at byte src and the
// destination's at do: one run, or one element at a time. It reports
// whether every read succeeded.
func (p *plan) readRow(dst []byte, src, do int, read func([]byte, int64) error, failed *firstError) bool {
	if p.kernel == kernelRuns {
		return failed.keep(read(dst[do:do+p.cols.n], int64(src)))
	}
	for j := 0; j < p.cols.n; j++ {
		d := do + j*p.elem
		if !failed.keep(read(dst[d:d+p.elem], int64(src+j*p.cols.src))) {
			return false
		}
	}
	return true
}

// firstError keeps the first error of several goroutines.
type firstError struct {
	mu  sync.Mutex
	err error
}

// keep records err if it is the first, and reports whether err is nil.
func (f *firstError) keep(err error) bool {
	if err == nil {
		return true
	}
	f.mu.Lock()
	if f.err == nil {
		f.err = err
	}
	f.mu.Unlock()
	return false
}
