package ops

import "unsafe"

// haveRunKernels: this architecture has the run kernels of
// unique_amd64.s.
const haveRunKernels = true

//go:noescape
func runsCount32AVX512(prev, cur unsafe.Pointer, n int, float bool) int

//go:noescape
func runsTake32AVX512(dst, prev, cur unsafe.Pointer, n int, float bool) int

//go:noescape
func runsCount32AVX2(prev, cur unsafe.Pointer, n int, float bool) int

//go:noescape
func runsTake32AVX2(dst, prev, cur unsafe.Pointer, n int, float bool, room int, perm *[256][8]uint32) (written, read int)
