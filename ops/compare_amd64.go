package ops

import "unsafe"

// haveFoldKernels: this architecture has the fold kernels of
// compare_amd64.s.
const haveFoldKernels = true

// foldF32AVX2 folds n contiguous float32 pairs (n a multiple of 4) into
// *out, as foldFinite's loop does.
//
//go:noescape
func foldF32AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums)

// foldF64AVX2 is foldF32AVX2 for float64 pairs.
//
//go:noescape
func foldF64AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums)
