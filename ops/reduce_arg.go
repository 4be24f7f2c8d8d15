package ops

import (
	"math"
	"slices"

	"strider/internal/dtype"
)

// arg is np.argmin / np.argmax (PyArray_ArgMinMaxCommon): the axis moved
// last, each row searched from its start; int64 results in C order.
// nanFill, when nonzero, replaces NaNs first (nanargmin, nanargmax); the
// second result says whether a NaN was met then.
func (r recipe) arg(op operand, isMax bool, nanFill float64) (ndarr, bool, error) {
	c := r.c
	axis, m, outShape := r.argShape(op)
	name := "argmin"
	if isMax {
		name = "argmax"
	}
	if m == 0 {
		return ndarr{}, false, refuse("attempt to get %s of an empty sequence", name)
	}
	res := ndarr{d: dtype.Int64, shape: outShape, strides: CStrides(outShape), scalar: len(outShape) == 0}
	if r.dry {
		return res, false, nil
	}
	v := op.src
	if axis >= 0 {
		perm := []int{}
		for k := range op.src.Shape {
			if k != axis {
				perm = append(perm, k)
			}
		}
		v = v.Permute(append(perm, axis))
	}
	rows := Count(v.Shape) / m
	res.data = alloc(res.count(), dtype.Int64)
	sawNaN := argRows(v, op.dt, m, rows, argWant{isMax, op.nan, nanFill}, typed[int64](res.data), c.opt)
	return res, sawNaN, nil
}

// argShape is the axis argmin searches (-1 for all of them), the length
// m of each search and the result's shape.
func (r recipe) argShape(op operand) (axis, m int, outShape []int) {
	c := r.c
	shape := op.src.Shape
	axis = -1
	if !c.all {
		for k, red := range c.red {
			if red {
				axis = k
			}
		}
	}
	m = op.src.Count()
	if axis >= 0 {
		m = shape[axis]
		for k, n := range shape {
			if k != axis {
				outShape = append(outShape, n)
			} else if c.keepdims {
				outShape = append(outShape, 1)
			}
		}
	} else if c.keepdims {
		for range shape {
			outShape = append(outShape, 1)
		}
	}
	return axis, m, outShape
}

// nanarg is np.nanargmin / np.nanargmax: NaNs replaced by +inf (-inf), an
// all-NaN slice refused. The search runs first: where it met no NaN,
// there is no all-NaN slice to look for.
func (r recipe) nanarg(isMax bool) (ndarr, error) {
	fill := math.Inf(1)
	if isMax {
		fill = math.Inf(-1)
	}
	op := r.nanReplaced(fill)
	if op.nan {
		// np.any(np.all(np.isnan(a), axis)): an empty slice counts as
		// all NaN, a NaN-free one is known only from the values.
		outs := 1
		for k, n := range op.src.Shape {
			if !r.c.red[k] {
				outs *= n
			}
		}
		if r.c.emptyReduced() && outs > 0 {
			return ndarr{}, refuse("All-NaN slice encountered")
		}
	}
	res, sawNaN, err := r.arg(op, isMax, fill)
	if err != nil || !op.nan || r.dry {
		return res, err
	}
	if !sawNaN && r.c.nanSeen == 0 {
		r.c.nanSeen = 2
	}
	if sawNaN && r.allNaNSlice(op) {
		return ndarr{}, refuse("All-NaN slice encountered")
	}
	return res, nil
}

// allNaNSlice reports whether some output's elements are all NaN
// (np.any(np.all(np.isnan(a), axis))).
func (r recipe) allNaNSlice(op operand) bool {
	if !r.hasNaN() {
		return false
	}
	lay := newReduceLayout(op.src.Shape, op.src.Strides, r.c.red, false)
	plan := newRedPlan(op.src, lay, r.c.red, r.c.opt.tuning().reduceBuf)
	job := newRedJob(plan, op.src, op.dt, dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, ufAnd, r.c.opt)
	job.setStages(func() []stage {
		var out []uint64
		nd := dtype.NativeOf(op.dt)
		return []stage{func(in []byte, _, _ int, _ *stageFlags) []byte {
			n := len(in) / op.dt.Size
			o := bytesOf(&out, n)
			for i := 0; i < n; i++ {
				z := nd.Complex(in[i*op.dt.Size:])
				o[i] = b2u(real(z) != real(z) || imag(z) != imag(z))
			}
			return o
		}}
	})
	acc := alloc(plan.outCount, dtype.Dtype{Kind: 'b', Size: 1})
	if err := job.run(acc); err != nil {
		return false
	}
	for _, b := range acc {
		if b != 0 {
			return true
		}
	}
	return false
}

// argWant is what a search looks for: the first greatest (isMax) or
// least element, NaNs counting as fill where nan is set (nanargmin and
// nanargmax search a copy with NaNs replaced), else the first NaN.
type argWant struct {
	isMax, nan bool
	fill       float64
}

// argBest is a candidate of argmin/argmax over a run: its index, whether
// it is a NaN (which wins outright: the first NaN is the answer), and its
// value for comparing (re, im; integers in i or u). sawNaN says a NaN
// was met (and counted as fill).
type argBest struct {
	at     int
	nan    bool
	re, im float64
	i      int64
	u      uint64
	sawNaN bool
}

// argRows is PyArray_ArgMinMaxCommon's loop over the rows of v (the
// searched axis last, m long): out[r] is the index in row r of the first
// NaN (any NaN part, for complex), else of the first greatest or least
// element, +0 and -0 equal (HALF_, FLOAT_, CFLOAT_ argmax and argmin,
// BOOL_argmin's memchr). It reports whether a NaN was counted as fill.
func argRows(v View, d dtype.Dtype, m, rows int, w argWant, out []int64, opt Options) bool {
	threads := opt.threads()
	if v.Count()*v.Elem < opt.tuning().parallelMin {
		threads = 1
	}
	if len(v.Shape) == 0 {
		v = View{Elem: v.Elem, Shape: []int{1}, Strides: []int{1}, Offset: v.Offset, Data: v.Data}
	}
	flat := rows == 1 && m != v.Shape[len(v.Shape)-1]
	if flat {
		// axis=None: the C-order flattening, a single run when the view
		// allows, else the last axis's rows one after the other.
		if r, ok := v.Reshape([]int{m}); ok {
			v, flat = r, false
		}
	}
	step := v.Strides[len(v.Strides)-1]
	outer := View{Elem: v.Elem, Shape: v.Shape[:len(v.Shape)-1], Strides: v.Strides[:len(v.Strides)-1], Offset: v.Offset, Data: v.Data}
	if !flat && rows == 1 {
		best := argParts(m, threads, d, w.isMax, func(lo, hi int) argBest {
			return argSearch(v.Data, d, v.Offset, step, lo, hi, w)
		})
		out[0] = int64(best.at)
		return best.sawNaN
	}
	offs := make([]int, 0, Count(outer.Shape))
	forEachOffset(outer, func(off int) { offs = append(offs, off) })
	if flat {
		last := v.Shape[len(v.Shape)-1]
		best := argParts(len(offs), threads, d, w.isMax, func(lo, hi int) argBest {
			var best argBest
			for r := lo; r < hi; r++ {
				p := argSearch(v.Data, d, offs[r], step, 0, last, w)
				p.at += r * last
				best = argMerge(best, p, r == lo, d, w.isMax)
			}
			return best
		})
		out[0] = int64(best.at)
		return best.sawNaN
	}
	ostep := 0
	if len(outer.Shape) > 0 {
		ostep = outer.Strides[len(outer.Strides)-1]
	}
	if ostep == 1 && step != 1 && d.Kind == 'f' && d.Size >= 4 && !d.BigEndian() {
		return argColumnRows(v.Data, d, offs, step, m, w, out, threads)
	}
	return argEachRow(v.Data, d, offs, step, m, w, out, threads)
}

// argEachRow searches each row (starting at offs[r], step apart, m long)
// on its own, the rows shared out among threads.
func argEachRow(data []byte, d dtype.Dtype, offs []int, step, m int, w argWant, out []int64, threads int) bool {
	saw := make([]bool, len(offs))
	parallel(len(offs), threads, func(lo, hi int) {
		for r := lo; r < hi; r++ {
			p := argSearch(data, d, offs[r], step, 0, m, w)
			out[r], saw[r] = int64(p.at), p.sawNaN
		}
	})
	return slices.Contains(saw, true)
}

// argParts searches [0, n) in parts on threads (search(lo, hi) a part's
// best, indices counted from 0) and merges the parts in order.
func argParts(n, threads int, d dtype.Dtype, isMax bool, search func(lo, hi int) argBest) argBest {
	parts := make([]argBest, min(n, max(1, threads*4)))
	parallel(len(parts), threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			parts[c] = search(c*n/len(parts), (c+1)*n/len(parts))
		}
	})
	best := parts[0]
	for _, p := range parts[1:] {
		best = argMerge(best, p, false, d, isMax)
	}
	return best
}

// argMerge folds candidate p (later in the run) into best.
func argMerge(best, p argBest, first bool, d dtype.Dtype, isMax bool) argBest {
	saw := best.sawNaN || p.sawNaN
	if first || !best.nan && (p.nan || better(p, best, d, isMax)) {
		best = p
	}
	best.sawNaN = saw
	return best
}

// argColumnRows searches rows whose neighbours lie one element apart
// (argmax along an outer axis) side by side, a block of rows at a time,
// reading memory in order: rows r..e-1 are consecutive along the outer
// view's last axis when their offsets follow one another.
func argColumnRows(data []byte, d dtype.Dtype, offs []int, step, m int, w argWant, out []int64, threads int) bool {
	const block = 4096
	rows := len(offs)
	saw := make([]bool, ceilDiv(rows, block))
	parallel(len(saw), threads, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			r0, r1 := b*block, min(rows, (b+1)*block)
			for r := r0; r < r1; {
				e := r + 1
				for e < r1 && offs[e] == offs[e-1]+1 {
					e++
				}
				if d.Size == 4 {
					saw[b] = argColumns[float32](data, offs[r], e-r, step, m, w, out[r:e]) || saw[b]
				} else {
					saw[b] = argColumns[float64](data, offs[r], e-r, step, m, w, out[r:e]) || saw[b]
				}
				r = e
			}
		}
	})
	return slices.Contains(saw, true)
}

// forEachOffset calls f with the element offset of each element of v in C
// order (once for a 0-d view).
func forEachOffset(v View, f func(off int)) {
	n := v.Count()
	idx := make([]int, len(v.Shape))
	off := v.Offset
	for i := 0; i < n; i++ {
		f(off)
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			off += v.Strides[k]
			if idx[k] < v.Shape[k] {
				break
			}
			off -= v.Shape[k] * v.Strides[k]
			idx[k] = 0
		}
	}
}

// better reports whether candidate p beats best (both NaN-free): strictly
// greater (isMax) or smaller, so the earlier of equals stays.
func better(p, best argBest, d dtype.Dtype, isMax bool) bool {
	var c int
	switch d.Kind {
	case 'b', 'i':
		c = cmpValues(p.i, best.i)
	case 'u':
		c = cmpValues(p.u, best.u)
	case 'c':
		c = cmpValues(p.re, best.re)
		if c == 0 {
			c = cmpValues(p.im, best.im)
		}
	default:
		c = cmpValues(p.re, best.re)
	}
	if isMax {
		return c > 0
	}
	return c < 0
}

// cmpValues is -1, 0 or 1 as a is below, neither (a NaN too) or above b.
func cmpValues[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// argSearch searches elements [lo, hi) of the run at base (step apart).
func argSearch(data []byte, d dtype.Dtype, base, step, lo, hi int, w argWant) argBest {
	if d.Kind == 'f' && d.Size == 4 && !d.BigEndian() {
		return argFloat(typed[float32](data), base, step, lo, hi, w.isMax, w.nan, float32(w.fill))
	}
	if d.Kind == 'f' && d.Size == 8 && !d.BigEndian() {
		return argFloat(typed[float64](data), base, step, lo, hi, w.isMax, w.nan, w.fill)
	}
	e := d.Size
	var best argBest
	for i := lo; i < hi; i++ {
		c := argBest{at: i}
		b := data[(base+i*step)*e:]
		switch d.Kind {
		case 'b':
			c.i = int64(b2u(b[0] != 0))
		case 'i':
			c.i = int64(d.Bits(b))
		case 'u':
			c.u = d.Bits(b)
		default:
			z := d.Complex(b)
			c.re, c.im = real(z), imag(z)
			if c.re != c.re || c.im != c.im {
				if !w.nan {
					return c.withNaN()
				}
				c.re, c.im, best.sawNaN = w.fill, 0, true
			}
		}
		if i == lo || better(c, best, d, w.isMax) {
			c.sawNaN = best.sawNaN
			best = c
		}
	}
	return best
}

// withNaN is c as the NaN that ends a search.
func (c argBest) withNaN() argBest {
	c.nan = true
	return c
}

// argFloat is argSearch for native float32 and float64 (NaNs as fill
// when nan is set). A contiguous run goes a block at a time: a block with
// nothing beyond the best so far (beyondAny: a compare each, no branch
// taken) is passed over; else its extreme by value, and where that beats
// the best, a search for its first occurrence; a block that holds a NaN is
// searched element by element.
func argFloat[T float](xs []T, base, step, lo, hi int, isMax, nan bool, fill T) argBest {
	if step != 1 {
		return argScan(xs, base, step, lo, hi, isMax, nan, fill)
	}
	const block = 512
	run := xs[base+lo : base+hi]
	best := argBest{at: lo}
	var bv T
	for b0 := 0; b0 < len(run); b0 += block {
		blk := run[b0:min(b0+block, len(run))]
		if b0 > 0 && !beyondAny(blk, bv, isMax) {
			continue
		}
		m, ok := extremeOf(blk, isMax)
		at := -1 // m's first index in blk, once known
		if !ok {
			p := argScan(blk, 0, 1, 0, len(blk), isMax, nan, fill)
			if p.nan {
				p.at += lo + b0
				return p
			}
			m, at, best.sawNaN = T(p.re), p.at, true
		}
		if b0 == 0 || isMax && m > bv || !isMax && m < bv {
			if at < 0 {
				at = 0
				for blk[at] != m { // m is in blk (a zero equals either zero)
					at++
				}
			}
			bv, best.at = m, lo+b0+at
		}
	}
	best.re = float64(bv)
	return best
}

// beyondAny reports whether an element of xs is greater (isMax) or less
// than m, or a NaN: one compare each, a branch never taken but at the end.
func beyondAny[T float](xs []T, m T, isMax bool) bool {
	s := T(1)
	if !isMax {
		s = -1
	}
	m *= s
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		b := xs[i : i+4 : i+4]
		if !(s*b[0] <= m) || !(s*b[1] <= m) || !(s*b[2] <= m) || !(s*b[3] <= m) {
			return true
		}
	}
	for ; i < len(xs); i++ {
		if !(s*xs[i] <= m) {
			return true
		}
	}
	return false
}

// argScan is argFloat element by element, any step.
func argScan[T float](xs []T, base, step, lo, hi int, isMax, nan bool, fill T) argBest {
	saw := false
	get := func(i int) T {
		x := xs[base+i*step]
		if nan && x != x {
			saw = true
			return fill
		}
		return x
	}
	best := get(lo)
	at := lo
	if best != best {
		return argBest{at: lo, nan: true}
	}
	for i := lo + 1; i < hi; i++ {
		x := get(i)
		if isMax && !(x <= best) || !isMax && !(x >= best) {
			if x != x {
				return argBest{at: i, nan: true}
			}
			best, at = x, i
		}
	}
	return argBest{at: at, re: float64(best), sawNaN: saw}
}

// argColumns searches n neighbouring rows side by side: row c starts at
// element base+c and steps by step, m elements long; out[c] gets its
// index. It reports whether a NaN was counted as fill. The search runs on
// s*x (s = -1 for argmin: negation is exact) so that one compare, almost
// never passed, tests each element: it passes for an element beyond its
// row's best, a NaN, or a row whose best is its first NaN (then nothing
// changes).
func argColumns[T float](data []byte, base, n, step, m int, w argWant, out []int64) bool {
	xs := typed[T](data)
	s := T(1)
	if !w.isMax {
		s = -1
	}
	fill := s * T(w.fill) // -inf
	best := make([]T, n)
	saw := false
	for c := range best {
		best[c], out[c] = s*xs[base+c], 0
		if w.nan && best[c] != best[c] {
			best[c], saw = fill, true
		}
	}
	for i := 1; i < m; i++ {
		row := xs[base+i*step : base+i*step+n]
		best := best[:len(row)]
		for c, x := range row {
			if y := s * x; !(y <= best[c]) {
				switch {
				case best[c] != best[c]: // its first NaN, found before
				case y == y || !w.nan:
					best[c], out[c] = y, int64(i)
				default: // a NaN counts as the fill, never beyond a best
					saw = true
				}
			}
		}
	}
	return saw
}
