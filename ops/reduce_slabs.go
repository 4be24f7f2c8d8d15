package ops

import "sync/atomic"

// Variances by slabs. var, std, nanvar and nanstd read their input twice
// (the mean, then the squared deviations from it). Where each result
// depends on one row of the input alone (a C-contiguous float array whose
// reduced axes are its last ones), the rows are taken a slab at a time,
// the slab small enough that its second pass finds it in the core's cache:
// the input then comes from memory once. Each slab is the same reduction
// of a view of its rows, so each row is summed as the whole call sums it
// (NumPy's inner loop covers the reduced axes of one row and never more;
// TestVarianceSlabsMatchWhole checks the bits against the whole call).
// The warnings are not: NumPy raises them ufunc by ufunc over the whole
// array, so a call whose slabs raise any runs again whole.

// slabbedVariance reports whether it wrote c's result into dst (C order)
// slab by slab: false where c is not such a call, or where a slab raised
// a warning or failed (the caller then runs c whole).
func (c *reduceCall) slabbedVariance(dst []byte) bool {
	slab := c.opt.tuning().varSlab
	in := c.in
	switch {
	case slab <= 0, c.all, c.hasArg, len(in.Shape) < 2, c.red[0]:
		return false
	case c.op != ReduceVar && c.op != ReduceStd && c.op != ReduceNanvar && c.op != ReduceNanstd:
		return false
	case c.dt.Kind != 'f' || c.dt.Size < 4 || c.dt.BigEndian():
		return false
	}
	lead := 1 // the kept axes come first, the reduced ones last
	for lead < len(in.Shape) && !c.red[lead] {
		lead++
	}
	for k := lead; k < len(in.Shape); k++ {
		if !c.red[k] {
			return false
		}
	}
	if isC, _ := in.Contiguity(); !isC || lead == len(in.Shape) {
		return false
	}
	rowBytes := in.Elem * Count(in.Shape[1:])
	if rowBytes == 0 || rowBytes > slab || in.Shape[0] < 4 {
		return false
	}
	rows := max(1, slab/rowBytes)
	slabs := (in.Shape[0] + rows - 1) / rows
	if slabs < 2*c.opt.threads() {
		return false
	}
	outRow := len(dst) / in.Shape[0] // result bytes per index of axis 0
	var failed atomic.Bool
	parallel(slabs, c.opt.threads(), func(lo, hi int) {
		for s := lo; s < hi && !failed.Load(); s++ {
			first, n := s*rows, min(rows, in.Shape[0]-s*rows)
			sub := *c
			sub.in = View{Elem: in.Elem, Shape: append([]int{n}, in.Shape[1:]...), Strides: in.Strides,
				Offset: in.Offset + first*in.Strides[0], Data: in.Data}
			sub.opt.Threads, sub.nanSeen = 1, 0
			res, w, err := sub.compute()
			if err != nil || len(w.list) > 0 || Count(res.shape)*res.d.Size != n*outRow {
				failed.Store(true)
				return
			}
			res.writeC(dst[first*outRow : (first+n)*outRow])
		}
	})
	return !failed.Load()
}

// slabbedColumns is slabbedVariance for a C float array reduced over its
// first axes: the kept (last) axes, taken as one, are cut into blocks of
// columns, each reduced over every row as its own call (NumPy adds a
// column's elements one row after another, whatever the columns beside
// it). A block of 8192 rows of 256 MiB is 64 MiB, which the Xeon's L3
// holds; see tuning.varColumns.
func (c *reduceCall) slabbedColumns(dst []byte) bool {
	slab := c.opt.tuning().varColumns
	in := c.in
	switch {
	case slab <= 0, c.all, c.hasArg, len(in.Shape) < 2, !c.red[0]:
		return false
	case c.op != ReduceVar && c.op != ReduceStd && c.op != ReduceNanvar && c.op != ReduceNanstd:
		return false
	case c.dt.Kind != 'f' || c.dt.Size < 4 || c.dt.BigEndian():
		return false
	}
	lead := 1 // the reduced axes come first, the kept ones last
	for lead < len(in.Shape) && c.red[lead] {
		lead++
	}
	for k := lead; k < len(in.Shape); k++ {
		if c.red[k] {
			return false
		}
	}
	if isC, _ := in.Contiguity(); !isC || lead == len(in.Shape) {
		return false
	}
	cols := Count(in.Shape[lead:])
	w := max(2, slab/in.Elem)
	blocks := cols / w // of w to 2w-1 columns: one column alone would be one strided call
	if blocks < 2*c.opt.threads() {
		return false
	}
	var failed atomic.Bool
	parallel(blocks, c.opt.threads(), func(lo, hi int) {
		for b := lo; b < hi && !failed.Load(); b++ {
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
			sub.opt.Threads, sub.nanSeen, sub.keepdims = 1, 0, false
			res, warn, err := sub.compute()
			if err != nil || len(warn.list) > 0 || Count(res.shape) != n {
				failed.Store(true)
				return
			}
			res.writeC(dst[first*res.d.Size : (first+n)*res.d.Size])
		}
	})
	return !failed.Load()
}
