package ops

import (
	"strider/internal/dtype"
)

// argBest is a candidate of argmin/argmax over a run: its index, whether
// it is a NaN (which wins outright: the first NaN is the answer), and its
// value for comparing (re, im; integers in i or u).
type argBest struct {
	at     int
	nan    bool
	re, im float64
	i      int64
	u      uint64
}

// argRows is PyArray_ArgMinMaxCommon's loop over the rows of v (the
// searched axis last, m long): out[r] is the index in row r of the first
// NaN (any NaN part, for complex), else of the first greatest (isMax) or
// least element, +0 and -0 equal (HALF_, FLOAT_, CFLOAT_ argmax and
// argmin, BOOL_argmin's memchr). With nan, NaNs count as fill instead
// (nanargmin and nanargmax search a copy with NaNs replaced).
func argRows(v View, d dtype.Dtype, m, rows int, isMax, nan bool, fill float64, out []int64, opt Options) {
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
		if w, ok := v.Reshape([]int{m}); ok {
			v, flat = w, false
		}
	}
	last := v.Shape[len(v.Shape)-1]
	step := v.Strides[len(v.Strides)-1]
	outer := View{Elem: v.Elem, Shape: v.Shape[:len(v.Shape)-1], Strides: v.Strides[:len(v.Strides)-1], Offset: v.Offset, Data: v.Data}
	search := func(base, lo, hi int) argBest {
		return argSearch(v.Data, d, base, step, lo, hi, isMax, nan, fill)
	}
	// merge folds candidate p (later in the run) into best.
	merge := func(best, p argBest, first bool) argBest {
		if first || !best.nan && (p.nan || better(p, best, d, isMax)) {
			return p
		}
		return best
	}
	if !flat && rows == 1 {
		parts := make([]argBest, min(m, max(1, threads*4)))
		parallel(len(parts), threads, func(lo, hi int) {
			for c := lo; c < hi; c++ {
				parts[c] = search(v.Offset, c*m/len(parts), (c+1)*m/len(parts))
			}
		})
		best := parts[0]
		for _, p := range parts[1:] {
			best = merge(best, p, false)
		}
		out[0] = int64(best.at)
		return
	}
	offs := make([]int, 0, Count(outer.Shape))
	forEachOffset(outer, func(off int) { offs = append(offs, off) })
	if !flat {
		// Rows whose neighbours lie one element apart (argmax along an
		// outer axis) are searched side by side, a block of rows at a
		// time, reading memory in order.
		ostep := 0
		if len(outer.Shape) > 0 {
			ostep = outer.Strides[len(outer.Strides)-1]
		}
		if ostep == 1 && step != 1 && d.Kind == 'f' && d.Size >= 4 && !d.BigEndian() {
			const block = 512
			parallel(ceilDiv(rows, block), threads, func(lo, hi int) {
				for b := lo; b < hi; b++ {
					r0, r1 := b*block, min(rows, (b+1)*block)
					// Rows r0..r1 are consecutive along outer's last axis
					// when they share the other outer indices.
					for r := r0; r < r1; {
						e := r + 1
						for e < r1 && offs[e] == offs[e-1]+1 {
							e++
						}
						if d.Size == 4 {
							argColumns[float32](v.Data, offs[r], e-r, step, m, isMax, nan, float32(fill), out[r:e])
						} else {
							argColumns[float64](v.Data, offs[r], e-r, step, m, isMax, nan, fill, out[r:e])
						}
						r = e
					}
				}
			})
			return
		}
		parallel(rows, threads, func(lo, hi int) {
			for r := lo; r < hi; r++ {
				out[r] = int64(search(offs[r], 0, m).at)
			}
		})
		return
	}
	parts := make([]argBest, min(len(offs), max(1, threads*4)))
	parallel(len(parts), threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			r0, r1 := c*len(offs)/len(parts), (c+1)*len(offs)/len(parts)
			var best argBest
			for r := r0; r < r1; r++ {
				p := search(offs[r], 0, last)
				p.at += r * last
				best = merge(best, p, r == r0)
			}
			parts[c] = best
		}
	})
	best := parts[0]
	for _, p := range parts[1:] {
		best = merge(best, p, false)
	}
	out[0] = int64(best.at)
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
		c = cmpInt(p.i, best.i)
	case 'u':
		c = cmpInt(p.u, best.u)
	case 'c':
		c = cmpFloat(p.re, best.re)
		if c == 0 {
			c = cmpFloat(p.im, best.im)
		}
	default:
		c = cmpFloat(p.re, best.re)
	}
	if isMax {
		return c > 0
	}
	return c < 0
}

func cmpInt[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// argSearch searches elements [lo, hi) of the run at base (step apart).
func argSearch(data []byte, d dtype.Dtype, base, step, lo, hi int, isMax, nan bool, fill float64) argBest {
	e := d.Size
	at := func(i int) []byte { return data[(base+i*step)*e:] }
	if d.Kind == 'f' && d.Size == 4 && !d.BigEndian() {
		return argFloat(typed[float32](data), base, step, lo, hi, isMax, nan, float32(fill))
	}
	if d.Kind == 'f' && d.Size == 8 && !d.BigEndian() {
		return argFloat(typed[float64](data), base, step, lo, hi, isMax, nan, fill)
	}
	var best argBest
	for i := lo; i < hi; i++ {
		b := at(i)
		var c argBest
		c.at = i
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
				if nan {
					c.re, c.im = fill, 0
				} else {
					c.nan = true
				}
			}
		}
		if c.nan {
			return c
		}
		if i == lo || better(c, best, d, isMax) {
			best = c
		}
	}
	return best
}

// argFloat is argSearch for native float32 and float64 (NaNs as fill
// when nan is set).
func argFloat[T float](xs []T, base, step, lo, hi int, isMax, nan bool, fill T) argBest {
	get := func(i int) T {
		x := xs[base+i*step]
		if nan && x != x {
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
		if isMax {
			if !(x <= best) {
				if x != x {
					return argBest{at: i, nan: true}
				}
				best, at = x, i
			}
		} else if !(x >= best) {
			if x != x {
				return argBest{at: i, nan: true}
			}
			best, at = x, i
		}
	}
	return argBest{at: at, re: float64(best)}
}

// argColumns searches n neighbouring rows side by side: row c starts at
// element base+c and steps by step, m elements long; out[c] gets its index.
func argColumns[T float](data []byte, base, n, step, m int, isMax, nan bool, fill T, out []int64) {
	xs := typed[T](data)
	best := make([]T, n)
	done := make([]bool, n) // found a NaN
	for c := 0; c < n; c++ {
		x := xs[base+c]
		if nan && x != x {
			x = fill
		}
		best[c], out[c] = x, 0
		done[c] = x != x
	}
	for i := 1; i < m; i++ {
		row := xs[base+i*step : base+i*step+n]
		for c, x := range row {
			if done[c] {
				continue
			}
			if nan && x != x {
				x = fill
			}
			if isMax && !(x <= best[c]) || !isMax && !(x >= best[c]) {
				best[c], out[c] = x, int64(i)
				done[c] = x != x
			}
		}
	}
}
