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
// Indices). The inner block's copy is planned once and replayed at every
// (outer, index) pair: a memmove when the block is contiguous, an element
// kernel when it is one element, the engine's strided kernels otherwise.
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
	outer := View{Elem: v.Elem, Shape: v.Shape[:axis], Strides: v.Strides[:axis]}
	inner := View{Elem: v.Elem, Shape: v.Shape[axis+1:], Strides: v.Strides[axis+1:], Data: v.Data}
	no, ni, m := outer.Count(), inner.Count(), len(idx)
	if want := no * m * ni * v.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, take writes %d", len(dst), want)
	}
	if len(dst) == 0 {
		return nil
	}
	block := ni * v.Elem
	sa := v.Strides[axis] * v.Elem
	ocalc := NewOffsetCalculator(outer.Shape, byteStrides(outer))
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem)
	dstBase := unsafe.Pointer(unsafe.SliceData(dst))
	threads := opt.threads()
	if len(dst) < parallelMin {
		threads = 1
	}

	if ni == 1 {
		// One element per index: a tight loop over the indices per outer row.
		gather := pickGather(v.Elem)
		parallel(no, threads, func(lo, hi int) {
			oidx := make([]int, len(outer.Shape))
			for o := lo; o < hi; o++ {
				off, _ := ocalc.Index(o, oidx)
				gather(unsafe.Add(dstBase, o*m*v.Elem), unsafe.Add(srcBase, off), idx, sa)
			}
			opt.advance((hi - lo) * m * v.Elem)
		})
		return nil
	}

	p := makePlan(inner, dstBase)
	// Items are (outer, index) pairs. With enough of them, threads split the
	// pairs; with few large blocks, each block's copy uses every thread.
	items := no * m
	blockThreads := 1
	if items < 4*threads {
		blockThreads, threads = threads, 1
	}
	parallel(items, threads, func(lo, hi int) {
		oidx := make([]int, len(outer.Shape))
		for it := lo; it < hi; it++ {
			o, j := it/m, it%m
			off, _ := ocalc.Index(o, oidx)
			src := unsafe.Add(srcBase, off+idx[j]*sa+p.base)
			p.runAt(unsafe.Add(dstBase, it*block), src, blockThreads, opt.Done)
		}
	})
	return nil
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
	if len(dst) < parallelMin {
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
	calc := NewOffsetCalculator(v.Shape, v.Strides)
	srcBase := unsafe.Add(unsafe.Pointer(unsafe.SliceData(v.Data)), v.Offset*v.Elem)
	dstBase := unsafe.Pointer(unsafe.SliceData(dst))
	threads := opt.threads()
	if len(dst) < parallelMin {
		threads = 1
	}
	gather := pickGather(v.Elem)
	const batch = 1024
	parallel(ceilDiv(len(idx), batch), threads, func(lo, hi int) {
		pos := make([]int, len(v.Shape))
		offs := make([]int, batch)
		for b := lo; b < hi; b++ {
			ks := idx[b*batch : min(len(idx), (b+1)*batch)]
			for j, k := range ks {
				offs[j], _ = calc.Index(k, pos)
			}
			gather(unsafe.Add(dstBase, b*batch*v.Elem), srcBase, offs[:len(ks)], v.Elem)
			opt.advance(len(ks) * v.Elem)
		}
	})
	return nil
}
