package dtype

import "math"

// Bits loads an element of at most 8 bytes (one part of a complex) as an
// unsigned integer in the machine's terms: byte order resolved, a signed
// integer sign-extended to 64 bits, a float as its IEEE bits.
func (d Dtype) Bits(b []byte) uint64 {
	u := d.raw(b)
	if d.Kind == 'i' {
		return uint64(signExtend(u, d.Size))
	}
	return u
}

// signExtend reads the low size bytes of u as a two's complement integer.
func signExtend(u uint64, size int) int64 {
	shift := 64 - 8*uint(size)
	return int64(u<<shift) >> shift
}

// raw loads the element's size bytes (at most 8) as an unsigned integer.
func (d Dtype) raw(b []byte) uint64 {
	o := d.ByteOrder()
	switch d.Size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(o.Uint16(b))
	case 4:
		return uint64(o.Uint32(b))
	}
	return o.Uint64(b)
}

// Int decodes a bool or integer element exactly, as a sign and a magnitude.
func (d Dtype) Int(b []byte) (neg bool, mag uint64) {
	u := d.raw(b)
	switch d.Kind {
	case 'b':
		if u != 0 {
			return false, 1
		}
		return false, 0
	case 'i':
		if s := signExtend(u, d.Size); s < 0 {
			return true, uint64(-s) // -MinInt64 wraps to 2^63, its magnitude
		}
	}
	return false, u
}

// Float decodes a bool, integer or float element as a float64 (exact for
// floats and for integers up to 2^53 in magnitude; a complex element gives
// its real part).
func (d Dtype) Float(b []byte) float64 {
	switch d.Kind {
	case 'f':
		return FloatFromBits(d.raw(b), d.Size)
	case 'c':
		return d.Part().Float(b)
	}
	neg, mag := d.Int(b)
	if neg {
		return -float64(mag)
	}
	return float64(mag)
}

// FloatFromBits converts the IEEE bits of a size-byte float (2, 4 or 8) to
// a float64, exactly.
func FloatFromBits(u uint64, size int) float64 {
	switch size {
	case 2:
		return HalfToFloat64(uint16(u))
	case 4:
		return float64(math.Float32frombits(uint32(u)))
	}
	return math.Float64frombits(u)
}

// Complex decodes any numeric element as a complex128.
func (d Dtype) Complex(b []byte) complex128 {
	if d.Kind != 'c' {
		return complex(d.Float(b), 0)
	}
	p := d.Part()
	return complex(p.Float(b), p.Float(b[p.Size:]))
}
