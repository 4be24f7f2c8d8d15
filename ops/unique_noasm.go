//go:build !amd64

package ops

import "unsafe"

// haveRunKernels: no run kernels in assembly here.
const haveRunKernels = false

func runsCount32AVX512(prev, cur unsafe.Pointer, n int, float bool) int {
	panic("ops: no runsCount32AVX512 on this architecture")
}

func runsTake32AVX512(dst, prev, cur unsafe.Pointer, n int, float bool) int {
	panic("ops: no runsTake32AVX512 on this architecture")
}

func runsCount32AVX2(prev, cur unsafe.Pointer, n int, float bool) int {
	panic("ops: no runsCount32AVX2 on this architecture")
}

func runsTake32AVX2(dst, prev, cur unsafe.Pointer, n int, float bool, room int, perm *[256][8]uint32) (written, read int) {
	panic("ops: no runsTake32AVX2 on this architecture")
}
