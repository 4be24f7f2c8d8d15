package ops

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Options tune how an operation runs; the zero value is valid.
type Options struct {
	// Threads is the number of goroutines; 0 or less means GOMAXPROCS.
	Threads int
	// Done, when set, is advanced by the bytes written as chunks finish, so
	// a caller can report progress.
	Done *atomic.Int64
}

func (o Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// Copy writes the elements of src, in C order, into dst, which must hold
// exactly src.Count()*src.Elem bytes and must not overlap src.Data. It is
// equal to CopyNaive, only faster.
func Copy(dst []byte, src View, opt Options) error {
	if err := checkCopy(dst, src); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	p := makePlan(src, unsafe.Pointer(&dst[0]))
	p.run(dst, src.Data, opt)
	return nil
}

func checkCopy(dst []byte, src View) error {
	if err := src.Check(); err != nil {
		return err
	}
	if want := src.Count() * src.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the copy writes %d", len(dst), want)
	}
	return nil
}

// CopyNaive is the reference copy: an odometer over the source's multi-index,
// one element at a time. Every fast path is tested against it.
func CopyNaive(dst []byte, src View) error {
	if err := checkCopy(dst, src); err != nil {
		return err
	}
	n := src.Count()
	if n == 0 {
		return nil
	}
	idx := make([]int, len(src.Shape))
	off := src.Offset
	for i := 0; i < n; i++ {
		copy(dst[i*src.Elem:(i+1)*src.Elem], src.Data[off*src.Elem:(off+1)*src.Elem])
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			off += src.Strides[k]
			if idx[k] < src.Shape[k] {
				break
			}
			off -= src.Shape[k] * src.Strides[k]
			idx[k] = 0
		}
	}
	return nil
}

// Work below this many bytes runs on the calling goroutine: starting threads
// costs more than it saves.
var parallelMin = 1 << 18

// run executes the plan on the storage of its view.
func (p *plan) run(dst, src []byte, opt Options) {
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(src)), p.base)
	p.runAt(unsafe.Pointer(unsafe.SliceData(dst)), srcBase, opt.threads(), opt.Done)
}

// runAt executes the plan with the source's first element at srcBase and
// the destination at dstBase. The work items are the outer loops followed by
// the blocks of rows and cols; chunks of consecutive items go to the threads.
func (p *plan) runAt(dstBase, srcBase unsafe.Pointer, threads int, done *atomic.Int64) {
	if p.bytes == 0 {
		return
	}
	loops := make([]loop, 0, len(p.outer)+2)
	loops = append(loops, p.outer...)
	loops = append(loops,
		loop{n: ceilDiv(p.rows.n, p.rb), src: p.rb * p.rows.src, dst: p.rb * p.rows.dst},
		loop{n: ceilDiv(p.cols.n, p.cb), src: p.cb * p.cols.src, dst: p.cb * p.cols.dst})
	items := 1
	shape := make([]int, len(loops))
	for k, l := range loops {
		items *= l.n
		shape[k] = l.n
	}
	if p.cost() < parallelMin || items == 1 {
		threads = 1
	}
	calc := NewOffsetCalculator(shape, srcSteps(loops), dstSteps(loops))
	parallel(items, threads, func(lo, hi int) {
		body := p.body()
		idx := make([]int, len(loops))
		so, do := calc.Index(lo, idx)
		nr, nc := len(loops)-2, len(loops)-1
		for i := lo; i < hi; i++ {
			rows, cols := p.rows, p.cols
			rows.n = min(p.rb, p.rows.n-idx[nr]*p.rb)
			cols.n = min(p.cb, p.cols.n-idx[nc]*p.cb)
			body(unsafe.Add(dstBase, do), unsafe.Add(srcBase, so), rows, cols)
			so, do = advance(loops, idx, so, do)
		}
		if done != nil {
			done.Add(int64((hi - lo) * (p.bytes / items)))
		}
	})
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
func (p *plan) body() blockFunc {
	if p.kernel == kernelRuns {
		return copyRuns
	}
	switch p.elem {
	case 1:
		return copyTiled1
	case 2:
		return copyTiled2
	case 4:
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
