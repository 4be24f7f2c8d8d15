package ops

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Copy writes the elements of src, in C order, into dst, which must hold
// exactly src.Count()*src.Elem bytes and must not overlap src.Data. It is
// CopyTo with dst as a C-contiguous view, and equal to CopyNaive.
func Copy(dst []byte, src View, opt Options) error {
	if err := src.Check(); err != nil {
		return err
	}
	if want := src.Count() * src.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the copy writes %d", len(dst), want)
	}
	return CopyTo(Contiguous(src.Elem, src.Shape, dst), src, opt)
}

// CopyTo writes each element of src into the element of dst at the same
// multi-index: dst is any view of src's shape and element size that writes
// no element twice and does not share storage with src, so a copy may land
// in a slice of a larger output (concatenation, stacking) or in a
// transposed or reversed destination. It is equal to CopyToNaive.
func CopyTo(dst, src View, opt Options) error {
	if err := checkCopyTo(dst, src); err != nil {
		return err
	}
	if src.Count() == 0 {
		return nil
	}
	p := makePlan(dst, src)
	p.run(dst.Data, src.Data, opt)
	return nil
}

// checkCopyTo verifies what CopyTo needs: both views inside their storage,
// the same element size and shape, a destination that writes each element
// once, and no storage shared between the two.
func checkCopyTo(dst, src View) error {
	if err := src.Check(); err != nil {
		return err
	}
	if err := dst.Check(); err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	if dst.Elem != src.Elem {
		return fmt.Errorf("destination elements are %d bytes, the source's %d", dst.Elem, src.Elem)
	}
	if !slices.Equal(dst.Shape, src.Shape) {
		return fmt.Errorf("destination shape %s differs from the source's %s", ShapeString(dst.Shape), ShapeString(src.Shape))
	}
	if !dst.writesOnce() {
		return fmt.Errorf("destination strides %v over shape %s write some elements more than once", dst.Strides, ShapeString(dst.Shape))
	}
	if overlaps(dst, src) {
		return fmt.Errorf("destination overlaps the source's storage")
	}
	return nil
}

// CopyNaive is the reference copy into a C-contiguous dst: CopyToNaive.
func CopyNaive(dst []byte, src View) error {
	if err := src.Check(); err != nil {
		return err
	}
	if want := src.Count() * src.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the copy writes %d", len(dst), want)
	}
	return CopyToNaive(Contiguous(src.Elem, src.Shape, dst), src)
}

// CopyToNaive is the reference copy: an odometer over the multi-index,
// one element at a time, moving the source's offset and the destination's
// together. Every fast path is tested against it.
func CopyToNaive(dst, src View) error {
	if err := checkCopyTo(dst, src); err != nil {
		return err
	}
	n := src.Count()
	if n == 0 {
		return nil
	}
	e := src.Elem
	idx := make([]int, len(src.Shape))
	so, do := src.Offset, dst.Offset
	for i := 0; i < n; i++ {
		copy(dst.Data[do*e:(do+1)*e], src.Data[so*e:(so+1)*e])
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			so += src.Strides[k]
			do += dst.Strides[k]
			if idx[k] < src.Shape[k] {
				break
			}
			so -= src.Shape[k] * src.Strides[k]
			do -= src.Shape[k] * dst.Strides[k]
			idx[k] = 0
		}
	}
	return nil
}

// run executes the plan on the storage of its views.
func (p *plan) run(dst, src []byte, opt Options) {
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), p.base)
	dstBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), p.dbase)
	p.runAt(dstBase, srcBase, opt.threads(), opt)
}

// runAt executes the plan with the source's first element at srcBase and
// the destination's at dstBase, on threads goroutines; opt gives the
// tuning and the progress counter. The work items are the outer loops
// followed by the blocks of rows and cols; chunks of consecutive items go to
// the threads.
func (p *plan) runAt(dstBase, srcBase unsafe.Pointer, threads int, opt Options) {
	if p.bytes == 0 {
		return
	}
	if p.cost() < opt.tuning().parallelMin || p.items == 1 {
		threads = 1
	}
	loops := p.work
	parallel(p.items, threads, func(lo, hi int) {
		body := p.body(opt.tuning().simd)
		idx := make([]int, len(loops))
		so, do := p.calc.Index(lo, idx)
		nr, nc := len(loops)-2, len(loops)-1
		for i := lo; i < hi; i++ {
			rows, cols := p.rows, p.cols
			rows.n = min(p.rb, p.rows.n-idx[nr]*p.rb)
			cols.n = min(p.cb, p.cols.n-idx[nc]*p.cb)
			body(unsafe.Add(dstBase, do), unsafe.Add(srcBase, so), rows, cols)
			so, do = advance(loops, idx, so, do)
		}
		if opt.Done != nil {
			opt.Done.Add(int64((hi - lo) * (p.bytes / p.items)))
		}
	})
}

// prepare sets the plan's work items, the outer loops followed by the
// blocks of rows and cols, and their offset calculator, once for every run
// (a gather replays one plan per block).
func (p *plan) prepare() {
	loops := make([]loop, 0, len(p.outer)+2)
	loops = append(loops, p.outer...)
	loops = append(loops,
		loop{n: ceilDiv(p.rows.n, p.rb), src: p.rb * p.rows.src, dst: p.rb * p.rows.dst},
		loop{n: ceilDiv(p.cols.n, p.cb), src: p.cb * p.cols.src, dst: p.cb * p.cols.dst})
	p.items = 1
	shape := make([]int, len(loops))
	for k, l := range loops {
		p.items *= l.n
		shape[k] = l.n
	}
	p.work = loops
	p.calc = NewOffsetCalculator(shape, srcSteps(loops), dstSteps(loops))
}

// pageSize is the smallest unit a memory-mapped source is read in.
const pageSize = 4096

// cost estimates a copy's work in bytes moved. When neighbouring source
// elements are a page or more apart (a diagonal, a strided slice of a
// mapped file), each element costs a page fault rather than a few bytes,
// and faults are worth spreading over threads even for small outputs.
func (p *plan) cost() int {
	if abs(p.cols.src) >= pageSize && p.kernel == kernelStrided {
		return p.bytes / p.elem * pageSize
	}
	return p.bytes
}

// parallel calls work on consecutive ranges covering [0, items): on this
// goroutine when threads is 1, else in chunks (several per thread, so an
// uneven thread does not hold up the rest) handed out to threads goroutines.
func parallel(items, threads int, work func(lo, hi int)) {
	if threads <= 1 || items <= 1 {
		work(0, items)
		return
	}
	chunks := min(items, threads*8)
	var next atomic.Int64
	var wg sync.WaitGroup
	var fault workerPanic
	for t := 0; t < min(threads, chunks); t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer fault.guard()()
			for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
				work(c*items/chunks, (c+1)*items/chunks)
			}
		}()
	}
	wg.Wait()
	fault.rethrow()
}

func srcSteps(loops []loop) []int {
	s := make([]int, len(loops))
	for k, l := range loops {
		s[k] = l.src
	}
	return s
}

func dstSteps(loops []loop) []int {
	s := make([]int, len(loops))
	for k, l := range loops {
		s[k] = l.dst
	}
	return s
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// blockFunc copies one block: rows.n × cols.n elements (or bytes for runs).
type blockFunc func(dst, src unsafe.Pointer, rows, cols loop)

// body picks the kernel for the plan's element size.
func (p *plan) body(simd simdLevel) blockFunc {
	switch p.kernel {
	case kernelRuns:
		return copyRuns
	case kernelScatter:
		return p.scatterBody()
	}
	switch p.elem {
	case 1:
		return copyTiled1
	case 2:
		return copyTiled2
	case 4:
		if haveTransposeKernels && simd >= simdAVX2 {
			return copyTiled4
		}
		return copyStrided[uint32]
	case 8:
		return copyStrided[uint64]
	case 16:
		return copyStrided[[2]uint64]
	}
	elem := p.elem
	return func(dst, src unsafe.Pointer, rows, cols loop) {
		for i := 0; i < rows.n; i++ {
			d := unsafe.Slice((*byte)(unsafe.Add(dst, i*rows.dst)), cols.n*elem)
			s := unsafe.Add(src, i*rows.src)
			for j := 0; j < cols.n; j++ {
				copy(d[j*elem:(j+1)*elem], unsafe.Slice((*byte)(unsafe.Add(s, j*cols.src)), elem))
			}
		}
	}
}

// copyRuns copies rows.n runs of cols.n contiguous bytes. It equals
//
//	for i := range rows.n { copy(dst[i*rows.dst:][:cols.n], src[i*rows.src:][:cols.n]) }
func copyRuns(dst, src unsafe.Pointer, rows, cols loop) {
	for i := 0; i < rows.n; i++ {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, i*rows.dst)), cols.n),
			unsafe.Slice((*byte)(unsafe.Add(src, i*rows.src)), cols.n))
	}
}

// copyStrided copies a rows.n × cols.n block of elements of type E; the
// destination is contiguous along cols. It equals
//
//	for i := range rows.n { for j := range cols.n { dst[i*rows.dst + j*size] = src[i*rows.src + j*cols.src] } }
//
// When rows is the source's contiguous axis and the block is a small tile,
// this is the cache-tiled transpose: the tile's source lines stay in L1
// while the writes stream along cols.
func copyStrided[E any](dst, src unsafe.Pointer, rows, cols loop) {
	for i := 0; i < rows.n; i++ {
		d := unsafe.Slice((*E)(unsafe.Add(dst, i*rows.dst)), cols.n)
		s := unsafe.Add(src, i*rows.src)
		for j := range d {
			d[j] = *(*E)(unsafe.Add(s, j*cols.src))
		}
	}
}

// scatterBody picks the kernelScatter loop for the plan's element size.
func (p *plan) scatterBody() blockFunc {
	switch p.elem {
	case 1:
		return copyScatter[uint8]
	case 2:
		return copyScatter[uint16]
	case 4:
		return copyScatter[uint32]
	case 8:
		return copyScatter[uint64]
	case 16:
		return copyScatter[[2]uint64]
	}
	elem := p.elem
	return func(dst, src unsafe.Pointer, rows, cols loop) {
		for i := 0; i < rows.n; i++ {
			d, s := unsafe.Add(dst, i*rows.dst), unsafe.Add(src, i*rows.src)
			for j := 0; j < cols.n; j++ {
				copy(unsafe.Slice((*byte)(unsafe.Add(d, j*cols.dst)), elem), unsafe.Slice((*byte)(unsafe.Add(s, j*cols.src)), elem))
			}
		}
	}
}

// copyScatter copies a rows.n × cols.n block of elements of type E with
// byte steps on both sides. It equals
//
//	for i := range rows.n { for j := range cols.n { dst[i*rows.dst + j*cols.dst] = src[i*rows.src + j*cols.src] } }
func copyScatter[E any](dst, src unsafe.Pointer, rows, cols loop) {
	for i := 0; i < rows.n; i++ {
		d, s := unsafe.Add(dst, i*rows.dst), unsafe.Add(src, i*rows.src)
		for j := 0; j < cols.n; j++ {
			*(*E)(unsafe.Add(d, j*cols.dst)) = *(*E)(unsafe.Add(s, j*cols.src))
		}
	}
}
