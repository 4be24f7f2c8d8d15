package ops

import (
	"fmt"
	"unsafe"
)

// TakeShape is the shape of numpy.take(v, idx, axis): the axis replaced by
// the index array's shape.
func TakeShape(shape []int, axis int, idxShape []int) []int {
	out := append([]int{}, shape[:axis]...)
	out = append(out, idxShape...)
	return append(out, shape[axis+1:]...)
}

// Take writes numpy.take(v, idx, axis) into dst (ONNX Gather): the source
// splits into (outer, axis, inner block) and each output block is the inner
// block at one index. idx holds resolved C-order indices in [0, n) (see
// Indices). The blocks are moved by gatherBlocks, as advanced indexing's.
func Take(dst []byte, v View, axis int, idx []int, opt Options) error {
	if err := v.Check(); err != nil {
		return err
	}
	n := v.Shape[axis]
	for _, k := range idx {
		if k < 0 || k >= n {
			return fmt.Errorf("index %d is out of bounds for axis %d with size %d", k, axis, n)
		}
	}
	rest := View{Elem: v.Elem, Data: v.Data, Offset: v.Offset,
		Shape:   append(append([]int{}, v.Shape[:axis]...), v.Shape[axis+1:]...),
		Strides: append(append([]int{}, v.Strides[:axis]...), v.Strides[axis+1:]...)}
	if want := rest.Count() * len(idx) * v.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, take writes %d", len(dst), want)
	}
	sa := v.Strides[axis] * v.Elem
	at := func() blockCursor {
		return func(_ []int, start, n int) ([]int, int) { return idx[start : start+n], sa }
	}
	gatherBlocks(dst, rest, axis, len(idx), at, opt)
	return nil
}

// blockCursor returns the byte offsets, from the outer position, of the
// gathered blocks start..start+n-1, each to be multiplied by step: a slice
// it already holds, or buf (of at least n) filled. One goroutine owns a
// cursor, which may keep scratch.
type blockCursor func(buf []int, start, n int) (offs []int, step int)

// gatherBatch is how many gathered positions get their offsets at once.
const gatherBatch = 1024

// gatherBlocks writes out[o, j, i] = v[outer(o) + at(j) + inner(i)] into
// dst, which holds exactly outer count × nb × inner count elements: the
// axes of v before pre are the outer ones, the others the inner block, and
// cursors made by newCursor give the nb block offsets at(j). It is
// numpy.take, and advanced indexing with several broadcast index arrays,
// on the same kernels: a gather loop when each block is one element, the
// copy planner's kernels replayed at every offset otherwise.
func gatherBlocks(dst []byte, v View, pre, nb int, newCursor func() blockCursor, opt Options) {
	if len(dst) == 0 {
		return
	}
	g := blockGather{v: v, nb: nb, newCursor: newCursor, opt: opt,
		outer:   View{Elem: v.Elem, Shape: v.Shape[:pre], Strides: v.Strides[:pre]},
		inner:   View{Elem: v.Elem, Shape: v.Shape[pre:], Strides: v.Strides[pre:], Data: v.Data},
		srcBase: unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem),
		dstBase: unsafe.Pointer(unsafe.SliceData(dst)),
		threads: opt.threads(),
	}
	g.calc = NewOffsetCalculator(g.outer.Shape, byteStrides(g.outer))
	for k, n := range g.outer.Shape {
		g.outerLoops = append(g.outerLoops, loop{n: n, src: g.outer.Strides[k] * v.Elem})
	}
	if len(dst) < opt.tuning().parallelMin {
		g.threads = 1
	}
	if g.inner.Count() == 1 {
		g.elements()
		return
	}
	g.blocks(dst)
}

// blockGather is one gatherBlocks call: the split of its source and the
// bases of both sides.
type blockGather struct {
	v, outer, inner  View
	nb               int
	newCursor        func() blockCursor
	opt              Options
	calc             OffsetCalculator
	outerLoops       []loop // outer's axes with byte steps, for advance
	srcBase, dstBase unsafe.Pointer
	threads          int
}

// elements gathers blocks of one element: the gather loop over batches of
// offsets, threads sharing the (outer, batch) pairs.
func (g *blockGather) elements() {
	elem, nb := g.v.Elem, g.nb
	kernel := pickGather(elem)
	no := g.outer.Count()
	batches := ceilDiv(nb, gatherBatch)
	parallel(no*batches, g.threads, func(lo, hi int) {
		oidx := make([]int, len(g.outer.Shape))
		at, buf := g.newCursor(), make([]int, gatherBatch)
		moved := 0
		if batches == 1 {
			// One batch: every outer position gathers the same offsets.
			// Take them once and step through outer with the odometer,
			// not a cursor call and a divmod per position, which cost
			// several times the copy when nb is tiny (take of [1, 0]
			// along the last axis of (4M, 2): 110 ms of CPU against a
			// reversing slice's 31 ms).
			offs, step := at(buf, 0, nb)
			ooff, _ := g.calc.Index(lo, oidx)
			for o := lo; o < hi; o++ {
				kernel(unsafe.Add(g.dstBase, o*nb*elem), unsafe.Add(g.srcBase, ooff), offs, step)
				ooff, _ = advance(g.outerLoops, oidx, ooff, 0)
			}
			if g.opt.Done != nil {
				g.opt.Done.Add(int64((hi - lo) * nb * elem))
			}
			return
		}
		for it := lo; it < hi; it++ {
			o, b := it/batches, it%batches
			j := b * gatherBatch
			ooff, _ := g.calc.Index(o, oidx)
			offs, step := at(buf, j, min(gatherBatch, nb-j))
			kernel(unsafe.Add(g.dstBase, (o*nb+j)*elem), unsafe.Add(g.srcBase, ooff), offs, step)
			moved += len(offs) * elem
		}
		if g.opt.Done != nil {
			g.opt.Done.Add(int64(moved))
		}
	})
}

// blocks gathers blocks of several elements, each copied by one plan
// replayed at every offset. With enough blocks, threads split them; with
// few large ones, each block's copy uses every thread.
func (g *blockGather) blocks(dst []byte) {
	nb := g.nb
	p := makePlan(Contiguous(g.v.Elem, g.inner.Shape, dst), g.inner)
	block := g.inner.Count() * g.v.Elem
	items := g.outer.Count() * nb
	threads, blockThreads := g.threads, 1
	if items < 4*threads {
		blockThreads, threads = threads, 1
	}
	parallel(items, threads, func(lo, hi int) {
		oidx := make([]int, len(g.outer.Shape))
		at, buf := g.newCursor(), make([]int, gatherBatch)
		for it := lo; it < hi; {
			o, j := it/nb, it%nb
			n := min(gatherBatch, nb-j, hi-it)
			ooff, _ := g.calc.Index(o, oidx)
			offs, step := at(buf, j, n)
			for k, off := range offs {
				src := unsafe.Add(g.srcBase, ooff+off*step+p.base)
				p.runAt(unsafe.Add(g.dstBase, (it+k)*block+p.dbase), src, blockThreads, g.opt)
			}
			it += n
		}
	})
}

// advance adds n bytes written to the progress counter, when there is one.
func (o Options) advance(n int) {
	if o.Done != nil {
		o.Done.Add(int64(n))
	}
}

// byteStrides is v's strides in bytes.
func byteStrides(v View) []int {
	s := make([]int, len(v.Strides))
	for k, st := range v.Strides {
		s[k] = st * v.Elem
	}
	return s
}

// gatherFunc copies src[idx[j]*step] to dst[j] for every j.
type gatherFunc func(dst, src unsafe.Pointer, idx []int, step int)

func pickGather(elem int) gatherFunc {
	switch elem {
	case 1:
		return gatherElems[uint8]
	case 2:
		return gatherElems[uint16]
	case 4:
		return gatherElems[uint32]
	case 8:
		return gatherElems[uint64]
	case 16:
		return gatherElems[[2]uint64]
	}
	return func(dst, src unsafe.Pointer, idx []int, step int) {
		for j, k := range idx {
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, j*elem)), elem), unsafe.Slice((*byte)(unsafe.Add(src, k*step)), elem))
		}
	}
}

// gatherElems equals: for j, k := range idx { dst[j] = src[k*step] }.
func gatherElems[E any](dst, src unsafe.Pointer, idx []int, step int) {
	d := unsafe.Slice((*E)(dst), len(idx))
	for j, k := range idx {
		d[j] = *(*E)(unsafe.Add(src, k*step))
	}
}

// TakeAlongAxis writes numpy.take_along_axis(v, idx, axis) = torch.gather
// (ONNX GatherElements) into dst: out[i] = v[i with axis replaced by
// idx[i]]. idxShape has v's number of dimensions and, off the axis, extents
// no larger than v's (torch's rule); idx holds its resolved C-order values.
// Threads take chunks of the output; each finds its start with the offset
// calculator.
func TakeAlongAxis(dst []byte, v View, axis int, idxShape []int, idx []int, opt Options) error {
	if err := v.Check(); err != nil {
		return err
	}
	if len(idxShape) != len(v.Shape) {
		return fmt.Errorf("index has %d dimensions, the array %d", len(idxShape), len(v.Shape))
	}
	for k, e := range idxShape {
		if k != axis && e > v.Shape[k] {
			return fmt.Errorf("index extent %d exceeds the array's %d on axis %d", e, v.Shape[k], k)
		}
	}
	count := Count(idxShape)
	if len(idx) != count || len(dst) != count*v.Elem {
		return fmt.Errorf("destination holds %d bytes, gather writes %d", len(dst), count*v.Elem)
	}
	if count == 0 {
		return nil
	}
	n := v.Shape[axis]
	for _, k := range idx {
		if k < 0 || k >= n {
			return fmt.Errorf("index %d is out of bounds for axis %d with size %d", k, axis, n)
		}
	}
	steps := byteStrides(v)
	sa := steps[axis]
	steps[axis] = 0 // the axis contributes through the index instead
	nd := len(idxShape)
	last := idxShape[nd-1]
	rowShape := idxShape[:nd-1]
	calc := NewOffsetCalculator(rowShape, steps[:nd-1])
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem)
	dstBase := unsafe.Pointer(unsafe.SliceData(dst))
	threads := opt.threads()
	if len(dst) < opt.tuning().parallelMin {
		threads = 1
	}
	kernel := pickGatherAlong(v.Elem)
	rows := count / last
	parallel(rows, threads, func(lo, hi int) {
		ridx := make([]int, len(rowShape))
		for r := lo; r < hi; r++ {
			off, _ := calc.Index(r, ridx)
			kernel(unsafe.Add(dstBase, r*last*v.Elem), unsafe.Add(srcBase, off), idx[r*last:(r+1)*last], steps[nd-1], sa)
		}
		opt.advance((hi - lo) * last * v.Elem)
	})
	return nil
}

// gatherAlongFunc copies src[j*step + idx[j]*sa] to dst[j] for every j.
type gatherAlongFunc func(dst, src unsafe.Pointer, idx []int, step, sa int)

func pickGatherAlong(elem int) gatherAlongFunc {
	switch elem {
	case 1:
		return gatherAlong[uint8]
	case 2:
		return gatherAlong[uint16]
	case 4:
		return gatherAlong[uint32]
	case 8:
		return gatherAlong[uint64]
	case 16:
		return gatherAlong[[2]uint64]
	}
	return func(dst, src unsafe.Pointer, idx []int, step, sa int) {
		for j, k := range idx {
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, j*elem)), elem), unsafe.Slice((*byte)(unsafe.Add(src, j*step+k*sa)), elem))
		}
	}
}

// gatherAlong equals: for j, k := range idx { dst[j] = src[j*step + k*sa] }.
func gatherAlong[E any](dst, src unsafe.Pointer, idx []int, step, sa int) {
	d := unsafe.Slice((*E)(dst), len(idx))
	for j, k := range idx {
		d[j] = *(*E)(unsafe.Add(src, j*step+k*sa))
	}
}

// TakeFlat writes numpy.take(v, idx) without an axis: v is read as if
// ravelled in C order, whatever its strides, so a Fortran or strided source
// needs no copy. Each flat index becomes an element offset through the
// offset calculator's precomputed divisors; idx holds resolved indices in
// [0, v.Count()).
func TakeFlat(dst []byte, v View, idx []int, opt Options) error {
	if err := v.Check(); err != nil {
		return err
	}
	n := v.Count()
	if len(dst) != len(idx)*v.Elem {
		return fmt.Errorf("destination holds %d bytes, take writes %d", len(dst), len(idx)*v.Elem)
	}
	for _, k := range idx {
		if k < 0 || k >= n {
			return fmt.Errorf("index %d is out of bounds for size %d", k, n)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	// Axes that walk memory as one (a C-contiguous view, a row of one) are
	// merged; with one left, an index is its offset times a stride.
	shape, strides, _ := mergeAxes(v.Shape, v.Strides, CStrides(v.Shape))
	calc := NewOffsetCalculator(shape, strides)
	step := 0 // the stride of a single merged axis; 0: the calculator
	if len(shape) <= 1 {
		step = 1
		if len(shape) == 1 {
			step = strides[0]
		}
	}
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem)
	dstBase := unsafe.Pointer(unsafe.SliceData(dst))
	threads := opt.threads()
	if len(dst) < opt.tuning().parallelMin {
		threads = 1
	}
	gather := pickGather(v.Elem)
	const batch = 1024
	parallel(ceilDiv(len(idx), batch), threads, func(lo, hi int) {
		pos := make([]int, len(shape))
		offs := make([]int, batch)
		for b := lo; b < hi; b++ {
			ks := idx[b*batch : min(len(idx), (b+1)*batch)]
			o := offs[:len(ks)]
			switch {
			case step == 1:
				o = ks
			case step != 0:
				for j, k := range ks {
					o[j] = k * step
				}
			default:
				for j, k := range ks {
					o[j], _ = calc.Index(k, pos)
				}
			}
			gather(unsafe.Add(dstBase, b*batch*v.Elem), srcBase, o, v.Elem)
			opt.advance(len(ks) * v.Elem)
		}
	})
	return nil
}
