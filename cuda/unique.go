package cuda

import (
	"fmt"

	"strider/internal/dtype"
	"strider/ops"
)

// uniquePlan is ops.UniqueConsecutive on the GPU: a program that flags the
// rows starting a run, one byte a row, and the host's pass that turns the
// flags into the starts. prog is nil when no two rows are compared.
type uniquePlan struct {
	prog  *program
	flags []byte // one a row, downloaded; row 0 always starts a run
}

// starts are the rows whose flag is set, in order.
func (u uniquePlan) starts() []int {
	out := []int{}
	for i, f := range u.flags {
		if i == 0 || f != 0 {
			out = append(out, i)
		}
	}
	return out
}

// uniqueKind is the comparison kernels/unique.cu makes for a dtype kind:
// integers of either sign by their bits.
func uniqueKind(k byte) byte {
	if k == 'u' {
		return 'i'
	}
	return k
}

// planUnique plans ops.UniqueConsecutive(v, f, axis): rows along axis (axis
// < 0: the elements of v in C order), with ops' checks and messages.
func planUnique(v ops.View, f dtype.Dtype, axis int) (uniquePlan, error) {
	if err := v.Check(); err != nil {
		return uniquePlan{}, err
	}
	if err := f.CheckElem(v.Elem); err != nil {
		return uniquePlan{}, err
	}
	rows, w := v.Count(), v
	if axis >= 0 {
		if axis >= len(v.Shape) {
			return uniquePlan{}, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, len(v.Shape))
		}
		for k, n := range v.Shape {
			if n == 0 && k != axis {
				return uniquePlan{}, fmt.Errorf("axis %d of shape %s is empty and is not the axis %d whose rows are compared", k, ops.ShapeString(v.Shape), axis)
			}
		}
		rows = v.Shape[axis]
		perm := []int{axis}
		for k := range v.Shape {
			if k != axis {
				perm = append(perm, k)
			}
		}
		w = v.Permute(perm)
	}
	u := uniquePlan{flags: make([]byte, rows)}
	total := w.Count()
	if rows <= 1 {
		return u, nil
	}
	inner := total / rows
	s := viewSpan(w)
	shape, strides := ops.CoalescedAxes(w)
	p := newProgram("unique-consecutive")
	in := p.alloc("in", int64(s.count()*w.Elem), s.bytes(w.Data))
	flags := p.alloc("flags", int64(rows), nil)
	calc := p.params("calc", calcBlock(shape, strides))
	div := p.params("div", divSlots(inner, 0, 0))
	n := total - inner
	p.launch(fmt.Sprintf("unique_flags_%c_%s", uniqueKind(f.Kind), width(fits32(total, s.count()))), gridFor(n, threads1D), [2]int{threads1D, 1},
		ptr(flags), ptr(in), ptr(calc), ptr(div), ival(w.Offset-s.lo), ival(n), ival(inner), val(castFormat(f, f)))
	p.download(flags, 0, u.flags)
	u.prog = p
	return u, nil
}
