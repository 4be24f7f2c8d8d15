package ops

import "unsafe"

// haveTransposeKernels: this architecture has transpose_amd64.s.
const haveTransposeKernels = true

// transpose32AVX2 is copyTiled4's loop over whole 8×8 blocks: nr and nc
// are multiples of 8, cs the source's byte step along cols, rd the
// destination's along rows.
//
//go:noescape
func transpose32AVX2(dst, src unsafe.Pointer, nr, nc, cs, rd int)
