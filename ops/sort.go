package ops

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"strider/internal/dtype"
)

// NaNs says where Sort puts NaNs.
type NaNs int

const (
	// NaNsDefault puts NaNs last when ascending and first when descending,
	// as torch.sort(descending=True, stable=True) does.
	NaNsDefault NaNs = iota
	// NaNsFirst puts NaNs before everything else, in either direction.
	NaNsFirst
	// NaNsLast puts NaNs after everything else, in either direction.
	NaNsLast
)

// Order says in which order Sort puts the elements; what they are comes
// from the dtype Sort is given.
type Order struct {
	// Descending sorts from greatest to least; equal elements still keep
	// their input order.
	Descending bool
	// NaNs places the NaNs; a complex number is a NaN when either part is.
	NaNs NaNs
}

// nansFirst reports whether the NaNs end up before the numbers.
func (o Order) nansFirst() bool {
	return o.NaNs == NaNsFirst || o.NaNs == NaNsDefault && o.Descending
}

// Sort writes the elements of v, of dtype d, sorted along axis, in C order, to vals and
// the int64 (native byte order) positions they came from to idx: vals is
// numpy.sort(v, axis, kind='stable') and idx is
// numpy.argsort(v, axis, kind='stable'). Either destination may be nil; the
// other must hold v.Count() elements (8 bytes each for idx). Neither may
// overlap v.Data.
//
// The order is total and stable: equal elements keep their input order in
// both directions (so a descending sort is torch.sort(descending=True,
// stable=True), not the reverse of the ascending one). NaN is greater than
// every number and NaNs are equal to each other, unless ord.NaNs places
// them; -0.0 equals +0.0; complex numbers compare by (real, imag) with
// NumPy's rule for NaNs: R+Rj < R+nanj < nan+Rj < nan+nanj, each group
// ordered by its non-NaN part. Bools compare by their byte, as NumPy's do.
// Elements move as stored bytes, so NaN payloads and the sign of zero are
// kept.
//
// Each strip along axis becomes a buffer of order-preserving unsigned keys
// (see codec) sorted by a radix sort (see radix), or by insertion sort when
// short. When only values are wanted, the keys alone are sorted and decoded
// back to values (the elements of -0.0 and NaN, whose keys are shared, are
// put back in input order); otherwise each key carries its position, packed
// into one word when the bits allow, and the positions are the indices.
// Strips run on separate threads; strided strips whose neighbours are
// neighbours in memory are gathered and written back in blocks, as tiles; a
// long strip that has the machine to itself is sorted with every thread.
// sortNaive in the tests is the oracle: sort.SliceStable with the rules
// above written out as a comparator.
func Sort(vals, idx []byte, v View, axis int, d dtype.Dtype, ord Order, opt Options) error {
	if err := checkSortArgs(vals, idx, v, axis, d); err != nil {
		return err
	}
	if v.Count() == 0 || vals == nil && idx == nil {
		return nil
	}
	sp := newSortPlan(v.Shape, axis, v.Elem, opt)
	p := newStripPlan(v, axis)
	out := stripOut{}
	if vals != nil {
		out.vals = unsafe.Pointer(unsafe.SliceData(vals))
	}
	if idx != nil {
		out.idx = unsafe.Pointer(unsafe.SliceData(idx))
	}
	src := unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem)
	newWorker := workerFor(d, ord, sp.tune)
	perStrip := (len(vals) + len(idx)) / p.count
	if sp.long {
		// Few long strips: one at a time, each with every thread.
		w := newWorker(p.n)
		p.walk(0, p.count, func(so, do int) {
			sortLong(w, p.strip(src, so, out, do, v.Elem), sp.threads, perStrip, opt.Done)
		})
		return nil
	}
	block := p.blockSize(v.Elem, sp.tune)
	parallel(p.count, sp.threads, func(lo, hi int) {
		w := newWorker(p.n)
		if block > 1 {
			b := newBlocker(p, w, v.Elem, block, src, out)
			p.walk(lo, hi, b.add)
			b.flush()
		} else if p.n >= sp.tune.parallelSortMin {
			p.walk(lo, hi, func(so, do int) {
				sortLong(w, p.strip(src, so, out, do, v.Elem), 1, perStrip, opt.Done)
			})
			return
		} else {
			p.walk(lo, hi, func(so, do int) {
				w.sort(p.strip(src, so, out, do, v.Elem), 1)
			})
		}
		if opt.Done != nil {
			opt.Done.Add(int64((hi - lo) * perStrip))
		}
	})
	return nil
}

// checkSortArgs verifies Sort's arguments.
func checkSortArgs(vals, idx []byte, v View, axis int, d dtype.Dtype) error {
	if err := v.Check(); err != nil {
		return err
	}
	if err := d.CheckElem(v.Elem); err != nil {
		return err
	}
	if axis < 0 || axis >= len(v.Shape) {
		return fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, len(v.Shape))
	}
	count := v.Count()
	if vals != nil && len(vals) != count*v.Elem {
		return fmt.Errorf("value destination holds %d bytes, the sort writes %d", len(vals), count*v.Elem)
	}
	if idx != nil && len(idx) != count*8 {
		return fmt.Errorf("index destination holds %d bytes, the sort writes %d", len(idx), count*8)
	}
	return nil
}

// sortPlan is how Sort spreads a sort over threads, decided from the shape
// alone; SortScratch reads the same plan, so its estimate follows the
// dispatch.
type sortPlan struct {
	n, strips int64 // elements per strip, and strips
	threads   int   // goroutines sharing the strips, or one long strip
	// long: fewer strips than threads, each at least tune.parallelSortMin
	// long, so they are sorted one at a time, each with every thread.
	long bool
	tune *tuning
}

// newSortPlan plans the sort of an array of shape along axis with elements
// of elem bytes; shape must hold elements.
func newSortPlan(shape []int, axis, elem int, opt Options) sortPlan {
	sp := sortPlan{n: int64(shape[axis]), strips: 1, threads: opt.threads(), tune: opt.tuning()}
	for k, d := range shape {
		if k != axis {
			sp.strips *= int64(d)
		}
	}
	if sp.n*sp.strips*int64(elem+8) < int64(sp.tune.parallelMin) {
		sp.threads = 1
	}
	sp.long = sp.strips < int64(sp.threads) && sp.n >= int64(sp.tune.parallelSortMin)
	return sp
}

// workers is how many sorters, each with its own scratch, run at once.
func (sp sortPlan) workers() int64 {
	if sp.long {
		return 1
	}
	return min(int64(sp.threads), sp.strips)
}

// sortLong sorts one long strip, crediting its perStrip bytes to done a
// phase at a time (about four: encode, sort passes, put), so that the
// progress line moves during a long 1-D sort.
func sortLong(w sorter, s strip, threads, perStrip int, done *atomic.Int64) {
	if done == nil {
		w.sort(s, threads)
		return
	}
	s.progress = &stripProgress{done: done, unit: int64(perStrip) / 4, left: int64(perStrip)}
	w.sort(s, threads)
	done.Add(s.progress.left)
}

// stripPlan walks the strips along one axis: the other axes, in C order,
// give each strip's first element in the source and in the C-order
// destination.
type stripPlan struct {
	n        int // elements per strip
	count    int // number of strips
	srcStep  int // elements between neighbours of a strip in the source
	dstStep  int // the same in the destination
	shape    []int
	src, dst []int // strides of the other axes, in elements
	calc     OffsetCalculator
}

func newStripPlan(v View, axis int) *stripPlan {
	cs := CStrides(v.Shape)
	p := &stripPlan{n: v.Shape[axis], srcStep: v.Strides[axis], dstStep: cs[axis]}
	for k := range v.Shape {
		if k != axis {
			p.shape = append(p.shape, v.Shape[k])
			p.src = append(p.src, v.Strides[k])
			p.dst = append(p.dst, cs[k])
		}
	}
	p.count = Count(p.shape)
	p.calc = NewOffsetCalculator(p.shape, p.src, p.dst)
	return p
}

// walk calls f with the source and destination element offsets of strips
// lo..hi-1.
func (p *stripPlan) walk(lo, hi int, f func(src, dst int)) {
	if lo >= hi {
		return
	}
	idx := make([]int, len(p.shape))
	so, do := p.calc.Index(lo, idx)
	for s := lo; s < hi; s++ {
		f(so, do)
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			so += p.src[k]
			do += p.dst[k]
			if idx[k] < p.shape[k] {
				break
			}
			so -= p.shape[k] * p.src[k]
			do -= p.shape[k] * p.dst[k]
			idx[k] = 0
		}
	}
}

// blockSize is how many strips to gather at once, or 1 not to: when a
// strip is strided in the source or the destination and neighbouring
// strips are neighbours in memory, a block of them moves as tiles, one
// cache line of each row at a time, instead of a line per element.
// t.blockBytes bounds a block's buffers; 0 turns blocks off.
func (p *stripPlan) blockSize(elem int, t *tuning) int {
	k := len(p.shape) - 1
	if k < 0 || p.count < 2 || p.n < 2 || p.srcStep == 1 && p.dstStep == 1 {
		return 1
	}
	if abs(p.src[k]) != 1 && p.dst[k] != 1 {
		return 1
	}
	b := max(4, 64/elem)
	for b > 1 && b*p.n*(2*elem+8) > t.blockBytes {
		b /= 2
	}
	return b
}

// blocker collects strips into blocks: it copies a block's strips into
// contiguous rows, sorts each row into contiguous outputs, and copies those
// to the strips' places in the destinations.
type blocker struct {
	p               *stripPlan
	w               sorter
	elem            int
	src             unsafe.Pointer
	out             stripOut
	srcs, dsts      []int // element offsets of the strips collected
	in, vals, idx   []byte
	tileIn, tileOut func(rows []byte, base unsafe.Pointer, offs []int, n, step int)
}

func newBlocker(p *stripPlan, w sorter, elem, size int, src unsafe.Pointer, out stripOut) *blocker {
	b := &blocker{p: p, w: w, elem: elem, src: src, out: out,
		srcs: make([]int, 0, size), dsts: make([]int, 0, size), in: make([]byte, size*p.n*elem)}
	b.tileIn, b.tileOut = tilers(elem)
	if out.vals != nil {
		b.vals = make([]byte, size*p.n*elem)
	}
	if out.idx != nil {
		b.idx = make([]byte, size*p.n*8)
	}
	return b
}

func (b *blocker) add(so, do int) {
	b.srcs, b.dsts = append(b.srcs, so), append(b.dsts, do)
	if len(b.srcs) == cap(b.srcs) {
		b.flush()
	}
}

func (b *blocker) flush() {
	k, n, elem := len(b.srcs), b.p.n, b.elem
	if k == 0 {
		return
	}
	b.tileIn(b.in, b.src, b.srcs, n, b.p.srcStep*elem)
	for j := 0; j < k; j++ {
		s := strip{n: n, src: unsafe.Pointer(&b.in[j*n*elem]), srcStep: elem, elem: elem, valsStep: elem, idxStep: 8}
		if b.vals != nil {
			s.vals = unsafe.Pointer(&b.vals[j*n*elem])
		}
		if b.idx != nil {
			s.idx = unsafe.Pointer(&b.idx[j*n*8])
		}
		b.w.sort(s, 1)
	}
	if b.vals != nil {
		b.tileOut(b.vals, b.out.vals, b.dsts, n, b.p.dstStep*elem)
	}
	if b.idx != nil {
		_, out8 := tilers(8)
		out8(b.idx, b.out.idx, b.dsts, n, b.p.dstStep*8)
	}
	b.srcs, b.dsts = b.srcs[:0], b.dsts[:0]
}

// tilers returns the tile copies for the element size: tileIn copies
// element i of the strip at element offset offs[j] from base (elements step
// bytes apart) to row j of rows, tileOut copies back the other way.
func tilers(elem int) (in, out func(rows []byte, base unsafe.Pointer, offs []int, n, step int)) {
	switch elem {
	case 1:
		return tileIn[uint8], tileOut[uint8]
	case 2:
		return tileIn[uint16], tileOut[uint16]
	case 4:
		return tileIn[uint32], tileOut[uint32]
	case 8:
		return tileIn[uint64], tileOut[uint64]
	}
	return tileIn[[2]uint64], tileOut[[2]uint64]
}

// tileIn equals: for i < n, for j := range offs { rows[j][i] = base[offs[j]*size + i*step] }.
func tileIn[U any](rows []byte, base unsafe.Pointer, offs []int, n, step int) {
	r := unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(rows))), len(offs)*n)
	size := int(unsafe.Sizeof(r[0]))
	for i := 0; i < n; i++ {
		for j, o := range offs {
			r[j*n+i] = *(*U)(unsafe.Add(base, o*size+i*step))
		}
	}
}

// tileOut equals: for i < n, for j := range offs { base[offs[j]*size + i*step] = rows[j][i] }.
func tileOut[U any](rows []byte, base unsafe.Pointer, offs []int, n, step int) {
	r := unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(rows))), len(offs)*n)
	size := int(unsafe.Sizeof(r[0]))
	for i := 0; i < n; i++ {
		for j, o := range offs {
			*(*U)(unsafe.Add(base, o*size+i*step)) = r[j*n+i]
		}
	}
}

// stripOut holds the destinations' first bytes; nil when not wanted.
type stripOut struct{ vals, idx unsafe.Pointer }

// strip describes one strip: n elements at src, src+srcStep, ... (steps in
// bytes), written to vals and idx with their own byte steps.
type strip struct {
	n                 int
	src               unsafe.Pointer
	srcStep           int
	vals, idx         unsafe.Pointer
	valsStep, idxStep int
	elem              int
	progress          *stripProgress // nil, or where a long strip's phases report
}

// stripProgress credits a long strip's work to Options.Done a phase at a
// time, so that the progress line moves during a long 1-D sort.
type stripProgress struct {
	done       *atomic.Int64
	unit, left int64 // bytes credited per phase, and still to credit
}

// step credits one finished phase, keeping the last share for the end.
func (p *stripProgress) step() {
	if p != nil && p.left > p.unit {
		p.done.Add(p.unit)
		p.left -= p.unit
	}
}

func (p *stripPlan) strip(src unsafe.Pointer, so int, out stripOut, do, elem int) strip {
	s := strip{n: p.n, src: unsafe.Add(src, so*elem), srcStep: p.srcStep * elem, elem: elem,
		valsStep: p.dstStep * elem, idxStep: p.dstStep * 8}
	if out.vals != nil {
		s.vals = unsafe.Add(out.vals, do*elem)
	}
	if out.idx != nil {
		s.idx = unsafe.Add(out.idx, do*8)
	}
	return s
}

// sorter sorts one strip at a time with scratch buffers sized for strips of
// the length it was made for.
type sorter interface {
	sort(s strip, threads int)
}

// workerFor returns the constructor of the sorter for the dtype.
func workerFor(d dtype.Dtype, ord Order, t *tuning) func(n int) sorter {
	if d.Kind == 'c' {
		c := newComplexCodec(d, ord)
		if d.Size == 8 {
			return func(n int) sorter { return &complexSorter[uint64]{c: c, t: t} }
		}
		return func(n int) sorter { return &complexSorter[[2]uint64]{c: c, t: t} }
	}
	c := newCodec(d, ord)
	switch d.Size {
	case 1:
		return func(n int) sorter { return &scalarSorter[uint8]{c: c, t: t} }
	case 2:
		return func(n int) sorter { return &scalarSorter[uint16]{c: c, t: t} }
	case 4:
		return func(n int) sorter { return &scalarSorter[uint32]{c: c, t: t} }
	}
	return func(n int) sorter { return &scalarSorter[uint64]{c: c, t: t} }
}

// grow returns s resized to n, reallocating only when it is too short.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n)
	}
	return s[:n]
}

// putIndex stores position i as the j-th index of the strip.
func (s strip) putIndex(j int, i uint64) {
	*(*int64)(unsafe.Add(s.idx, j*s.idxStep)) = int64(i)
}

// putValue stores the j-th value of the strip.
func putValue[U any](s strip, j int, u U) {
	*(*U)(unsafe.Add(s.vals, j*s.valsStep)) = u
}
