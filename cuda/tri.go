package cuda

import (
	"fmt"

	"strider/ops"
)

// planTri is ops.Tri.Fill: one thread per pair computes it from the closed
// form (kernels/tri.cu mirrors Tri.At), rows in the first half of the
// output and columns in the second, as little-endian int32 or int64.
func planTri(dst []byte, t ops.Tri, elem int) (*program, error) {
	if err := t.Check(elem); err != nil {
		return nil, err
	}
	if err := checkDst(dst, 2*t.Len()*elem, "the indices"); err != nil {
		return nil, err
	}
	if t.Len() == 0 {
		return nil, nil
	}
	l := t.Layout()
	upper := 0
	if t.Upper {
		upper = 1
	}
	p := newProgram("tri")
	prm := p.params("tri", []int64{int64(upper), int64(t.Cols), int64(l.Top), int64(l.Small), int64(l.Height),
		int64(l.Before), int64(l.Trap), int64(l.N)})
	out := p.alloc("out", int64(len(dst)), nil)
	p.launch(fmt.Sprintf("tri_i%d", 8*elem), gridFor(l.N, threads1D), [2]int{threads1D, 1}, ptr(out), ptr(prm))
	p.download(out, 0, dst)
	return p, nil
}
