package ops

import "math"

// float64ToHalfBits rounds x to the nearest float16 (ties to even), as
// npy_double_to_half does, and returns its bits.
func float64ToHalfBits(x float64) uint16 {
	sign := uint16(0)
	if math.Signbit(x) {
		sign = 0x8000
	}
	a := math.Abs(x)
	switch {
	case a != a:
		return sign | 0x7e00
	case a == 0:
		return sign
	}
	r := roundHalf(a)
	if math.IsInf(r, 0) {
		return sign | 0x7c00
	}
	if r < 1.0/16384 { // subnormal: r is a multiple of 2^-24
		return sign | uint16(r*(1<<24))
	}
	e := math.Ilogb(r)
	m := uint16(math.Ldexp(r, -e)*1024) - 1024
	return sign | uint16(e+15)<<10 | m
}
