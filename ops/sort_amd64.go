package ops

import "unsafe"

// haveScatterNT: this architecture has the scatter kernels of
// sort_amd64.s.
const haveScatterNT = true

// scatterNT32 is scatterKeys for 32-bit keys through line buffers written
// with non-temporal stores (sort_amd64.s); scatterLines calls it.
//
//go:noescape
func scatterNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint)

// scatterNT64 is scatterNT32 for 64-bit keys.
//
//go:noescape
func scatterNT64(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint)

// countDigits32 counts two digits of each key (bucketSorter.count's loop).
//
//go:noescape
func countDigits32(src unsafe.Pointer, n int, c0, c1 *uint32, lo, m0, m1 uint)

// scatter32 is scatterKeysGo for 32-bit keys.
//
//go:noescape
func scatter32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint)

// scatterDecode32 is bucketSorter.scatterDecode for native keys.
//
//go:noescape
func scatterDecode32(dst, src unsafe.Pointer, n int, off *uint32, shift, mask uint, desc, sign, neg uint32)

// scatterEncodeNT32 is scatterNT32 over the keys of native 32-bit values
// (encoder32.key of each).
//
//go:noescape
func scatterEncodeNT32(dst, src unsafe.Pointer, n int, off, start *uint32, buf unsafe.Pointer, shift, mask uint, enc *encoder32)

// countKeys32 counts the top 16 bits of the keys of native 32-bit values
// up to the first ±0.0 or NaN (encoder32), and returns how many it
// counted.
//
//go:noescape
func countKeys32(src unsafe.Pointer, n int, h *uint32, enc *encoder32) int
