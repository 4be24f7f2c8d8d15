package cuda

import (
	"fmt"
	"math/bits"
	"slices"
	"time"

	"strider/internal/dtype"
	"strider/ops"
)

// The reductions of issue 31 on the GPU: those whose result does not
// depend on the order in which the elements are combined (min, max, ptp,
// argmin, argmax, any, all, count-nonzero), by kernels/reduce.cu; the
// others are refused (checkReduce says why). Every result is ops.Reduce's,
// byte for byte:
//
//   - integers, bools, argmin/argmax (first index on ties, the first NaN),
//     any, all and count-nonzero are functions of the values alone (a bool
//     byte other than 0 or 1 counts once in count-nonzero, as NumPy counts
//     it; ops counts its value);
//   - a float minimum or maximum is one of the elements, or the canonical
//     NaN of NumPy's SIMD loops, and only the choice among equal
//     candidates (+0.0 and -0.0, NaNs of different bits) follows NumPy's
//     order. The kernels mark such an output "open"; when any is, the call
//     is redone on the CPU by ops.Reduce (rare: it takes both zeros at an
//     output's extreme, or a NaN other than the canonical one);
//   - ptp is the kernels' maximum and minimum, subtracted by ops.Reduce's
//     own ptp of the two-row array [max; min], whose extremes are those
//     very bits (a settled output's max and min, when equal, have the same
//     bits), so the subtraction and its warnings are ops'.

// The operations of kernels/reduce.cu (its OP_* constants).
const (
	redMax = iota
	redMin
	redArgmax
	redArgmin
	redAny
	redAll
	redCount
)

// reduceCodes are the kernel operations an ops.ReduceOp runs (ptp: max,
// then min); nil for one that has no kernel.
func reduceCodes(op ops.ReduceOp) []int {
	switch op {
	case ops.ReduceMax:
		return []int{redMax}
	case ops.ReduceMin:
		return []int{redMin}
	case ops.ReducePtp:
		return []int{redMax, redMin}
	case ops.ReduceArgmax:
		return []int{redArgmax}
	case ops.ReduceArgmin:
		return []int{redArgmin}
	case ops.ReduceAny:
		return []int{redAny}
	case ops.ReduceAll:
		return []int{redAll}
	case ops.ReduceCountNonzero:
		return []int{redCount}
	}
	return nil
}

// gpuReductions names the operations that run on the GPU, for messages.
const gpuReductions = "min, max, ptp, argmin, argmax, any, all and count-nonzero"

// checkReduce refuses, in one line saying why, a reduction the GPU does
// not run: sums, products, means and variances (NumPy's float result
// depends on its order of operations, which a GPU's parallel order would
// change), the nan* functions, and dtypes without a kernel.
func checkReduce(op ops.ReduceOp, d dtype.Dtype, o ops.ReduceOptions) error {
	if reduceCodes(op) != nil {
		if !slices.Contains([]byte("biufc"), d.Kind) {
			return errorf("reduce %s has no GPU kernel for %s; use --device cpu", op, d.Name())
		}
		return nil
	}
	acc := dtype.AddReduceDtype(d)
	if o.Dtype != (dtype.Dtype{}) {
		acc = o.Dtype
	}
	what := "additions"
	switch op {
	case ops.ReduceProd, ops.ReduceNanprod:
		what = "multiplications"
		fallthrough
	case ops.ReduceSum, ops.ReduceNansum:
		if acc.Kind != 'f' && acc.Kind != 'c' {
			return errorf("reduce %s of %s has no GPU kernel yet (the GPU runs %s); use --device cpu", op, d.Name(), gpuReductions)
		}
	case ops.ReduceMean, ops.ReduceStd, ops.ReduceVar, ops.ReduceNanmean, ops.ReduceNanstd, ops.ReduceNanvar:
	default:
		return errorf("reduce %s has no GPU kernel yet (the GPU runs %s); use --device cpu", op, gpuReductions)
	}
	return errorf("reduce %s is not run on the GPU: its float result depends on the order of the %s "+
		"(NumPy's pairwise order within each inner loop), which a GPU's parallel order would change, "+
		"so the bits would differ from NumPy's; use --device cpu", op, what)
}

// reduceOutcome is what reduceOn did besides writing dst.
type reduceOutcome struct {
	res ops.ReduceResult
	// open is the number of outputs the kernels could not settle; when
	// nonzero the call was redone by ops.Reduce, which took redo.
	open int64
	redo time.Duration
}

// reduceOn is ops.Reduce with the GPU's kernels: run executes each planned
// program (the driver, or the tests' emulation). o.Done is advanced by
// ops.ReduceWork once the result is written.
func reduceOn(run func(*program) error, dst []byte, op ops.ReduceOp, in ops.View, dt dtype.Dtype, o ops.ReduceOptions) (reduceOutcome, error) {
	var out reduceOutcome
	if err := checkReduce(op, dt, o); err != nil {
		return out, err
	}
	sh, err := ops.ReducePlan(op, in, dt, o)
	if err != nil {
		return out, err
	}
	if err := checkDst(dst, ops.Count(sh.Shape)*sh.Dtype.Size, "the reduction"); err != nil {
		return out, err
	}
	if in.Count() == 0 {
		// No element to read: the identities (any, all, count-nonzero),
		// or nothing at all; ops writes them.
		out.res, err = ops.Reduce(dst, op, in, dt, o)
		return out, err
	}
	red := reducedAxes(in, o.Axes)
	codes := reduceCodes(op)
	results := [][]byte{dst}
	if len(codes) == 2 {
		results = [][]byte{make([]byte, len(dst)), make([]byte, len(dst))}
	}
	for i, code := range codes {
		p, open := planReduce(results[i], code, in, dt, red)
		if err := run(p); err != nil {
			return out, err
		}
		out.open += int64(open.count())
	}
	if out.open > 0 {
		start := time.Now()
		out.res, err = ops.Reduce(dst, op, in, dt, o)
		out.redo = time.Since(start)
		return out, err
	}
	if len(codes) == 2 {
		if out.res, err = ptpOf(dst, results[0], results[1], sh.Dtype, o.Options); err != nil {
			return out, err
		}
	}
	if o.Done != nil {
		o.Done.Add(ops.ReduceWork(op, in))
	}
	return out, nil
}

// ptpOf writes ops' ptp of each output's maximum hi and minimum lo (native
// elements of d in the result's C order): np.ptp of the array [hi; lo]
// along its first axis, whose maximum and minimum are hi and lo.
func ptpOf(dst, hi, lo []byte, d dtype.Dtype, opt ops.Options) (ops.ReduceResult, error) {
	n := len(hi) / d.Size
	two := ops.View{Elem: d.Size, Shape: []int{2, n}, Strides: []int{n, 1}, Data: append(hi, lo...)}
	opt.Done = nil
	res, err := ops.Reduce(dst, ops.ReducePtp, two, d, ops.ReduceOptions{Axes: []int{0}, Options: opt})
	if err != nil {
		return res, fmt.Errorf("internal: ptp of the GPU's extremes: %w", err)
	}
	return res, nil
}

// reducedAxes flags the axes a reduction over axes (nil: every axis)
// reduces; ops.ReducePlan has checked them.
func reducedAxes(in ops.View, axes []int) []bool {
	red := make([]bool, len(in.Shape))
	for k := range red {
		red[k] = axes == nil
	}
	for _, a := range axes {
		if k, err := ops.NormalizeAxis(a, len(in.Shape)); err == nil {
			red[k] = true
		}
	}
	return red
}

// openWord is the kernels' count of open outputs, downloaded.
type openWord []byte

func (w openWord) count() uint64 {
	var n uint64
	for i := range 8 {
		n |= uint64(w[i]) << (8 * i)
	}
	return n
}

// reduceAxes is one side of a reduction's index arithmetic: axes (length-1
// ones dropped) ordered by decreasing input stride, so the last moves
// fastest through memory, and merged where both operands allow; operand 0
// is the input's stride, operand 1 the C-order stride of the result
// position (kept axes) or of the index among the reduced axes.
type reduceAxes struct {
	shape, s0, s1 []int
}

func newReduceAxes(in ops.View, pick []bool) reduceAxes {
	var ks []int
	n := 1
	c := make([]int, len(in.Shape))
	for k := len(in.Shape) - 1; k >= 0; k-- {
		if pick[k] {
			c[k] = n
			n *= in.Shape[k]
			if in.Shape[k] != 1 {
				ks = append(ks, k)
			}
		}
	}
	slices.Reverse(ks)
	abs := func(x int) int { return max(x, -x) }
	slices.SortStableFunc(ks, func(a, b int) int { return abs(in.Strides[b]) - abs(in.Strides[a]) })
	var a reduceAxes
	for _, k := range ks {
		if j := len(a.shape) - 1; j >= 0 && a.s0[j] == in.Shape[k]*in.Strides[k] && a.s1[j] == in.Shape[k]*c[k] {
			a.shape[j] *= in.Shape[k]
			a.s0[j], a.s1[j] = in.Strides[k], c[k]
			continue
		}
		a.shape = append(a.shape, in.Shape[k])
		a.s0 = append(a.s0, in.Strides[k])
		a.s1 = append(a.s1, c[k])
	}
	return a
}

func (a reduceAxes) count() int { return ops.Count(a.shape) }

// inner is the magnitude of the fastest axis's input stride; -1 without
// axes.
func (a reduceAxes) inner() int {
	if len(a.shape) == 0 {
		return -1
	}
	s := a.s0[len(a.s0)-1]
	return max(s, -s)
}

// reduceLaunch is how a reduction's work is cut: chunks per output,
// chunk elements in each, and the block's shape (tx threads on a work
// item's elements, ty work items).
type reduceLaunch struct {
	chunks, chunk int
	tx, ty        int
}

// useColumns reports whether a reduction's threads take neighbouring
// outputs (a kept axis is nearest in memory, and a warp's worth of outputs
// lie along it) rather than neighbouring elements of one output.
func useColumns(kept, red reduceAxes) bool {
	return kept.count() >= 32 && kept.inner() < red.inner()
}

// reduceShape picks the launch for outs outputs of total elements each.
// Rows: the reduced elements are the nearest in memory, and the threads of
// a block row read neighbours together. Columns (cols): a kept axis is the
// nearest, so neighbouring threads take neighbouring outputs, each folding
// its chunk alone. Chunks split long reductions until enough work items
// fill the GPU; they add one small pass (reduce_out).
func reduceShape(outs, total int, cols bool) reduceLaunch {
	const (
		rowChunk  = 4096    // the fewest elements a block row's work item takes
		rowItems  = 4096    // work items (block rows) worth splitting outputs for
		colChunk  = 64      // the fewest elements one thread folds alone
		colItems  = 1 << 16 // work items (threads) worth splitting outputs for
		blockSize = 256     // RED_THREADS
	)
	l := reduceLaunch{chunks: 1}
	minChunk, items := rowChunk, rowItems
	if cols {
		minChunk, items = colChunk, colItems
	}
	l.chunks = max(1, min(ceilDiv(total, minChunk), ceilDiv(items, outs)))
	l.chunk = ceilDiv(total, l.chunks)
	l.chunks = ceilDiv(total, l.chunk)
	l.tx = 1
	if !cols {
		l.tx = min(blockSize, 1<<bits.Len(uint(l.chunk-1)))
	}
	l.ty = blockSize / l.tx
	return l
}

// planReduce plans one kernel operation (code) of in (dtype dt, the axes
// red reduced) into dst: the result's elements in C order, native. It
// returns the program and the word that will hold the open count.
func planReduce(dst []byte, code int, in ops.View, dt dtype.Dtype, red []bool) (*program, openWord) {
	kept := make([]bool, len(red))
	for k, r := range red {
		kept[k] = !r
	}
	ka, ra := newReduceAxes(in, kept), newReduceAxes(in, red)
	outs, total := ka.count(), ra.count()
	cols := useColumns(ka, ra)
	l := reduceShape(outs, total, cols)
	items := outs * l.chunks
	s := viewSpan(in)
	w := width(fits32(max(items, total, outs), s.count()))
	k := dt.Kind
	cfg := castFormat(dt, dt)&0xffff | uint64(code)<<32
	fast := l.chunks
	if cols {
		cfg |= 1 << 40
		fast = outs
	}

	p := newProgram("reduce")
	src := p.alloc("in", int64(s.count()*in.Elem), s.bytes(in.Data))
	out := p.alloc("out", int64(len(dst)), nil)
	open := p.alloc("open", 8, nil)
	kcalc := p.params("kept", calcBlock(ka.shape, ka.s0, ka.s1))
	rcalc := p.params("red", calcBlock(ra.shape, ra.s0, ra.s1))
	q := p.params("items", divSlots(fast, 0, 0))
	part := null()
	if l.chunks > 1 {
		part = ptr(p.alloc("part", int64(items)*stateBytes, nil))
	}
	p.launch(fmt.Sprintf("reduce_part_%c_%s", k, w), gridFor(items, l.ty), [2]int{l.tx, l.ty},
		ptr(out), ptr(open), part, ptr(src), ptr(kcalc), ptr(rcalc), ptr(q),
		ival(in.Offset-s.lo), ival(items), ival(l.chunk), ival(total), val(cfg))
	if l.chunks > 1 {
		p.launch(fmt.Sprintf("reduce_out_%c_%s", k, w), gridFor(outs, threads1D), [2]int{threads1D, 1},
			ptr(out), ptr(open), part, ptr(kcalc), ival(outs), ival(l.chunks), val(cfg))
	}
	word := make(openWord, 8)
	p.download(out, 0, dst)
	p.download(open, 0, word)
	return p, word
}

// stateBytes is the size of kernels/reduce.cu's rstate.
const stateBytes = 32
