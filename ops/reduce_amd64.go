package ops

import "unsafe"

// haveReduceKernels: this architecture has the fold kernels of
// reduce_amd64.s.
const haveReduceKernels = true

// rangeRun32AVX2 folds the n float32s at xs (n a multiple of 32) into the
// lanes: lanes.lo[j] = min(lanes.lo[j], x) and lanes.hi[j] = max(lanes.hi[j], x)
// over the xs whose index is j modulo 8, as keyRange does with four lanes;
// it reports whether a NaN was among them (the lanes then mean nothing).
//
//go:noescape
func rangeRun32AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool

// rangeRun64AVX2 is rangeRun32AVX2 for float64s: n a multiple of 16, 4 lanes.
//
//go:noescape
func rangeRun64AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool

// rangeRun32AVX512 is rangeRun32AVX2 with 16 lanes, n a multiple of 64.
//
//go:noescape
func rangeRun32AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool

// rangeRun64AVX512 is rangeRun64AVX2 with 8 lanes, n a multiple of 32.
//
//go:noescape
func rangeRun64AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool

// rangeCols32AVX2 is rangeRow with step 1 and both extremes over the n
// float32s at xs (n a multiple of 8) and the pairs at pairs, but for NaNs:
//
//	for i, x := range xs {
//		if x < pairs[2*i] { pairs[2*i] = x }
//		if x > pairs[2*i+1] { pairs[2*i+1] = x }
//	}
//
// reporting whether an x was a NaN (whose pair it left as it was).
//
//go:noescape
func rangeCols32AVX2(pairs, xs unsafe.Pointer, n int) bool

// rangeCols64AVX2 is rangeCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func rangeCols64AVX2(pairs, xs unsafe.Pointer, n int) bool

// rangeCols32AVX512 is rangeCols32AVX2, n a multiple of 16.
//
//go:noescape
func rangeCols32AVX512(pairs, xs unsafe.Pointer, n int) bool

// rangeCols64AVX512 is rangeCols64AVX2, n a multiple of 8.
//
//go:noescape
func rangeCols64AVX512(pairs, xs unsafe.Pointer, n int) bool

// countCols32AVX2 is nonzeroKernel's row for 4-byte elements with step 1
// over the n elements at xs (n a multiple of 8):
//
//	for i, u := range xs { counts[i] += int64(b2u(u&mask != 0)) }
//
//go:noescape
func countCols32AVX2(counts, xs unsafe.Pointer, n int, mask uint32)

// countCols32AVX512 is countCols32AVX2, n a multiple of 16.
//
//go:noescape
func countCols32AVX512(counts, xs unsafe.Pointer, n int, mask uint32)

// minCols32AVX2 is extremeRow with step 1 for the least over the n
// float32s at xs (n a multiple of 8) and the results at acc, but for NaNs:
//
//	for i, x := range xs { if x < acc[i] { acc[i] = x } }
//
// reporting whether an x was a NaN (whose result it left as it was).
//
//go:noescape
func minCols32AVX2(acc, xs unsafe.Pointer, n int) bool

// maxCols32AVX2 is minCols32AVX2 for the greatest (x > acc[i]).
//
//go:noescape
func maxCols32AVX2(acc, xs unsafe.Pointer, n int) bool

// minCols64AVX2 is minCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func minCols64AVX2(acc, xs unsafe.Pointer, n int) bool

// maxCols64AVX2 is maxCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func maxCols64AVX2(acc, xs unsafe.Pointer, n int) bool

// minCols32AVX512 is minCols32AVX2, n a multiple of 16.
//
//go:noescape
func minCols32AVX512(acc, xs unsafe.Pointer, n int) bool

// maxCols32AVX512 is maxCols32AVX2, n a multiple of 16.
//
//go:noescape
func maxCols32AVX512(acc, xs unsafe.Pointer, n int) bool

// minCols64AVX512 is minCols64AVX2, n a multiple of 8.
//
//go:noescape
func minCols64AVX512(acc, xs unsafe.Pointer, n int) bool

// maxCols64AVX512 is maxCols64AVX2, n a multiple of 8.
//
//go:noescape
func maxCols64AVX512(acc, xs unsafe.Pointer, n int) bool

// addCols32AVX2 is floatAdd's rowFast with step 1 over the n float32s at
// xs (n a multiple of 8) and the results at acc:
//
//	for i, x := range xs { acc[i] += x }
//
//go:noescape
func addCols32AVX2(acc, xs unsafe.Pointer, n int)

// addCols64AVX2 is addCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func addCols64AVX2(acc, xs unsafe.Pointer, n int)

// mulCols32AVX2 is floatMultiply's rowFast with step 1 (acc[i] *= x), n a
// multiple of 8.
//
//go:noescape
func mulCols32AVX2(acc, xs unsafe.Pointer, n int)

// mulCols64AVX2 is mulCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func mulCols64AVX2(acc, xs unsafe.Pointer, n int)

// addCols32AVX512 is addCols32AVX2, n a multiple of 16.
//
//go:noescape
func addCols32AVX512(acc, xs unsafe.Pointer, n int)

// addCols64AVX512 is addCols64AVX2, n a multiple of 8.
//
//go:noescape
func addCols64AVX512(acc, xs unsafe.Pointer, n int)

// mulCols32AVX512 is mulCols32AVX2, n a multiple of 16.
//
//go:noescape
func mulCols32AVX512(acc, xs unsafe.Pointer, n int)

// mulCols64AVX512 is mulCols64AVX2, n a multiple of 8.
//
//go:noescape
func mulCols64AVX512(acc, xs unsafe.Pointer, n int)

// devCols32AVX2 is deviationKernel's rowFast with step 1 over the n
// float32s at xs (n a multiple of 8), their means and the results at acc:
//
//	for i, x := range xs { d := x - means[i]; acc[i] += float32(d * d) }
//
//go:noescape
func devCols32AVX2(acc, xs, means unsafe.Pointer, n int)

// devCols64AVX2 is devCols32AVX2 for float64s, n a multiple of 4.
//
//go:noescape
func devCols64AVX2(acc, xs, means unsafe.Pointer, n int)

// devCols32AVX512 is devCols32AVX2, n a multiple of 16.
//
//go:noescape
func devCols32AVX512(acc, xs, means unsafe.Pointer, n int)

// devCols64AVX512 is devCols64AVX2, n a multiple of 8.
//
//go:noescape
func devCols64AVX512(acc, xs, means unsafe.Pointer, n int)

// leafSum32AVX2 is the sum of a leaf of pairwiseSum over the n float32s at
// xs (8 <= n <= 128, n a multiple of 8), eight lanes in the order of the
// Go loop:
//
//	r := xs[:8]; for i := 8; i < n; i += 8 { r[j] += xs[i+j] for each j }
//	return ((r[0]+r[1])+(r[2]+r[3]))+((r[4]+r[5])+(r[6]+r[7]))
//
// A NaN it returns may be another of the NaNs summed than Go's.
//
//go:noescape
func leafSum32AVX2(xs unsafe.Pointer, n int) float32

// leafSum64AVX2 is leafSum32AVX2 for float64s.
//
//go:noescape
func leafSum64AVX2(xs unsafe.Pointer, n int) float64

// leafSquares32AVX2 is leafSum32AVX2 of the squared deviations from m,
// float32((x - m) * (x - m)) with each operation rounded apart, as a leaf
// of pairwiseSquares.
//
//go:noescape
func leafSquares32AVX2(xs unsafe.Pointer, n int, m float32) float32

// leafSquares64AVX2 is leafSquares32AVX2 for float64s.
//
//go:noescape
func leafSquares64AVX2(xs unsafe.Pointer, n int, m float64) float64
