package text

import (
	"math"

	"strider/internal/dtype"
	"strider/internal/npprint"
)

// FormatElem writes one element as NumPy's repr of the scalar does:
// True/False, integers exactly, floats with the shortest digits that
// round-trip in their own precision, complex as (re+imj). It is str() of a
// 0-d array holding the element (npprint.Str).
func FormatElem(b []byte, f dtype.Dtype) string {
	var elems [2]uint64
	a := npprint.Array{Kind: f.Kind, Size: f.Size, Elems: elems[:1]}
	if f.Kind == 'c' {
		p := f.Part()
		elems[0], elems[1] = p.Bits(b), p.Bits(b[p.Size:])
		a.Elems = elems[:2]
	} else {
		elems[0] = f.Bits(b)
	}
	return npprint.Str(a, npprint.Options{})
}

// FormatFloatRepr writes v, rounded to a float of bitSize 16, 32 or 64
// bits, as NumPy's (and Python's) repr of a float scalar: positional for
// 1e-4 <= |v| < 1e16 ("1.0", "0.25"), scientific otherwise ("1e-05",
// "1.5e+16"), with the shortest round-trip digits (npprint.FloatRepr).
func FormatFloatRepr(v float64, bitSize int) string {
	return npprint.FloatRepr(floatBits(v, bitSize))
}

// floatBits is v rounded to a float of bitSize bits, as npprint takes it.
func floatBits(v float64, bitSize int) npprint.Float {
	switch bitSize {
	case 16:
		return npprint.Float{Bits: uint64(dtype.Float64ToHalf(v)), Size: 2}
	case 32:
		return npprint.Float{Bits: uint64(math.Float32bits(float32(v))), Size: 4}
	}
	return npprint.Float{Bits: math.Float64bits(v), Size: 8}
}
