package ops

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"strider/internal/dtype"
)

// Cast writes numpy's src.astype(to) into dst in C order: src's elements
// (of format from, any strides and byte order) converted one by one as
// NumPy 1.24's element-by-element cast loops convert them on x86-64:
//
//   - to bool: x != 0 (a NaN is true; a complex number is true when either
//     part is nonzero);
//   - integer to integer: the low bits (wrap around);
//   - integer or float to float: rounded to nearest, ties to even;
//     float16 by dtype.Float64ToHalf (npy_double_to_half), NaN payloads kept;
//   - float to integer: truncated toward zero by the 32-bit (int8, int16,
//     int32, uint8, uint16) or 64-bit (int64, uint32) cvtt instruction,
//     whose out-of-range and NaN result is the lowest integer, then cut to
//     size; uint64 as C's conversion does it (values from 2^63 by
//     subtracting 2^63 first). NumPy calls all of this undefined, and its
//     contiguous uint32 loop gives other values;
//   - complex to real: the real part; real to complex: a zero imaginary part.
//
// Each piece of src is read in place when it is contiguous, native and
// aligned, else copied to a native buffer. Pairs where Go's conversion is
// NumPy's cast go straight to the destination (directCast: one generic
// kernel, instantiated per pair of part types); the rest are widened to one
// of four intermediates (int64, uint64, float64, complex128, by the source
// kind) and narrowed to the destination: one generic kernel per kind pair.
func Cast(dst []byte, to dtype.Dtype, src View, from dtype.Dtype, opt Options) error {
	if err := from.Check(); err != nil {
		return err
	}
	if err := to.Check(); err != nil {
		return err
	}
	if err := src.Check(); err != nil {
		return err
	}
	if src.Elem != from.Size {
		return fmt.Errorf("%d-byte elements read as %d-byte %c", src.Elem, from.Size, from.Kind)
	}
	n := src.Count()
	if len(dst) != n*to.Size {
		return fmt.Errorf("destination holds %d bytes, the cast writes %d", len(dst), n*to.Size)
	}
	var pieces []View
	for p := range src.Pieces(castPiece * src.Elem) {
		pieces = append(pieces, p)
	}
	threads := opt.threads()
	if len(dst) < opt.tuning().parallelMin {
		threads = 1
	}
	starts := make([]int, len(pieces)+1)
	for k, p := range pieces {
		starts[k+1] = starts[k] + p.Count()
	}
	var fault error
	parallel(len(pieces), threads, func(lo, hi int) {
		var c caster
		for k := lo; k < hi; k++ {
			out := dst[starts[k]*to.Size : starts[k+1]*to.Size]
			if err := c.piece(out, to, pieces[k], from); err != nil {
				fault = err
				return
			}
			if opt.Done != nil {
				opt.Done.Add(int64(len(out)))
			}
		}
	})
	return fault
}

// castPiece is the elements cast at a time: the buffers stay in L1/L2.
const castPiece = 4096

// caster holds one thread's buffers.
type caster struct {
	raw  []uint64 // the source piece, native byte order (8-byte aligned)
	wide []complex128
}

func (c *caster) piece(out []byte, to dtype.Dtype, p View, from dtype.Dtype) error {
	raw, inPlace := nativeBytes(p, from)
	if !inPlace {
		var err error
		if raw, err = c.native(p, from); err != nil {
			return err
		}
	}
	if conv := directCast(from, to); conv != nil {
		conv(out, raw) // Go's conversion is NumPy's for this pair
	} else {
		n := p.Count()
		if cap(c.wide) < n {
			c.wide = make([]complex128, n)
		}
		widen(c.wide[:n], raw, from)
		narrow(out, c.wide[:n], from, to)
	}
	if to.BigEndian() {
		swapParts(out, to)
	}
	return nil
}

// nativeBytes is p's bytes when they can be read in place: C-contiguous,
// native byte order, aligned for the element.
func nativeBytes(p View, f dtype.Dtype) ([]byte, bool) {
	if c, _ := p.Contiguity(); !c || f.BigEndian() || p.Count() == 0 {
		return nil, false
	}
	b := p.Data[p.Offset*p.Elem:][:p.Count()*p.Elem]
	return b, uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(f.Size) == 0
}

// native copies p into the caster's buffer, in native byte order.
func (c *caster) native(p View, from dtype.Dtype) ([]byte, error) {
	n := p.Count()
	need := (n*from.Size + 7) / 8
	if cap(c.raw) < need {
		c.raw = make([]uint64, need)
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.raw))), n*from.Size)
	if err := Copy(raw, p, Options{Threads: 1}); err != nil {
		return nil, err
	}
	if from.BigEndian() {
		swapParts(raw, from)
	}
	return raw, nil
}

// swapParts reverses the bytes of each element (of each part of a complex).
func swapParts(b []byte, f dtype.Dtype) {
	size := f.Size
	if f.Kind == 'c' {
		size /= 2
	}
	switch size {
	case 2:
		for i := 0; i+2 <= len(b); i += 2 {
			binary.LittleEndian.PutUint16(b[i:], bits.ReverseBytes16(binary.LittleEndian.Uint16(b[i:])))
		}
	case 4:
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], bits.ReverseBytes32(binary.LittleEndian.Uint32(b[i:])))
		}
	case 8:
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], bits.ReverseBytes64(binary.LittleEndian.Uint64(b[i:])))
		}
	}
}

// as views b as a slice of T (b is aligned for T).
func as[T any](b []byte) []T {
	var z T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
}

// widen stores each native source element in w: integers and bools (as 0
// or 1) in the real part's bits as int64 or uint64 (see wideInt), floats
// and complex numbers exactly as complex128.
func widen(w []complex128, raw []byte, f dtype.Dtype) {
	switch f.Kind {
	case 'b':
		for i, x := range raw {
			w[i] = wideInt(uint64(b2u(x != 0)))
		}
	case 'i':
		switch f.Size {
		case 1:
			widenInts(w, as[int8](raw))
		case 2:
			widenInts(w, as[int16](raw))
		case 4:
			widenInts(w, as[int32](raw))
		default:
			widenInts(w, as[int64](raw))
		}
	case 'u':
		switch f.Size {
		case 1:
			widenInts(w, raw)
		case 2:
			widenInts(w, as[uint16](raw))
		case 4:
			widenInts(w, as[uint32](raw))
		default:
			widenInts(w, as[uint64](raw))
		}
	case 'f':
		switch f.Size {
		case 2:
			for i, h := range as[uint16](raw) {
				w[i] = complex(dtype.HalfToFloat64(h), 0)
			}
		case 4:
			for i, x := range as[float32](raw) {
				w[i] = complex(float64(x), 0)
			}
		default:
			for i, x := range as[float64](raw) {
				w[i] = complex(x, 0)
			}
		}
	default:
		if f.Size == 8 {
			for i, z := range as[complex64](raw) {
				w[i] = complex128(z)
			}
		} else {
			copy(w, as[complex128](raw))
		}
	}
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// wideInt carries an integer's 64 bits (two's complement for a signed
// one, sign-extended) in the real part's bits of a complex128.
func wideInt(u uint64) complex128 { return complex(math.Float64frombits(u), 0) }

func intOf(z complex128) uint64 { return math.Float64bits(real(z)) }

func widenInts[S integer](w []complex128, src []S) {
	for i, x := range src {
		w[i] = wideInt(uint64(int64(x))) // sign-extends signed S, zero-extends unsigned
	}
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// narrow converts the widened elements (of source kind kind) to format
// to, native byte order, into out.
func narrow(out []byte, w []complex128, from, to dtype.Dtype) {
	kind := from.Kind
	if to.Kind == 'b' {
		for i, z := range w {
			out[i] = b2u(nonzero(z, kind))
		}
		return
	}
	switch kind {
	case 'b', 'u':
		narrowFrom(out, w, to, func(z complex128) uint64 { return intOf(z) }, func(z complex128) float64 { return float64(intOf(z)) }, func(z complex128) float32 { return float32(intOf(z)) })
	case 'i':
		narrowFrom(out, w, to, func(z complex128) uint64 { return intOf(z) }, func(z complex128) float64 { return float64(int64(intOf(z))) }, func(z complex128) float32 { return float32(int64(intOf(z))) })
	default:
		narrowFloat(out, w, to, from.Kind == 'f' && from.Size == 2)
	}
}

// nonzero is bool(x) for a widened element of kind kind.
func nonzero(z complex128, kind byte) bool {
	switch kind {
	case 'b', 'i', 'u':
		return intOf(z) != 0
	}
	return real(z) != 0 || imag(z) != 0 || z != z
}

// narrowFrom narrows widened integers: to an integer by its low bits, to a
// float by rounding the integer (f32 and f64 directly from the integer, as
// C converts; f16 from its float64, exact below 2^53 and infinite above
// 65520 either way).
func narrowFrom(out []byte, w []complex128, to dtype.Dtype, u func(complex128) uint64, f func(complex128) float64, f32 func(complex128) float32) {
	switch to.Kind {
	case 'i', 'u':
		narrowInts(out, w, to.Size, u)
	case 'f':
		switch to.Size {
		case 2:
			for i, z := range w {
				binary.LittleEndian.PutUint16(out[2*i:], dtype.Float64ToHalf(f(z)))
			}
		case 4:
			for i, z := range w {
				as[float32](out)[i] = f32(z)
			}
		default:
			for i, z := range w {
				as[float64](out)[i] = f(z)
			}
		}
	default:
		if to.Size == 8 {
			for i, z := range w {
				as[complex64](out)[i] = complex(f32(z), 0)
			}
		} else {
			for i, z := range w {
				as[complex128](out)[i] = complex(f(z), 0)
			}
		}
	}
}

// narrowInts stores the low size bytes of u(z) for each element.
func narrowInts(out []byte, w []complex128, size int, u func(complex128) uint64) {
	switch size {
	case 1:
		for i, z := range w {
			out[i] = uint8(u(z))
		}
	case 2:
		o := as[uint16](out)
		for i, z := range w {
			o[i] = uint16(u(z))
		}
	case 4:
		o := as[uint32](out)
		for i, z := range w {
			o[i] = uint32(u(z))
		}
	default:
		o := as[uint64](out)
		for i, z := range w {
			o[i] = u(z)
		}
	}
}

// narrowFloat narrows widened floats and complex numbers (their real part
// unless the destination is complex). From float16 (half), a NaN goes to
// float32 bit for bit, as npy_half_to_float does (the hardware conversion
// from float64 would set a signaling NaN's quiet bit).
func narrowFloat(out []byte, w []complex128, to dtype.Dtype, half bool) {
	f32 := func(x float64) float32 { return float32(x) }
	if half {
		f32 = halfWideToFloat32
	}
	switch to.Kind {
	case 'i', 'u':
		narrowInts(out, w, to.Size, floatToInt(to))
	case 'f':
		switch to.Size {
		case 2:
			for i, z := range w {
				binary.LittleEndian.PutUint16(out[2*i:], dtype.Float64ToHalf(real(z)))
			}
		case 4:
			o := as[float32](out)
			for i, z := range w {
				o[i] = f32(real(z))
			}
		default:
			o := as[float64](out)
			for i, z := range w {
				o[i] = real(z)
			}
		}
	default:
		if to.Size == 8 {
			o := as[complex64](out)
			for i, z := range w {
				o[i] = complex(f32(real(z)), f32(imag(z)))
			}
		} else {
			copy(as[complex128](out), w)
		}
	}
}

// halfWideToFloat32 is float32(x) for x widened exactly from a float16,
// NaN payloads moved bit for bit.
func halfWideToFloat32(x float64) float32 {
	if x == x {
		return float32(x)
	}
	b := math.Float64bits(x)
	return math.Float32frombits(uint32(b>>32)&0x80000000 | 0x7f800000 | uint32(b>>29)&0x7fffff)
}

// floatToInt is the x86-64 conversion of a float to an integer of format
// to, as its 64 bits (cut to size by narrowInts).
func floatToInt(to dtype.Dtype) func(complex128) uint64 {
	switch {
	case to.Kind == 'u' && to.Size == 8:
		return func(z complex128) uint64 {
			x := real(z)
			if !(x >= 1<<63) { // NaN takes this branch, as comisd's unordered result does
				return uint64(cvtt64(x))
			}
			return uint64(cvtt64(x-(1<<63))) ^ 1<<63
		}
	case to.Size == 8 || to.Kind == 'u' && to.Size == 4:
		return func(z complex128) uint64 { return uint64(cvtt64(real(z))) }
	}
	return func(z complex128) uint64 { return uint64(int64(cvtt32(real(z)))) }
}

// cvtt32 and cvtt64 are cvttsd2si: x truncated toward zero, or the lowest
// integer ("integer indefinite") when that is out of range or x is NaN.
func cvtt32(x float64) int32 {
	if x > -(1<<31)-1 && x < 1<<31 {
		return int32(x)
	}
	return math.MinInt32
}

func cvtt64(x float64) int64 {
	if x >= -(1<<63) && x < 1<<63 {
		return int64(x)
	}
	return math.MinInt64
}

// number is the element types whose Go conversions directCast uses.
type number interface {
	integer | ~float32 | ~float64
}

// directCast returns the kernel for a pair of formats where Go's
// conversion of each element (of each part of a complex number) is
// exactly NumPy's cast: between integers (the low bits of the sign- or
// zero-extended value); from an integer to a float or a complex number's
// real part (rounded once, to nearest even); and between float32 and
// float64 parts (rounded to nearest even). A part keeps its type's bits:
// float32 to complex64 and back move NaN payloads untouched, as NumPy
// does, where a trip through float64 would quiet a signaling NaN. Real to
// complex gets a zero imaginary part; complex to real keeps the real
// part. float32 (and complex64's real part) to float16 is NumPy's
// npy_floatbits_to_halfbits of the bits (dtype.Float32ToHalf). nil for the
// rest: bool, float16, other floats to float16, and float or complex to integer
// (Go leaves out-of-range conversions to the implementation; cvtt32 and
// cvtt64 pin x86-64's).
func directCast(from, to dtype.Dtype) func(out, raw []byte) {
	if to.Kind == 'f' && to.Size == 2 && (from.Kind == 'f' && from.Size == 4 || from.Kind == 'c' && from.Size == 8) {
		step := from.Size / 4 // a complex64's real part
		return func(out, raw []byte) {
			fs := typed[uint32](raw)
			for i := range len(fs) / step {
				binary.LittleEndian.PutUint16(out[2*i:], dtype.Float32ToHalf(fs[i*step]))
			}
		}
	}
	fk, fromComplex := partKey(from)
	tk, toComplex := partKey(to)
	if fk == 0 || tk == 0 || fk>>4 == 'f' && tk>>4 != 'f' {
		return nil
	}
	var conv func(out, raw []byte, fromComplex, toComplex bool)
	switch fk {
	case 'i'<<4 | 1:
		conv = castFrom[int8](tk)
	case 'i'<<4 | 2:
		conv = castFrom[int16](tk)
	case 'i'<<4 | 4:
		conv = castFrom[int32](tk)
	case 'i'<<4 | 8:
		conv = castFrom[int64](tk)
	case 'u'<<4 | 1:
		conv = castFrom[uint8](tk)
	case 'u'<<4 | 2:
		conv = castFrom[uint16](tk)
	case 'u'<<4 | 4:
		conv = castFrom[uint32](tk)
	case 'u'<<4 | 8:
		conv = castFrom[uint64](tk)
	case 'f'<<4 | 4:
		conv = castFrom[float32](tk)
	case 'f'<<4 | 8:
		conv = castFrom[float64](tk)
	}
	return func(out, raw []byte) { conv(out, raw, fromComplex, toComplex) }
}

// castFrom is directCast's kernel from S to the part type of key tk.
func castFrom[S number](tk int) func(out, raw []byte, fromComplex, toComplex bool) {
	switch tk {
	case 'i'<<4 | 1:
		return convert[S, int8]
	case 'i'<<4 | 2:
		return convert[S, int16]
	case 'i'<<4 | 4:
		return convert[S, int32]
	case 'i'<<4 | 8:
		return convert[S, int64]
	case 'u'<<4 | 1:
		return convert[S, uint8]
	case 'u'<<4 | 2:
		return convert[S, uint16]
	case 'u'<<4 | 4:
		return convert[S, uint32]
	case 'u'<<4 | 8:
		return convert[S, uint64]
	case 'f'<<4 | 4:
		return convert[S, float32]
	}
	return convert[S, float64]
}

// partKey is kind<<4 | size of an integer format, of float32 and float64,
// and of a complex format's parts ('f'<<4 | 4 for complex64, with
// isComplex); 0 for bool and float16.
func partKey(f dtype.Dtype) (key int, isComplex bool) {
	switch {
	case f.Kind == 'i' || f.Kind == 'u' || f.Kind == 'f' && f.Size >= 4:
		return int(f.Kind)<<4 | f.Size, false
	case f.Kind == 'c':
		return 'f'<<4 | f.Size/2, true
	}
	return 0, false
}

// convert writes D(x) for each native S part of raw into out: part for
// part, or real parts only (complex to real), or real parts and zero
// imaginary ones (real to complex).
func convert[S, D number](out, raw []byte, fromComplex, toComplex bool) {
	src, dst := as[S](raw), as[D](out)
	switch {
	case fromComplex == toComplex:
		for i, x := range src {
			dst[i] = D(x)
		}
	case toComplex:
		for i, x := range src {
			dst[2*i], dst[2*i+1] = D(x), 0
		}
	default:
		for i := range dst {
			dst[i] = D(src[2*i])
		}
	}
}
