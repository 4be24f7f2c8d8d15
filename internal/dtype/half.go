package dtype

import "math"

// HalfToFloat64 converts IEEE 754 binary16 bits to a float64, exactly: the
// one half-to-float conversion in strider (npy_half_to_double). A NaN keeps
// its sign and its payload in the high mantissa bits, so a trip back through
// Float64ToHalf gives the same bits.
func HalfToFloat64(h uint16) float64 {
	sign := uint64(h>>15) << 63
	exp := int(h>>10) & 0x1f
	mant := uint64(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float64frombits(sign | 0x7ff<<52 | mant<<42)
	case exp == 0 && mant == 0:
		return math.Float64frombits(sign)
	case exp == 0:
		v := math.Ldexp(float64(mant), -24) // subnormal: mant * 2^-24
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float64frombits(sign | uint64(exp-15+1023)<<52 | mant<<42)
}

// Float64ToHalf converts x to the nearest binary16 (ties to even) and
// returns its bits: the one float-to-half conversion in strider, NumPy's
// npy_doublebits_to_halfbits line for line. Magnitudes from 65520 on (the
// largest half plus half an ulp) give infinity, those up to 2^-25 give a
// signed zero, and a NaN keeps its sign and the top ten bits of its
// payload (made nonzero, so it stays a NaN). A float32 goes through
// Float32ToHalf: its float64 widening gives NumPy's bits but for a
// signaling NaN, whose quiet bit Go's float64(f) sets.
func Float64ToHalf(x float64) uint16 {
	d := math.Float64bits(x)
	sign := uint16(d>>48) & 0x8000
	exp := d & 0x7ff0000000000000
	if exp >= 0x40f0000000000000 { // 2^16 and past, infinity, NaN
		if sig := d & 0x000fffffffffffff; exp == 0x7ff0000000000000 && sig != 0 {
			h := uint16(0x7c00 + sig>>42)
			if h == 0x7c00 {
				h++ // the payload's top bits are zero: keep it a NaN
			}
			return sign | h
		}
		return sign | 0x7c00
	}
	if exp <= 0x3f00000000000000 { // under 2^-14: a subnormal half or zero
		if exp < 0x3e60000000000000 { // under 2^-25
			return sign
		}
		// The significand with its implicit bit, shifted so that bit 53
		// is the half's least significant bit (2^-24).
		sig := (0x0010000000000000 + d&0x000fffffffffffff) << (exp>>52 - 998)
		// Adding the half ulp rounds up unless it is an exact tie to an
		// even half.
		if sig&0x003fffffffffffff != 0x0010000000000000 {
			sig += 0x0010000000000000
		}
		return sign | uint16(sig>>53)
	}
	hexp := uint16((exp - 0x3f00000000000000) >> 42)
	sig := d & 0x000fffffffffffff
	if sig&0x000007ffffffffff != 0x0000020000000000 {
		sig += 0x0000020000000000
	}
	// A carry out of the significand rises into the exponent: the next
	// binade, or infinity from 65520 on.
	return sign | (uint16(sig>>42) + hexp)
}

// Float32ToHalf is NumPy's npy_floatbits_to_halfbits of the float32 bits
// f: Float64ToHalf of its value, but for a NaN, which keeps its sign and
// the top ten bits of its payload as they are (made nonzero), so that a
// signaling NaN stays one: float64(f) would set its quiet bit first.
func Float32ToHalf(f uint32) uint16 {
	if f&0x7f800000 == 0x7f800000 && f&0x007fffff != 0 {
		h := uint16(0x7c00 + (f&0x007fffff)>>13)
		if h == 0x7c00 {
			h++ // the payload's top bits are zero: keep it a NaN
		}
		return uint16(f>>16)&0x8000 | h
	}
	return Float64ToHalf(float64(math.Float32frombits(f)))
}

// RoundHalf is x rounded to the nearest binary16 (ties to even), as a
// float64: the value a float16 result holds. A NaN is returned as it is.
func RoundHalf(x float64) float64 {
	if x != x {
		return x
	}
	return HalfToFloat64(Float64ToHalf(x))
}
