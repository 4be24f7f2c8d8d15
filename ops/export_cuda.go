package ops

import "strider/internal/dtype"

// This file exposes the CPU planner's decisions to package cuda, so the GPU
// kernels index exactly as the CPU ones do: the same axis merging, the same
// divisor magic numbers, the same triangle layout, the same sort keys and the
// same advanced-index offsets. Nothing here is used by package ops itself.

// CoalescedAxes returns v's axes as Copy's planner sees them before it picks
// a kernel: size-1 axes dropped and axes that move together merged (strides
// in elements, outermost first). A 0-d or one-element view has no axes.
func CoalescedAxes(v View) (shape, strides []int) {
	shape, strides, _ = mergeAxes(v.Shape, v.Strides, CStrides(v.Shape))
	return shape, strides
}

// DivisorMagic returns the multiply-high magic number and shift with which
// OffsetCalculator divides by d > 0: n/d == (mulhi(n, magic) + n) >> shift
// for 0 <= n < 2^63.
func DivisorMagic(d int) (magic uint64, shift uint) {
	v := newDivisor(d)
	return v.magic, v.shift
}

// TriLayout is the closed form of a Tri (see Tri.At): the clamped offset,
// the trapezoid's first row, its shortest row's length and its height, the
// pairs before it and in it, and the total.
type TriLayout struct {
	K, Top, Small, Height, Before, Trap, N int
}

// Layout returns the numbers Tri.At computes pairs from.
func (t Tri) Layout() TriLayout {
	return TriLayout{K: t.k, Top: t.top, Small: t.small, Height: t.height, Before: t.before, Trap: t.trap, N: t.n}
}

// SortKeys is the order-preserving key transform Sort uses for one dtype
// (see codec and complexCodec), as plain numbers a GPU kernel can apply.
// For complex dtypes Bits, Swap, Sign, Neg, Abs and Inf describe one part
// (ascending) and the Class fields the NaN classes; otherwise Class* are 0.
type SortKeys struct {
	Complex                         bool
	Bits                            uint // key width of a part (complex) or element: 8, 16, 32, 64
	Swap, Float                     bool
	Sign, Neg, Desc, Abs, Inf       uint64
	ZeroKey, NaNKey                 uint64
	ClassR, ClassN, NaNNaN, PartOne uint64 // complex: NaN classes and a part's all-ones
}

// SortKeysFor returns the key transform Sort uses for dtype d and ord; it
// fails where Sort would.
func SortKeysFor(d dtype.Dtype, ord Order) (SortKeys, error) {
	if err := d.Check(); err != nil {
		return SortKeys{}, err
	}
	if d.Kind == 'c' {
		c := newComplexCodec(d, ord)
		p := c.part
		return SortKeys{Complex: true, Bits: p.bits, Swap: c.swap, Float: true, Sign: p.sign, Neg: p.neg,
			Desc: c.desc, Abs: p.abs, Inf: p.inf, ClassR: c.classR, ClassN: c.classN, NaNNaN: c.nanNan, PartOne: c.ones}, nil
	}
	c := newCodec(d, ord)
	return SortKeys{Bits: c.bits, Swap: c.swap, Float: c.float, Sign: c.sign, Neg: c.neg, Desc: c.desc,
		Abs: c.abs, Inf: c.inf, ZeroKey: c.zeroKey, NaNKey: c.nanKey}, nil
}

// AdvancedGather describes an advanced Indexing as a gather: the result is
// out[o, j, i] = element at Rest's outer(o) + Offsets[j] + inner(i), where
// outer and inner are Rest's first Pre axes and the rest, and Offsets holds
// one element offset (relative to Rest.Offset) per position of Block, the
// broadcast index shape, in C order.
type AdvancedGather struct {
	Rest    View
	Pre     int
	Block   []int
	Offsets []int
}

// Advanced returns the gather of an advanced indexing, or false for basic
// indexing (use Basic and Copy).
func (x *Indexing) Advanced() (AdvancedGather, bool) {
	if x.gen == nil {
		return AdvancedGather{}, false
	}
	g := x.gen
	a := AdvancedGather{Rest: x.view, Pre: x.pre, Block: g.shape, Offsets: make([]int, g.count)}
	if g.count > 0 && len(g.offs) > 0 {
		g.fill(a.Offsets, 0, make([]int, len(g.shape)), make([]int, len(g.offs)))
	}
	elem := max(1, x.view.Elem)
	for j, o := range a.Offsets {
		a.Offsets[j] = o / elem // byte offsets of whole elements
	}
	return a, true
}
