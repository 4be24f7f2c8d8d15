package ops

import (
	"math"

	"strider/internal/dtype"
)

// The reductions as NumPy 1.24's Python code composes them
// (numpy/core/_methods.py, numpy/lib/nanfunctions.py, fromnumeric.py):
// each recipe below follows its function line by line, with the arrays
// NumPy builds on the way (x = arr - arrmean, the NaN-free copy) never
// built: their values are computed chunk by chunk as the reduction reads
// them, in the order their layout gives.

// plan runs the recipe without values: the result's dtype, shape and
// layout.
func (c *reduceCall) plan() (ReduceShape, error) {
	res, _, err := c.run(true)
	if err != nil {
		return ReduceShape{}, err
	}
	return ReduceShape{Dtype: res.d, Shape: res.shape, Fortran: res.fortran()}, nil
}

func (c *reduceCall) compute() (ndarr, warnings, error) { return c.run(false) }

func (c *reduceCall) run(dry bool) (ndarr, warnings, error) {
	var w warnings
	r := recipe{c: c, dry: dry, w: &w}
	var res ndarr
	var err error
	switch c.op {
	case ReduceSum:
		res, err = r.sum(r.input(), c.arg, c.hasArg, ufAdd, c.keepdims)
	case ReduceProd:
		res, err = r.sum(r.input(), c.arg, c.hasArg, ufMultiply, c.keepdims)
	case ReduceMean:
		res, err = r.mean(r.input())
	case ReduceVar, ReduceStd:
		res, err = r.variance(r.input(), c.op == ReduceStd)
	case ReduceMin:
		res, err = r.extreme(r.input(), ufMinimum, c.keepdims)
	case ReduceMax:
		res, err = r.extreme(r.input(), ufMaximum, c.keepdims)
	case ReducePtp:
		res, err = r.ptp()
	case ReduceArgmin, ReduceArgmax:
		res, _, err = r.arg(r.input(), c.op == ReduceArgmax, 0)
	case ReduceAny, ReduceAll:
		res, err = r.logical(c.op == ReduceAny)
	case ReduceCountNonzero:
		res, err = r.countNonzero()
	case ReduceNansum, ReduceNanprod:
		uf, fill := ufAdd, 0.0
		if c.op == ReduceNanprod {
			uf, fill = ufMultiply, 1
		}
		res, err = r.sum(r.nanReplaced(fill), c.arg, c.hasArg, uf, c.keepdims)
	case ReduceNanmean:
		res, err = r.nanmean()
	case ReduceNanvar, ReduceNanstd:
		res, err = r.nanvar(c.op == ReduceNanstd)
	case ReduceNanmin:
		res, err = r.nanExtreme(ufFmin)
	case ReduceNanmax:
		res, err = r.nanExtreme(ufFmax)
	case ReduceNanargmin, ReduceNanargmax:
		res, err = r.nanarg(c.op == ReduceNanargmax)
	}
	return res, w, err
}

// operand is an array NumPy reduces: its values are src's (dtype dt,
// NaNs replaced by fill when nan is set), its layout strides.
type operand struct {
	src    View
	dt     dtype.Dtype
	layout []int // NumPy's strides of the array (elements)
	nan    bool  // NaN (either part, for complex) replaced by fill
	fill   float64
}

type recipe struct {
	c   *reduceCall
	dry bool
	w   *warnings
}

func (r recipe) input() operand {
	return operand{src: r.c.in, dt: r.c.dt, layout: r.c.in.Strides}
}

// nanReplaced is _replace_nan(a, fill): for float and complex input, a
// copy laid out as np.array(a, copy=True) lays it out, NaNs replaced;
// other input as it is.
func (r recipe) nanReplaced(fill float64) operand {
	op := r.input()
	if isInexact(op.dt) {
		op.nan, op.fill = true, fill
		op.layout = keepOrderStrides(op.src.Shape, op.src.Strides)
	}
	return op
}

// hasNaN reports whether the input holds a NaN (any part, for complex);
// without one, the NaN functions skip replacing and counting.
func (r recipe) hasNaN() bool {
	if r.dry || !isInexact(r.c.dt) {
		return false
	}
	if r.c.nanSeen == 0 {
		r.c.nanSeen = 2
		if anyNaN(r.c.in, r.c.dt, r.c.opt) {
			r.c.nanSeen = 1
		}
	}
	return r.c.nanSeen == 1
}

// reduce is ufunc.reduce of op over the call's axes (keepdims as given) in
// loop dtype loop; stages, when set, replace the plain cast of the
// elements.
func (r recipe) reduce(op operand, uf ufuncKind, loop dtype.Dtype, keepdims bool, stages func() []stage) (ndarr, error) {
	c := r.c
	if !uf.hasIdentity() && c.emptyReduced() {
		return ndarr{}, refuse("zero-size array to reduction operation %s which has no identity", ufuncName(uf))
	}
	lay := newReduceLayout(op.src.Shape, op.layout, c.red, keepdims)
	res := ndarr{d: uf.resultDtype(loop), shape: lay.outShape, strides: lay.outStrides, scalar: len(lay.outShape) == 0}
	if r.dry {
		return res, nil
	}
	if stages == nil && op.nan && c.nanSeen == 0 && nanShowsInResult(op.dt, loop, uf) {
		// Reduce first as if there were no NaN: one would have made a
		// result NaN, so finite results prove there was none, without
		// the scan for one.
		acc, job, err := ufReduce(uf, op.src, op.dt, lay, c.red, loop, nil, c.opt)
		if err != nil {
			return ndarr{}, err
		}
		if allFinite(acc, loop) {
			c.nanSeen = 2
		}
		if !r.hasNaN() {
			return r.finish(res, acc, job, len(op.src.Shape) == 0), nil
		}
	}
	if stages == nil && op.nan && r.hasNaN() {
		stages = nanStages(op.dt, loop, op.fill)
	}
	acc, job, err := ufReduce(uf, op.src, op.dt, lay, c.red, loop, stages, c.opt)
	if err != nil {
		return ndarr{}, err
	}
	return r.finish(res, acc, job, len(op.src.Shape) == 0), nil
}

// finish warns of the job's floating-point exceptions, as NumPy's
// reduction and the operations on the way do, and lays its results acc
// out in C order as res's values. A reduction of a 0-d operand is NumPy's
// cast of its one value into the result (its flags warn as "cast": the
// sum of a 0-d int64 beyond float16 with dtype=float16), where the same
// value in a 1-element array warns as "reduce".
func (r recipe) finish(res ndarr, acc []byte, job *redJob, zeroD bool) ndarr {
	f, sf := job.allFlags()
	sf.subtract.warn(r.w, "subtract")
	if zeroD {
		sf.cast, f = sf.cast.or(f), fpFlags{}
	}
	sf.cast.warn(r.w, "cast")
	sf.multiply.warn(r.w, "multiply")
	sf.add.warn(r.w, "add")
	f.warn(r.w, "reduce")
	res.data = fromLayout(acc, res.d, res.shape, res.strides)
	return res
}

// nanShowsInResult reports whether a NaN among elements of dtype from
// makes the result of uf in loop dtype loop NaN: sums and products in a
// float or complex loop carry it (a complex element's NaN part only into a
// complex loop, which keeps both parts).
func nanShowsInResult(from, loop dtype.Dtype, uf ufuncKind) bool {
	if uf != ufAdd && uf != ufMultiply {
		return false
	}
	return from.Kind == 'f' && (loop.Kind == 'f' || loop.Kind == 'c') || from.Kind == 'c' && loop.Kind == 'c'
}

// allFinite reports whether every part of the float or complex values
// acc (native, loop dtype d) is finite.
func allFinite(acc []byte, d dtype.Dtype) bool {
	switch dtype.RealOf(d).Size {
	case 2:
		for _, h := range typed[uint16](acc) {
			if h&0x7c00 == 0x7c00 {
				return false
			}
		}
	case 4:
		for _, x := range typed[float32](acc) {
			if !finite(x) {
				return false
			}
		}
	default:
		for _, x := range typed[float64](acc) {
			if !finite(x) {
				return false
			}
		}
	}
	return true
}

// ufReduce runs ufunc.reduce of src (dtype from) laid out by lay, in
// loop dtype loop: the result in NumPy's layout, and the job (for its
// exception flags).
func ufReduce(uf ufuncKind, src View, from dtype.Dtype, lay reduceLayout, red []bool, loop dtype.Dtype, stages func() []stage, opt Options) ([]byte, *redJob, error) {
	plan := newRedPlan(src, lay, red, opt.tuning().reduceBuf)
	job := newRedJob(plan, src, from, loop, uf, opt)
	if stages != nil {
		job.setStages(stages)
	}
	acc, err := job.reduce()
	if err != nil {
		return nil, nil, err
	}
	return acc, job, nil
}

func ufuncName(uf ufuncKind) string {
	return [...]string{"add", "multiply", "maximum", "minimum", "fmax", "fmin", "logical_or", "logical_and", "count_nonzero"}[uf]
}

// sum is np.sum / np.prod (np.add.reduce / np.multiply.reduce) of op.
func (r recipe) sum(op operand, arg dtype.Dtype, hasArg bool, uf ufuncKind, keepdims bool) (ndarr, error) {
	loop := dtype.AddReduceDtype(op.dt)
	if hasArg {
		loop = arg
	}
	r.complexDiscard(op.dt, loop)
	return r.reduce(op, uf, loop, keepdims, nil)
}

// complexDiscard warns as NumPy's cast from complex to real does (to bool
// it tests both parts, and says nothing).
func (r recipe) complexDiscard(from, to dtype.Dtype) {
	if from.Kind == 'c' && to.Kind != 'c' && to.Kind != 'b' {
		r.w.add("ComplexWarning: Casting complex values to real discards the imaginary part")
	}
}

// divide is the division of a reduction's result ret by the count n:
// true_divide(ret, n, out=ret, casting='unsafe') for an array (the count,
// a Python integer, set aside by value-based casting), ret.dtype.type(ret
// / n) for a scalar (NumPy's scalar arithmetic promotes to float64 or
// complex128).
func (r recipe) divide(ret ndarr, n int64) ndarr {
	if ret.scalar {
		// NumPy 1.24's scalar arithmetic computes the division itself
		// ("scalar divide") where one of ret's type and the count's (an
		// intp scalar) casts safely to the other: integers but uint64 (in
		// int64's true_divide), float64 and complex128. For the others
		// (bool, which has no scalar arithmetic, uint64, float16, float32,
		// complex64) it promotes and hands both to the ufunc ("divide").
		// The value is the same.
		l := dtype.ScalarDivideDtype(ret.d)
		op := "divide"
		if n := dtype.NativeOf(ret.d); n.Kind != 'b' && (dtype.CanCast(n, dtype.Int64, "safe") || dtype.CanCast(dtype.Int64, n, "safe")) {
			op = "scalar divide"
		}
		return divideCount(ret, l, ret.d, n, nil, r.w, op)
	}
	return divideCount(ret, dtype.TrueDivideLoop(ret.d, n), ret.d, n, nil, r.w, "divide")
}

// mean is _methods._mean.
func (r recipe) mean(op operand) (ndarr, error) {
	c := r.c
	rcount := int64(c.reducedCount())
	if rcount == 0 {
		r.w.add("Mean of empty slice.")
	}
	sumD, resD := dtype.MeanDtypes(op.dt)
	f16 := resD != sumD
	if c.hasArg {
		sumD, resD, f16 = c.arg, c.arg, false
	}
	r.complexDiscard(op.dt, sumD)
	ret, err := r.reduce(op, ufAdd, sumD, c.keepdims, nil)
	if err != nil {
		return ndarr{}, err
	}
	if ret.scalar && f16 {
		// arr.dtype.type(ret / rcount): float32 / int64 in float64.
		return divideCount(ret, dtype.ScalarDivideDtype(ret.d), resD, rcount, nil, r.w, "divide"), nil
	}
	ret = r.divide(ret, rcount)
	if f16 {
		ret = castArr(ret, resD)
	}
	return ret, nil
}

// nanStages: native source values of dtype from, NaNs (a NaN in either
// part of a complex) replaced by fill, cast to loop.
func nanStages(from, loop dtype.Dtype, fill float64) func() []stage {
	return func() []stage {
		var rep, out []uint64
		var wide []complex128
		return []stage{func(in []byte, _, _ int, sf *stageFlags) []byte {
			r := bytesOf(&rep, len(in))
			copy(r, in)
			replaceNaN(r, from, fill)
			if from.Kind == loop.Kind && from.Size == loop.Size {
				return r
			}
			o := bytesOf(&out, len(in)/from.Size*loop.Size)
			castNative(o, r, from, loop, &wide)
			castFlags(o, r, from, loop, &sf.reduce)
			return o
		}}
	}
}

// replaceNaN sets the NaN elements of native values b (dtype d) to fill
// (fill + 0j for complex), as np.copyto(a, fill, where=np.isnan(a)).
func replaceNaN(b []byte, d dtype.Dtype, fill float64) {
	switch {
	case d.Kind == 'f' && d.Size == 2:
		h := dtype.Float64ToHalf(fill)
		for i, x := range typed[uint16](b) {
			if halfIsNaN(x) {
				typed[uint16](b)[i] = h
			}
		}
	case d.Kind == 'f' && d.Size == 4:
		f := typed[float32](b)
		for i, x := range f {
			if x != x {
				f[i] = float32(fill)
			}
		}
	case d.Kind == 'f':
		f := typed[float64](b)
		for i, x := range f {
			if x != x {
				f[i] = fill
			}
		}
	case d.Kind == 'c' && d.Size == 8:
		f := typed[float32](b)
		for i := 0; i < len(f); i += 2 {
			if f[i] != f[i] || f[i+1] != f[i+1] {
				f[i], f[i+1] = float32(fill), 0
			}
		}
	case d.Kind == 'c':
		f := typed[float64](b)
		for i := 0; i < len(f); i += 2 {
			if f[i] != f[i] || f[i+1] != f[i+1] {
				f[i], f[i+1] = fill, 0
			}
		}
	}
}

// extreme is np.amin / np.amax (minimum.reduce / maximum.reduce), and
// np.nanmin / np.nanmax's fmin.reduce / fmax.reduce: by value where that
// settles the bits (reduce_extreme.go), else in NumPy's order.
func (r recipe) extreme(op operand, uf ufuncKind, keepdims bool) (ndarr, error) {
	isMax := uf == ufMaximum || uf == ufFmax
	if hi, lo, ok := r.extremesByValue(op, keepdims, isMax, !isMax); ok {
		if isMax {
			return hi, nil
		}
		return lo, nil
	}
	return r.reduce(op, uf, dtype.NativeOf(op.dt), keepdims, nil)
}

// ptp is _methods._ptp: maximum.reduce minus minimum.reduce, in the
// input's dtype (integers wrap); both extremes from one pass where their
// values settle the bits.
func (r recipe) ptp() (ndarr, error) {
	hi, lo, ok := r.extremesByValue(r.input(), r.c.keepdims, true, true)
	if !ok {
		var err error
		loop := dtype.NativeOf(r.c.dt)
		if hi, err = r.reduce(r.input(), ufMaximum, loop, r.c.keepdims, nil); err != nil {
			return ndarr{}, err
		}
		if lo, err = r.reduce(r.input(), ufMinimum, loop, r.c.keepdims, nil); err != nil {
			return ndarr{}, err
		}
	}
	if hi.d.Kind == 'b' {
		return ndarr{}, refuse("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.")
	}
	out := ndarr{d: hi.d, shape: hi.shape, strides: hi.strides, scalar: hi.scalar}
	if !hi.scalar {
		out.strides = elementwiseStrides(hi.shape, [][]int{hi.strides, lo.strides}, [][]int{hi.shape, lo.shape})
	}
	if r.dry {
		return out, nil
	}
	out.data = alloc(out.count(), out.d)
	var f fpFlags
	for i := 0; i < out.count(); i++ {
		if hi.d.Kind == 'i' || hi.d.Kind == 'u' {
			out.setInt(i, hi.intAt(i)-lo.intAt(i))
			continue
		}
		a, b := hi.wideAt(i), lo.wideAt(i)
		d := roundTo(out.d, a-b)
		if isFinite(real(a)) && isFinite(real(b)) && isFinite(imag(a)) && isFinite(imag(b)) {
			if !isFinite(real(d)) || !isFinite(imag(d)) {
				f.overflow = true
			}
		} else if (math.IsInf(real(a), 0) && math.IsInf(real(b), 0) && real(d) != real(d)) ||
			(math.IsInf(imag(a), 0) && math.IsInf(imag(b), 0) && imag(d) != imag(d)) {
			f.invalid = true
		}
		out.setWide(i, d)
	}
	f.warn(r.w, "subtract")
	return out, nil
}

// countNonzero is np.count_nonzero: a.astype(bool).sum(axis,
// dtype=np.intp, keepdims) (with axis=None and no keepdims, NumPy's C
// count, the same number, which np.save stores as an int64 0-d array).
func (r recipe) countNonzero() (ndarr, error) { return r.nonzeroCounts(r.c.keepdims) }

// variance is _methods._var (and _std: its square root).
func (r recipe) variance(op operand, std bool) (ndarr, error) {
	c := r.c
	rcount := c.reducedCount()
	if c.ddof >= rcount {
		r.w.add("Degrees of freedom <= 0 for slice")
	}
	sumD := dtype.VarSumDtype(op.dt)
	if c.hasArg {
		sumD = c.arg
	}
	r.complexDiscard(op.dt, sumD)
	arrmean, err := r.reduce(op, ufAdd, sumD, true, nil)
	if err != nil {
		return ndarr{}, err
	}
	arrmean = r.divide(arrmean, int64(rcount))
	// x = arr - arrmean, then x*x (or |x|² for complex arr), summed.
	xd := dtype.PromoteTypes(dtype.NativeOf(op.dt), arrmean.d)
	if xd.Kind == 'b' {
		return ndarr{}, refuse("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.")
	}
	xLayout := r.xLayout(op, arrmean)
	sq := xd
	absSquare := op.dt.Kind == 'c' // complex arr: re² + im² in the part type
	if absSquare {
		sq = dtype.RealOf(xd)
	}
	loop2 := dtype.AddReduceDtype(sq)
	if c.hasArg || op.dt.Kind == 'b' || op.dt.Kind == 'i' || op.dt.Kind == 'u' {
		loop2 = sumD
	}
	xop := operand{src: op.src, dt: op.dt, layout: xLayout}
	var ret ndarr
	ok := false
	if xd == loop2 && sq == loop2 && !r.dry {
		ret, ok, err = r.deviationSum(xop, r.meansByPosition(op, arrmean, xd, c.keepdims), loop2, c.keepdims)
	}
	if !ok && err == nil {
		ret, err = r.reduce(xop, ufAdd, loop2, c.keepdims, r.deviationStages(op, arrmean, xd, sq, loop2, c.keepdims))
	}
	if err != nil {
		return ndarr{}, err
	}
	ret = r.divide(ret, int64(max(rcount-c.ddof, 0)))
	if std {
		return sqrtArr(ret, r.w)
	}
	return ret, nil
}

// deviationStages computes, for each element of op as the second sum of
// _var reads it, round(x - mean) squared as NumPy does in dtype xd (for
// complex input, the parts squared and added in the part type sq), then
// casts to the sum's loop dtype. The mean of each element comes from the
// result position the stage is handed (the second reduction's layout).
func (r recipe) deviationStages(op operand, arrmean ndarr, xd, sq, loop dtype.Dtype, keepdims bool) func() []stage {
	if r.dry {
		return nil
	}
	means := r.meansByPosition(op, arrmean, xd, keepdims)
	complexSquare := xd.Kind == 'c' && op.dt.Kind != 'c' && op.dt.Kind != 'b'
	return func() []stage {
		var xs, ys, outs []uint64
		var wide []complex128
		return []stage{func(in []byte, pos, step int, sf *stageFlags) []byte {
			n := len(in) / op.dt.Size
			x := in // xd's values already (never written: a stage's input)
			if !sameNative(dtype.NativeOf(op.dt), xd) {
				x = bytesOf(&xs, n*xd.Size)
				castNative(x, in, op.dt, xd, &wide)
				castFlags(x, in, op.dt, xd, &sf.subtract)
			}
			y := squareDeviations(bytesOf(&ys, n*sq.Size), x, xd, sq, means, pos, step, complexSquare, sf)
			if sq.Kind == loop.Kind && sq.Size == loop.Size {
				return y
			}
			o := bytesOf(&outs, n*loop.Size)
			castNative(o, y, sq, loop, &wide)
			castFlags(o, y, sq, loop, &sf.reduce)
			return o
		}}
	}
}

// meansByPosition lays arrmean's values (cast to xd) out by the position
// the second reduction of _var gives each result.
func (r recipe) meansByPosition(op operand, arrmean ndarr, xd dtype.Dtype, keepdims bool) []byte {
	c := r.c
	means := castArr(arrmean, xd)
	// The second reduction reads with layout xLayout but positions its
	// results by its own allocation; recompute that layout as reduce does.
	xLayout := r.xLayout(op, arrmean)
	lay := newReduceLayout(op.src.Shape, xLayout, c.red, keepdims)
	out := alloc(len(means.data)/xd.Size, xd)
	// C index over the kept axes ↔ position in lay.
	kept := []int{}
	for k := range op.src.Shape {
		if !c.red[k] {
			kept = append(kept, k)
		}
	}
	n := Count(means.shape)
	idx := make([]int, len(kept))
	for i := 0; i < n; i++ {
		pos := 0
		for j, k := range kept {
			pos += idx[j] * lay.pos[k]
		}
		copy(out[pos*xd.Size:(pos+1)*xd.Size], means.data[i*xd.Size:(i+1)*xd.Size])
		for j := len(idx) - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < op.src.Shape[kept[j]] {
				break
			}
			idx[j] = 0
		}
	}
	return out
}

// xLayout is the strides NumPy gives x = arr - arrmean.
func (r recipe) xLayout(op operand, arrmean ndarr) []int {
	c := r.c
	if arrmean.scalar {
		return elementwiseStrides(op.src.Shape, [][]int{op.src.Strides}, [][]int{op.src.Shape})
	}
	meanStrides := make([]int, len(op.src.Shape))
	for k := range meanStrides {
		if !c.red[k] {
			meanStrides[k] = arrmean.strides[k]
		}
	}
	return elementwiseStrides(op.src.Shape, [][]int{op.layout, meanStrides}, [][]int{op.src.Shape, arrmean.shape})
}

// squareDeviations writes into y (n values of dtype sq) the values x (n
// of dtype xd) become as (x - mean)²: element i's mean is means[pos +
// i*step].
func squareDeviations(y, x []byte, xd, sq dtype.Dtype, means []byte, pos, step int, complexSquare bool, sf *stageFlags) []byte {
	switch {
	case xd.Kind == 'f' && xd.Size == 4:
		squaresOf(typed[float32](y), typed[float32](x), typed[float32](means), pos, step, false, sf)
		return y
	case xd.Kind == 'f' && xd.Size == 8:
		squaresOf(typed[float64](y), typed[float64](x), typed[float64](means), pos, step, false, sf)
		return y
	}
	n := len(x) / xd.Size
	xa := ndarr{d: xd, data: x}
	ma := ndarr{d: xd, data: means}
	out := ndarr{d: sq, data: y}
	for i := 0; i < n; i++ {
		p := pos + i*step
		switch xd.Kind {
		case 'i', 'u':
			d := xa.intAt(i) - ma.intAt(p)
			out.setInt(i, d*d)
		case 'f':
			a, m := real(xa.wideAt(i)), real(ma.wideAt(p))
			d := real(roundTo(xd, complex(a-m, 0)))
			flagOp(&sf.subtract, a, m, d)
			q := real(roundTo(xd, complex(d*d, 0)))
			flagOp(&sf.multiply, d, d, q)
			out.setWide(i, complex(q, 0))
		default:
			a, m := xa.wideAt(i), ma.wideAt(p)
			d := roundTo(xd, a-m)
			flagOp(&sf.subtract, real(a), real(m), real(d))
			flagOp(&sf.subtract, imag(a), imag(m), imag(d))
			if complexSquare {
				re, im := complexMulIn(xd, real(d), imag(d), real(d), imag(d), true, &sf.multiply)
				out.setWide(i, complex(re, im))
				continue
			}
			re := real(roundTo(sq, complex(real(d)*real(d), 0)))
			flagOp(&sf.multiply, real(d), real(d), re)
			im := real(roundTo(sq, complex(imag(d)*imag(d), 0)))
			flagOp(&sf.multiply, imag(d), imag(d), im)
			t := real(roundTo(sq, complex(re+im, 0)))
			flagOp(&sf.add, re, im, t)
			out.setWide(i, complex(t, 0))
		}
	}
	return out.data
}

// nanExtreme is np.nanmin / np.nanmax: fmin.reduce / fmax.reduce of the
// input, warning when a result is NaN.
func (r recipe) nanExtreme(uf ufuncKind) (ndarr, error) {
	res, err := r.extreme(r.input(), uf, r.c.keepdims)
	if err != nil || r.dry || !isInexact(res.d) {
		return res, err
	}
	for i := 0; i < res.count(); i++ {
		z := res.wideAt(i)
		if real(z) != real(z) || imag(z) != imag(z) {
			r.w.add("All-NaN slice encountered")
			break
		}
	}
	return res, nil
}

// nanCounts is np.sum(~np.isnan(a), axis, dtype=np.intp, keepdims): the
// numbers per result, in C order.
func (r recipe) nanCounts(keepdims bool) (ndarr, error) {
	op := r.input()
	if !r.dry && !r.hasNaN() {
		// Every element counts: the layout of the sum, filled.
		dry := r
		dry.dry = true
		res, err := dry.reduce(operand{src: op.src, dt: op.dt, layout: op.src.Strides}, ufAdd, dtype.Int64, keepdims, nil)
		if err != nil {
			return ndarr{}, err
		}
		res.data = alloc(res.count(), dtype.Int64)
		for i := range typed[int64](res.data) {
			typed[int64](res.data)[i] = int64(r.c.reducedCount())
		}
		return res, nil
	}
	res, err := r.reduce(operand{src: op.src, dt: op.dt, layout: op.src.Strides}, ufAdd, dtype.Int64, keepdims, func() []stage {
		var out []uint64
		nd := dtype.NativeOf(op.dt)
		return []stage{func(in []byte, _, _ int, _ *stageFlags) []byte {
			n := len(in) / op.dt.Size
			o := bytesOf(&out, 8*n)
			for i := 0; i < n; i++ {
				z := nd.Complex(in[i*op.dt.Size:])
				typed[int64](o)[i] = int64(b2u(real(z) == real(z) && imag(z) == imag(z)))
			}
			return o
		}}
	})
	return res, err
}

// nanmean is nanfunctions.nanmean.
func (r recipe) nanmean() (ndarr, error) {
	c := r.c
	if !isInexact(c.dt) {
		return r.mean(r.input())
	}
	arr := r.nanReplaced(0)
	loop := dtype.AddReduceDtype(arr.dt)
	if c.hasArg {
		loop = c.arg
	}
	r.complexDiscard(arr.dt, loop)
	// The sum before the counts (NumPy counts first; neither warns): a
	// sum that meets no NaN says the counts are all alike.
	tot, err := r.reduce(arr, ufAdd, loop, c.keepdims, nil)
	if err != nil {
		return ndarr{}, err
	}
	cnt, err := r.nanCounts(c.keepdims)
	if err != nil {
		return ndarr{}, err
	}
	avg := r.divideByCounts(tot, cnt)
	if !r.dry {
		for _, n := range typed[int64](cnt.data) {
			if n == 0 {
				r.w.add("Mean of empty slice")
				break
			}
		}
		if cnt.count() == 0 {
			return avg, nil
		}
	}
	return avg, nil
}

// divideByCounts is _divide_by_count(a, b) with integer counts b (an
// array, or a scalar with a): in the promotion of a's dtype with int64,
// cast back, warnings silenced.
func (r recipe) divideByCounts(a, cnt ndarr) ndarr {
	var quiet warnings
	var counts []int64
	if cnt.data != nil {
		counts = typed[int64](cnt.data)
	}
	l := dtype.PromoteTypes(a.d, dtype.Int64)
	if l.Kind != 'f' && l.Kind != 'c' {
		l = dtype.Float64
	}
	if counts == nil && !r.dry {
		counts = make([]int64, a.count())
	}
	return divideCount(a, l, a.d, 0, counts, &quiet, "divide")
}

// nanvar is nanfunctions.nanvar (and nanstd: its square root).
func (r recipe) nanvar(std bool) (ndarr, error) {
	c := r.c
	if !isInexact(c.dt) {
		return r.variance(r.input(), std)
	}
	arr := r.nanReplaced(0)
	loop := dtype.AddReduceDtype(arr.dt)
	if c.hasArg {
		loop = c.arg
	}
	r.complexDiscard(arr.dt, loop)
	avg, err := r.reduce(arr, ufAdd, loop, true, nil) // before the counts, as in nanmean
	if err != nil {
		return ndarr{}, err
	}
	cnt, err := r.nanCounts(true)
	if err != nil {
		return ndarr{}, err
	}
	avg = r.divideByCounts(avg, cnt)
	// arr - avg into arr (arr's dtype), NaNs back to 0, squared in arr's
	// dtype (complex: x*conj(x), real part), summed.
	ad := dtype.NativeOf(arr.dt)
	sub := dtype.PromoteTypes(ad, avg.d)
	r.complexDiscard(sub, ad) // np.subtract(..., out=arr, casting='unsafe')
	sq := ad
	if ad.Kind == 'c' {
		sq = dtype.RealOf(ad)
	}
	loop2 := dtype.AddReduceDtype(sq)
	if c.hasArg {
		loop2 = c.arg
	}
	sqop := operand{src: arr.src, dt: arr.dt, layout: arr.layout}
	var v ndarr
	ok := false
	if !r.dry && c.nanSeen == 2 && ad == sub && ad == sq && ad == loop2 {
		v, ok, err = r.deviationSum(sqop, r.nanMeansByPosition(arr, avg, sub), loop2, c.keepdims)
	}
	if !ok && err == nil {
		v, err = r.reduce(sqop, ufAdd, loop2, c.keepdims, r.nanDeviationStages(arr, avg, sub, loop2))
	}
	if err != nil {
		return ndarr{}, err
	}
	if !r.dry {
		v = r.divideByDof(v, cnt)
	}
	if std {
		return sqrtArr(v, r.w)
	}
	return v, nil
}

// divideByDof is nanvar's var / dof, dof = cnt - ddof, each output with
// its own count (warnings silenced), then NaN where dof <= 0 (with
// NumPy's warning).
func (r recipe) divideByDof(v, cnt ndarr) ndarr {
	dof := make([]int64, cnt.count())
	bad := false
	for i, n := range typed[int64](cnt.data) {
		dof[i] = n - int64(r.c.ddof)
		bad = bad || dof[i] <= 0
	}
	var quiet warnings
	l := dtype.PromoteTypes(v.d, dtype.Int64)
	if l.Kind != 'f' && l.Kind != 'c' {
		l = dtype.Float64
	}
	v = divideCount(v, l, v.d, 0, dof, &quiet, "divide")
	if bad {
		r.w.add("Degrees of freedom <= 0 for slice.")
		nan := ndarr{d: dtype.Float64, data: alloc(1, dtype.Float64)}
		nan.setWide(0, complex(math.Float64frombits(0x7ff8000000000000), 0)) // np.nan
		for i, d := range dof {
			if d <= 0 {
				castValue(v, i, nan.d, nan.data)
			}
		}
	}
	return v
}

// nanDeviationStages computes, for each element of nanvar's copy arr as
// its second sum reads it, what np.subtract(arr, avg, out=arr,
// casting='unsafe'), the zeros put back at the NaNs and arr*arr (complex:
// arr*conj(arr), real part) give, in sub, arr's dtype and the sum's loop
// dtype loop; nil in a dry run.
func (r recipe) nanDeviationStages(arr operand, avg ndarr, sub, loop dtype.Dtype) func() []stage {
	if r.dry {
		return nil
	}
	ad := dtype.NativeOf(arr.dt)
	sq := dtype.RealOf(ad)
	means := r.nanMeansByPosition(arr, avg, sub)
	return func() []stage {
		var xs, ys, outs []uint64
		var wide []complex128
		return []stage{func(in []byte, pos, step int, sf *stageFlags) []byte {
			n := len(in) / arr.dt.Size
			x := bytesOf(&xs, n*sub.Size)
			castNative(x, in, ad, sub, &wide) // NaNs stay NaN
			castFlags(x, in, ad, sub, &sf.subtract)
			y := bytesOf(&ys, n*ad.Size)
			nanDeviations(y, x, in, ad, sub, means, pos, step, arr.dt.BigEndian(), sf)
			if sq.Kind == loop.Kind && sq.Size == loop.Size {
				return y[:n*sq.Size]
			}
			o := bytesOf(&outs, n*loop.Size)
			castNative(o, y[:n*sq.Size], sq, loop, &wide)
			castFlags(o, y[:n*sq.Size], sq, loop, &sf.reduce)
			return o
		}}
	}
}

// complexMulIn is complexMulFlags in the parts of complex dtype d.
func complexMulIn(d dtype.Dtype, ar, ai, br, bi float64, fused bool, f *fpFlags) (float64, float64) {
	if d.Size == 8 {
		re, im := complexMulFlags(float32(ar), float32(ai), float32(br), float32(bi), false, f)
		return float64(re), float64(im)
	}
	return complexMulFlags(ar, ai, br, bi, fused, f)
}

// flagOp records the exceptions of an operation on a and b that gave r
// (already rounded to its dtype): invalid for non-NaNs giving a NaN,
// overflow for numbers giving an infinity.
func flagOp(f *fpFlags, a, b, r float64) {
	if isFinite(r) {
		return
	}
	if r != r {
		f.invalid = f.invalid || a == a && b == b
		return
	}
	f.overflow = f.overflow || isFinite(a) && isFinite(b)
}

// squaresOf sets y[i] to (x[i] - mean)², each operation rounded to T,
// where element i's mean is ms[pos+i*step]; with nanZero, to 0 where x[i]
// is NaN (nanvar's copy). y is not x. The operations' exceptions are
// looked for only when a square is not finite, which the squares' bits
// show at once: the loops stay free of tests.
func squaresOf[T float](y, x, ms []T, pos, step int, nanZero bool, sf *stageFlags) {
	y = y[:len(x)]
	switch {
	case step == 0 && !nanZero:
		m := ms[pos]
		for i, v := range x {
			d := v - m
			y[i] = d * d
		}
	case step == 0:
		m := ms[pos]
		for i, v := range x {
			d := v - m
			y[i] = d * d
			if v != v {
				y[i] = 0
			}
		}
	default:
		for i, v := range x {
			d := v - ms[pos+i*step]
			y[i] = d * d
			if nanZero && v != v {
				y[i] = 0
			}
		}
	}
	if squaresFinite(y) {
		return
	}
	for i, v := range x {
		if nanZero && v != v {
			continue
		}
		m := ms[pos+i*step]
		d := v - m
		if q := d * d; !finite(q) {
			flagOp(&sf.subtract, float64(v), float64(m), float64(d))
			flagOp(&sf.multiply, float64(d), float64(d), float64(q))
		}
	}
}

// squaresFinite reports whether the squares ys (each +0 or more, or NaN)
// are all finite: as unsigned integers the bits of every infinity and NaN
// are at least those of +Inf, and a finite square's are below.
func squaresFinite[T float](ys []T) bool {
	if _, ok := any(ys).([]float32); ok {
		return maxBits(typed[uint32](rawBytes(ys))) < 0x7f800000
	}
	return maxBits(typed[uint64](rawBytes(ys))) < 0x7ff0000000000000
}

// maxBits is the greatest of us (0 when empty), four lanes at a time.
func maxBits[U uint32 | uint64](us []U) U {
	var m0, m1, m2, m3 U
	i := 0
	for ; i+4 <= len(us); i += 4 {
		b := us[i : i+4 : i+4]
		m0, m1, m2, m3 = max(m0, b[0]), max(m1, b[1]), max(m2, b[2]), max(m3, b[3])
	}
	for ; i < len(us); i++ {
		m0 = max(m0, us[i])
	}
	return max(m0, m1, m2, m3)
}

// nanMeansByPosition is avg (keepdims shape, cast to sub) by the result
// position the second sum of nanvar gives each output.
func (r recipe) nanMeansByPosition(arr operand, avg ndarr, sub dtype.Dtype) []byte {
	c := r.c
	means := castArr(avg, sub)
	lay := newReduceLayout(arr.src.Shape, arr.layout, c.red, c.keepdims)
	out := alloc(means.count(), sub)
	kept := []int{}
	for k := range arr.src.Shape {
		if !c.red[k] {
			kept = append(kept, k)
		}
	}
	idx := make([]int, len(kept))
	for i := 0; i < means.count(); i++ {
		pos := 0
		for j, k := range kept {
			pos += idx[j] * lay.pos[k]
		}
		copy(out[pos*sub.Size:(pos+1)*sub.Size], means.data[i*sub.Size:(i+1)*sub.Size])
		for j := len(idx) - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < arr.src.Shape[kept[j]] {
				break
			}
			idx[j] = 0
		}
	}
	return out
}

// nanDeviations writes into y (dtype ad, then squared as nanvar does) the
// values np.subtract(arr, avg, out=arr, casting='unsafe') then
// _copyto(arr, 0, mask) then arr*arr (complex: arr*conj(arr), real part)
// give: x holds the elements cast to sub, orig the original elements (NaN
// marks where 0 goes).
//
// byteSwapped says the copy is byte-swapped: NumPy's in-place product then
// runs on its buffers, where the AVX-512 loop rounds products apart.
func nanDeviations(y, x, orig []byte, ad, sub dtype.Dtype, means []byte, pos, step int, byteSwapped bool, sf *stageFlags) {
	if ad == sub && ad.Kind == 'f' && ad.Size >= 4 {
		// The same float type throughout: y = (x - mean)², 0 at NaNs.
		if ad.Size == 4 {
			squaresOf(typed[float32](y), typed[float32](x), typed[float32](means), pos, step, true, sf)
		} else {
			squaresOf(typed[float64](y), typed[float64](x), typed[float64](means), pos, step, true, sf)
		}
		return
	}
	n := len(x) / sub.Size
	xa, ma := ndarr{d: sub, data: x}, ndarr{d: sub, data: means}
	ya := ndarr{d: ad, data: y}
	oa := ndarr{d: ad, data: orig}
	tmp := ndarr{d: sub, data: alloc(1, sub)}
	var wide []complex128
	for i := 0; i < n; i++ {
		z := oa.wideAt(i)
		if real(z) != real(z) || imag(z) != imag(z) {
			ya.setWide(i, 0)
			continue
		}
		a, m := xa.wideAt(i), ma.wideAt(pos+i*step)
		d := roundTo(sub, a-m)
		flagOp(&sf.subtract, real(a), real(m), real(d))
		flagOp(&sf.subtract, imag(a), imag(m), imag(d))
		tmp.setWide(0, d)
		castNative(y[i*ad.Size:(i+1)*ad.Size], tmp.data, sub, ad, &wide)
		castFlags(y[i*ad.Size:(i+1)*ad.Size], tmp.data, sub, ad, &sf.cast)
	}
	sq := ad
	if ad.Kind == 'c' {
		sq = dtype.RealOf(ad)
	}
	out := ndarr{d: sq, data: y}
	for i := 0; i < n; i++ {
		d := ya.wideAt(i)
		if ad.Kind == 'c' {
			re, _ := complexMulIn(ad, real(d), imag(d), real(d), -imag(d), !byteSwapped, &sf.multiply)
			out.setWide(i, complex(re, 0))
		} else {
			q := roundTo(sq, d*d)
			flagOp(&sf.multiply, real(d), real(d), real(q))
			out.setWide(i, q)
		}
	}
}
