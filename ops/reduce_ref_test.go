package ops

import (
	"fmt"
	"math"

	"strider/internal/dtype"
)

// The reference reduction: NumPy 1.24's ufunc.reduce simulated step by
// step, slow and literal, the oracle the engine (reduce_run.go) is tested
// against. It builds the iterator as NpyIter_AdvancedNew does for
// PyUFunc_ReduceWrapper (the axes reversed into axisdata, ordered by
// npyiter_find_best_axis_ordering, the result allocated in that order,
// axes coalesced), then runs reduce_loop: NpyIter_Reset and
// npyiter_buffered_reduce_iternext with npyiter_copy_to_buffers' sizing
// (npyiter_checkreducesize, the reuse of the reduce loops) and
// reduce_loop's skipping of first visits, handing each inner-loop call to
// a literal port of the C loop (the pairwise sum with its byte strides,
// the half and complex loops). Element by element, with no shortcut the
// engine takes: the engine's claim that only the axis order, the block of
// leading reduced axes and the buffer size matter is what this checks.

// refAxis is one axisdata entry: its length, the iterator's coordinate
// and the strides of op0 (the result) and op1 (the input), in elements.
type refAxis struct {
	n, idx int
	s      [2]int
}

type refIter struct {
	ax       []refAxis // axisdata: innermost first
	itersize int
	bufsize  int
	// copy_to_buffers state
	iterindex, size       int
	reducePos, outerSize  int
	outerDim              int
	reuse                 bool
	bufNever1             bool // op1 NPY_OP_ITFLAG_BUFNEVER
	bufStride1            int  // NBF_STRIDES[1] when BUFNEVER
	cast1                 bool // op1 needs a cast or byte swap
	outStrides, outShape  []int
	outerStride0          int // NBF_REDUCE_OUTERSTRIDES[0]
	transfer, innerStride int
	onestride             bool
}

// newRefIter builds the iterator for reducing an array of shape and element
// strides (those of the array NumPy reduces) over red.
func newRefIter(shape, strides []int, red []bool, keepdims bool, bufsize int, cast bool) *refIter {
	nd := len(shape)
	it := &refIter{cast1: cast}
	// npyiter_fill_axisdata: axisdata[i] is axis nd-1-i; op0 (not yet
	// allocated) has stride 0; op1 stride 0 along an axis of length 1.
	ad := make([]refAxis, nd)
	for i := range ad {
		k := nd - 1 - i
		ad[i].n = shape[k]
		if shape[k] != 1 {
			ad[i].s[1] = strides[k]
		}
	}
	// npyiter_find_best_axis_ordering, on perm over axisdata positions.
	perm := make([]int, nd)
	for i := range perm {
		perm[i] = i
	}
	for ax0 := 1; ax0 < nd; ax0++ {
		ipos := ax0
		j0 := perm[ax0]
		s0 := ad[j0].s
		for ax1 := ax0 - 1; ax1 >= 0; ax1-- {
			ambig, shouldswap := true, false
			s1 := ad[perm[ax1]].s
			for op := 0; op < 2; op++ {
				if s0[op] != 0 && s1[op] != 0 {
					if refAbs(s1[op]) <= refAbs(s0[op]) {
						shouldswap = false
					} else if ambig {
						shouldswap = true
					}
					ambig = false
				}
			}
			if !ambig {
				if shouldswap {
					ipos = ax1
				} else {
					break
				}
			}
		}
		if ipos != ax0 {
			for ax1 := ax0; ax1 > ipos; ax1-- {
				perm[ax1] = perm[ax1-1]
			}
			perm[ipos] = j0
		}
	}
	sorted := make([]refAxis, nd)
	orig := make([]int, nd) // the original axis of each sorted position
	for i, p := range perm {
		sorted[i] = ad[p]
		orig[i] = nd - 1 - p
	}
	// npyiter_new_temp_array with op_axes (REDUCTION_AXIS(-1) for reduced
	// axes without keepdims), then npyiter_replace_axisdata.
	outAxis := make([]int, nd)
	for k := 0; k < nd; k++ {
		switch {
		case red[k] && !keepdims:
			outAxis[k] = -1
		default:
			outAxis[k] = len(it.outShape)
			n := shape[k]
			if red[k] {
				n = 1
			}
			it.outShape = append(it.outShape, n)
		}
	}
	it.outStrides = make([]int, len(it.outShape))
	stride := 1
	for i := range sorted {
		if o := outAxis[orig[i]]; o >= 0 {
			it.outStrides[o] = stride
			stride *= it.outShape[o]
		}
	}
	for i := range sorted {
		if o := outAxis[orig[i]]; o >= 0 && it.outShape[o] != 1 {
			sorted[i].s[0] = it.outStrides[o]
		}
	}
	// npyiter_allocate_arrays: op1's BUFNEVER, on the axes before
	// coalescing.
	if !cast {
		if nd <= 1 {
			it.bufNever1 = true
			if nd == 1 {
				it.bufStride1 = sorted[0].s[1]
			}
		} else {
			innerStride, innerShape := 0, 1
			idim := 0
			for ; idim < nd; idim++ {
				innerShape = sorted[idim].n
				if innerShape != 1 {
					innerStride = sorted[idim].s[1]
					break
				}
			}
			idim++
			for ; idim < nd; idim++ {
				if sorted[idim].n != 1 {
					if innerStride*innerShape != sorted[idim].s[1] {
						break
					}
					innerShape *= sorted[idim].n
				}
			}
			if idim >= nd {
				it.bufNever1, it.bufStride1 = true, innerStride
			}
		}
	}
	// npyiter_coalesce_axes.
	if nd > 1 {
		out := []refAxis{sorted[0]}
		for i := 1; i < nd; i++ {
			c := &out[len(out)-1]
			a := sorted[i]
			can := true
			for op := 0; op < 2; op++ {
				if !(c.n == 1 && c.s[op] == 0 || a.n == 1 && a.s[op] == 0) && c.s[op]*c.n != a.s[op] {
					can = false
				}
			}
			if can {
				c.n *= a.n
				for op := 0; op < 2; op++ {
					if c.s[op] == 0 {
						c.s[op] = a.s[op]
					}
				}
			} else {
				out = append(out, a)
			}
		}
		sorted = out
	}
	if len(sorted) == 0 {
		sorted = []refAxis{{n: 1}}
	}
	it.ax = sorted
	it.itersize = 1
	for _, a := range sorted {
		it.itersize *= a.n
	}
	it.bufsize = min(bufsize, it.itersize)
	return it
}

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// gotoIndex is npyiter_goto_iterindex: the coordinates of iteration index i.
func (it *refIter) gotoIndex(i int) {
	it.iterindex = i
	for a := range it.ax {
		it.ax[a].idx = i % it.ax[a].n
		i /= it.ax[a].n
	}
}

// checkReduceSize is npyiter_checkreducesize.
func (it *refIter) checkReduceSize(count int) (int, int, int) {
	nd := len(it.ax)
	outerDim := 0
	if nd == 1 || count == 0 {
		return count, count, outerDim
	}
	// op0 is the only REDUCE operand.
	stride0 := it.ax[0].s[0] == 0
	reducespace := 1 + it.ax[0].n - it.ax[0].idx - 1
	factor := it.ax[0].n
	nonzero := it.ax[0].idx != 0
	idim := 1
	inner := 0
	broke := false
	for ; idim < nd && reducespace < count; idim++ {
		s := it.ax[idim].s[0]
		if stride0 && s != 0 || !stride0 && s == 0 {
			if count <= reducespace {
				it.reuse = true
				return count, count, outerDim
			} else if nonzero {
				count = min(count, reducespace)
				it.reuse = false
				return count, count, outerDim
			}
			inner = reducespace
			broke = true
			break
		}
		if it.ax[idim].idx != 0 {
			nonzero = true
		}
		reducespace += (it.ax[idim].n - it.ax[idim].idx - 1) * factor
		factor *= it.ax[idim].n
	}
	_ = broke
	if nonzero || count < reducespace || idim == nd {
		count = min(count, reducespace)
		it.reuse = false
		return count, count, outerDim
	}
	coord := it.ax[idim].idx
	it.reuse = coord == 0
	inner = reducespace
	count /= reducespace
	outerDim = idim
	reducespace, factor = 1, 1
	stride0 = it.ax[idim].s[0] == 0
	reducespace += (it.ax[idim].n - coord - 1) * factor
	factor *= it.ax[idim].n
	idim++
	for ; idim < nd && reducespace < count; idim++ {
		s := it.ax[idim].s[0]
		if stride0 && s != 0 || !stride0 && s == 0 {
			if count <= reducespace {
				return count * inner, inner, outerDim
			}
			return reducespace * inner, inner, outerDim
		}
		if it.ax[idim].idx != 0 {
			nonzero = true
		}
		reducespace += (it.ax[idim].n - it.ax[idim].idx - 1) * factor
		factor *= it.ax[idim].n
	}
	count = min(count, reducespace)
	return count * inner, inner, outerDim
}

// copyToBuffers is the sizing part of npyiter_copy_to_buffers; first is
// true for NpyIter_Reset's call (prev_dataptrs NULL).
func (it *refIter) copyToBuffers(first bool) {
	transfer := min(it.bufsize, it.itersize-it.iterindex)
	reuse := !first && it.reuse
	if reuse {
		inner := it.size
		it.reducePos = 0
		outer := it.ax[it.outerDim]
		it.outerSize = outer.n - outer.idx
		full := it.outerSize * inner
		if full > it.bufsize {
			it.outerSize = transfer / inner
			transfer = it.outerSize * inner
		} else {
			transfer = full
		}
	} else {
		var inner, outerDim int
		transfer, inner, outerDim = it.checkReduceSize(transfer)
		it.size, it.reducePos, it.outerDim = inner, 0, outerDim
		if inner == 0 {
			it.outerSize = 0
		} else {
			it.outerSize = transfer / inner
		}
	}
	it.transfer = transfer
	single := min(it.ax[0].n-it.ax[0].idx, it.itersize-it.iterindex)
	it.onestride = single >= transfer
	// NBF_REDUCE_OUTERSTRIDES[0], for IsFirstVisit: op0 is a REDUCE
	// operand without cast.
	outerAx := it.ax[min(it.outerDim, len(it.ax)-1)]
	switch {
	case it.ax[0].s[0] == 0 && it.onestride:
		it.outerStride0 = 0
	case it.ax[0].s[0] == 0 && it.outerDim > 0 && transfer/max(it.size, 1) <= outerAx.n-outerAx.idx:
		it.outerStride0 = outerAx.s[0]
	case it.ax[0].s[0] == 0:
		it.outerStride0 = 0
		if outerAx.s[0] != 0 {
			it.outerStride0 = 1
		}
	case it.onestride:
		it.outerStride0 = 0
	case it.outerDim == 1 && transfer/max(it.size, 1) <= outerAx.n-outerAx.idx:
		it.outerStride0 = outerAx.s[0]
	default:
		it.outerStride0 = 0
		if outerAx.s[0] != 0 {
			it.outerStride0 = it.size
		}
	}
	// op1: how its inner loop sees the values.
	switch {
	case it.cast1:
		it.innerStride = 1 // a buffer
	case it.bufNever1:
		it.innerStride = it.bufStride1
	case it.onestride:
		it.innerStride = it.ax[0].s[1]
	case it.outerDim == 1 && transfer/max(it.size, 1) <= outerAx.n-outerAx.idx:
		it.innerStride = it.ax[0].s[1]
	default:
		it.innerStride = 1 // a buffer
	}
}

// firstVisit is NpyIter_IsFirstVisit(iter, 0).
func (it *refIter) firstVisit() bool {
	for _, a := range it.ax {
		if a.s[0] == 0 && a.idx != 0 {
			return false
		}
	}
	return !(it.reducePos != 0 && it.outerStride0 == 0)
}

// refCall is one inner-loop call: iteration indices [start, start+n), the
// result's stride in the loop (0: every value folds into one result) and
// whether the input values lie one element apart.
type refCall struct {
	start, n     int
	reduce       bool
	contiguous   bool
	firstVisit   bool
	outPos       []int
	inOff        []int
	iterElements int
}

// calls runs the iteration and returns every inner-loop call.
func (it *refIter) calls() []refCall {
	if it.itersize == 0 {
		return nil
	}
	var out []refCall
	it.gotoIndex(0)
	it.copyToBuffers(true)
	for {
		c := refCall{start: it.iterindex, n: it.size, reduce: it.ax[0].s[0] == 0,
			contiguous: it.innerStride == 1, firstVisit: it.firstVisit()}
		for i := c.start; i < c.start+c.n; i++ {
			pos, off := it.element(i)
			c.outPos = append(c.outPos, pos)
			c.inOff = append(c.inOff, off)
		}
		out = append(out, c)
		// npyiter_buffered_reduce_iternext (external loop).
		it.iterindex += it.size
		if it.reducePos++; it.reducePos < it.outerSize {
			continue
		}
		if it.iterindex >= it.itersize {
			return out
		}
		it.gotoIndex(it.iterindex)
		it.copyToBuffers(false)
	}
}

// element is the result position and input offset of iteration index i.
func (it *refIter) element(i int) (pos, off int) {
	for _, a := range it.ax {
		x := i % a.n
		i /= a.n
		pos += x * a.s[0]
		off += x * a.s[1]
	}
	return pos, off
}

// refReduce is ufunc.reduce of src (dtype from; read at the offsets the
// iterator gives the array of strides layout) in loop dtype loop, by the
// literal simulation. It returns the result in NumPy's layout (positions
// by outStrides).
func refReduce(uf ufuncKind, src View, from dtype.Dtype, layout []int, red []bool, keepdims bool, loop dtype.Dtype, bufsize int, value func(b []byte) []byte) (acc []byte, outShape, outStrides []int, err error) {
	cast := !sameNative(from, loop)
	it := newRefIter(src.Shape, layout, red, keepdims, bufsize, cast)
	outShape, outStrides = it.outShape, it.outStrides
	count := Count(outShape)
	acc = make([]byte, count*loop.Size)
	// The iterator runs over layout's positions; src's elements are found
	// by the multi-index. Build the map from layout offsets to src offsets.
	srcOf := refOffsetMap(src, layout)
	get := func(off int) []byte {
		b := src.Data[srcOf[off]*src.Elem : (srcOf[off]+1)*src.Elem]
		if value != nil {
			b = value(b)
		}
		raw := append([]byte(nil), b...)
		if from.BigEndian() {
			swapParts(raw, from)
		}
		out := make([]byte, loop.Size)
		var wide []complex128
		castNative(out, raw, from, loop, &wide)
		return out
	}
	skip := 0
	if uf.hasIdentity() {
		k, _ := kernelFor(uf, loop, defaults.simd)
		k.init(acc)
	} else {
		// PyArray_CopyInitialReduceValues: the element at index 0 of each
		// reduced axis.
		for k, r := range red {
			if r && src.Shape[k] == 0 {
				return nil, nil, nil, fmt.Errorf("zero-size array to reduction operation %s which has no identity", ufuncName(uf))
			}
		}
		skip = count
		first := src
		first.Shape = append([]int(nil), src.Shape...)
		for k, r := range red {
			if r {
				first.Shape[k] = 1
			}
		}
		// Position of each kept multi-index in the result.
		forEachIndex(first.Shape, func(idx []int) {
			pos, off := 0, 0
			o := 0
			for k, i := range idx {
				off += i * layout[k]
				if !red[k] || keepdims {
					pos += i * outStrides[o]
					o++
				}
			}
			copy(acc[pos*loop.Size:], get(off))
		})
	}
	var f fpFlags
	for _, c := range it.calls() {
		n := c.n
		lo := 0
		if skip > 0 && c.firstVisit {
			if c.reduce {
				lo = 1
				skip--
			} else {
				skip -= n
				continue
			}
		}
		if lo >= n {
			continue
		}
		vals := make([]byte, 0, (n-lo)*loop.Size)
		for i := lo; i < n; i++ {
			vals = append(vals, get(c.inOff[i])...)
		}
		if c.reduce {
			refFoldReduce(uf, loop, acc, c.outPos[0], vals, c.contiguous, &f)
		} else {
			refFoldElementwise(uf, loop, acc, c.outPos[lo:], vals, &f)
		}
	}
	return acc, outShape, outStrides, nil
}

// refOffsetMap maps each offset the layout strides give a multi-index to
// src's offset of the same multi-index.
func refOffsetMap(src View, layout []int) map[int]int {
	m := map[int]int{}
	forEachIndex(src.Shape, func(idx []int) {
		lo, so := 0, src.Offset
		for k, i := range idx {
			lo += i * layout[k]
			so += i * src.Strides[k]
		}
		m[lo] = so
	})
	return m
}

// forEachIndex calls f with every multi-index of shape in C order.
func forEachIndex(shape []int, f func(idx []int)) {
	n := Count(shape)
	idx := make([]int, len(shape))
	for i := 0; i < n; i++ {
		f(idx)
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
}

// refPairwise is @TYPE@_pairwise_sum, line for line, over values a
// (float64s holding the loop type's values) with stride 1, each addition
// rounded by r and NaNs settled as x86-64 does for the C operand order.
func refPairwise(a []float64, r func(float64) float64, f *fpFlags) float64 {
	add := func(x, y float64) float64 { return refAdd(x, y, r, f) }
	n := len(a)
	if n < 8 {
		res := math.Copysign(0, -1)
		for i := 0; i < n; i++ {
			res = add(res, a[i])
		}
		return res
	}
	if n <= 128 {
		var rr [8]float64
		for j := 0; j < 8; j++ {
			rr[j] = a[j]
		}
		i := 8
		for ; i < n-(n%8); i += 8 {
			for j := 0; j < 8; j++ {
				rr[j] = add(rr[j], a[i+j])
			}
		}
		res := add(add(add(rr[0], rr[1]), add(rr[2], rr[3])), add(add(rr[4], rr[5]), add(rr[6], rr[7])))
		for ; i < n; i++ {
			res = add(res, a[i])
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return add(refPairwise(a[:n2], r, f), refPairwise(a[n2:], r, f))
}

// refAdd is x + y rounded by r (float32 or float64 arithmetic), NaNs and
// exceptions as addX settles them.
func refAdd(x, y float64, r func(float64) float64, f *fpFlags) float64 {
	s := r(x + y)
	if isFinite(s) {
		return s
	}
	if s != s {
		switch {
		case x != x:
			return x
		case y != y:
			return y
		}
		f.invalid = true
		return math.Float64frombits(0xfff8000000000000)
	}
	if isFinite(x) && isFinite(y) {
		f.overflow = true
	}
	return s
}

func refMul(x, y float64, r func(float64) float64, f *fpFlags) float64 {
	s := r(x * y)
	if isFinite(s) {
		return s
	}
	if s != s {
		switch {
		case x != x:
			return x
		case y != y:
			return y
		}
		f.invalid = true
		return math.Float64frombits(0xfff8000000000000)
	}
	if isFinite(x) && isFinite(y) {
		f.overflow = true
	}
	return s
}

// refValues decodes loop-typed values to float64s (complex: interleaved
// parts; half: its float value).
func refValues(vals []byte, d dtype.Dtype) []float64 {
	p := d
	if d.Kind == 'c' {
		p = d.Part()
	}
	var out []float64
	for i := 0; i+p.Size <= len(vals); i += p.Size {
		out = append(out, p.Float(vals[i:]))
	}
	return out
}

func refRound(d dtype.Dtype) func(float64) float64 {
	if d.Kind == 'c' {
		d = d.Part()
	}
	switch d.Size {
	case 2, 4: // half arithmetic is float arithmetic
		return func(x float64) float64 {
			if x != x {
				return float64(float32(x)) // keeps the NaN's sign
			}
			return float64(float32(x))
		}
	}
	return func(x float64) float64 { return x }
}

// refFoldReduce is one reduce call (the result's stride 0): the C loop of
// uf for loop dtype d folding vals into acc[pos].
func refFoldReduce(uf ufuncKind, d dtype.Dtype, acc []byte, pos int, vals []byte, contiguous bool, f *fpFlags) {
	a := ndarr{d: d, data: acc}
	switch {
	case d.Kind == 'f' && (uf == ufAdd || uf == ufMultiply):
		r := refRound(d)
		x := refValues(vals, d)
		io := real(a.wideAt(pos))
		if uf == ufAdd {
			io = refAdd(io, refPairwise(x, r, f), r, f)
		} else {
			for _, v := range x {
				io = refMul(io, v, r, f)
			}
		}
		refStore(a, pos, io, f)
	case d.Kind == 'c' && uf == ufAdd:
		r := refRound(d)
		x := refValues(vals, d)
		re, im := refPairwiseComplex(x, r, f)
		z := a.wideAt(pos)
		a.setWide(pos, complex(refAdd(real(z), re, r, f), refAdd(imag(z), im, r, f)))
	case (d.Kind == 'f' && d.Size > 2) && uf != ufAdd && uf != ufMultiply:
		// The min/max kernels are the SIMD model itself (reduce_kernels.go
		// ports loops_minmax.dispatch.c.src); the reference checks which
		// one NumPy's iteration hands each call to.
		k, _ := kernelFor(uf, d, defaults.simd)
		k.call(acc, pos, vals, contiguous, f)
	default:
		k, _ := kernelFor(uf, d, defaults.simd)
		k.call(acc, pos, vals, contiguous, f)
	}
}

// refStore stores a float result in acc[pos] (half through
// npy_float_to_half).
func refStore(a ndarr, pos int, x float64, f *fpFlags) {
	if a.d.Size == 2 {
		h := float32ToHalf(float32(x))
		if h&0x7fff == 0x7c00 && isFinite(x) {
			f.overflow = true
		}
		putU16(a.data[2*pos:], h)
		return
	}
	if a.d.Size == 4 {
		putU32(a.data[4*pos:], math.Float32bits(float32(x)))
		return
	}
	putU64(a.data[8*pos:], math.Float64bits(x))
}

// refPairwiseComplex is the complex pairwise sum over interleaved parts.
func refPairwiseComplex(a []float64, r func(float64) float64, f *fpFlags) (float64, float64) {
	add := func(x, y float64) float64 { return refAdd(x, y, r, f) }
	n := len(a)
	if n < 8 {
		rr, ri := math.Copysign(0, -1), math.Copysign(0, -1)
		for i := 0; i < n; i += 2 {
			rr = add(rr, a[i])
			ri = add(ri, a[i+1])
		}
		return rr, ri
	}
	if n <= 128 {
		var q [8]float64
		copy(q[:], a[:8])
		i := 8
		for ; i < n-(n%8); i += 8 {
			for j := 0; j < 8; j++ {
				q[j] = add(q[j], a[i+j])
			}
		}
		rr := add(add(q[0], q[2]), add(q[4], q[6]))
		ri := add(add(q[1], q[3]), add(q[5], q[7]))
		for ; i < n; i += 2 {
			rr = add(rr, a[i])
			ri = add(ri, a[i+1])
		}
		return rr, ri
	}
	n2 := n / 2
	n2 -= n2 % 8
	r1, i1 := refPairwiseComplex(a[:n2], r, f)
	r2, i2 := refPairwiseComplex(a[n2:], r, f)
	return add(r1, r2), add(i1, i2)
}

// refFoldElementwise is one element-by-element call: vals[i] into
// acc[poss[i]], by the C loop (for fmax/fmin the vector lanes and the
// scalar tail of simd_binary).
func refFoldElementwise(uf ufuncKind, d dtype.Dtype, acc []byte, poss []int, vals []byte, f *fpFlags) {
	k, _ := kernelFor(uf, d, defaults.simd)
	if k.rowCall != nil {
		k.rowCall(acc, poss, vals)
		return
	}
	a := ndarr{d: d, data: acc}
	for i, p := range poss {
		v := vals[i*d.Size : (i+1)*d.Size]
		switch {
		case d.Kind == 'f' && (uf == ufAdd || uf == ufMultiply):
			r := refRound(d)
			x := refValues(v, d)[0]
			io := real(a.wideAt(p))
			if uf == ufAdd {
				io = refAdd(io, x, r, f)
			} else {
				io = refMul(io, x, r, f)
			}
			refStore(a, p, io, f)
		case d.Kind == 'c' && uf == ufAdd:
			r := refRound(d)
			x := refValues(v, d)
			z := a.wideAt(p)
			a.setWide(p, complex(refAdd(real(z), x[0], r, f), refAdd(imag(z), x[1], r, f)))
		default:
			k.row(acc, p, 0, v, f)
		}
	}
}
