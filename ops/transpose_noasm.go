//go:build !amd64

package ops

import "unsafe"

// haveTransposeKernels: no transpose kernels in assembly here.
const haveTransposeKernels = false

func transpose32AVX2(dst, src unsafe.Pointer, nr, nc, cs, rd int) {
	panic("ops: no transpose32AVX2 on this architecture")
}
