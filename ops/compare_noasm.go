//go:build !amd64

package ops

import "unsafe"

// haveFoldKernels: no fold kernels in assembly here.
const haveFoldKernels = false

func foldF32AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums) {
	panic("ops: no foldF32AVX2 on this architecture")
}

func foldF64AVX2(a, d unsafe.Pointer, n int, tol *foldTol, out *foldSums) {
	panic("ops: no foldF64AVX2 on this architecture")
}
