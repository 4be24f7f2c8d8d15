package ops

import (
	"math"
	"unsafe"

	"strider/internal/dtype"
)

// The extremes of float32 and float64 by value. NumPy's maximum.reduce
// and minimum.reduce (and fmax, fmin) give a result whose value does not
// depend on their order: only which zero (+0 or -0) or which NaN comes out
// does. So min, max, ptp, nanmin and nanmax first fold every output's
// elements by value in one pass, in any order and on every thread; where
// every result is a number other than zero and no NaN was met, those are
// NumPy's bits. Otherwise the reduction runs again in NumPy's order
// (reduce_run.go), which only NaNs and zero results pay for.

// floatKey is the bits b of a float32 (K int32) or float64 (K int64) as an
// integer ordered as the floats are: sign and magnitude turned into two's
// complement, so that -0 and +0 are both 0 and the NaNs lie beyond the
// infinities, on their sign's side.
func floatKey[K int32 | int64](b K) K {
	m := b >> (8*unsafe.Sizeof(b) - 1)
	return (b&^(K(1)<<(8*unsafe.Sizeof(b)-1)) ^ m) - m
}

// infKey is the key of +Inf; -infKey that of -Inf.
func infKey[K int32 | int64]() K {
	var k K
	if unsafe.Sizeof(k) == 4 {
		return K(0x7f800000)
	}
	inf := int64(0x7ff0000000000000)
	return K(inf)
}

// maxKey is K's greatest value: beyond every key.
func maxKey[K int32 | int64]() K {
	var z K
	return ^(K(1) << (8*unsafe.Sizeof(z) - 1))
}

// keyFloat is the float whose key is k (k not 0: both zeros have it).
func keyFloat[K int32 | int64](k K) K {
	if k >= 0 {
		return k
	}
	return -k | K(1)<<(8*unsafe.Sizeof(k)-1)
}

// keyRange is the least and greatest key of the float bits bs (not
// empty), four lanes at a time so that the compares run side by side.
func keyRange[K int32 | int64](bs []K) (lo, hi K) {
	l0 := floatKey(bs[0])
	l1, l2, l3 := l0, l0, l0
	h0, h1, h2, h3 := l0, l0, l0, l0
	i := 0
	for ; i+4 <= len(bs); i += 4 {
		b := bs[i : i+4 : i+4]
		k0, k1, k2, k3 := floatKey(b[0]), floatKey(b[1]), floatKey(b[2]), floatKey(b[3])
		l0, h0 = min(l0, k0), max(h0, k0)
		l1, h1 = min(l1, k1), max(h1, k1)
		l2, h2 = min(l2, k2), max(h2, k2)
		l3, h3 = min(l3, k3), max(h3, k3)
	}
	for ; i < len(bs); i++ {
		k := floatKey(bs[i])
		l0, h0 = min(l0, k), max(h0, k)
	}
	return min(l0, l1, l2, l3), max(h0, h1, h2, h3)
}

// extremeBranchy is the greatest (isMax) or least of xs (not empty) by
// value, and false when xs holds a NaN. Four running maxima of s*x (s = -1
// for the least: negation is exact), each element one compare that fails
// for an element not above its lane's value and passes for a NaN: the
// branch is almost never taken, which runs twice as fast as keyRange's
// branch-free steps when one extreme is wanted.
func extremeBranchy[T float](xs []T, isMax bool) (T, bool) {
	s := T(1)
	if !isMax {
		s = -1
	}
	m0 := s * xs[0]
	m1, m2, m3 := m0, m0, m0
	nan := m0 != m0
	i := 0
	for ; i+4 <= len(xs) && !nan; i += 4 {
		b := xs[i : i+4 : i+4]
		if x := s * b[0]; !(x <= m0) {
			m0, nan = x, x != x
		}
		if x := s * b[1]; !(x <= m1) {
			m1, nan = x, nan || x != x
		}
		if x := s * b[2]; !(x <= m2) {
			m2, nan = x, nan || x != x
		}
		if x := s * b[3]; !(x <= m3) {
			m3, nan = x, nan || x != x
		}
	}
	for ; i < len(xs) && !nan; i++ {
		if x := s * xs[i]; !(x <= m0) {
			m0, nan = x, x != x
		}
	}
	return s * max(m0, m1, m2, m3), !nan
}

// floatRange is the least and greatest of xs (not empty) by value, and
// false when xs holds a NaN: keyRange's branch-free steps, for both.
func floatRange[T float](xs []T) (lo, hi T, ok bool) {
	if f, is32 := any(xs).([]float32); is32 {
		l, h := keyRange(typed[int32](rawBytes(f)))
		inf := infKey[int32]()
		lo, hi = T(math.Float32frombits(uint32(keyFloat(l)))), T(math.Float32frombits(uint32(keyFloat(h))))
		return lo, hi, l >= -inf && h <= inf
	}
	l, h := keyRange(typed[int64](rawBytes(xs)))
	inf := infKey[int64]()
	lo, hi = T(math.Float64frombits(uint64(keyFloat(l)))), T(math.Float64frombits(uint64(keyFloat(h))))
	return lo, hi, l >= -inf && h <= inf
}

// rangeKernel folds float32 or float64 values into pairs, the least and
// the greatest of each output by value (the one wanted, or both), a pair
// turned to NaNs once its output meets a NaN. Every fold is order-free,
// so the engine runs its partials on every thread. simd is the widest
// vector kernel it may run (reduce_amd64.s); every level gives the same
// results.
func rangeKernel[T float](wantHi, wantLo bool, simd simdLevel) foldKernel {
	var z T
	k := foldKernel{size: 2 * int(unsafe.Sizeof(z))}
	k.init = func(acc []byte) {
		a := typed[T](acc)
		for i := 0; i < len(a); i += 2 {
			a[i], a[i+1] = T(math.Inf(1)), T(math.Inf(-1))
		}
	}
	extremes := func(xs []T) (lo, hi T, ok bool) {
		if vlo, vhi, nan, n := vectorRange(xs, simd); n > 0 {
			if nan {
				return lo, hi, false
			}
			lo, hi, ok = vlo, vhi, true
			if n < len(xs) {
				l, h, tok := floatRange(xs[n:])
				lo, hi, ok = min(lo, l), max(hi, h), tok
			}
			if !wantLo {
				lo = T(math.Inf(1))
			}
			if !wantHi {
				hi = T(math.Inf(-1))
			}
			return lo, hi, ok
		}
		switch {
		case wantHi && wantLo:
			return floatRange(xs)
		case wantHi:
			hi, ok = extremeBranchy(xs, true)
			return T(math.Inf(1)), hi, ok
		}
		lo, ok = extremeBranchy(xs, false)
		return lo, T(math.Inf(-1)), ok
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, _ *fpFlags) {
		lo, hi, ok := extremes(typed[T](vals))
		foldRange(typed[T](acc)[2*pos:], lo, hi, ok)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
		a, xs := typed[T](acc), typed[T](vals)
		if step == 1 {
			// The kernel folds a prefix by value; one that met a NaN is
			// folded again by rangeRow, which sets the NaNs' pairs (a
			// second fold of the same values changes nothing else).
			n, nan := vectorCols(a[2*pos:], xs, simd)
			if nan {
				rangeRow(a, pos, 1, xs[:n], wantHi, wantLo)
			}
			pos, xs = pos+n, xs[n:]
		}
		rangeRow(a, pos, step, xs, wantHi, wantLo)
	}
	k.partial = func(vals []byte, _ int, _ *fpFlags) [2]uint64 {
		lo, hi, ok := extremes(typed[T](vals))
		if !ok {
			lo, hi = T(math.NaN()), T(math.NaN())
		}
		return [2]uint64{u64(lo), u64(hi)}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, _ *fpFlags) {
		lo, hi := fromU64[T](p[0]), fromU64[T](p[1])
		foldRange(typed[T](acc)[2*pos:], lo, hi, hi == hi)
	}
	return k
}

// extremeKernel is rangeKernel for one extreme, the greatest (isMax) or
// the least: one value a result, turned to a NaN once its output meets a
// NaN, so that a row folds into half the bytes.
func extremeKernel[T float](isMax bool, simd simdLevel) foldKernel {
	var z T
	k := foldKernel{size: int(unsafe.Sizeof(z))}
	id := T(math.Inf(1))
	if isMax {
		id = T(math.Inf(-1))
	}
	k.init = func(acc []byte) {
		a := typed[T](acc)
		for i := range a {
			a[i] = id
		}
	}
	extreme := func(xs []T) (T, bool) {
		lo, hi, nan, n := vectorRange(xs, simd)
		if n == 0 {
			return extremeBranchy(xs, isMax)
		}
		m := lo
		if isMax {
			m = hi
		}
		if nan || n == len(xs) {
			return m, !nan
		}
		t, ok := extremeBranchy(xs[n:], isMax)
		if isMax {
			return max(m, t), ok
		}
		return min(m, t), ok
	}
	fold := func(a []T, q int, m T, ok bool) {
		switch {
		case !ok:
			a[q] = T(math.NaN())
		case isMax && m > a[q], !isMax && m < a[q]: // false against a NaN result
			a[q] = m
		}
	}
	k.call = func(acc []byte, pos int, vals []byte, _ bool, _ *fpFlags) {
		m, ok := extreme(typed[T](vals))
		fold(typed[T](acc), pos, m, ok)
	}
	k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
		a, xs := typed[T](acc), typed[T](vals)
		if step == 1 {
			// As rangeKernel's row: a prefix that met a NaN is folded
			// again by extremeRow, which sets the NaNs' results.
			n, nan := vectorExtremeCols(a[pos:], xs, isMax, simd)
			if nan {
				extremeRow(a, pos, 1, xs[:n], isMax)
			}
			pos, xs = pos+n, xs[n:]
		}
		extremeRow(a, pos, step, xs, isMax)
	}
	k.partial = func(vals []byte, _ int, _ *fpFlags) [2]uint64 {
		m, ok := extreme(typed[T](vals))
		if !ok {
			m = T(math.NaN())
		}
		return [2]uint64{u64(m)}
	}
	k.combine = func(acc []byte, pos int, p [2]uint64, _ *fpFlags) {
		m := fromU64[T](p[0])
		fold(typed[T](acc), pos, m, m == m)
	}
	return k
}

// extremeRow folds xs[i] into result pos+i*step of a: the greater
// (isMax) or the lesser by value, a NaN for a NaN, a NaN result kept.
func extremeRow[T float](a []T, pos, step int, xs []T, isMax bool) {
	for i, x := range xs {
		q := pos + i*step
		switch {
		case x != x:
			a[q] = x
		case isMax && x > a[q], !isMax && x < a[q]: // false against a NaN result
			a[q] = x
		}
	}
}

// vectorExtremeCols is vectorCols for extremeKernel's results: xs[i]
// folds into acc[i], the greater (isMax) or the lesser.
func vectorExtremeCols[T float](acc, xs []T, isMax bool, simd simdLevel) (n int, nan bool) {
	var z T
	size := int(unsafe.Sizeof(z))
	n, wide := vectorPrefix(len(xs), size, 1, simd)
	if n == 0 {
		return 0, false
	}
	acc = acc[:n:n] // bounds
	a, p := unsafe.Pointer(unsafe.SliceData(acc)), unsafe.Pointer(unsafe.SliceData(xs))
	f := [2][2][2]func(acc, xs unsafe.Pointer, n int) bool{
		{{minCols64AVX2, maxCols64AVX2}, {minCols64AVX512, maxCols64AVX512}},
		{{minCols32AVX2, maxCols32AVX2}, {minCols32AVX512, maxCols32AVX512}},
	}[b2u(size == 4)][b2u(wide)][b2u(isMax)]
	return n, f(a, p, n)
}

// rangeLanes is a run kernel's lanes: the least in lo, the greatest in
// hi, as many as a vector holds.
type rangeLanes struct{ lo, hi [64]byte }

// vectorPrefix is how many of n elements of size bytes the vector
// kernels at simd take whole, unroll vectors a step (a multiple of that),
// 0 where none may run; wide says the kernel is AVX-512's (64-byte
// vectors), else AVX2's (32).
func vectorPrefix(n, size, unroll int, simd simdLevel) (m int, wide bool) {
	if !haveReduceKernels || simd < simdAVX2 {
		return 0, false
	}
	wide = simd >= simdAVX512
	step := unroll * 32 / size
	if wide {
		step *= 2
	}
	return n / step * step, wide
}

// vectorRange is the least and greatest by value of xs[:n], n the longest
// prefix of xs the widest run kernel simd allows takes whole (0: none),
// and whether a NaN is among them (lo and hi then mean nothing).
func vectorRange[T float](xs []T, simd simdLevel) (lo, hi T, nan bool, n int) {
	size := int(unsafe.Sizeof(lo))
	n, wide := vectorPrefix(len(xs), size, 4, simd)
	if n == 0 {
		return lo, hi, false, 0
	}
	vec := 32 // bytes
	if wide {
		vec = 64
	}
	var l rangeLanes
	los, his := typed[T](l.lo[:vec]), typed[T](l.hi[:vec])
	for j := range los {
		los[j], his[j] = T(math.Inf(1)), T(math.Inf(-1))
	}
	p := unsafe.Pointer(unsafe.SliceData(xs))
	switch {
	case size == 4 && wide:
		nan = rangeRun32AVX512(&l, p, n)
	case size == 4:
		nan = rangeRun32AVX2(&l, p, n)
	case wide:
		nan = rangeRun64AVX512(&l, p, n)
	default:
		nan = rangeRun64AVX2(&l, p, n)
	}
	lo, hi = los[0], his[0]
	for j := range los {
		lo, hi = min(lo, los[j]), max(hi, his[j])
	}
	return lo, hi, nan, n
}

// vectorCols folds xs[i] into the pair pairs[2i], pairs[2i+1] (least,
// greatest) by value for i below n, the longest prefix of xs the widest
// column kernel simd allows takes whole (0: none), and reports whether a
// NaN was among them: their pairs are left as they were.
func vectorCols[T float](pairs, xs []T, simd simdLevel) (n int, nan bool) {
	var z T
	size := int(unsafe.Sizeof(z))
	n, wide := vectorPrefix(len(xs), size, 1, simd)
	if n == 0 {
		return 0, false
	}
	pairs = pairs[: 2*n : 2*n] // bounds
	a, p := unsafe.Pointer(unsafe.SliceData(pairs)), unsafe.Pointer(unsafe.SliceData(xs))
	switch {
	case size == 4 && wide:
		return n, rangeCols32AVX512(a, p, n)
	case size == 4:
		return n, rangeCols32AVX2(a, p, n)
	case wide:
		return n, rangeCols64AVX512(a, p, n)
	}
	return n, rangeCols64AVX2(a, p, n)
}

// rangeRow folds xs[i] into the pair of output pos+i*step of a: a compare
// for each extreme wanted, almost never passed.
func rangeRow[T float](a []T, pos, step int, xs []T, wantHi, wantLo bool) {
	for i, x := range xs {
		q := 2 * (pos + i*step)
		if wantHi && !(x <= a[q+1]) || wantLo && !(x >= a[q]) { // beyond, or a NaN met
			foldRange(a[q:q+2], x, x, x == x)
		}
	}
}

// foldRange folds lo and hi (ok false: a NaN was met) into the pair
// a[0], a[1]; a pair of NaNs stays one.
func foldRange[T float](a []T, lo, hi T, ok bool) {
	if !ok || a[1] != a[1] {
		a[0], a[1] = T(math.NaN()), T(math.NaN())
		return
	}
	if lo < a[0] {
		a[0] = lo
	}
	if hi > a[1] {
		a[1] = hi
	}
}

// extremesByValue is maximum.reduce (hi) and minimum.reduce (lo) of a
// float32 or float64 operand, by value, in one pass, of the extremes
// wanted; ok is false when that does not settle NumPy's bits: an output
// met a NaN, or a result wanted is a zero.
func (r recipe) extremesByValue(op operand, keepdims, wantHi, wantLo bool) (hi, lo ndarr, ok bool) {
	c := r.c
	loop := dtype.NativeOf(op.dt)
	if r.dry || op.dt.Kind != 'f' || op.dt.Size < 4 || c.emptyReduced() || op.src.Count() == 0 {
		return ndarr{}, ndarr{}, false
	}
	lay := newReduceLayout(op.src.Shape, op.layout, c.red, keepdims)
	job := newRedJob(newRedPlan(op.src, lay, c.red, c.opt.tuning().reduceBuf), op.src, op.dt, loop, ufMaximum, c.opt)
	simd := c.opt.tuning().simd
	single := wantHi != wantLo // one value a result, else (least, greatest) pairs
	var k foldKernel
	switch {
	case single && loop.Size == 4:
		k = extremeKernel[float32](wantHi, simd)
	case single:
		k = extremeKernel[float64](wantHi, simd)
	case loop.Size == 4:
		k = rangeKernel[float32](wantHi, wantLo, simd)
	default:
		k = rangeKernel[float64](wantHi, wantLo, simd)
	}
	job.kernel = &k
	acc, err := job.reduce()
	if err != nil {
		return ndarr{}, ndarr{}, false
	}
	n := len(acc) / k.size
	his, los := alloc(n, loop), alloc(n, loop)
	switch {
	case single && wantHi:
		ok = settleOne(his, acc, loop)
	case single:
		ok = settleOne(los, acc, loop)
	case loop.Size == 4:
		ok = settleRange(typed[float32](his), typed[float32](los), typed[float32](acc), wantHi, wantLo)
	default:
		ok = settleRange(typed[float64](his), typed[float64](los), typed[float64](acc), wantHi, wantLo)
	}
	if !ok {
		return ndarr{}, ndarr{}, false
	}
	res := ndarr{d: loop, shape: lay.outShape, strides: lay.outStrides, scalar: len(lay.outShape) == 0}
	hi, lo = res, res
	hi.data = fromLayout(his, loop, res.shape, res.strides)
	lo.data = fromLayout(los, loop, res.shape, res.strides)
	return hi, lo, true
}

// settleRange copies the pairs of rangeKernel into hi and lo, and
// reports whether they are NumPy's bits: no NaN met, and no zero (of
// either sign: the order decides which) among the results wanted.
func settleRange[T float](hi, lo, pairs []T, wantHi, wantLo bool) bool {
	for i := range hi {
		l, h := pairs[2*i], pairs[2*i+1]
		if h != h || wantHi && h == 0 || wantLo && l == 0 {
			return false
		}
		hi[i], lo[i] = h, l
	}
	return true
}

// settleOne copies extremeKernel's results (loop dtype d) into dst and
// reports whether they are NumPy's bits: no NaN, no zero.
func settleOne(dst, vals []byte, d dtype.Dtype) bool {
	if d.Size == 4 {
		return settleValues(typed[float32](dst), typed[float32](vals))
	}
	return settleValues(typed[float64](dst), typed[float64](vals))
}

func settleValues[T float](dst, vals []T) bool {
	for i, v := range vals {
		if v != v || v == 0 {
			return false
		}
		dst[i] = v
	}
	return true
}

// absBitsRange is the least and greatest bits of |x| over xs (lo is the
// greatest magnitude's bits when xs is empty, hi 0), and whether an odd
// number of xs have their sign bit set.
func absBitsRange[T float](xs []T) (lo, hi uint64, odd bool) {
	if f, ok := any(xs).([]float32); ok {
		l, h, x := absRange(typed[uint32](rawBytes(f)))
		return uint64(l), uint64(h), x>>31 != 0
	}
	l, h, x := absRange(typed[uint64](rawBytes(xs)))
	return l, h, x>>63 != 0
}

// absRange is the least and greatest of us with the top bit cleared, and
// the exclusive or of all of us, four lanes at a time.
func absRange[U uint32 | uint64](us []U) (lo, hi, xor U) {
	mask := ^U(0) >> 1
	l0, l1, l2, l3 := mask, mask, mask, mask
	var h0, h1, h2, h3, x0, x1 U
	i := 0
	for ; i+4 <= len(us); i += 4 {
		b := us[i : i+4 : i+4]
		a0, a1, a2, a3 := b[0]&mask, b[1]&mask, b[2]&mask, b[3]&mask
		l0, h0 = min(l0, a0), max(h0, a0)
		l1, h1 = min(l1, a1), max(h1, a1)
		l2, h2 = min(l2, a2), max(h2, a2)
		l3, h3 = min(l3, a3), max(h3, a3)
		x0 ^= b[0] ^ b[1]
		x1 ^= b[2] ^ b[3]
	}
	for ; i < len(us); i++ {
		a := us[i] & mask
		l0, h0 = min(l0, a), max(h0, a)
		x0 ^= us[i]
	}
	return min(l0, l1, l2, l3), max(h0, h1, h2, h3), x0 ^ x1
}

// absInf is the bits of +Inf of T.
func absInf[T float]() uint64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x7f800000
	}
	return 0x7ff0000000000000
}

// finiteSigns reports whether every x of xs is finite, and whether an odd
// number of them have the sign bit set. It reads the bits a word of 64 at
// a time: a float's exponent field plus its lowest bit carries into the
// bit above it (the sign's, kept clear by the mask) only when it is all
// ones, and two float32 fit a word without a carry between them.
func finiteSigns[T float](xs []T) (finite, odd bool) {
	var expo, sign, carry uint64
	if f, ok := any(xs).([]float32); ok {
		expo, carry = 0x7f8000007f800000, 0x0080000000800000
		if len(f) > 0 && uintptr(unsafe.Pointer(&f[0]))%8 != 0 {
			u := uint64(math.Float32bits(f[0]))
			if u&0x7f800000 == 0x7f800000 {
				return false, false
			}
			sign ^= u << 32
			f = f[1:]
		}
		if len(f)%2 == 1 {
			u := uint64(math.Float32bits(f[len(f)-1]))
			if u&0x7f800000 == 0x7f800000 {
				return false, false
			}
			sign ^= u << 32
			f = f[:len(f)-1]
		}
		xs = any(f).([]T)
	} else {
		expo, carry = 0x7ff0000000000000, 0x0010000000000000
	}
	words := typed[uint64](rawBytes(xs))
	var over0, over1, x0, x1 uint64
	i := 0
	for ; i+2 <= len(words); i += 2 {
		w := words[i : i+2 : i+2]
		over0 |= w[0]&expo + carry
		over1 |= w[1]&expo + carry
		x0 ^= w[0]
		x1 ^= w[1]
	}
	for ; i < len(words); i++ {
		over0 |= words[i]&expo + carry
		x0 ^= words[i]
	}
	sign ^= x0 ^ x1
	top := uint64(1) << 63
	if expo>>32 == expo&0xffffffff { // float32 pairs: the low float's carry lands in bit 31
		top |= 1 << 31
		sign ^= sign << 32
	}
	return (over0|over1)&top == 0, sign>>63 != 0
}
