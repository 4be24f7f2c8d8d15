package ops

import (
	"math"
	"math/cmplx"

	"strider/internal/dtype"
)

// ndarr is an intermediate or final result of a reduction recipe: values
// in C order and native byte order, with the strides NumPy's array has
// (which decide how NumPy iterates it next, and whether numpy.save writes
// it in Fortran order).
type ndarr struct {
	d       dtype.Dtype
	shape   []int
	strides []int // NumPy's element strides
	data    []byte
	scalar  bool // NumPy hands back a scalar: arithmetic on it is scalar arithmetic
}

func (a ndarr) count() int { return Count(a.shape) }

// fortran reports whether numpy.save writes a in Fortran order.
func (a ndarr) fortran() bool {
	c, f := View{Elem: 1, Shape: a.shape, Strides: a.strides}.Contiguity()
	return f && !c
}

// writeC copies a's values (C order already) into dst.
func (a ndarr) writeC(dst []byte) { copy(dst, a.data) }

// alloc is count elements of dtype d, zeroed and 8-byte aligned.
func alloc(count int, d dtype.Dtype) []byte {
	var buf []uint64
	return bytesOf(&buf, count*d.Size)
}

// fromLayout returns NumPy-layout values acc (positions by strides) in C
// order.
func fromLayout(acc []byte, d dtype.Dtype, shape, strides []int) []byte {
	out := alloc(Count(shape), d)
	if len(acc) == 0 {
		return out
	}
	v := View{Elem: d.Size, Shape: shape, Strides: strides, Data: acc}
	if err := Copy(out, v, Options{Threads: 1}); err != nil {
		panic(err) // not reached: the layout is compact
	}
	return out
}

// wideAt is element i of a (C order) as a complex128: floats and complex
// numbers exactly, integers as float64 (for float arithmetic).
func (a ndarr) wideAt(i int) complex128 {
	return a.d.Complex(a.data[i*a.d.Size:])
}

// intAt is element i of an integer or bool array, sign- or zero-extended.
func (a ndarr) intAt(i int) uint64 { return a.d.Bits(a.data[i*a.d.Size:]) }

// setWide stores z, already rounded to a.d, as element i.
func (a ndarr) setWide(i int, z complex128) {
	b := a.data[i*a.d.Size:]
	switch a.d.Kind {
	case 'f':
		switch a.d.Size {
		case 2:
			putU16(b, dtype.Float64ToHalf(real(z)))
		case 4:
			putU32(b, math.Float32bits(float32(real(z))))
		default:
			putU64(b, math.Float64bits(real(z)))
		}
	case 'c':
		if a.d.Size == 8 {
			putU32(b, math.Float32bits(float32(real(z))))
			putU32(b[4:], math.Float32bits(float32(imag(z))))
		} else {
			putU64(b, math.Float64bits(real(z)))
			putU64(b[8:], math.Float64bits(imag(z)))
		}
	default:
		panic("setWide on " + a.d.Name())
	}
}

// setInt stores the low bits of u as element i.
func (a ndarr) setInt(i int, u uint64) {
	b := a.data[i*a.d.Size:]
	switch a.d.Size {
	case 1:
		b[0] = byte(u)
	case 2:
		putU16(b, uint16(u))
	case 4:
		putU32(b, uint32(u))
	default:
		putU64(b, u)
	}
}

func putU16(b []byte, u uint16) { b[0], b[1] = byte(u), byte(u>>8) }
func putU32(b []byte, u uint32) {
	putU16(b, uint16(u))
	putU16(b[2:], uint16(u>>16))
}
func putU64(b []byte, u uint64) {
	putU32(b, uint32(u))
	putU32(b[4:], uint32(u>>32))
}

// roundTo rounds a float64 (complex128) result of one operation to d, as
// NumPy's loop for d computes it: in d itself for float32 and float64
// (rounding the exact result once, which the wider float64 result then
// rounded gives too: 53 ≥ 2·24+2), in float for float16 (likewise).
func roundTo(d dtype.Dtype, z complex128) complex128 {
	switch {
	case d.Kind == 'f' && d.Size == 2:
		return complex(dtype.RoundHalf(real(z)), 0)
	case d.Kind == 'f' && d.Size == 4:
		return complex(float64(float32(real(z))), 0)
	case d.Kind == 'f':
		return complex(real(z), 0)
	case d.Size == 8:
		return complex(float64(float32(real(z))), float64(float32(imag(z))))
	}
	return z
}

// castValue is NumPy's cast of one value to dtype to, stored as element i
// of out: ops/cast.go's rules.
func castValue(out ndarr, i int, from dtype.Dtype, src []byte) {
	var wide []complex128
	castNative(out.data[i*out.d.Size:(i+1)*out.d.Size], src, from, out.d, &wide)
}

// castArr is a cast to d (np.<d>(a) or an unsafe out= cast), keeping the
// layout.
func castArr(a ndarr, d dtype.Dtype) ndarr {
	if a.d == d {
		return a
	}
	out := ndarr{d: d, shape: a.shape, strides: a.strides, scalar: a.scalar, data: alloc(a.count(), d)}
	if a.data == nil {
		return out
	}
	var wide []complex128
	castNative(out.data, a.data, a.d, d, &wide)
	return out
}

// fpFlags are the floating-point exceptions an elementwise operation
// raised, as NumPy turns them into warnings ("invalid value encountered
// in divide").
type fpFlags struct{ invalid, divide, overflow bool }

func (f fpFlags) or(g fpFlags) fpFlags {
	return fpFlags{f.invalid || g.invalid, f.divide || g.divide, f.overflow || g.overflow}
}

func (f fpFlags) warn(w *warnings, op string) {
	if f.divide {
		w.add("divide by zero encountered in " + op)
	}
	if f.overflow {
		w.add("overflow encountered in " + op)
	}
	if f.invalid {
		w.add("invalid value encountered in " + op)
	}
}

// divideWide is one element of np.true_divide in loop dtype l: x / y, x
// and y already cast to l (complex by NumPy's Smith's-method loop).
func divideWide(l dtype.Dtype, x, y complex128, f *fpFlags) complex128 {
	if l.Kind != 'c' {
		a, b := real(x), real(y)
		q := roundTo(l, complex(a/b, 0))
		switch {
		case b == 0 && a == 0 || math.IsInf(a, 0) && math.IsInf(b, 0):
			f.invalid = f.invalid || a == a
		case b == 0 && isFinite(a):
			f.divide = true
		case isFinite(a) && isFinite(b) && math.IsInf(real(q), 0):
			f.overflow = true
		}
		return q
	}
	part := dtype.RealOf(l)
	// op rounds one operation's result to the part type, flagging it.
	op := func(a, b, v float64) float64 {
		v = real(roundTo(part, complex(v, 0)))
		flagOp(f, a, b, v)
		return v
	}
	in1r, in1i, in2r, in2i := real(x), imag(x), real(y), imag(y)
	ar, ai := math.Abs(in2r), math.Abs(in2i)
	if ar >= ai {
		if ar == 0 && ai == 0 {
			// divide by zero should yield a complex inf or nan
			re, im := in1r/ar, in1i/ar
			for _, p := range [][2]float64{{in1r, re}, {in1i, im}} {
				switch {
				case p[0] == 0:
					f.invalid = true
				case isFinite(p[0]):
					f.divide = true
				}
			}
			// Infinities and NaNs only, flagged above (no overflow).
			return complex(real(roundTo(part, complex(re, 0))), real(roundTo(part, complex(im, 0))))
		}
		rat := op(in2i, in2r, in2i/in2r)
		t := op(in2i, rat, in2i*rat)
		scl := op(1, 0, 1/op(in2r, t, in2r+t))
		u := op(in1i, rat, in1i*rat)
		v := op(in1r, u, in1r+u)
		w := op(in1r, rat, in1r*rat)
		z := op(in1i, w, in1i-w)
		return complex(op(v, scl, v*scl), op(z, scl, z*scl))
	}
	rat := op(in2r, in2i, in2r/in2i)
	t := op(in2r, rat, in2r*rat)
	scl := op(1, 0, 1/op(in2i, t, in2i+t))
	u := op(in1r, rat, in1r*rat)
	v := op(u, in1i, u+in1i)
	w := op(in1i, rat, in1i*rat)
	z := op(w, in1r, w-in1r)
	return complex(op(v, scl, v*scl), op(z, scl, z*scl))
}

// csqrt is glibc's csqrt, which npy_csqrt calls: cmplx.Sqrt but for the
// parts that are not finite (C99 Annex G; glibc's NaN is the positive
// quiet one): NaN+NaNi where a NaN part meets a part that is not an
// infinity (cmplx.Sqrt gives NaN+0i for NaN+0i).
func csqrt(z complex128) complex128 {
	re, im := real(z), imag(z)
	nan := math.Float64frombits(0x7ff8000000000000)
	switch {
	case math.IsInf(im, 0):
		return complex(math.Inf(1), im)
	case math.IsInf(re, -1) && math.IsNaN(im):
		return complex(nan, math.Inf(1))
	case math.IsInf(re, 1) && math.IsNaN(im):
		return complex(re, nan)
	case math.IsNaN(re) || math.IsNaN(im):
		return complex(nan, nan)
	}
	return cmplx.Sqrt(z)
}

// divideCount is a / n for NumPy's array a and an integer count: loop
// dtype l, the count cast to it, the result cast to dtype to (out=a,
// casting='unsafe': a's own dtype). counts gives one count per element (C
// order), else n serves all.
func divideCount(a ndarr, l, to dtype.Dtype, n int64, counts []int64, w *warnings, warnOp string) ndarr {
	out := ndarr{d: to, shape: a.shape, strides: a.strides, scalar: a.scalar, data: alloc(a.count(), to)}
	if a.data == nil {
		return out
	}
	tmp := ndarr{d: l, shape: a.shape, data: alloc(a.count(), l)}
	var f fpFlags
	var wide []complex128
	one := alloc(1, l)
	cnt := alloc(1, l)
	var nb [8]byte
	for i := 0; i < a.count(); i++ {
		c := n
		if counts != nil {
			c = counts[i]
		}
		putU64(nb[:], uint64(c))
		castNative(cnt, nb[:], dtype.Int64, l, &wide)
		castFlags(cnt, nb[:], dtype.Int64, l, &f)
		castNative(one, a.data[i*a.d.Size:(i+1)*a.d.Size], a.d, l, &wide)
		castFlags(one, a.data[i*a.d.Size:(i+1)*a.d.Size], a.d, l, &f)
		x := l.Complex(one)
		y := l.Complex(cnt)
		tmp.setWide(i, divideWide(l, x, y, &f))
	}
	// An array's division is true_divide(a, n, out=a, casting='unsafe'):
	// the cast into out= happens inside the ufunc, whose one check of the
	// floating-point flags names them all "divide" (NumPy 1.24: 0/0 into
	// an int64 out= warns "invalid value encountered in divide" alone). A
	// scalar's is a.dtype.type(a / n): the conversion warns apart, after
	// the division, as "cast".
	var cf fpFlags
	castNative(out.data, tmp.data, l, to, &wide)
	castFlags(out.data, tmp.data, l, to, &cf)
	if !a.scalar {
		f = f.or(cf)
		cf = fpFlags{}
	}
	f.warn(w, warnOp)
	cf.warn(w, "cast")
	return out
}

// sqrtLoop is the dtype np.sqrt computes an integer or bool input in: the
// smallest float that holds it (float16 for one byte, float32 for two,
// float64 beyond).
func sqrtLoop(d dtype.Dtype) dtype.Dtype {
	switch {
	case d.Kind == 'f' || d.Kind == 'c':
		return dtype.NativeOf(d)
	case d.Size == 1:
		return dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}
	case d.Size == 2:
		return dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}
	}
	return dtype.Float64
}

// sqrtArr is np.sqrt of std's variance in its dtype: um.sqrt(ret,
// out=ret) for an array (refused, as NumPy's same_kind output casting
// refuses, for an integer or bool one), ret.dtype.type(um.sqrt(ret)) for a
// scalar. Floats and complex numbers in their own dtype (float16 through
// float, complex by csqrt); warnings as NumPy gives them.
func sqrtArr(a ndarr, w *warnings) (ndarr, error) {
	l := sqrtLoop(a.d)
	if l.Kind != a.d.Kind && !a.scalar {
		return ndarr{}, refuse("Cannot cast ufunc 'sqrt' output from dtype('%s') to dtype('%s') with casting rule 'same_kind'", l.Name(), a.d.Name())
	}
	out := ndarr{d: a.d, shape: a.shape, strides: a.strides, scalar: a.scalar, data: alloc(a.count(), a.d)}
	if a.data == nil {
		return out, nil
	}
	in := castArr(a, l)
	tmp := ndarr{d: l, shape: a.shape, strides: a.strides, scalar: a.scalar, data: alloc(a.count(), l)}
	var f fpFlags
	for i := 0; i < a.count(); i++ {
		z := in.wideAt(i)
		if l.Kind == 'c' {
			tmp.setWide(i, roundTo(l, csqrt(z)))
			continue
		}
		f.invalid = f.invalid || real(z) < 0
		tmp.setWide(i, roundTo(l, complex(math.Sqrt(real(z)), 0)))
	}
	f.warn(w, "sqrt")
	if l == a.d {
		return tmp, nil
	}
	var cf fpFlags
	var wide []complex128
	castNative(out.data, tmp.data, l, a.d, &wide)
	castFlags(out.data, tmp.data, l, a.d, &cf)
	cf.warn(w, "cast")
	return out, nil
}
