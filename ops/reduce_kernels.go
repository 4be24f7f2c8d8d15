package ops

import (
	"math"
	"unsafe"

	"strider/internal/dtype"
)

// The inner loops of NumPy 1.24's reductions, one per operation and kind
// of loop type, over a chunk that is one inner-loop call: the values are
// already in the loop's dtype, native and contiguous.

type float interface{ ~float32 | ~float64 }

// minusZero is -0.0 of T: the pairwise sums start there, so that a sum of
// -0.0 alone stays -0.0 (Go's constant -0.0 is +0).
func minusZero[T float]() T { return T(math.Copysign(0, -1)) }

// nanPick is the NaN x86-64 gives for an operation on a and b that made
// one: a's when a is a NaN (quieted), else b's, else (an invalid
// operation on numbers: inf - inf, 0 * inf) the default NaN, negative.
// NumPy's C code names the accumulator first (res += x), so its NaN wins;
// Go may swap the operands of + and *, so the kernels settle NaNs here.
func nanPick[T float](a, b T) T {
	switch {
	case a != a:
		return quietNaN(a)
	case b != b:
		return quietNaN(b)
	}
	return -canonicalNaN[T]()
}

// quietNaN sets a NaN's quiet bit, as x86-64 does to a signaling NaN
// operand.
func quietNaN[T float](x T) T {
	if f, ok := any(x).(float32); ok {
		return T(math.Float32frombits(math.Float32bits(f) | 0x00400000))
	}
	return T(math.Float64frombits(math.Float64bits(float64(x)) | 0x0008000000000000))
}

// finite reports whether x is neither infinite nor NaN. Not x-x == 0:
// where x is a product, a build for arm64 (and other targets with a fused
// multiply-subtract) may compute a*b - a*b as one instruction, which gives
// the product's rounding error, not 0, and so calls a finite product
// infinite.
func finite[T float](x T) bool {
	inf := T(math.Inf(1))
	return -inf < x && x < inf
}

// addX and mulX are a + b and a * b with NaNs settled by nanPick and the
// floating-point exceptions NumPy reports recorded in f: overflow when
// numbers give an infinity, invalid when non-NaNs give a NaN.
func addX[T float](a, b T, f *fpFlags) T {
	s := a + b
	if finite(s) {
		return s
	}
	return settle(a, b, s, f)
}

func mulX[T float](a, b T, f *fpFlags) T {
	s := a * b
	if finite(s) {
		return s
	}
	return settle(a, b, s, f)
}

// settle is the result s of an operation on a and b that is not finite.
func settle[T float](a, b, s T, f *fpFlags) T {
	if s != s {
		if a == a && b == b {
			f.invalid = true
		}
		return nanPick(a, b)
	}
	if finite(a) && finite(b) {
		f.overflow = true
	}
	return s
}

// toHalf is float32ToHalf, recording the overflow of a finite float that
// rounds to infinity (npy_float_to_half raises it).
func toHalf(x float32, f *fpFlags) uint16 {
	h := float32ToHalf(x)
	if h&0x7fff == 0x7c00 && finite(x) {
		f.overflow = true
	}
	return h
}

// pairwiseSum is NumPy's @TYPE@_pairwise_sum (loops_utils.h.src) over a
// contiguous slice: under 8 elements, a running sum from -0.0; up to 128,
// eight accumulators over the multiples of 8, summed as
// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the rest one by one; above,
// the two halves (the first a multiple of 8 long) summed apart and added.
// Each addition is rounded to T, as C does for float and double.
func pairwiseSum[T float](a []T, simd simdLevel) T {
	n := len(a)
	if n < 8 {
		res := minusZero[T]()
		for _, x := range a {
			res += x
		}
		return res
	}
	if n <= 128 {
		a = a[:n:n]
		if res, i, ok := vectorLeaf(a, 0, false, simd); ok {
			for ; i < n; i++ {
				res += a[i]
			}
			return res
		}
		r0, r1, r2, r3 := a[0], a[1], a[2], a[3]
		r4, r5, r6, r7 := a[4], a[5], a[6], a[7]
		i := 8
		for ; i < n-n%8; i += 8 {
			b := a[i : i+8 : i+8]
			r0 += b[0]
			r1 += b[1]
			r2 += b[2]
			r3 += b[3]
			r4 += b[4]
			r5 += b[5]
			r6 += b[6]
			r7 += b[7]
		}
		res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(a[:n2], simd) + pairwiseSum(a[n2:], simd)
}

// vectorLeaf is the vector kernel's leaf of pairwiseSum (or, with
// squares, of pairwiseSquares about m) over a[:i], i the multiple of 8 at
// or below len(a) (8 to 128), where simd allows one; ok false where not.
// Its finite results are the Go loop's bits (reduce_amd64.s).
func vectorLeaf[T float](a []T, m T, squares bool, simd simdLevel) (res T, i int, ok bool) {
	if !haveReduceKernels || simd < simdAVX2 {
		return 0, 0, false
	}
	i = len(a) - len(a)%8
	p := unsafe.Pointer(unsafe.SliceData(a))
	switch {
	case unsafe.Sizeof(m) == 4 && squares:
		return T(leafSquares32AVX2(p, i, float32(m))), i, true
	case unsafe.Sizeof(m) == 4:
		return T(leafSum32AVX2(p, i)), i, true
	case squares:
		return T(leafSquares64AVX2(p, i, float64(m))), i, true
	}
	return T(leafSum64AVX2(p, i)), i, true
}

// pairwiseSumX is pairwiseSum with every addition by addX: the kernels
// call it when pairwiseSum is not finite.
func pairwiseSumX[T float](a []T, f *fpFlags) T {
	n := len(a)
	if n < 8 {
		res := minusZero[T]()
		for _, x := range a {
			res = addX(res, x, f)
		}
		return res
	}
	if n <= 128 {
		var r [8]T
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] = addX(r[j], a[i+j], f)
			}
		}
		res := addX(addX(addX(r[0], r[1], f), addX(r[2], r[3], f), f), addX(addX(r[4], r[5], f), addX(r[6], r[7], f), f), f)
		for ; i < n; i++ {
			res = addX(res, a[i], f)
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return addX(pairwiseSumX(a[:n2], f), pairwiseSumX(a[n2:], f), f)
}

// pairwise is pairwiseSum, redone by pairwiseSumX when it is not finite.
func pairwise[T float](a []T, f *fpFlags, simd simdLevel) T {
	if s := pairwiseSum(a, simd); finite(s) {
		return s
	}
	return pairwiseSumX(a, f)
}

// pairwiseSumComplex is NumPy's complex pairwise sum over interleaved
// (real, imaginary) parts: n counts parts (twice the elements); four
// elements at a time go into eight accumulators, the real parts summed as
// (r0+r2)+(r4+r6) and the imaginary ones as (r1+r3)+(r5+r7).
func pairwiseSumComplex[T float](a []T) (re, im T) {
	n := len(a)
	if n < 8 {
		re, im = minusZero[T](), minusZero[T]()
		for i := 0; i < n; i += 2 {
			re += a[i]
			im += a[i+1]
		}
		return re, im
	}
	if n <= 128 {
		r0, r1, r2, r3 := a[0], a[1], a[2], a[3]
		r4, r5, r6, r7 := a[4], a[5], a[6], a[7]
		i := 8
		for ; i < n-n%8; i += 8 {
			b := a[i : i+8 : i+8]
			r0 += b[0]
			r1 += b[1]
			r2 += b[2]
			r3 += b[3]
			r4 += b[4]
			r5 += b[5]
			r6 += b[6]
			r7 += b[7]
		}
		re, im = (r0+r2)+(r4+r6), (r1+r3)+(r5+r7)
		for ; i < n; i += 2 {
			re += a[i]
			im += a[i+1]
		}
		return re, im
	}
	n2 := n / 2
	n2 -= n2 % 8
	r1, i1 := pairwiseSumComplex(a[:n2])
	r2, i2 := pairwiseSumComplex(a[n2:])
	return r1 + r2, i1 + i2
}

// pairwiseSumComplexX is pairwiseSumComplex with NaNs settled.
func pairwiseSumComplexX[T float](a []T, f *fpFlags) (re, im T) {
	n := len(a)
	if n < 8 {
		re, im = minusZero[T](), minusZero[T]()
		for i := 0; i < n; i += 2 {
			re = addX(re, a[i], f)
			im = addX(im, a[i+1], f)
		}
		return re, im
	}
	if n <= 128 {
		var r [8]T
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] = addX(r[j], a[i+j], f)
			}
		}
		re, im = addX(addX(r[0], r[2], f), addX(r[4], r[6], f), f), addX(addX(r[1], r[3], f), addX(r[5], r[7], f), f)
		for ; i < n; i += 2 {
			re = addX(re, a[i], f)
			im = addX(im, a[i+1], f)
		}
		return re, im
	}
	n2 := n / 2
	n2 -= n2 % 8
	r1, i1 := pairwiseSumComplexX(a[:n2], f)
	r2, i2 := pairwiseSumComplexX(a[n2:], f)
	return addX(r1, r2, f), addX(i1, i2, f)
}

// pairwiseComplex is pairwiseSumComplex, redone when a part is not
// finite.
func pairwiseComplex[T float](a []T, f *fpFlags) (re, im T) {
	re, im = pairwiseSumComplex(a)
	if !finite(re) || !finite(im) {
		return pairwiseSumComplexX(a, f)
	}
	return re, im
}

// halfToFloat32 is npy_half_to_float: exact, NaN payloads kept.
func halfToFloat32(h uint16) float32 {
	return halfWideToFloat32(dtype.HalfToFloat64(h))
}

// float32ToHalf is npy_float_to_half: nearest, ties to even, NaN payloads
// kept.
func float32ToHalf(f float32) uint16 { return dtype.Float32ToHalf(math.Float32bits(f)) }

// scalarMax is NumPy's scalar_max_f/d on x86-64 (maxss and a blend): a if
// a is NaN, else a when a > b, else b (b on a tie, so of +0 and -0 the
// second, and b when b is NaN). scalarMin likewise with a < b.
func scalarMax[T float](a, b T) T {
	if a != a || a > b {
		return a
	}
	return b
}

func scalarMin[T float](a, b T) T {
	if a != a || a < b {
		return a
	}
	return b
}

// maxp and minp are npyv_maxp/npyv_minp per lane (AVX-512's masked max):
// a when b is NaN, else max_ps(a, b) (a when a > b, else b).
func maxp[T float](a, b T) T {
	if b != b || a > b {
		return a
	}
	return b
}

func minp[T float](a, b T) T {
	if b != b || a < b {
		return a
	}
	return b
}

// lanesOf is the AVX-512 lane count NumPy's float min/max kernels run with
// on the machines strider matches (avx512_skx): 16 float32 or 8 float64.
func lanesOf[T float]() int {
	var z T
	if _, ok := any(z).(float32); ok {
		return 16
	}
	return 8
}

// treeReduce is npyv_reduce_max/min_f32/f64 (avx512/math.h without
// AVX512F_REDUCE): halves folded by op, the upper half the second operand,
// down to one lane.
func treeReduce[T float](v []T, op func(a, b T) T) T {
	w := append([]T(nil), v...)
	for n := len(w) / 2; n >= 1; n /= 2 {
		for i := 0; i < n; i++ {
			w[i] = op(w[i], w[i+n])
		}
	}
	return w[0]
}

// simdReduceMinMax is simd_reduce_c_@intrin@ (loops_minmax.dispatch.c.src)
// for a contiguous call: lanes start at the accumulator, eight vectors at a
// time fold in as acc = op(acc, op(op(op(v0,v1),op(v2,v3)),op(op(v4,v5),op(v6,v7)))),
// then single vectors; the lanes reduce (a NaN in any lane gives the
// canonical NaN for maxn/minn; for maxp/minp NaN lanes give way to -inf or
// +inf unless all are NaN), and the tail folds in by the scalar operation.
// propagate selects maximum/minimum (NaN-propagating) over fmax/fmin.
func simdReduceMinMax[T float](acc T, xs []T, isMax, propagate bool) T {
	if len(xs) == 0 {
		return acc
	}
	L := lanesOf[T]()
	var vop, sop func(a, b T) T
	switch {
	case isMax && propagate:
		vop, sop = scalarMax[T], scalarMax[T]
	case !isMax && propagate:
		vop, sop = scalarMin[T], scalarMin[T]
	case isMax:
		vop, sop = maxp[T], fmaxTail[T]
	default:
		vop, sop = minp[T], fminTail[T]
	}
	lanes := make([]T, L)
	for i := range lanes {
		lanes[i] = acc
	}
	i := 0
	n := len(xs)
	for ; n-i >= 8*L; i += 8 * L {
		for j := 0; j < L; j++ {
			v := func(k int) T { return xs[i+k*L+j] }
			r01, r23 := vop(v(0), v(1)), vop(v(2), v(3))
			r45, r67 := vop(v(4), v(5)), vop(v(6), v(7))
			lanes[j] = vop(lanes[j], vop(vop(r01, r23), vop(r45, r67)))
		}
	}
	for ; n-i >= L; i += L {
		for j := 0; j < L; j++ {
			lanes[j] = vop(lanes[j], xs[i+j])
		}
	}
	r := reduceLanes(lanes, vop, isMax, propagate)
	for ; i < n; i++ {
		r = sop(r, xs[i])
	}
	return r
}

// reduceLanes is the vector reduction at the end of simd_reduce_c: for
// maximum and minimum (propagate) the canonical NaN if a lane is NaN, else
// the lanes folded by vop; for fmax and fmin, NaN lanes give way to -inf
// (+inf) unless all are NaN, then folded by the NaN-propagating scalar op.
func reduceLanes[T float](lanes []T, vop func(a, b T) T, isMax, propagate bool) T {
	nan, allNaN := false, true
	for _, x := range lanes {
		nan = nan || x != x
		allNaN = allNaN && x != x
	}
	switch {
	case propagate && nan:
		return canonicalNaN[T]()
	case propagate:
		return treeReduce(lanes, vop)
	case allNaN:
		return lanes[0]
	}
	fill, op := T(math.Inf(-1)), scalarMax[T]
	if !isMax {
		fill, op = T(math.Inf(1)), scalarMin[T]
	}
	for j, x := range lanes {
		if x != x {
			lanes[j] = fill
		}
	}
	return treeReduce(lanes, op)
}

// canonicalNaN is the quiet NaN npyv_reduce_maxn returns (0x7fc00000,
// 0x7ff8000000000000).
func canonicalNaN[T float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		return T(math.Float32frombits(0x7fc00000))
	}
	return T(math.Float64frombits(0x7ff8000000000000))
}

// fmaxScalar and fminScalar are fmaxf/fmax and fminf/fmin as NumPy 1.24's
// scalar loops call them on x86-64 (glibc's maxss/minss): the other
// operand when one is NaN, else a when a > b (a < b), so b on a tie: of
// +0 and -0 the second.
func fmaxScalar[T float](a, b T) T {
	switch {
	case b != b:
		return a
	case a != a:
		return b
	case a > b:
		return a
	}
	return b
}

func fminScalar[T float](a, b T) T {
	switch {
	case b != b:
		return a
	case a != a:
		return b
	case a < b:
		return a
	}
	return b
}

// fmaxTail and fminTail are the scalar tail of simd_reduce_c for fmax and
// fmin: there the first operand wins a tie (found by testing NumPy 1.24:
// np.fmax.reduce of a contiguous [-0.0, 0.0] is -0.0, of a strided one
// 0.0).
func fmaxTail[T float](a, b T) T {
	switch {
	case b != b:
		return a
	case a != a:
		return b
	case a >= b:
		return a
	}
	return b
}

func fminTail[T float](a, b T) T {
	switch {
	case b != b:
		return a
	case a != a:
		return b
	case a <= b:
		return a
	}
	return b
}

// scalarUnrollMinMax is the non-contiguous reduce path of the same file:
// with at least 8 elements, eight running values over the multiples of 8
// folded pairwise and then into the accumulator, the rest one by one; with
// fewer, one by one.
func scalarUnrollMinMax[T float](acc T, xs []T, op func(a, b T) T) T {
	n := len(xs)
	i := 0
	if n >= 8 {
		m := [8]T(xs[:8])
		for i = 8; i+8 <= n; i += 8 {
			for j := range m {
				m[j] = op(m[j], xs[i+j])
			}
		}
		m[0] = op(m[0], m[1])
		m[2] = op(m[2], m[3])
		m[4] = op(m[4], m[5])
		m[6] = op(m[6], m[7])
		m[0] = op(m[0], m[2])
		m[4] = op(m[4], m[6])
		m[0] = op(m[0], m[4])
		acc = op(acc, m[0])
	}
	for ; i < n; i++ {
		acc = op(acc, xs[i])
	}
	return acc
}

// halfLE and friends are npy_half_le etc.: false when either is NaN, and
// +0 equal to -0.
func halfLE(a, b uint16) bool { return halfToFloat32(a) <= halfToFloat32(b) }
func halfGE(a, b uint16) bool { return halfToFloat32(a) >= halfToFloat32(b) }
func halfIsNaN(h uint16) bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

// complexGE and complexLE are CGE and CLE (loops.c.src): lexicographic,
// with a NaN imaginary part spoiling the strict real comparison.
func complexGE[T float](xr, xi, yr, yi T) bool {
	return (xr > yr && xi == xi && yi == yi) || (xr == yr && xi >= yi)
}

func complexLE[T float](xr, xi, yr, yi T) bool {
	return (xr < yr && xi == xi && yi == yi) || (xr == yr && xi <= yi)
}
