package ops

import (
	"fmt"
	"math"
	"unsafe"

	"strider/internal/dtype"
)

// foldKernel is one ufunc's inner loop for one loop dtype, on native
// loop-typed bytes: acc holds the results, vals one call's values.
type foldKernel struct {
	size int
	// init sets every result to the ufunc's identity; nil when it has none.
	init func(acc []byte)
	// call is a reduce call: every value folds into acc[pos]. contiguous
	// says whether NumPy's loop sees them contiguous (a buffer, or a stride
	// of one element), which picks min/max's vector or scalar path.
	call func(acc []byte, pos int, vals []byte, contiguous bool, f *fpFlags)
	// row is an element-by-element call: vals[i] folds into acc[pos+i*step].
	row func(acc []byte, pos, step int, vals []byte, f *fpFlags)
	// rowFast, when set, is row without exceptions or NaN rules: for sums
	// and products, whose results, when all finite, show that no
	// operation met an infinity or a NaN. run redoes a reduction by row
	// whose results are not all finite.
	rowFast func(acc []byte, pos, step int, vals []byte)
	// rowCall, when set, replaces row for kernels whose result depends on
	// where NumPy's element-by-element calls start and end (fmax and fmin
	// on float32 and float64: vector lanes, then a scalar tail): one whole
	// call, vals[i] into acc[poss[i]].
	rowCall func(acc []byte, poss []int, vals []byte)
	// partial and combine, when set, split a call: combine(acc, pos,
	// partial(vals, pos)) equals call(acc, pos, vals, _), and partials of
	// separate calls may be taken in any order, on any thread.
	partial func(vals []byte, pos int, f *fpFlags) [2]uint64
	combine func(acc []byte, pos int, p [2]uint64, f *fpFlags)
	// settled, look and jump, when set, let the calls of an output whose
	// result has settled run side by side (lookOver): settled reports
	// that acc[pos] is such a result; look summarizes a call's values for
	// that result (read, not written), in any order, on any thread; jump(acc,
	// pos, look(acc, pos, vals)) is call(acc, pos, vals, ...) and true
	// where the summary settles the result acc[pos] has by then, else
	// false with acc unchanged.
	settled func(acc []byte, pos int) bool
	look    func(acc []byte, pos int, vals []byte) [2]uint64
	jump    func(acc []byte, pos int, s [2]uint64) bool
}

// typed views b as a []T (b is aligned for T).
func typed[T any](b []byte) []T {
	var z T
	n := len(b) / int(unsafe.Sizeof(z))
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// kernelFor returns the inner loop of uf for loop dtype d, running vector
// kernels up to simd.
func kernelFor(uf ufuncKind, d dtype.Dtype, simd simdLevel) (foldKernel, error) {
	switch {
	case uf == ufNonzero:
		return nonzeroKernel(d, simd), nil
	case d.Kind == 'b':
		return boolKernel(uf), nil
	case d.Kind == 'i':
		switch d.Size {
		case 1:
			return intKernel[int8](uf), nil
		case 2:
			return intKernel[int16](uf), nil
		case 4:
			return intKernel[int32](uf), nil
		}
		return intKernel[int64](uf), nil
	case d.Kind == 'u':
		switch d.Size {
		case 1:
			return intKernel[uint8](uf), nil
		case 2:
			return intKernel[uint16](uf), nil
		case 4:
			return intKernel[uint32](uf), nil
		}
		return intKernel[uint64](uf), nil
	case d.Kind == 'f' && d.Size == 2:
		return halfKernel(uf, simd), nil
	case d.Kind == 'f' && d.Size == 4:
		return floatKernel[float32](uf, simd), nil
	case d.Kind == 'f':
		return floatKernel[float64](uf, simd), nil
	case d.Kind == 'c' && d.Size == 8:
		return complexKernel[float32](uf), nil
	case d.Kind == 'c':
		return complexKernel[float64](uf), nil
	}
	return foldKernel{}, fmt.Errorf("no reduction loop for %s", d.Name())
}

func u64[T float](x T) uint64 {
	if f, ok := any(x).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(x))
}

func fromU64[T float](u uint64) T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(math.Float32frombits(uint32(u)))
	}
	return T(math.Float64frombits(u))
}

// floatKernel is FLOAT_/DOUBLE_ add, multiply, maximum, minimum, fmax and
// fmin (loops_arithm_fp.dispatch.c.src, loops_minmax.dispatch.c.src).
func floatKernel[T float](uf ufuncKind, simd simdLevel) foldKernel {
	var z T
	k := foldKernel{size: int(unsafe.Sizeof(z))}
	switch uf {
	case ufAdd:
		floatAdd[T](&k, simd)
	case ufMultiply:
		floatMultiply[T](&k, simd)
	default:
		floatMinMax[T](&k, uf)
	}
	return k
}

// floatAdd is FLOAT_add and DOUBLE_add: the pairwise sum of a reduce call.
func floatAdd[T float](k *foldKernel, simd simdLevel) {
	k.init = func(acc []byte) { clear(acc) }
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[T](acc)
		a[pos] = addX(a[pos], pairwise(typed[T](vals), f, simd), f)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[T](acc)
		for i, x := range typed[T](vals) {
			q := pos + i*step
			a[q] = addX(a[q], x, f)
		}
	}
	k.rowFast = func(acc []byte, pos, step int, vals []byte) {
		a, xs := typed[T](acc), typed[T](vals)
		if step == 1 {
			n := vectorArithCols(a[pos:], xs, false, simd)
			a, xs = a[pos+n:pos+len(xs):pos+len(xs)], xs[n:]
			for i, x := range xs {
				a[i] += x
			}
			return
		}
		for i, x := range xs {
			a[pos+i*step] += x
		}
	}
	k.partial = func(vals []byte, _ int, f *fpFlags) [2]uint64 {
		return [2]uint64{u64(pairwise(typed[T](vals), f, simd))}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) {
		a := typed[T](acc)
		a[pos] = addX(a[pos], fromU64[T](p[0]), f)
	}
}

// floatMultiply is FLOAT_multiply and DOUBLE_multiply: one product at a time.
func floatMultiply[T float](k *foldKernel, simd simdLevel) {
	k.init = func(acc []byte) {
		for i := range typed[T](acc) {
			typed[T](acc)[i] = 1
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[T](acc)
		a[pos] = product(a[pos], typed[T](vals), f)
	}
	// A product that is a zero, an infinity or a NaN stays one (product):
	// a call's factors summarized say what it does, as saturated does,
	// for the kind of result the summary was made for.
	k.settled = func(acc []byte, pos int) bool {
		p := typed[T](acc)[pos]
		return p == 0 || !finite(p)
	}
	k.look = func(acc []byte, pos int, vals []byte) [2]uint64 {
		p := typed[T](acc)[pos]
		if p != p {
			return [2]uint64{2}
		}
		q, ok := saturated(p, typed[T](vals))
		return [2]uint64{uint64(b2u(p != 0)), uint64(b2u(ok)) | uint64(b2u(u64(q) != u64(p)))<<1}
	}
	k.jump = func(acc []byte, pos int, s [2]uint64) bool {
		a := typed[T](acc)
		p := a[pos]
		switch {
		case p != p:
			return true // a NaN times anything is this NaN, and raises nothing
		case s[0] != uint64(b2u(p != 0)), s[1]&1 == 0:
			return false // made for another kind of result, or it does not settle this one
		}
		odd := s[1]>>1 != 0
		if odd {
			a[pos] = -p
		}
		return true
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[T](acc)
		for i, x := range typed[T](vals) {
			a[pos+i*step] = mulX(a[pos+i*step], x, f)
		}
	}
	k.rowFast = func(acc []byte, pos, step int, vals []byte) {
		a, xs := typed[T](acc), typed[T](vals)
		if step == 1 {
			n := vectorArithCols(a[pos:], xs, true, simd)
			a, xs = a[pos+n:pos+len(xs):pos+len(xs)], xs[n:]
			for i, x := range xs {
				a[i] *= x
			}
			return
		}
		for i, x := range xs {
			a[pos+i*step] *= x
		}
	}
}

// vectorArithCols is rowFast's step-1 loop, acc[i] += xs[i] (or *= with
// multiply), for i below n, the longest prefix of xs the widest kernel
// simd allows takes whole (0: none), and returns n. Each lane is the one
// IEEE operation the Go loop does, so every finite result has its bits.
func vectorArithCols[T float](acc, xs []T, multiply bool, simd simdLevel) int {
	var z T
	size := int(unsafe.Sizeof(z))
	n, wide := vectorPrefix(len(xs), size, 1, simd)
	if n == 0 {
		return 0
	}
	acc = acc[:n:n] // bounds
	a, p := unsafe.Pointer(unsafe.SliceData(acc)), unsafe.Pointer(unsafe.SliceData(xs))
	f := [2][2][2]func(acc, xs unsafe.Pointer, n int){
		{{addCols64AVX2, mulCols64AVX2}, {addCols64AVX512, mulCols64AVX512}},
		{{addCols32AVX2, mulCols32AVX2}, {addCols32AVX512, mulCols32AVX512}},
	}[b2u(size == 4)][b2u(wide)][b2u(multiply)]
	f(a, p, n)
	return n
}

// product is p times each of xs in turn, as NumPy's multiply loop folds a
// reduce call. Once the running product is a zero, an infinity or a NaN
// it stays one, its sign the sign of the factors multiplied together,
// until a factor that is not finite (or, for an infinity, a zero) comes;
// the rest of the call is then looked over at once instead of multiplied
// out, in a chain each of whose steps waits for the last.
func product[T float](p T, xs []T, f *fpFlags) T {
	const stride = 64
	for i := 0; i < len(xs); {
		if p != p {
			return p // NaN times anything is this NaN (nanPick)
		}
		if p == 0 || !finite(p) {
			if q, ok := saturated(p, xs[i:]); ok {
				return q
			}
			for ; i < len(xs); i++ {
				p = mulX(p, xs[i], f)
			}
			return p
		}
		for end := min(i+stride, len(xs)); i < end; i++ {
			p = mulX(p, xs[i], f)
		}
	}
	return p
}

// saturated is p (a zero or an infinity) times xs, and true, when every
// factor is finite and, for an infinity, not zero: the magnitude stays,
// the signs multiply, and no exception is raised.
func saturated[T float](p T, xs []T) (T, bool) {
	var ok, odd bool
	if p == 0 {
		ok, odd = finiteSigns(xs)
	} else {
		lo, hi, o := absBitsRange(xs)
		ok, odd = hi < absInf[T]() && (lo != 0 || len(xs) == 0), o
	}
	if !ok {
		return p, false
	}
	if odd {
		p = -p
	}
	return p, true
}

// floatMinMax is maximum, minimum, fmax and fmin for float and double.
func floatMinMax[T float](k *foldKernel, uf ufuncKind) {
	isMax := uf == ufMaximum || uf == ufFmax
	propagate := uf == ufMaximum || uf == ufMinimum
	op := scalarMax[T]
	switch uf {
	case ufMinimum:
		op = scalarMin[T]
	case ufFmax:
		op = fmaxScalar[T]
	case ufFmin:
		op = fminScalar[T]
	}
	k.call = func(acc []byte, pos int, vals []byte, contiguous bool, _ *fpFlags) {
		a := typed[T](acc)
		xs := typed[T](vals)
		// The extreme's value does not depend on NumPy's order; only
		// which zero or which NaN comes out does. Without a NaN and
		// with a nonzero result, the value says it all.
		if m, ok := extremeOf(xs, isMax); ok && a[pos] == a[pos] && m != 0 && a[pos] != 0 {
			if isMax == (a[pos] < m) {
				a[pos] = m
			}
			return
		}
		if contiguous {
			a[pos] = simdReduceMinMax(a[pos], xs, isMax, propagate)
		} else {
			a[pos] = scalarUnrollMinMax(a[pos], xs, op)
		}
	}
	k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
		minMaxRow(typed[T](acc), pos, step, typed[T](vals), uf, op)
	}
	if !propagate {
		k.rowCall = func(acc []byte, poss []int, vals []byte) {
			fmaxRowCall(typed[T](acc), poss, typed[T](vals), isMax, op)
		}
	}
}

// minMaxRow folds xs[i] into a[pos+i*step] by uf (op for fmax and fmin).
func minMaxRow[T float](a []T, pos, step int, xs []T, uf ufuncKind, op func(a, b T) T) {
	switch uf {
	case ufMaximum:
		for i, x := range xs {
			q := pos + i*step
			if !(a[q] != a[q] || a[q] > x) {
				a[q] = x
			}
		}
	case ufMinimum:
		for i, x := range xs {
			q := pos + i*step
			if !(a[q] != a[q] || a[q] < x) {
				a[q] = x
			}
		}
	default:
		for i, x := range xs {
			a[pos+i*step] = op(a[pos+i*step], x)
		}
	}
}

// fmaxRowCall is one element-by-element call of fmax or fmin
// (simd_binary_ccc/simd_binary): whole vectors of lanes by npyv_maxp (b's
// NaN gives way, else a when a > b, b on a tie), the tail by op (a on a
// tie); v[i] folds into a[poss[i]].
func fmaxRowCall[T float](a []T, poss []int, v []T, isMax bool, op func(a, b T) T) {
	L := lanesOf[T]()
	vec := len(v) / L * L
	for i, x := range v[:vec] {
		q := poss[i]
		if x == x && !(isMax && a[q] > x || !isMax && a[q] < x) {
			a[q] = x
		}
	}
	for i, x := range v[vec:] {
		q := poss[vec+i]
		a[q] = op(a[q], x)
	}
}

// extremeOf is the greatest (isMax) or least of xs by value (a zero of
// either sign), and false when xs is empty or holds a NaN.
func extremeOf[T float](xs []T, isMax bool) (T, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	return extremeBranchy(xs, isMax)
}

// rawBytes is the memory of xs as bytes.
func rawBytes[T any](xs []T) []byte {
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(xs))), len(xs)*int(unsafe.Sizeof(z)))
}

// halfKernel is HALF_add and friends (loops.c.src): a reduce call widens
// the result to float, folds the call's values in float (add: their
// pairwise sum in float) and rounds back to half once; an element-by-
// element call rounds after each element.
func halfKernel(uf ufuncKind, simd simdLevel) foldKernel {
	k := foldKernel{size: 2}
	switch uf {
	case ufAdd:
		halfAdd(&k, simd)
	case ufMultiply:
		halfMultiply(&k)
	default:
		op := halfPick(uf)
		k.call = func(acc []byte, pos int, vals []byte, _ bool, _ *fpFlags) {
			a := typed[uint16](acc)
			for _, h := range typed[uint16](vals) {
				a[pos] = op(a[pos], h)
			}
		}
		k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
			a := typed[uint16](acc)
			for i, h := range typed[uint16](vals) {
				a[pos+i*step] = op(a[pos+i*step], h)
			}
		}
	}
	return k
}

// halfAdd is HALF_add: a reduce call's pairwise sum in float, added to
// the result widened and rounded back once.
func halfAdd(k *foldKernel, simd simdLevel) {
	k.init = func(acc []byte) { clear(acc) }
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[uint16](acc)
		a[pos] = toHalf(addX(halfToFloat32(a[pos]), pairwise(halfsToFloats(vals), f, simd), f), f)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[uint16](acc)
		for i, h := range typed[uint16](vals) {
			q := pos + i*step
			a[q] = toHalf(addX(halfToFloat32(a[q]), halfToFloat32(h), f), f)
		}
	}
	k.partial = func(vals []byte, _ int, f *fpFlags) [2]uint64 {
		return [2]uint64{uint64(math.Float32bits(pairwise(halfsToFloats(vals), f, simd)))}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) {
		a := typed[uint16](acc)
		a[pos] = toHalf(addX(halfToFloat32(a[pos]), math.Float32frombits(uint32(p[0])), f), f)
	}
}

// halfMultiply is HALF_multiply: a reduce call's products in float,
// rounded back to half once.
func halfMultiply(k *foldKernel) {
	k.init = func(acc []byte) {
		for i := range typed[uint16](acc) {
			typed[uint16](acc)[i] = 0x3c00
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[uint16](acc)
		p := halfToFloat32(a[pos])
		for _, h := range typed[uint16](vals) {
			p = mulX(p, halfToFloat32(h), f)
		}
		a[pos] = toHalf(p, f)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[uint16](acc)
		for i, h := range typed[uint16](vals) {
			q := pos + i*step
			a[q] = toHalf(mulX(halfToFloat32(a[q]), halfToFloat32(h), f), f)
		}
	}
}

// halfPick is HALF_maximum, _minimum, _fmax and _fmin on two halves: the
// one kept (the first on a tie; maximum keeps a NaN, fmax drops one).
func halfPick(uf ufuncKind) func(a, b uint16) uint16 {
	var keep func(a, b uint16) bool
	switch uf {
	case ufMaximum:
		keep = func(a, b uint16) bool { return halfGE(a, b) || halfIsNaN(a) }
	case ufMinimum:
		keep = func(a, b uint16) bool { return halfLE(a, b) || halfIsNaN(a) }
	case ufFmax:
		keep = func(a, b uint16) bool { return halfGE(a, b) || halfIsNaN(b) }
	default:
		keep = func(a, b uint16) bool { return halfLE(a, b) || halfIsNaN(b) }
	}
	return func(a, b uint16) uint16 {
		if keep(a, b) {
			return a
		}
		return b
	}
}

// halfsToFloats widens half values to float32 (in a fresh buffer).
func halfsToFloats(vals []byte) []float32 {
	hs := typed[uint16](vals)
	fs := make([]float32, len(hs))
	for i, h := range hs {
		fs[i] = halfToFloat32(h)
	}
	return fs
}

// complexKernel is CFLOAT_/CDOUBLE_ add, multiply, maximum, minimum, fmax
// and fmin over interleaved parts.
func complexKernel[T float](uf ufuncKind) foldKernel {
	var z T
	k := foldKernel{size: 2 * int(unsafe.Sizeof(z))}
	var fold func(a []T, q int, br, bi T, f *fpFlags)
	switch uf {
	case ufAdd:
		complexAdd[T](&k)
		return k
	case ufMultiply:
		k.init = func(acc []byte) {
			a := typed[T](acc)
			for i := 0; i < len(a); i += 2 {
				a[i], a[i+1] = 1, 0
			}
		}
		fold = func(a []T, q int, br, bi T, f *fpFlags) {
			a[q], a[q+1] = complexMulFlags(a[q], a[q+1], br, bi, true, f)
		}
	default:
		keep := complexKeep[T](uf)
		fold = func(a []T, q int, br, bi T, _ *fpFlags) {
			if !keep(a[q], a[q+1], br, bi) {
				a[q], a[q+1] = br, bi
			}
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a, v := typed[T](acc), typed[T](vals)
		for i := 0; i < len(v); i += 2 {
			fold(a, 2*pos, v[i], v[i+1], f)
		}
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a, v := typed[T](acc), typed[T](vals)
		for i := 0; i < len(v); i += 2 {
			fold(a, 2*(pos+i/2*step), v[i], v[i+1], f)
		}
	}
	return k
}

// complexAdd is CFLOAT_add and CDOUBLE_add: a reduce call's pairwise sum of
// the real and the imaginary parts.
func complexAdd[T float](k *foldKernel) {
	k.init = func(acc []byte) { clear(acc) }
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[T](acc)
		re, im := pairwiseComplex(typed[T](vals), f)
		a[2*pos] = addX(a[2*pos], re, f)
		a[2*pos+1] = addX(a[2*pos+1], im, f)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a, v := typed[T](acc), typed[T](vals)
		for i := 0; i < len(v); i += 2 {
			q := 2 * (pos + i/2*step)
			a[q] = addX(a[q], v[i], f)
			a[q+1] = addX(a[q+1], v[i+1], f)
		}
	}
	k.partial = func(vals []byte, _ int, f *fpFlags) [2]uint64 {
		re, im := pairwiseComplex(typed[T](vals), f)
		return [2]uint64{u64(re), u64(im)}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) {
		a := typed[T](acc)
		a[2*pos] = addX(a[2*pos], fromU64[T](p[0]), f)
		a[2*pos+1] = addX(a[2*pos+1], fromU64[T](p[1]), f)
	}
}

// complexKeep is whether CFLOAT_maximum and its kin keep the result a
// against the element b (lexicographic; maximum keeps a NaN, fmax drops
// one).
func complexKeep[T float](uf ufuncKind) func(ar, ai, br, bi T) bool {
	switch uf {
	case ufMaximum:
		return func(ar, ai, br, bi T) bool { return ar != ar || ai != ai || complexGE(ar, ai, br, bi) }
	case ufMinimum:
		return func(ar, ai, br, bi T) bool { return ar != ar || ai != ai || complexLE(ar, ai, br, bi) }
	case ufFmax:
		return func(ar, ai, br, bi T) bool { return br != br || bi != bi || complexGE(ar, ai, br, bi) }
	}
	return func(ar, ai, br, bi T) bool { return br != br || bi != bi || complexLE(ar, ai, br, bi) }
}

// complexMul is the scalar complex product of loops_arithm_fp (the AVX-512
// loop takes over only for contiguous operands apart from the output,
// never a reduction or an in-place product): (ar*br - ai*bi, ar*bi +
// ai*br). NumPy's build contracts the double loop into fused multiply-adds,
// fma(ar, br, -(ai*bi)) and fma(ar, bi, ai*br), and leaves the float loop's
// products rounded apart (both found by testing NumPy 1.24 on x86-64).
func complexMul[T float](ar, ai, br, bi T) (T, T) {
	var f fpFlags
	return complexMulFlags(ar, ai, br, bi, true, &f)
}

// complexMulFlags is complexMul recording exceptions in f; with fused
// false, double products are rounded apart too, as NumPy's AVX-512 loop
// (avx512_cmul_pd) computes them for contiguous operands that are not the
// output, e.g. the buffers of a byte-swapped array.
func complexMulFlags[T float](ar, ai, br, bi T, fused bool, f *fpFlags) (T, T) {
	if _, ok := any(ar).(float64); ok && fused {
		a, b, c, d := float64(ar), float64(ai), float64(br), float64(bi)
		re := math.FMA(a, c, -(b * d))
		im := math.FMA(a, d, b*c)
		if !finite(re) || !finite(im) {
			var g fpFlags
			re2, im2 := complexMulFlags(ar, ai, br, bi, false, &g)
			f.invalid = f.invalid || g.invalid
			f.overflow = f.overflow || g.overflow
			if re != re {
				re = float64(re2)
			}
			if im != im {
				im = float64(im2)
			}
		}
		return T(re), T(im)
	}
	rr, ii := mulX(ar, br, f), mulX(ai, bi, f)
	ri, ir := mulX(ar, bi, f), mulX(ai, br, f)
	re := rr - ii
	if !finite(re) {
		re = settle(rr, -ii, re, f)
	}
	return re, addX(ri, ir, f)
}

type intType interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// intKernel is the integer loops: add and multiply wrap in the loop type;
// maximum/fmax and minimum/fmin pick. Every one is order-free.
func intKernel[I intType](uf ufuncKind) foldKernel {
	var z I
	k := foldKernel{size: int(unsafe.Sizeof(z))}
	var op func(a, b I) I
	var id I
	hasID := true
	switch uf {
	case ufAdd:
		op = func(a, b I) I { return a + b }
	case ufMultiply:
		op, id = func(a, b I) I { return a * b }, 1
	case ufMaximum, ufFmax:
		op, hasID = func(a, b I) I { return max(a, b) }, false
	default:
		op, hasID = func(a, b I) I { return min(a, b) }, false
	}
	if hasID {
		k.init = func(acc []byte) {
			for i := range typed[I](acc) {
				typed[I](acc)[i] = id
			}
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[I](acc)
		p := a[pos]
		for _, x := range typed[I](vals) {
			p = op(p, x)
		}
		a[pos] = p
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[I](acc)
		for i, x := range typed[I](vals) {
			a[pos+i*step] = op(a[pos+i*step], x)
		}
	}
	k.partial = func(vals []byte, _ int, _ *fpFlags) [2]uint64 {
		v := typed[I](vals)
		if uf == ufAdd {
			return [2]uint64{uint64(intSum(v))}
		}
		p := v[0]
		for _, x := range v[1:] {
			p = op(p, x)
		}
		return [2]uint64{uint64(p)}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) {
		a := typed[I](acc)
		a[pos] = op(a[pos], I(p[0]))
	}
	return k
}

// intSum is the sum of v, wrapping, four lanes at a time.
func intSum[I intType](v []I) I {
	var s0, s1, s2, s3 I
	i := 0
	for ; i+4 <= len(v); i += 4 {
		s0 += v[i]
		s1 += v[i+1]
		s2 += v[i+2]
		s3 += v[i+3]
	}
	for ; i < len(v); i++ {
		s0 += v[i]
	}
	return s0 + s1 + s2 + s3
}

// boolKernel is the bool loops: add, maximum and logical_or are or;
// multiply, minimum and logical_and are and (np.sum(a, dtype=bool) is
// np.any). Results are 0 or 1.
func boolKernel(uf ufuncKind) foldKernel {
	k := foldKernel{size: 1}
	or := uf == ufAdd || uf == ufMaximum || uf == ufFmax || uf == ufOr
	fold := func(a byte, x byte) byte {
		if or {
			return b2u(a != 0 || x != 0)
		}
		return b2u(a != 0 && x != 0)
	}
	if uf.hasIdentity() {
		k.init = func(acc []byte) {
			for i := range acc {
				acc[i] = b2u(!or)
			}
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := acc[pos]
		for _, x := range vals {
			a = fold(a, x)
		}
		acc[pos] = a
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		for i, x := range vals {
			acc[pos+i*step] = fold(acc[pos+i*step], x)
		}
	}
	k.partial = func(vals []byte, _ int, f *fpFlags) [2]uint64 {
		if or {
			for _, x := range vals {
				if x != 0 {
					return [2]uint64{1}
				}
			}
			return [2]uint64{0}
		}
		for _, x := range vals {
			if x == 0 {
				return [2]uint64{0}
			}
		}
		return [2]uint64{1}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) { acc[pos] = fold(acc[pos], byte(p[0])) }
	return k
}
