package cuda

import (
	"encoding/binary"
	"fmt"
	"math"

	"strider/ops"
)

// gatherPlan is one launch of the gather kernel (kernels/gather.cu):
//
//	out[e] = src[base + calc(e) + idx[(e / inner) % m] * mul]
//
// with calc over the output's shape, the index's own axes having stride 0.
type gatherPlan struct {
	shape, strides []int // the output's axes, outermost first; src strides
	inner, m       int   // elements per index value, index values
	idx            []int
	mul            int
	lo, hi         int // valid index values: [lo, hi)
	what           func(value, where int64) error
}

// int64Bytes encodes indices as the kernels read them.
func int64Bytes(idx []int) []byte {
	b := make([]byte, 8*len(idx))
	for k, i := range idx {
		binary.LittleEndian.PutUint64(b[8*k:], uint64(int64(i)))
	}
	return b
}

// run adds the upload of span s of v's storage and the launch, and the
// download into dst.
func (g gatherPlan) program(op string, dst []byte, v ops.View, s span) *program {
	p := newProgram(op)
	in := p.alloc("in", int64(s.count()*v.Elem), s.bytes(v.Data))
	out := p.alloc("out", int64(len(dst)), nil)
	idx := p.alloc("idx", int64(8*len(g.idx)), int64Bytes(g.idx))
	errb := p.errorFlag(g.what)
	// Merge output axes that move together (the index's axis has stride 0
	// and stays apart unless its neighbours also do not move).
	shape, strides := ops.CoalescedAxes(ops.View{Elem: v.Elem, Shape: g.shape, Strides: g.strides})
	prm := p.params("calc", calcBlock(shape, strides))
	div := p.params("div", append(divSlots(g.inner, 0, 0), divSlots(g.m, 0, 0)...))
	count := len(dst) / v.Elem
	base := v.Offset - s.lo
	use32 := fits32(count, s.count()) && g.m < math.MaxInt32
	p.launch(fmt.Sprintf("gather_%d_%s", v.Elem, width(use32)), gridFor(count, threads1D), [2]int{threads1D, 1},
		ptr(out), ptr(in), ptr(prm), ptr(div), ptr(idx), ptr(errb), ival(count), ival(g.mul),
		ival(g.lo), ival(g.hi), ival(base), ival(s.count()))
	p.download(out, 0, dst)
	return p
}

// outOfBounds is ops' message for an index outside an axis.
func outOfBounds(axis, n int) func(value, where int64) error {
	return func(value, where int64) error {
		return fmt.Errorf("index %d is out of bounds for axis %d with size %d (found by the device check at index position %d)", value, axis, n, where)
	}
}

// planTake is ops.Take: out = outer × idx × inner.
func planTake(dst []byte, v ops.View, axis int, idx []int) (*program, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	if axis < 0 || axis >= len(v.Shape) {
		return nil, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, len(v.Shape))
	}
	n := v.Shape[axis]
	for _, k := range idx {
		if k < 0 || k >= n {
			return nil, fmt.Errorf("index %d is out of bounds for axis %d with size %d", k, axis, n)
		}
	}
	shape := ops.TakeShape(v.Shape, axis, []int{len(idx)})
	if err := checkDst(dst, ops.Count(shape)*v.Elem, "take"); err != nil {
		return nil, err
	}
	if len(dst) == 0 {
		return nil, nil
	}
	strides := append([]int{}, v.Strides...)
	strides[axis] = 0
	g := gatherPlan{shape: shape, strides: strides, inner: ops.Count(v.Shape[axis+1:]), m: len(idx),
		idx: idx, mul: v.Strides[axis], lo: 0, hi: n, what: outOfBounds(axis, n)}
	return g.program("gather", dst, v, viewSpan(v)), nil
}

// planTakeAlong is ops.TakeAlongAxis: out[e] = v[e with axis replaced by
// idx[e]].
func planTakeAlong(dst []byte, v ops.View, axis int, idxShape, idx []int) (*program, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	if len(idxShape) != len(v.Shape) {
		return nil, fmt.Errorf("index has %d dimensions, the array %d", len(idxShape), len(v.Shape))
	}
	if axis < 0 || axis >= len(v.Shape) {
		return nil, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, len(v.Shape))
	}
	for k, e := range idxShape {
		if k != axis && e > v.Shape[k] {
			return nil, fmt.Errorf("index extent %d exceeds the array's %d on axis %d", e, v.Shape[k], k)
		}
	}
	count := ops.Count(idxShape)
	if len(idx) != count || len(dst) != count*v.Elem {
		return nil, fmt.Errorf("destination holds %d bytes, gather writes %d", len(dst), count*v.Elem)
	}
	if count == 0 {
		return nil, nil
	}
	n := v.Shape[axis]
	for _, k := range idx {
		if k < 0 || k >= n {
			return nil, fmt.Errorf("index %d is out of bounds for axis %d with size %d", k, axis, n)
		}
	}
	strides := append([]int{}, v.Strides...)
	strides[axis] = 0
	g := gatherPlan{shape: idxShape, strides: strides, inner: 1, m: count, idx: idx, mul: v.Strides[axis],
		lo: 0, hi: n, what: outOfBounds(axis, n)}
	return g.program("gather-elements", dst, v, viewSpan(v)), nil
}

// planIndex is (*ops.Indexing).Write: a copy for basic indexing, a gather
// of host-computed element offsets for advanced indexing.
func planIndex(dst []byte, x *ops.Indexing) (*program, error) {
	if v, ok := x.Basic(); ok {
		return planCopy(dst, v)
	}
	a, _ := x.Advanced()
	v := a.Rest
	pre, post := v.Shape[:a.Pre], v.Shape[a.Pre:]
	nb := ops.Count(a.Block)
	count := ops.Count(pre) * nb * ops.Count(post)
	if err := checkDst(dst, count*v.Elem, "the indexing"); err != nil {
		return nil, err
	}
	if count == 0 {
		return nil, nil
	}
	s := viewSpan(v)
	// The index offsets widen the span the rest of the view reaches.
	lo, hi := a.Offsets[0], a.Offsets[0]
	for _, o := range a.Offsets {
		lo, hi = min(lo, o), max(hi, o)
	}
	s.lo, s.hi = s.lo+lo, s.hi+hi
	if err := (ops.View{Elem: v.Elem, Shape: []int{s.count()}, Strides: []int{1}, Offset: s.lo, Data: v.Data}).Check(); err != nil {
		return nil, err
	}
	shape := append(append(append([]int{}, pre...), nb), post...)
	strides := append(append(append([]int{}, v.Strides[:a.Pre]...), 0), v.Strides[a.Pre:]...)
	base := v.Offset - s.lo
	g := gatherPlan{shape: shape, strides: strides, inner: ops.Count(post), m: nb, idx: a.Offsets, mul: 1,
		lo: -base, hi: s.count() - base,
		what: func(value, where int64) error {
			return fmt.Errorf("advanced index offset %d at position %d reaches outside the array (device check)", value, where)
		}}
	return g.program("slice", dst, v, s), nil
}

// planTakeFlat is ops.TakeFlat: flat C-order positions of v, turned into
// offsets on the device by an offset calculator over v's (merged) axes.
func planTakeFlat(dst []byte, v ops.View, idx []int) (*program, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	n := v.Count()
	if err := checkDst(dst, len(idx)*v.Elem, "take"); err != nil {
		return nil, err
	}
	for _, k := range idx {
		if k < 0 || k >= n {
			return nil, fmt.Errorf("index %d is out of bounds for size %d", k, n)
		}
	}
	if len(idx) == 0 {
		return nil, nil
	}
	s := viewSpan(v)
	p := newProgram("gather")
	in := p.alloc("in", int64(s.count()*v.Elem), s.bytes(v.Data))
	out := p.alloc("out", int64(len(dst)), nil)
	ib := p.alloc("idx", int64(8*len(idx)), int64Bytes(idx))
	errb := p.errorFlag(func(value, where int64) error {
		return fmt.Errorf("index %d is out of bounds for size %d (found by the device check at index position %d)", value, n, where)
	})
	shape, strides := ops.CoalescedAxes(v)
	prm := p.params("calc", calcBlock(shape, strides))
	use32 := fits32(max(n, len(idx)), s.count())
	p.launch(fmt.Sprintf("take_flat_%d_%s", v.Elem, width(use32)), gridFor(len(idx), threads1D), [2]int{threads1D, 1},
		ptr(out), ptr(in), ptr(prm), ptr(ib), ptr(errb), ival(len(idx)), ival(n), ival(v.Offset-s.lo), ival(s.count()))
	p.download(out, 0, dst)
	return p, nil
}
