package cuda

import (
	"fmt"

	"strider/ops"
)

// span is the part of a view's storage its elements lie in: elements lo
// through hi of Data. Only those bytes go to the GPU, and base is where the
// view's first element lies in them.
type span struct {
	lo, hi int // element range, inclusive
	elem   int
}

func viewSpan(v ops.View) span {
	s := span{lo: v.Offset, hi: v.Offset, elem: v.Elem}
	for k, n := range v.Shape {
		if n == 0 {
			continue
		}
		if st := v.Strides[k]; st > 0 {
			s.hi += (n - 1) * st
		} else {
			s.lo += (n - 1) * st
		}
	}
	return s
}

func (s span) count() int { return s.hi - s.lo + 1 }

// bytes is the storage to upload.
func (s span) bytes(data []byte) []byte { return data[s.lo*s.elem : (s.hi+1)*s.elem] }

// copyPlan is a strided copy after the CPU planner's axis merging
// (ops.CoalescedAxes) and, like it, with a contiguous innermost run of 2, 4,
// 8 or 16 bytes widened to one element.
type copyPlan struct {
	elem    int
	shape   []int // outermost first
	strides []int // in elements of elem bytes
	base    int   // element offset of the first element in the uploaded span
	count   int   // elements to write
	span    int   // elements of elem bytes in the uploaded span
}

func planCopyAxes(v ops.View, s span) copyPlan {
	shape, strides := ops.CoalescedAxes(v)
	c := copyPlan{elem: v.Elem, shape: shape, strides: strides, base: v.Offset - s.lo, count: v.Count(), span: s.count()}
	// Device buffers start 256-byte aligned, so a wider element is aligned
	// when the base and every step are multiples of its width.
	if m := len(shape); m > 1 && strides[m-1] == 1 {
		w := shape[m-1] * c.elem
		if w == 2 || w == 4 || w == 8 || w == 16 {
			f := w / c.elem
			ok := c.base%f == 0
			for _, st := range strides[:m-1] {
				ok = ok && st%f == 0
			}
			if ok {
				c.elem, c.base, c.count, c.span = w, c.base/f, c.count/f, c.span/f
				c.shape = shape[:m-1]
				c.strides = make([]int, m-1)
				for k, st := range strides[:m-1] {
					c.strides[k] = st / f
				}
			}
		}
	}
	return c
}

// transposeAxis is the axis, other than the last, along which the source is
// contiguous, when the last axis is not: the rows of a batch-2-D transpose
// (the innermost such axis, as the CPU planner picks). -1 when none.
func (c copyPlan) transposeAxis() int {
	m := len(c.shape)
	if m < 2 || c.strides[m-1] == 1 {
		return -1
	}
	for k := m - 2; k >= 0; k-- {
		if c.strides[k] == 1 {
			return k
		}
	}
	return -1
}

// checkDst is ops' destination size check.
func checkDst(dst []byte, want int, what string) error {
	if len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, %s writes %d", len(dst), what, want)
	}
	return nil
}

// planCopy is ops.Copy on the GPU: a device-to-device copy when the view is
// one contiguous run, the tiled transpose when the source is contiguous
// along some axis but the last, the strided copy otherwise. It returns nil
// for an empty copy.
func planCopy(dst []byte, v ops.View) (*program, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	if err := checkDst(dst, v.Count()*v.Elem, "the copy"); err != nil {
		return nil, err
	}
	if len(dst) == 0 {
		return nil, nil
	}
	s := viewSpan(v)
	c := planCopyAxes(v, s)
	p := newProgram("copy")
	in := p.alloc("in", int64(len(s.bytes(v.Data))), s.bytes(v.Data))
	out := p.alloc("out", int64(len(dst)), nil)
	p.download(out, 0, dst)
	use32 := fits32(c.count, c.span)
	m := len(c.shape)
	switch r := c.transposeAxis(); {
	case m == 0 || m == 1 && c.strides[0] == 1:
		p.copyDtoD(out, 0, in, int64(c.base*c.elem), int64(len(dst)))
	case r >= 0:
		dstStrides := ops.CStrides(c.shape)
		var bshape, bsrc, bdst []int
		for k := 0; k < m-1; k++ {
			if k != r {
				bshape = append(bshape, c.shape[k])
				bsrc = append(bsrc, c.strides[k])
				bdst = append(bdst, dstStrides[k])
			}
		}
		rows, cols := c.shape[r], c.shape[m-1]
		tilesC := ceilDiv(cols, tile)
		tilesPer := ceilDiv(rows, tile) * tilesC
		blocks := ops.Count(bshape) * tilesPer
		prm := p.params("calc", calcBlock(bshape, bsrc, bdst))
		p.launch(fmt.Sprintf("transpose_%d_%s", c.elem, width(use32)), min(blocks, maxGrid), [2]int{tile, tileRows},
			ptr(out), ptr(in), ptr(prm), ival(c.base), ival(rows), ival(cols), ival(c.strides[m-1]),
			ival(dstStrides[r]), ival(tilesC), ival(tilesPer), ival(blocks))
	default:
		prm := p.params("calc", calcBlock(c.shape, c.strides))
		p.launch(fmt.Sprintf("copy_strided_%d_%s", c.elem, width(use32)), gridFor(c.count, threads1D), [2]int{threads1D, 1},
			ptr(out), ptr(in), ptr(prm), ival(c.base), ival(c.count))
	}
	return p, nil
}

// The transpose's tile edge and thread rows (TILE and the launch's y
// threads in kernels/copy.cu).
const (
	tile     = 32
	tileRows = 8
)

func ceilDiv(a, b int) int { return (a + b - 1) / b }
