package cuda

import (
	"fmt"

	"strider/internal/dtype"
	"strider/ops"
)

// castFormat is the format word of kernels/convert.cuh: the source's and
// the destination's element size and whether each is byte-swapped (a
// complex dtype swaps each part). Kinds are the kernel's template
// arguments, not part of the word.
func castFormat(from, to dtype.Dtype) uint64 {
	b := func(x bool) uint64 {
		if x {
			return 1
		}
		return 0
	}
	return uint64(from.Size) | b(from.BigEndian())<<8 | uint64(to.Size)<<16 | b(to.BigEndian())<<24
}

// planCast is ops.Cast: every element of v (format from) converted to
// format to, written in C order, by the kernel for the pair of kinds
// (cast_<from kind><to kind>_<width> of kernels/cast.cu). It returns nil
// for an empty cast.
func planCast(dst []byte, to dtype.Dtype, v ops.View, from dtype.Dtype) (*program, error) {
	if err := from.Check(); err != nil {
		return nil, err
	}
	if err := to.Check(); err != nil {
		return nil, err
	}
	if err := v.Check(); err != nil {
		return nil, err
	}
	if v.Elem != from.Size {
		return nil, fmt.Errorf("%d-byte elements read as %d-byte %c", v.Elem, from.Size, from.Kind)
	}
	n := v.Count()
	if err := checkDst(dst, n*to.Size, "the cast"); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	s := viewSpan(v)
	shape, strides := ops.CoalescedAxes(v)
	p := newProgram("cast")
	in := p.alloc("in", int64(s.count()*v.Elem), s.bytes(v.Data))
	out := p.alloc("out", int64(len(dst)), nil)
	prm := p.params("calc", calcBlock(shape, strides))
	p.launch(fmt.Sprintf("cast_%c%c_%s", from.Kind, to.Kind, width(fits32(n, s.count()))), gridFor(n, threads1D), [2]int{threads1D, 1},
		ptr(out), ptr(in), ptr(prm), ival(v.Offset-s.lo), ival(n), val(castFormat(from, to)))
	p.download(out, 0, dst)
	return p, nil
}
