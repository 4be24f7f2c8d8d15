//go:build !amd64

package ops

import "unsafe"

// haveScatterNT: no scatter kernels in assembly here; scatterLines is
// never asked for one.
const haveScatterNT = false

func scatterNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint) {
	panic("ops: no scatterNT32 on this architecture")
}

func scatterNT64(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint) {
	panic("ops: no scatterNT64 on this architecture")
}

func countDigits32(src unsafe.Pointer, n int, c0, c1 *uint32, lo, m0, m1 uint) {
	panic("ops: no countDigits32 on this architecture")
}

func scatter32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint) {
	panic("ops: no scatter32 on this architecture")
}

func scatterDecode32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint, desc, sign, neg uint32) {
	panic("ops: no scatterDecode32 on this architecture")
}

func scatterEncodeNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint, enc *encoder32) {
	panic("ops: no scatterEncodeNT32 on this architecture")
}

func countKeys32(src unsafe.Pointer, n int, h *uint32, enc *encoder32) int {
	panic("ops: no countKeys32 on this architecture")
}
