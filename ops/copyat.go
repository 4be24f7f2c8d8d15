package ops

import (
	"fmt"
	"io"
	"math"
	"sync"
)

// PreferReadAt reports whether v, over storage that is a file, is cheaper
// to read with one ReadAt per element than through a memory mapping: when
// neighbouring elements are a page or more apart, each would cost a page
// fault, which takes several times as long as a small pread.
func PreferReadAt(v View) bool {
	if v.Count() == 0 {
		return false
	}
	p := makePlan(v, nil)
	return p.kernel == kernelStrided && abs(p.cols.src) >= pageSize
}

// CopyAt is Copy for a view whose storage is read through r rather than
// held in v.Data: element offsets index r, which holds size bytes. The plan
// is Copy's; each contiguous run, or each element of a strided row, is one
// ReadAt straight into dst, and threads share the rows.
func CopyAt(dst []byte, v View, r io.ReaderAt, size int64, opt Options) error {
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
	p := makePlan(v, nil)
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
	var (
		mu       sync.Mutex
		firstErr error
	)
	read := func(b []byte, off int) bool {
		if _, err := r.ReadAt(b, int64(off)); err != nil {
			mu.Lock()
			if firstErr == nil {
				firstErr = fmt.Errorf("reading %d bytes at offset %d: %w", len(b), off, err)
			}
			mu.Unlock()
			return false
		}
		return true
	}
	parallel(items, threads, func(lo, hi int) {
		idx := make([]int, len(loops))
		so, do := calc.Index(lo, idx)
		for i := lo; i < hi; i++ {
			src := p.base + so
			if p.kernel == kernelRuns {
				if !read(dst[do:do+p.cols.n], src) {
					return
				}
			} else {
				for j := 0; j < p.cols.n; j++ {
					d := do + j*p.elem
					if !read(dst[d:d+p.elem], src+j*p.cols.src) {
						return
					}
				}
			}
			so, do = advance(loops, idx, so, do)
		}
		if opt.Done != nil {
			opt.Done.Add(int64((hi - lo) * (p.bytes / items)))
		}
	})
	return firstErr
}
