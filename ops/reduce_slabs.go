package ops

import "sync/atomic"

// Variances by slabs. var, std, nanvar and nanstd read their input twice
// (the mean, then the squared deviations from it). Where each result
// depends on a part of the input alone (a C-contiguous float array whose
// reduced axes are its last ones: one row; or its first ones: one
// column), the parts are taken a slab at a time, the slab small enough
// that its second pass finds it in the cache: the input then comes from
// memory once. Each slab is the same reduction of a view of its part, so
// each result is summed as the whole call sums it (TestVarianceSlabsMatchWhole
// checks the bits against the whole call). The warnings are not: NumPy
// raises them ufunc by ufunc over the whole array, so a call whose slabs
// raise any runs again whole.

// slabbedVariance reports whether it wrote c's result into dst (C order)
// slab by slab: false where c is not such a call, or where a slab raised
// a warning or failed (the caller then runs c whole).
func (c *reduceCall) slabbedVariance(dst []byte) bool {
	in := c.in
	switch {
	case c.all, c.hasArg, len(in.Shape) < 2:
		return false
	case c.op != ReduceVar && c.op != ReduceStd && c.op != ReduceNanvar && c.op != ReduceNanstd:
		return false
	case c.dt.Kind != 'f' || c.dt.Size < 4 || c.dt.BigEndian():
		return false
	}
	if isC, _ := in.Contiguity(); !isC {
		return false
	}
	lead := 1 // the first axes, all reduced or all kept, then the others
	for lead < len(in.Shape) && c.red[lead] == c.red[0] {
		lead++
	}
	for k := lead; k < len(in.Shape); k++ {
		if c.red[k] == c.red[0] {
			return false
		}
	}
	if lead == len(in.Shape) {
		return false
	}
	if c.red[0] {
		return c.byColumns(dst, lead)
	}
	return c.byRows(dst)
}

// byRows reduces the last axes of c a slab of rows (indices of axis 0)
// at a time.
func (c *reduceCall) byRows(dst []byte) bool {
	in, slab := c.in, c.opt.tuning().varSlab
	rowBytes := in.Elem * Count(in.Shape[1:])
	if slab <= 0 || rowBytes == 0 || rowBytes > slab {
		return false
	}
	rows := max(1, slab/rowBytes)
	slabs := (in.Shape[0] + rows - 1) / rows
	if slabs < 2*c.opt.threads() {
		return false
	}
	outRow := len(dst) / in.Shape[0] // result bytes per index of axis 0
	return c.bySlabs(slabs, func(s int) (reduceCall, []byte) {
		first, n := s*rows, min(rows, in.Shape[0]-s*rows)
		sub := *c
		sub.in = View{Elem: in.Elem, Shape: append([]int{n}, in.Shape[1:]...), Strides: in.Strides,
			Offset: in.Offset + first*in.Strides[0], Data: in.Data}
		return sub, dst[first*outRow : (first+n)*outRow]
	})
}

// byColumns reduces the first lead axes of c a block of columns at a
// time: the kept (last) axes, taken as one, are cut into blocks, each
// reduced over every row as its own call (NumPy adds a column's elements
// one row after another, whatever the columns beside it). A block of 8192
// rows of 256 MiB is 64 MiB, which the Xeon's L3 holds; see
// tuning.varColumns.
func (c *reduceCall) byColumns(dst []byte, lead int) bool {
	in, slab := c.in, c.opt.tuning().varColumns
	if slab <= 0 {
		return false
	}
	cols := Count(in.Shape[lead:])
	w := max(2, slab/in.Elem)
	blocks := cols / w // of w to 2w-1 columns: one column alone would be one strided call
	if blocks < 2*c.opt.threads() {
		return false
	}
	size := len(dst) / cols
	return c.bySlabs(blocks, func(b int) (reduceCall, []byte) {
		first := b * cols / blocks
		n := (b+1)*cols/blocks - first
		sub := *c
		sub.in = View{Elem: in.Elem, Shape: append(append([]int(nil), in.Shape[:lead]...), n),
			Strides: append(append([]int(nil), in.Strides[:lead]...), 1),
			Offset:  in.Offset + first, Data: in.Data}
		sub.red = make([]bool, lead+1)
		for k := range lead {
			sub.red[k] = true
		}
		sub.keepdims = false
		return sub, dst[first*size : (first+n)*size]
	})
}

// bySlabs runs the calls slab(s) makes for s below n on c's threads, one
// thread each, and writes each result (C order) into the bytes slab
// gives with it; it reports false, stopping early, once a call fails,
// warns or gives another size of result.
func (c *reduceCall) bySlabs(n int, slab func(s int) (reduceCall, []byte)) bool {
	var failed atomic.Bool
	parallel(n, c.opt.threads(), func(lo, hi int) {
		for s := lo; s < hi && !failed.Load(); s++ {
			sub, out := slab(s)
			sub.opt.Threads, sub.nanSeen = 1, 0
			res, w, err := sub.compute()
			if err != nil || len(w.list) > 0 || Count(res.shape)*res.d.Size != len(out) {
				failed.Store(true)
				return
			}
			res.writeC(out)
		}
	})
	return !failed.Load()
}
