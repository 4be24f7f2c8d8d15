package ops

import (
	"unsafe"

	"strider/internal/dtype"
)

// The second sum of _var (and of nanvar, once no NaN was met) for float32
// and float64: NumPy computes x = arr - arrmean, then x = x * x, then
// add.reduce(x), each step over a whole array. The squares are found here
// inside the sum's own pass, in the order it adds them, and never stored:
// each operation is rounded to the float type as NumPy's are (an explicit
// conversion keeps Go from fusing a product into the addition after it).

// pairwiseSquares is pairwiseSum of the squares (a[i] - m)² without
// storing them.
func pairwiseSquares[T float](a []T, m T, simd simdLevel) T {
	n := len(a)
	if n < 8 {
		res := minusZero[T]()
		for _, x := range a {
			d := x - m
			res += T(d * d)
		}
		return res
	}
	if n <= 128 {
		a = a[:n:n]
		if res, i, ok := vectorLeaf(a, m, true, simd); ok {
			for ; i < n; i++ {
				d := a[i] - m
				res += T(d * d)
			}
			return res
		}
		d0, d1, d2, d3 := a[0]-m, a[1]-m, a[2]-m, a[3]-m
		d4, d5, d6, d7 := a[4]-m, a[5]-m, a[6]-m, a[7]-m
		r0, r1, r2, r3 := T(d0*d0), T(d1*d1), T(d2*d2), T(d3*d3)
		r4, r5, r6, r7 := T(d4*d4), T(d5*d5), T(d6*d6), T(d7*d7)
		i := 8
		for ; i < n-n%8; i += 8 {
			b := a[i : i+8 : i+8]
			d0, d1, d2, d3 = b[0]-m, b[1]-m, b[2]-m, b[3]-m
			d4, d5, d6, d7 = b[4]-m, b[5]-m, b[6]-m, b[7]-m
			r0 += T(d0 * d0)
			r1 += T(d1 * d1)
			r2 += T(d2 * d2)
			r3 += T(d3 * d3)
			r4 += T(d4 * d4)
			r5 += T(d5 * d5)
			r6 += T(d6 * d6)
			r7 += T(d7 * d7)
		}
		res := ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
		for ; i < n; i++ {
			d := a[i] - m
			res += T(d * d)
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSquares(a[:n2], m, simd) + pairwiseSquares(a[n2:], m, simd)
}

// squaresSum is one call's sum of squared deviations from m: by
// pairwiseSquares, or, where that is not finite, with the squares stored
// and every operation's exceptions recorded (the subtraction's and the
// product's in sf, the sum's in f).
func squaresSum[T float](xs []T, m T, f *fpFlags, sf *lockedFlags, simd simdLevel) T {
	if s := pairwiseSquares(xs, m, simd); finite(s) {
		return s
	}
	ys := make([]T, len(xs))
	var local stageFlags
	squaresOf(ys, xs, []T{m}, 0, 0, false, &local)
	sf.merge(local)
	return pairwise(ys, f, simd)
}

// deviationKernel is the add loop over the squared deviations of the
// elements from means (by result position), recording the subtraction's
// and the product's exceptions in sf; simd is the widest column kernel
// its rowFast may run.
func deviationKernel[T float](means []T, sf *lockedFlags, simd simdLevel) foldKernel {
	var z T
	k := foldKernel{size: int(unsafe.Sizeof(z))}
	k.init = func(acc []byte) { clear(acc) }
	k.call = func(acc []byte, pos int, vals []byte, _ bool, f *fpFlags) {
		a := typed[T](acc)
		a[pos] = addX(a[pos], squaresSum(typed[T](vals), means[pos], f, sf, simd), f)
	}
	k.partial = func(vals []byte, pos int, f *fpFlags) [2]uint64 {
		return [2]uint64{u64(squaresSum(typed[T](vals), means[pos], f, sf, simd))}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, f *fpFlags) {
		a := typed[T](acc)
		a[pos] = addX(a[pos], fromU64[T](p[0]), f)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, f *fpFlags) {
		a := typed[T](acc)
		for i, x := range typed[T](vals) {
			q := pos + i*step
			m := means[q]
			d := x - m
			sq := T(d * d)
			if s := a[q] + sq; finite(s) {
				a[q] = s
				continue
			}
			var local stageFlags
			flagOp(&local.subtract, float64(x), float64(m), float64(d))
			flagOp(&local.multiply, float64(d), float64(d), float64(sq))
			sf.merge(local)
			a[q] = addX(a[q], sq, f)
		}
	}
	k.rowFast = func(acc []byte, pos, step int, vals []byte) {
		a, xs := typed[T](acc), typed[T](vals)
		if step == 1 {
			n := vectorDeviationCols(a[pos:], xs, means[pos:], simd)
			pos, xs = pos+n, xs[n:]
		}
		for i, x := range xs {
			q := pos + i*step
			d := x - means[q]
			a[q] += T(d * d)
		}
	}
	return k
}

// vectorDeviationCols is rowFast's step-1 loop, acc[i] += (xs[i] -
// means[i])², for i below n, the longest prefix of xs the widest kernel
// simd allows takes whole (0: none), and returns n. Each lane rounds the
// subtraction, the product and the sum apart, as the Go loop does.
func vectorDeviationCols[T float](acc, xs, means []T, simd simdLevel) int {
	var z T
	size := int(unsafe.Sizeof(z))
	n, wide := vectorPrefix(len(xs), size, 1, simd)
	if n == 0 {
		return 0
	}
	acc, means = acc[:n:n], means[:n:n] // bounds
	a, p, m := unsafe.Pointer(unsafe.SliceData(acc)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(unsafe.SliceData(means))
	f := [2][2]func(acc, xs, means unsafe.Pointer, n int){
		{devCols64AVX2, devCols64AVX512},
		{devCols32AVX2, devCols32AVX512},
	}[b2u(size == 4)][b2u(wide)]
	f(a, p, m, n)
	return n
}

// deviationSum is add.reduce of (x - mean)² over the elements of op in
// NumPy's order for op's layout, where the elements, the means (by result
// position) and the sum are all one float type: the fused second sum of
// _var and nanvar. ok is false for the other dtypes.
func (r recipe) deviationSum(op operand, means []byte, d dtype.Dtype, keepdims bool) (res ndarr, ok bool, err error) {
	if r.dry || d.Kind != 'f' || d.Size < 4 || !sameNative(dtype.NativeOf(op.dt), d) {
		return ndarr{}, false, nil
	}
	c := r.c
	lay := newReduceLayout(op.src.Shape, op.layout, c.red, keepdims)
	res = ndarr{d: d, shape: lay.outShape, strides: lay.outStrides, scalar: len(lay.outShape) == 0}
	job := newRedJob(newRedPlan(op.src, lay, c.red, c.opt.tuning().reduceBuf), op.src, op.dt, d, ufAdd, c.opt)
	job.kflags = &lockedFlags{}
	var k foldKernel
	if d.Size == 4 {
		k = deviationKernel(typed[float32](means), job.kflags, c.opt.tuning().simd)
	} else {
		k = deviationKernel(typed[float64](means), job.kflags, c.opt.tuning().simd)
	}
	job.kernel = &k
	acc, err := job.reduce()
	if err != nil {
		return ndarr{}, true, err
	}
	return r.finish(res, acc, job, len(op.src.Shape) == 0), true, nil
}
