package ops

// redPlan is one ufunc reduction as NumPy 1.24 runs it, in the terms its
// result depends on. The iterator visits the axes in layout order
// (innermost first); for each output element it adds up, in that order,
// the elements mapped to it. Two cases cover every iteration (the
// reference simulation in reduce_ref_test.go checks this against the
// iterator's buffering, call by call):
//
//   - the innermost axis is reduced (k > 0): each visit of an output is a
//     block of the k innermost axes, all reduced, block elements long; the
//     inner loop is called on the block in pieces of buf elements (the last
//     shorter), each a "reduce" call that folds its piece into the output
//     at once (for sums: a pairwise sum, then one addition);
//   - else (k == 0): every call is element by element, so each output
//     takes its elements one at a time, in order.
//
// buf is min(NPY_BUFSIZE, the iteration size): the iterator's buffer size,
// which caps every inner-loop call of a reduction, buffered or not.
type redPlan struct {
	n, src, pos []int // per iteration axis, innermost first, length-1 axes dropped
	red         []bool
	k           int // leading reduced axes
	block       int // product of n[:k]; 1 when k == 0
	buf         int
	total       int // elements iterated
	base        int // element offset of the first element in the source view
	posBase     int // result position of the first element
	a0          int // extent of the innermost axis once NumPy merges axes (see min/max)
	// lead, when set, is the number of axes a visit covers instead of
	// first()'s: element-by-element calls that must be cut as NumPy cuts
	// them visit the whole region of leading kept axes.
	lead     int
	outCount int // result elements
}

// newRedPlan plans a reduction reading src's elements in the order NumPy
// gives the axes of an array of src's shape with strides layout (the
// array NumPy reduces may be an intermediate that strider never builds,
// laid out unlike src), the result laid out as lay says.
func newRedPlan(src View, lay reduceLayout, red []bool, bufsize int) redPlan {
	p := redPlan{base: src.Offset, total: src.Count(), outCount: Count(lay.outShape)}
	for _, k := range lay.order {
		if src.Shape[k] == 1 {
			continue
		}
		p.n = append(p.n, src.Shape[k])
		p.src = append(p.src, src.Strides[k])
		p.pos = append(p.pos, lay.pos[k])
		p.red = append(p.red, red[k])
	}
	p.block = 1
	for p.k < len(p.n) && p.red[p.k] {
		p.block *= p.n[p.k]
		p.k++
	}
	if p.total == 0 {
		p.block = 0
	}
	p.buf = min(bufsize, p.total)
	p.a0 = 1
	if len(p.n) > 0 {
		p.a0 = p.n[0]
		for j := 1; j < len(p.n) && p.src[j] == p.n[j-1]*p.src[j-1] && p.pos[j] == p.n[j-1]*p.pos[j-1]; j++ {
			p.a0 *= p.n[j]
		}
	}
	return p
}

// outer is the number of visits: blocks (k > 0) or rows along the
// innermost axis (k == 0), or regions of the lead axes.
func (p *redPlan) outer() int {
	if p.total == 0 {
		return 0
	}
	return p.total / p.visitLen()
}

// visitLen is the number of elements one visit covers.
func (p *redPlan) visitLen() int {
	n := 1
	for _, x := range p.n[:p.first()] {
		n *= x
	}
	return n
}

// keptLead is the number of leading kept axes (k == 0).
func (p *redPlan) keptLead() int {
	m := 0
	for m < len(p.n) && !p.red[m] {
		m++
	}
	return m
}

// first is the number of axes a visit covers: k, or 1 for a row.
func (p *redPlan) first() int {
	if p.lead > 0 {
		return p.lead
	}
	if p.k == 0 && len(p.n) > 0 {
		return 1
	}
	return p.k
}

// visits calls f with the source offset and result position of each visit
// with index in [lo, hi), in order (the axes after first() as an odometer).
func (p *redPlan) visits(lo, hi int, f func(i, src, pos int)) {
	if lo >= hi {
		return
	}
	ax := p.first()
	n, ss, ps := p.n[ax:], p.src[ax:], p.pos[ax:]
	idx := make([]int, len(n))
	src, pos := p.base, p.posBase
	rest := lo
	for j := range n {
		idx[j] = rest % n[j]
		rest /= n[j]
		src += idx[j] * ss[j]
		pos += idx[j] * ps[j]
	}
	for i := lo; i < hi; i++ {
		f(i, src, pos)
		for j := range n {
			idx[j]++
			src += ss[j]
			pos += ps[j]
			if idx[j] < n[j] {
				break
			}
			src -= n[j] * ss[j]
			pos -= n[j] * ps[j]
			idx[j] = 0
		}
	}
}

// splitAxis is the axis after first() along which the result moves and
// which is longest, to hand out to threads: outputs along it are apart, so
// each thread may run its share of it in order. -1 when none.
func (p *redPlan) splitAxis() int {
	best := -1
	for j := p.first(); j < len(p.n); j++ {
		if !p.red[j] && (best < 0 || p.n[j] > p.n[best]) {
			best = j
		}
	}
	return best
}

// restrict is p with axis j cut to [lo, hi).
func (p redPlan) restrict(j, lo, hi int) redPlan {
	q := p
	q.n = append([]int(nil), p.n...)
	q.base += lo * p.src[j]
	q.n[j] = hi - lo
	q.total = p.total / p.n[j] * (hi - lo)
	// The restricted plan keeps p's buffer size and positions: only the
	// visits change, and the result position is relative to p's origin.
	q.posBase += lo * p.pos[j]
	return q
}
