package ops

import "sync"

// run computes the reduction into acc (loop dtype, the result's layout).
//
// A kernel with partial/combine (sums, integer and bool loops) runs in
// windows of calls: the calls' partials on opt's threads, then their
// combination in NumPy's order on this goroutine, so the bits do not
// depend on the threads. Other kernels (products, float minima and
// maxima) run each output's calls in order on one thread, the threads
// sharing out the outputs along one result axis.
func (j *redJob) run(acc []byte) error {
	k, err := j.foldKernel()
	if err != nil {
		return err
	}
	p := &j.plan
	skip := false
	if k.init != nil {
		k.init(acc)
	} else {
		j.initFirst(acc)
		// Integer and bool folds are order-free and idempotent: folding
		// the first element again changes nothing.
		skip = k.partial == nil
	}
	if p.total == 0 {
		return nil
	}
	threads := j.opt.threads()
	if p.total*j.src.Elem < j.opt.tuning().parallelMin {
		threads = 1
	}
	if p.k > 0 && k.partial != nil {
		j.runWindows(acc, k, threads)
		return nil
	}
	var started []bool
	if skip {
		started = make([]bool, p.outCount)
	}
	if p.k == 0 && k.rowFast != nil {
		fast := k
		fast.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) { k.rowFast(acc, pos, step, vals) }
		j.runSplit(acc, fast, threads, nil)
		if allFinite(acc, j.loop) {
			return nil
		}
		k.init(acc) // an infinity or a NaN: again, with NumPy's rules for them
	}
	j.runSplit(acc, k, threads, started)
	return nil
}

// runSplit runs every call of the plan in order, the outputs shared out
// among threads along one result axis (kernels without partials).
func (j *redJob) runSplit(acc []byte, k foldKernel, threads int, started []bool) {
	p := &j.plan
	if p.k == 0 && k.rowCall != nil {
		p.lead = p.keptLead()
	}
	ax := p.splitAxis()
	if p.k == 0 && p.lead == 0 && len(p.n) > 0 && (ax < 0 || p.n[0] >= p.n[ax]) {
		ax = 0
	}
	if ax < 0 || threads == 1 {
		j.runSequential(acc, k, *p, started, threads)
		return
	}
	parallel(p.n[ax], threads, func(lo, hi int) {
		j.runSequential(acc, k, p.restrict(ax, lo, hi), started, 1)
	})
}

// initFirst copies each output's first element (index 0 along every
// reduced axis), cast to the loop dtype, into acc: the start of a
// reduction without identity (PyArray_CopyInitialReduceValues).
func (j *redJob) initFirst(acc []byte) {
	p := j.plan
	if p.total == 0 {
		return
	}
	// A plan over the kept axes only, each visit one element.
	q := redPlan{base: p.base, posBase: p.posBase, buf: 1}
	for a := range p.n {
		if !p.red[a] {
			q.n = append(q.n, p.n[a])
			q.src = append(q.src, p.src[a])
			q.pos = append(q.pos, p.pos[a])
			q.red = append(q.red, false)
		}
	}
	q.total, q.block, q.k = Count(q.n), 1, 0
	// Visit one element at a time: a plan whose first axis has length 1.
	q.n = append([]int{1}, q.n...)
	q.src = append([]int{0}, q.src...)
	q.pos = append([]int{0}, q.pos...)
	q.red = append([]bool{false}, q.red...)
	ld := j.newLoader(&q)
	ld.inPlace = false
	size := j.loop.Size
	q.visits(0, q.total, func(_, src, pos int) {
		v := ld.load(src, pos, 0, 0, 1)
		copy(acc[pos*size:(pos+1)*size], v)
	})
}

// contiguous reports whether NumPy's loop sees the values of a reduce call
// covering elements [from, to) of a block of p one element apart: they
// were cast or byte-swapped into a buffer, or lie one apart in the source,
// or cross from one run of the iterator's innermost (merged) axis into the
// next, which the iterator copies into its buffer.
func (j *redJob) contiguous(p *redPlan, from, to int) bool {
	return j.castIn || p.src[0] == 1 || from/p.a0 != (to-1)/p.a0
}

// runSequential runs every call of p in order: blocks in pieces of buf
// (k > 0), else rows element by element. started, when set, marks the
// outputs whose first element has been taken (reductions without identity
// skip it). threads may look over the rest of a block whose result has
// settled (lookOver).
func (j *redJob) runSequential(acc []byte, k foldKernel, p redPlan, started []bool, threads int) {
	ld := j.newLoader(&p)
	done := func() {
		if j.opt.Done != nil {
			j.opt.Done.Add(int64(p.visitLen() * j.src.Elem))
		}
	}
	if p.k > 0 {
		p.visits(0, p.outer(), func(_, src, pos int) {
			defer done()
			first := 1
			if started == nil || started[pos] {
				first = 0
			} else {
				started[pos] = true
			}
			for from := 0; from < p.block; from += p.buf {
				to := min(from+p.buf, p.block)
				lo := max(from, first)
				if lo >= to {
					continue
				}
				vals := ld.load(src, pos, 0, lo, to)
				k.call(acc, pos, vals, j.contiguous(&p, from, to), &ld.flags)
				if threads > 1 && k.settled != nil && p.block-to >= 4*p.buf && k.settled(acc, pos) {
					j.lookOver(acc, k, &p, ld, src, pos, to, threads)
					break
				}
			}
		})
		return
	}
	if p.lead > 0 {
		j.runRowCalls(acc, k, p, ld, started)
		return
	}
	row := 1
	step := 0
	if len(p.n) > 0 {
		row, step = p.n[0], p.pos[0]
	}
	const piece = 1 << 14
	p.visits(0, p.outer(), func(_, src, pos int) {
		defer done()
		if started != nil {
			if !started[pos] {
				for i := 0; i < row; i++ {
					started[pos+i*step] = true
				}
				return
			}
		}
		for from := 0; from < row; from += piece {
			to := min(from+piece, row)
			vals := ld.load(src, pos+from*step, step, from, to)
			k.row(acc, pos+from*step, step, vals, &ld.flags)
		}
	})
}

// lookOver runs the calls of the block at src (result pos) from element
// start on, once its result has settled (a product that is a zero, an
// infinity or a NaN): threads summarize the calls side by side (k.look),
// then the summaries fold into the result in order (k.jump), and a call
// whose summary does not settle it (a factor that is not finite, a zero
// against an infinity) runs as a call.
func (j *redJob) lookOver(acc []byte, k foldKernel, p *redPlan, ld *loader, src, pos, start, threads int) {
	calls := ceilDiv(p.block-start, p.buf)
	bounds := func(c int) (int, int) {
		from := start + c*p.buf
		return from, min(from+p.buf, p.block)
	}
	sums := make([][2]uint64, calls)
	parallel(calls, threads, func(lo, hi int) {
		l := j.newLoader(p)
		for c := lo; c < hi; c++ {
			from, to := bounds(c)
			sums[c] = k.look(acc, pos, l.load(src, pos, 0, from, to))
		}
	})
	for c, s := range sums {
		if !k.jump(acc, pos, s) {
			from, to := bounds(c)
			k.call(acc, pos, ld.load(src, pos, 0, from, to), j.contiguous(p, from, to), &ld.flags)
		}
	}
}

// runRowCalls runs element-by-element calls as NumPy cuts them: each
// region of the leading kept axes in pieces of buf.
func (j *redJob) runRowCalls(acc []byte, k foldKernel, p redPlan, ld *loader, started []bool) {
	m := p.lead
	region := p.visitLen()
	poss := make([]int, 0, min(region, p.buf))
	p.visits(0, p.outer(), func(_, src, pos int) {
		if started != nil {
			if !started[pos] {
				forLeadPositions(p, m, pos, 0, region, func(q int) { started[q] = true })
				return
			}
		}
		for from := 0; from < region; from += p.buf {
			to := min(from+p.buf, region)
			poss = poss[:0]
			forLeadPositions(p, m, pos, from, to, func(q int) { poss = append(poss, q) })
			k.rowCall(acc, poss, ld.load(src, pos, 0, from, to))
		}
	})
}

// forLeadPositions calls f with the result position of elements [from, to)
// of the region of p's m leading axes whose first element is at pos.
func forLeadPositions(p redPlan, m, pos, from, to int, f func(int)) {
	idx := make([]int, m)
	rest := from
	for a := 0; a < m; a++ {
		idx[a] = rest % p.n[a]
		rest /= p.n[a]
		pos += idx[a] * p.pos[a]
	}
	for i := from; i < to; i++ {
		f(pos)
		for a := 0; a < m; a++ {
			idx[a]++
			pos += p.pos[a]
			if idx[a] < p.n[a] {
				break
			}
			pos -= p.n[a] * p.pos[a]
			idx[a] = 0
		}
	}
}

// runWindows runs a separable kernel over blocks: calls in windows, their
// partials in parallel, combined in order.
func (j *redJob) runWindows(acc []byte, k foldKernel, threads int) {
	p := &j.plan
	cpb := ceilDiv(p.block, p.buf) // calls per block
	calls := p.outer() * cpb
	callLen := min(p.block, p.buf)
	window := max(64, min(1<<16, (1<<22)/callLen))
	parts := make([][2]uint64, min(window, calls))
	poss := make([]int, len(parts))
	var pool sync.Pool
	for w0 := 0; w0 < calls; w0 += window {
		w1 := min(calls, w0+window)
		parallel(w1-w0, threads, func(lo, hi int) {
			ld, _ := pool.Get().(*loader)
			if ld == nil {
				ld = j.newLoader(p)
			}
			defer pool.Put(ld)
			c0, c1 := w0+lo, w0+hi
			p.visits(c0/cpb, (c1-1)/cpb+1, func(b, src, pos int) {
				for c := max(c0, b*cpb); c < min(c1, (b+1)*cpb); c++ {
					from := (c - b*cpb) * p.buf
					to := min(from+p.buf, p.block)
					parts[c-w0] = k.partial(ld.load(src, pos, 0, from, to), pos, &ld.flags)
					poss[c-w0] = pos
				}
			})
		})
		for i := 0; i < w1-w0; i++ {
			k.combine(acc, poss[i], parts[i], &j.flags)
		}
		if j.opt.Done != nil {
			j.opt.Done.Add(int64((w1 - w0) * callLen * j.src.Elem))
		}
	}
}
