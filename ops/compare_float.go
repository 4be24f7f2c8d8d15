package ops

import (
	"math"
	"unsafe"

	"strider/internal/dtype"
)

// floatBatch folds a batch of m pairs of native float32 or float64
// elements, at positions i..i+m-1, into st, and reports true; when the
// batch holds an infinity or a NaN on either side it touches nothing and
// reports false, and the caller folds the batch pair by pair (floatPair).
type floatBatch func(st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int) bool

// floatBatchFor is the batch kernel for two native float32 or float64
// dtypes, or nil for any other pair. Two float32 or two float64 arrays
// take the AVX2 fold kernels (compare_amd64.s) for their contiguous runs
// when t allows them.
func floatBatchFor(fa, fd dtype.Dtype, t *tuning) floatBatch {
	f4 := func(f dtype.Dtype) bool { return f.Kind == 'f' && f.Size == 4 && !f.BigEndian() }
	f8 := func(f dtype.Dtype) bool { return f.Kind == 'f' && f.Size == 8 && !f.BigEndian() }
	vector := haveFoldKernels && t.simd >= simdAVX2
	switch {
	case f4(fa) && f4(fd) && vector:
		return func(st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int) bool {
			return foldFinite[float32, float32](st, pa, stepA, pd, stepD, m, tol, i, true)
		}
	case f8(fa) && f8(fd) && vector:
		return func(st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int) bool {
			return foldFinite[float64, float64](st, pa, stepA, pd, stepD, m, tol, i, true)
		}
	case f4(fa) && f4(fd):
		return foldGo[float32, float32]
	case f4(fa) && f8(fd):
		return foldGo[float32, float64]
	case f8(fa) && f4(fd):
		return foldGo[float64, float32]
	case f8(fa) && f8(fd):
		return foldGo[float64, float64]
	}
	return nil
}

// foldGo is foldFinite without a vector kernel.
func foldGo[X, Y float32 | float64](st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int) bool {
	return foldFinite[X, Y](st, pa, stepA, pd, stepD, m, tol, i, false)
}

// foldTol is the tolerances as the fold kernels read them.
type foldTol struct{ atol, rtol float64 }

// foldSums is what a fold kernel leaves of the pairs it folded: the
// largest d, d/ay (ay != 0) and mismatched d, how many mismatched, whether
// any ay was not zero and whether any value was an infinity or a NaN.
type foldSums struct {
	maxAbs, maxRel, worst float64
	mis                   int64
	nonzero, bad          uint64
}

// foldFinite is floatPair over a batch of finite pairs, with no branch on
// whether a pair is close: for finite x and y floatPair reduces to
//
//	d, ay := |x-y|, |y|
//	mismatch := d > atol + rtol*ay (two roundings, as NumPy)
//	max abs = max(d), max rel = max(d/ay) over ay != 0
//	worst = the first mismatch of the largest d
//
// The batch's largest mismatched d is kept without its position; the
// batch is scanned again for the position only when that d beats the
// chunk's worst so far, and for Tolerance.Show's first mismatches only
// while the chunk's list is short. Both scans are rare: the worst improves
// a few times per chunk.
//
// With vector set (two float32 or two float64 arrays), an AVX2 kernel
// folds the batch's first pairs, a multiple of 4, if both arrays are
// contiguous there; this loop takes the rest.
func foldFinite[X, Y float32 | float64](st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int, vector bool) bool {
	const expMask = 0x7ff0000000000000 // all ones: an infinity or a NaN
	atol, rtol := tol.ATol, tol.RTol
	var maxAbs, maxRel, worst float64
	var nonzero uint64 // any bit set: some |y| is not zero
	mis, k0 := 0, 0
	var x0 X
	var y0 Y
	if vector && stepA == int(unsafe.Sizeof(x0)) && stepD == int(unsafe.Sizeof(y0)) && m >= 4 {
		var sums foldSums
		k0 = m &^ 3
		ft := foldTol{atol, rtol}
		if unsafe.Sizeof(x0) == 4 {
			foldF32AVX2(pa, pd, k0, &ft, &sums)
		} else {
			foldF64AVX2(pa, pd, k0, &ft, &sums)
		}
		if sums.bad != 0 {
			return false
		}
		maxAbs, maxRel, worst, mis, nonzero = sums.maxAbs, sums.maxRel, sums.worst, int(sums.mis), sums.nonzero
	}
	for k := k0; k < m; k++ {
		x := float64(*(*X)(unsafe.Add(pa, k*stepA)))
		y := float64(*(*Y)(unsafe.Add(pd, k*stepD)))
		if math.Float64bits(x)&expMask == expMask || math.Float64bits(y)&expMask == expMask {
			return false
		}
		d, ay := math.Abs(x-y), math.Abs(y)
		if d > maxAbs {
			maxAbs = d
		}
		nonzero |= math.Float64bits(ay)
		// d/ay can beat maxRel only if d >= maxRel*ay, up to the roundings
		// of the two products (the margins): the division, ten times the
		// cost of the rest, runs for the few pairs that pass.
		if d*(1+0x1p-30)+0x1p-1060 >= maxRel*ay && ay != 0 {
			if r := d / ay; r > maxRel {
				maxRel = r
			}
		}
		// d > 0 for every finite mismatch (the threshold is >= 0), so a
		// close pair's masked d of 0 never beats a mismatch.
		b := uint64(0)
		if d > atol+float64(rtol*ay) {
			b = 1
		}
		mis += int(b)
		if w := math.Float64frombits(math.Float64bits(d) & -b); w > worst {
			worst = w
		}
	}
	st.mismatched += mis
	if !st.hasDiff || maxAbs > st.maxAbs.Float { // a NaN maximum stays
		st.maxAbs.Float = maxAbs
	}
	st.hasDiff = true
	if nonzero != 0 {
		if !st.hasNonzero || maxRel > st.maxRel {
			st.maxRel = maxRel
		}
		st.hasNonzero = true
	}
	if mis > 0 {
		locateMismatches[X, Y](st, pa, stepA, pd, stepD, m, tol, i, worst)
	}
	return true
}

// locateMismatches finds, in a block of m finite pairs starting at
// element i whose greatest mismatched difference is worst, the first pair
// that differs by worst (when it beats the worst so far), and the first
// mismatches --show asks for.
func locateMismatches[X, Y float32 | float64](st *compareChunk, pa unsafe.Pointer, stepA int, pd unsafe.Pointer, stepD int, m int, tol Tolerance, i int, worst float64) {
	atol, rtol := tol.ATol, tol.RTol
	if st.worst < 0 || st.worstDiff.less(Diff{Float: worst}) {
		for k := 0; k < m; k++ {
			x := float64(*(*X)(unsafe.Add(pa, k*stepA)))
			y := float64(*(*Y)(unsafe.Add(pd, k*stepD)))
			if d := math.Abs(x - y); d == worst && d > atol+float64(rtol*math.Abs(y)) {
				st.worst, st.worstDiff = i+k, Diff{Float: d}
				break
			}
		}
	}
	for k := 0; k < m && len(st.first) < st.show; k++ {
		x := float64(*(*X)(unsafe.Add(pa, k*stepA)))
		y := float64(*(*Y)(unsafe.Add(pd, k*stepD)))
		if math.Abs(x-y) > atol+float64(rtol*math.Abs(y)) {
			st.first = append(st.first, i+k)
		}
	}
}
