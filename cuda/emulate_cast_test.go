package cuda

import (
	"encoding/binary"
	"math"
	"math/bits"
	"testing"
)

// The emulation of kernels/convert.cuh, cast.cu and unique.cu, line by
// line (see emulate_test.go). Where the CUDA code relies on the GPU's own
// conversions (int to float, double to float for numbers, float to double)
// the Go conversion is the same correctly rounded one.

func emuFmtSize(f int64, shift int) int  { return int((f >> shift) & 255) }
func emuFmtSwap(f int64, shift int) bool { return (f>>(shift+8))&1 != 0 }

func emuSwapBytes(u uint64, size int) uint64 { return bits.ReverseBytes64(u) >> (64 - 8*size) }

func emuLoadWord(a []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(a[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(a))
	case 4:
		return uint64(binary.LittleEndian.Uint32(a))
	}
	return binary.LittleEndian.Uint64(a)
}

func emuStoreWord(a []byte, size int, v uint64) {
	switch size {
	case 1:
		a[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(a, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(a, uint32(v))
	default:
		binary.LittleEndian.PutUint64(a, v)
	}
}

func emuLoadPart(a []byte, size int, swap bool) uint64 {
	u := emuLoadWord(a, size)
	if swap {
		return emuSwapBytes(u, size)
	}
	return u
}

func dbl(b uint64) float64   { return math.Float64frombits(b) }
func dbits(x float64) uint64 { return math.Float64bits(x) }

func emuF16ToF64(h uint64) float64 {
	sign := (h >> 15) << 63
	exp := int(h>>10) & 0x1f
	mant := h & 0x3ff
	if exp == 0x1f {
		return dbl(sign | 0x7ff<<52 | mant<<42)
	}
	if exp == 0 && mant == 0 {
		return dbl(sign)
	}
	if exp == 0 {
		v := float64(mant) * 5.9604644775390625e-08
		if sign != 0 {
			return -v
		}
		return v
	}
	return dbl(sign | uint64(exp-15+1023)<<52 | mant<<42)
}

func emuF32ToF64(b uint64) float64 {
	if b&0x7fffffff > 0x7f800000 {
		return dbl((b>>31)<<63 | 0x7ff8000000000000 | (b&0x7fffff)<<29)
	}
	return float64(math.Float32frombits(uint32(b)))
}

func emuF64ToF32(x float64, half bool) uint64 {
	b := dbits(x)
	if b&0x7fffffffffffffff > 0x7ff0000000000000 {
		q := uint64(0x7fc00000)
		if half {
			q = 0x7f800000
		}
		return (b>>63)<<31 | q | (b>>29)&0x7fffff
	}
	return uint64(math.Float32bits(float32(x)))
}

func emuF64ToF16(x float64) uint64 {
	b := dbits(x)
	sign, a := (b>>48)&0x8000, b&0x7fffffffffffffff
	if a > 0x7ff0000000000000 {
		h := 0x7c00 + (b>>42)&0x3ff
		if h == 0x7c00 {
			return sign | (h + 1)
		}
		return sign | h
	}
	if a >= 0x40effe0000000000 {
		return sign | 0x7c00
	}
	e := int(a >> 52)
	if e < 998 {
		return sign
	}
	var m, q, rem, halfway uint64
	if e < 1009 {
		m = a&0xfffffffffffff | 1<<52
		s := 1051 - e
		q = m >> s
		rem = m & (1<<s - 1)
		halfway = 1 << (s - 1)
	} else {
		m = a & 0xfffffffffffff
		q = uint64(e-1008)<<10 | m>>42
		rem = m & (1<<42 - 1)
		halfway = 1 << 41
	}
	if rem > halfway || rem == halfway && q&1 != 0 {
		q++
	}
	return sign | q
}

// emuCvtt32 and emuCvtt64 are the kernels' cvtt32 and cvtt64: the in-range
// conversion is the GPU's truncating one, which Go's is too.
func emuCvtt32(x float64) int64 {
	if x > -2147483649.0 && x < 2147483648.0 {
		return int64(int32(x))
	}
	return -2147483648
}

func emuCvtt64(x float64) int64 {
	if x >= -9223372036854775808.0 && x < 9223372036854775808.0 {
		return int64(x)
	}
	return math.MinInt64
}

func emuFloatToInt(x float64, k byte, size int) uint64 {
	if k == 'u' && size == 8 {
		if !(x >= 9223372036854775808.0) {
			return uint64(emuCvtt64(x))
		}
		return uint64(emuCvtt64(x-9223372036854775808.0)) ^ 0x8000000000000000
	}
	if size == 8 || k == 'u' && size == 4 {
		return uint64(emuCvtt64(x))
	}
	return uint64(emuCvtt32(x))
}

func emuLoadDouble(a []byte, size int, swap bool) float64 {
	u := emuLoadPart(a, size, swap)
	switch size {
	case 2:
		return emuF16ToF64(u)
	case 4:
		return emuF32ToF64(u)
	}
	return dbl(u)
}

type emuWide struct {
	bits   uint64
	re, im float64
}

func emuWiden(fk byte, a []byte, size int, swap bool) emuWide {
	var w emuWide
	switch fk {
	case 'b':
		if a[0] != 0 {
			w.bits = 1
		}
	case 'i':
		sh := 64 - 8*size
		w.bits = uint64(int64(emuLoadPart(a, size, swap)<<sh) >> sh)
	case 'u':
		w.bits = emuLoadPart(a, size, swap)
	case 'f':
		w.re = emuLoadDouble(a, size, swap)
	default:
		w.re = emuLoadDouble(a, size/2, swap)
		w.im = emuLoadDouble(a[size/2:], size/2, swap)
	}
	return w
}

func emuNarrow(fk, tk byte, o []byte, w emuWide, half bool, size int, swap bool) {
	fromInt := fk == 'b' || fk == 'i' || fk == 'u'
	part := size
	if tk == 'c' {
		part = size / 2
	}
	var lo, hi uint64
	switch {
	case tk == 'b':
		var nz bool
		if fromInt {
			nz = w.bits != 0
		} else {
			nz = w.re != 0 || w.im != 0
		}
		if nz {
			lo = 1
		}
	case fromInt:
		d := float64(w.bits)
		if fk == 'i' {
			d = float64(int64(w.bits))
		}
		switch {
		case tk == 'i' || tk == 'u':
			lo = w.bits
		case part == 2:
			lo = emuF64ToF16(d)
		case part == 4:
			if fk == 'i' {
				lo = uint64(math.Float32bits(float32(int64(w.bits))))
			} else {
				lo = uint64(math.Float32bits(float32(w.bits)))
			}
		default:
			lo = dbits(d)
		}
	case tk == 'i' || tk == 'u':
		lo = emuFloatToInt(w.re, tk, size)
	case part == 2:
		lo = emuF64ToF16(w.re)
	case part == 4:
		lo, hi = emuF64ToF32(w.re, half), emuF64ToF32(w.im, half)
	default:
		lo, hi = dbits(w.re), dbits(w.im)
	}
	if swap {
		lo, hi = emuSwapBytes(lo, part), emuSwapBytes(hi, part)
	}
	emuStoreWord(o, part, lo)
	if tk == 'c' {
		emuStoreWord(o[part:], part, hi)
	}
}

// emuMove32 is move32<FK, TK>.
func emuMove32(fk, tk byte, o, a []byte, fsize, tsize int, fswap, tswap bool) bool {
	if !((fk == 'f' || fk == 'c') && (tk == 'f' || tk == 'c')) {
		return false
	}
	fpart, tpart := fsize, tsize
	if fk == 'c' {
		fpart /= 2
	}
	if tk == 'c' {
		tpart /= 2
	}
	if fpart != 4 || tpart != 4 {
		return false
	}
	lo, hi := emuLoadPart(a, 4, fswap), uint64(0)
	if fk == 'c' {
		hi = emuLoadPart(a[4:], 4, fswap)
	}
	if tswap {
		lo, hi = emuSwapBytes(lo, 4), emuSwapBytes(hi, 4)
	}
	emuStoreWord(o, 4, lo)
	if tk == 'c' {
		emuStoreWord(o[4:], 4, hi)
	}
	return true
}

// emuHalf32 is half32<FK, TK>.
func emuHalf32(fk, tk byte, o, a []byte, fsize, tsize int, fswap, tswap bool) bool {
	if !((fk == 'f' || fk == 'c') && tk == 'f') {
		return false
	}
	fpart := fsize
	if fk == 'c' {
		fpart /= 2
	}
	if fpart != 4 || tsize != 2 {
		return false
	}
	b := emuLoadPart(a, 4, fswap)
	var h uint64
	if b&0x7fffffff > 0x7f800000 {
		h = 0x7c00 + (b&0x7fffff)>>13
		if h == 0x7c00 {
			h++
		}
		h |= b >> 16 & 0x8000
	} else {
		h = emuF64ToF16(float64(math.Float32frombits(uint32(b))))
	}
	if tswap {
		h = emuSwapBytes(h, 2)
	}
	emuStoreWord(o, 2, h)
	return true
}

// emuCast is cast<FK, TK, U>.
func emuCast(fk, tk byte, use32 bool, dst, src, p dev, base, n, f, grid, threads int64) {
	fsize, tsize := emuFmtSize(f, 0), emuFmtSize(f, 16)
	fswap, tswap := emuFmtSwap(f, 0), emuFmtSwap(f, 16)
	half := fk == 'f' && fsize == 2
	gridStride(grid, threads, n, func(e int64) {
		o, _ := calc(p, e, use32)
		if emuMove32(fk, tk, dst[e*int64(tsize):], src[(base+o)*int64(fsize):], fsize, tsize, fswap, tswap) {
			return
		}
		if emuHalf32(fk, tk, dst[e*int64(tsize):], src[(base+o)*int64(fsize):], fsize, tsize, fswap, tswap) {
			return
		}
		w := emuWiden(fk, src[(base+o)*int64(fsize):], fsize, fswap)
		emuNarrow(fk, tk, dst[e*int64(tsize):], w, half, tsize, tswap)
	})
}

func emuSame(k byte, a, b []byte, size int, swap bool) bool {
	switch k {
	case 'i':
		return emuLoadWord(a, size) == emuLoadWord(b, size)
	case 'b':
		return (a[0] != 0) == (b[0] != 0)
	case 'f':
		return emuLoadDouble(a, size, swap) == emuLoadDouble(b, size, swap)
	}
	h := size / 2
	return emuLoadDouble(a, h, swap) == emuLoadDouble(b, h, swap) &&
		emuLoadDouble(a[h:], h, swap) == emuLoadDouble(b[h:], h, swap)
}

// emuUniqueFlags is unique_flags<K, U>.
func emuUniqueFlags(k byte, use32 bool, flags, src, p, q dev, base, n, inner, f, grid, threads int64) {
	size, swap := emuFmtSize(f, 0), emuFmtSwap(f, 0)
	gridStride(grid, threads, n, func(e int64) {
		o0, _ := calc(p, e, use32)
		o1, _ := calc(p, e+inner, use32)
		if !emuSame(k, src[(base+o1)*int64(size):], src[(base+o0)*int64(size):], size, swap) {
			flags[1+div(e, q, use32)] = 1
		}
	})
}

// launchConvert runs the kernels of cast.cu and unique.cu; false when the
// step is not one of them.
func (m emuMem) launchConvert(t testing.TB, s step, name, w string) bool {
	a := s.args
	v := func(k int) int64 { return int64(a[k].val) }
	threads, grid := int64(s.block[0]*s.block[1]), int64(s.grid)
	switch {
	case len(name) == 7 && name[:5] == "cast_":
		emuCast(name[5], name[6], w == "i32", m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), v(3), v(4), v(5), grid, threads)
	case len(name) == 14 && name[:13] == "unique_flags_":
		emuUniqueFlags(name[13], w == "i32", m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), v(4), v(5), v(6), v(7), grid, threads)
	default:
		return false
	}
	return true
}
