package ops

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/cmplx"
	"math/rand"
	"slices"
	"testing"

	"strider/internal/dtype"
)

func TestCompareHalfToFloat64(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		sign := 1.0
		if h>>15 != 0 {
			sign = -1
		}
		e, m := (h>>10)&0x1f, h&0x3ff
		var want float64
		switch {
		case e == 0:
			want = sign * float64(m) / 1024 * math.Pow(2, -14)
		case e == 31 && m == 0:
			want = math.Inf(int(sign))
		case e == 31:
			want = math.NaN()
		default:
			want = sign * (1 + float64(m)/1024) * math.Pow(2, float64(e-15))
		}
		got := dtype.HalfToFloat64(uint16(h))
		if math.IsNaN(want) {
			if !math.IsNaN(got) || math.Float64bits(got)>>42&0x3ff != uint64(m) {
				t.Fatalf("%#04x: %v (payload %#x), want NaN with payload %#x", h, got, math.Float64bits(got)>>42&0x3ff, m)
			}
			continue
		}
		if got != want || math.Signbit(got) != (sign < 0) {
			t.Fatalf("%#04x: %v, want %v", h, got, want)
		}
	}
}

func TestCompareDecode(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, bigEnd := range []bool{false, true} {
		var o binary.ByteOrder = binary.LittleEndian
		if bigEnd {
			o = binary.BigEndian
		}
		for _, size := range []int{1, 2, 4, 8} {
			for i := 0; i < 1000; i++ {
				u := r.Uint64()
				if i < 4 {
					u = []uint64{0, 1, math.MaxUint64, 1 << 63}[i]
				}
				b := make([]byte, 8)
				switch size {
				case 1:
					b[0] = byte(u)
				case 2:
					o.PutUint16(b, uint16(u))
				case 4:
					o.PutUint32(b, uint32(u))
				case 8:
					o.PutUint64(b, u)
				}
				b = b[:size]
				shift := 64 - 8*uint(size)
				su := u << shift >> shift
				ss := int64(u<<shift) >> shift
				if neg, m := (dtype.Dtype{Kind: 'u', Size: size, Order: endian(bigEnd)}).Int(b); neg || m != su {
					t.Fatalf("u%d %x: %v %d, want %d", size, b, neg, m, su)
				}
				neg, m := (dtype.Dtype{Kind: 'i', Size: size, Order: endian(bigEnd)}).Int(b)
				got := new(big.Int).SetUint64(m)
				if neg {
					got.Neg(got)
				}
				if got.Cmp(new(big.Int).SetInt64(ss)) != 0 {
					t.Fatalf("i%d %x: %v, want %d", size, b, got, ss)
				}
				if f := (dtype.Dtype{Kind: 'i', Size: size, Order: endian(bigEnd)}).Float(b); f != float64(ss) {
					t.Fatalf("i%d %x: float %v, want %v", size, b, f, float64(ss))
				}
			}
		}
		for i := 0; i < 1000; i++ {
			x := r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
			b4, b8 := make([]byte, 4), make([]byte, 16)
			o.PutUint32(b4, math.Float32bits(float32(x)))
			o.PutUint64(b8, math.Float64bits(x))
			o.PutUint64(b8[8:], math.Float64bits(-x))
			if got := (dtype.Dtype{Kind: 'f', Size: 4, Order: endian(bigEnd)}).Float(b4); got != float64(float32(x)) {
				t.Fatalf("f4: %v, want %v", got, float32(x))
			}
			if got := (dtype.Dtype{Kind: 'f', Size: 8, Order: endian(bigEnd)}).Float(b8); got != x {
				t.Fatalf("f8: %v, want %v", got, x)
			}
			if got := (dtype.Dtype{Kind: 'c', Size: 16, Order: endian(bigEnd)}).Complex(b8); got != complex(x, -x) {
				t.Fatalf("c16: %v, want %v", got, complex(x, -x))
			}
		}
	}
}

// encode writes values (float64, complex128, int64 or uint64 as the format
// needs) into a contiguous array of format f.
func encode(f dtype.Dtype, vals []any) []byte {
	out := make([]byte, len(vals)*f.Size)
	var o binary.ByteOrder = binary.LittleEndian
	if f.BigEndian() {
		o = binary.BigEndian
	}
	put := func(b []byte, size int, u uint64) {
		switch size {
		case 1:
			b[0] = byte(u)
		case 2:
			o.PutUint16(b, uint16(u))
		case 4:
			o.PutUint32(b, uint32(u))
		case 8:
			o.PutUint64(b, u)
		}
	}
	putFloat := func(b []byte, size int, x float64) {
		switch size {
		case 2:
			put(b, 2, uint64(float64ToHalf(x)))
		case 4:
			put(b, 4, uint64(math.Float32bits(float32(x))))
		case 8:
			put(b, 8, math.Float64bits(x))
		}
	}
	for i, v := range vals {
		b := out[i*f.Size : (i+1)*f.Size]
		switch f.Kind {
		case 'b', 'i', 'u':
			switch x := v.(type) {
			case int64:
				put(b, f.Size, uint64(x))
			case uint64:
				put(b, f.Size, x)
			case bool:
				if x {
					b[0] = 1
				}
			}
		case 'f':
			putFloat(b, f.Size, v.(float64))
		case 'c':
			z := v.(complex128)
			putFloat(b, f.Size/2, real(z))
			putFloat(b[f.Size/2:], f.Size/2, imag(z))
		}
	}
	return out
}

// float64ToHalf rounds x to the nearest binary16 (ties to even) by search:
// slow, simple and independent of the decoder's arithmetic.
func float64ToHalf(x float64) uint16 {
	if math.IsNaN(x) {
		return 0x7e00
	}
	if h, ok := halfMemo[x]; ok {
		return h
	}
	h := float64ToHalfSearch(x)
	halfMemo[x] = h
	return h
}

var halfMemo = map[float64]uint16{}

func float64ToHalfSearch(x float64) uint16 {
	best, bestErr := uint16(0), math.Inf(1)
	for h := 0; h < 1<<16; h++ {
		v := dtype.HalfToFloat64(uint16(h))
		if math.IsNaN(v) || math.Signbit(v) != math.Signbit(x) {
			continue
		}
		if e := math.Abs(v - x); e < bestErr || e == bestErr && h&1 == 0 {
			best, bestErr = uint16(h), e
		}
	}
	return best
}

func TestCompareNumPy(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	f4 := dtype.Dtype{Kind: 'f', Size: 4}
	u1 := dtype.Dtype{Kind: 'u', Size: 1}
	i8 := dtype.Dtype{Kind: 'i', Size: 8}
	u8 := dtype.Dtype{Kind: 'u', Size: 8}
	c16 := dtype.Dtype{Kind: 'c', Size: 16}
	b1 := dtype.Dtype{Kind: 'b', Size: 1}
	nan, inf := math.NaN(), math.Inf(1)
	def := Tolerance{RTol: 1e-7, EqualNaN: true}
	cases := []struct {
		name     string
		fa       dtype.Dtype
		a        []any
		fd       dtype.Dtype
		d        []any
		tol      Tolerance
		mismatch int
		maxAbs   Diff
		maxRel   float64
		worst    int
	}{
		// The numbers NumPy 1.24's assert_allclose message shows (as text,
		// in package text's TestFormatAllCloseNumbers).
		{"f8", f8, []any{1.0, 2.0, 3.0}, f8, []any{1.0, 2.0, 4.0}, def, 1, Diff{Float: 1}, 0.25, 2},
		{"u1", u1, []any{uint64(1), uint64(2), uint64(3)}, u1, []any{uint64(3), uint64(2), uint64(1)}, def, 2, Diff{Exact: true, Lo: 2}, 2, 0},
		{"f4", f4, []any{1.5, 2.0, 3e-9}, f4, []any{1.0, 2.0, 1e-9}, def, 2, Diff{Float: 0.5}, 2.0000001110223056, 0}, // NumPy, in float32: 2.0000002
		{"c16-i8", c16, []any{1 + 1i, complex(2, 0)}, i8, []any{int64(1), int64(2)}, def, 1, Diff{Float: 1}, 1, 0},
		{"zero-desired", f8, []any{1.0, 2.0}, f8, []any{0.0, 0.0}, def, 2, Diff{Float: 2}, inf, 1},
		{"nan-nan-strict", f8, []any{nan}, f8, []any{nan}, Tolerance{RTol: 1e-7}, 1, Diff{Float: nan}, nan, 0},
		{"nan-nan", f8, []any{nan, 1.0}, f8, []any{nan, 1.0}, def, 0, Diff{}, 0, -1},
		{"u8-i8", u8, []any{uint64(math.MaxUint64)}, i8, []any{int64(-1)}, def, 1, Diff{Exact: true, Hi: 1}, 0x1p64, 0},
		{"i8-exact", i8, []any{int64(1<<53 + 1)}, i8, []any{int64(1 << 53)}, Tolerance{EqualNaN: true}, 1, Diff{Exact: true, Lo: 1}, 0x1p-53, 0},
		{"i8-min", i8, []any{int64(math.MinInt64)}, u8, []any{uint64(math.MaxUint64)}, def, 1, Diff{Exact: true, Hi: 1, Lo: 1<<63 - 1}, 1.5, 0},
		{"atol", f8, []any{1e-5, 3.0}, f8, []any{3.5e-5, 3.0}, Tolerance{RTol: 1e-3, ATol: 1e-9, EqualNaN: true}, 1, Diff{Float: 2.4999999999999998e-05}, 0.7142857142857143, 0}, // float64(3.5e-5) - float64(1e-5)
		{"inf", f8, []any{inf, -inf, 1.0}, f8, []any{inf, -inf, 1.0}, def, 0, Diff{}, 0, -1},
		{"inf-location", f8, []any{inf, 1.0}, f8, []any{1.0, 1.0}, def, 1, Diff{Float: inf}, inf, 0},
		{"bool", b1, []any{true, false}, b1, []any{true, true}, def, 1, Diff{Exact: true, Lo: 1}, 1, 1},
		{"complex-inf", c16, []any{complex(inf, 1)}, c16, []any{complex(inf, 1)}, def, 0, Diff{Float: nan}, nan, -1},
		{"rtol", f8, []any{100.0, 100.0}, f8, []any{100.5, 101.0}, Tolerance{RTol: 0.005, EqualNaN: true}, 1, Diff{Float: 1}, 0.009900990099009901, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := Contiguous(c.fa.Size, []int{len(c.a)}, encode(c.fa, c.a))
			d := Contiguous(c.fd.Size, []int{len(c.d)}, encode(c.fd, c.d))
			res, err := AllClose(a, c.fa, d, c.fd, c.tol, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Mismatched != c.mismatch || res.Worst != c.worst {
				t.Fatalf("mismatched %d worst %d, want %d %d", res.Mismatched, res.Worst, c.mismatch, c.worst)
			}
			same := func(x, y float64) bool { return x == y || x != x && y != y }
			if res.Mismatched > 0 && (res.MaxAbs.Exact != c.maxAbs.Exact || res.MaxAbs.Hi != c.maxAbs.Hi ||
				res.MaxAbs.Lo != c.maxAbs.Lo || !same(res.MaxAbs.Float, c.maxAbs.Float) || !same(res.MaxRel, c.maxRel)) {
				t.Fatalf("max abs %+v rel %v, want %+v %v", res.MaxAbs, res.MaxRel, c.maxAbs, c.maxRel)
			}
		})
	}
}

// naiveClose is the oracle for one element pair: assert_allclose's rules
// in big.Float arithmetic for integers, float64 or complex128 otherwise.
func naiveClose(fa dtype.Dtype, ea []byte, fd dtype.Dtype, ed []byte, tol Tolerance) bool {
	isInt := func(k byte) bool { return k == 'b' || k == 'i' || k == 'u' }
	if isInt(fa.Kind) && isInt(fd.Kind) {
		val := func(f dtype.Dtype, b []byte) *big.Float {
			neg, m := f.Int(b)
			v := new(big.Float).SetPrec(200).SetUint64(m)
			if neg {
				v.Neg(v)
			}
			return v
		}
		x, y := val(fa, ea), val(fd, ed)
		diff := new(big.Float).SetPrec(200).Sub(x, y)
		diff.Abs(diff)
		ay := new(big.Float).SetPrec(200).Abs(y)
		yf, _ := ay.Float64()
		thr := new(big.Float).SetPrec(200).SetFloat64(tol.ATol + tol.RTol*yf)
		return diff.Cmp(thr) <= 0
	}
	x, y := fa.Complex(ea), fd.Complex(ed)
	nanx := math.IsNaN(real(x)) || math.IsNaN(imag(x))
	nany := math.IsNaN(real(y)) || math.IsNaN(imag(y))
	if nanx || nany {
		return tol.EqualNaN && nanx && nany
	}
	finite := func(z complex128) bool { return !math.IsInf(real(z), 0) && !math.IsInf(imag(z), 0) }
	if !finite(x) || !finite(y) {
		return x == y
	}
	if fa.Kind != 'c' && fd.Kind != 'c' {
		return math.Abs(real(x)-real(y)) <= tol.ATol+tol.RTol*math.Abs(real(y))
	}
	return cmplx.Abs(x-y) <= tol.ATol+tol.RTol*cmplx.Abs(y)
}

var allFormats = func() []dtype.Dtype {
	var fs []dtype.Dtype
	for _, be := range []bool{false, true} {
		fs = append(fs, dtype.Dtype{Kind: 'b', Size: 1}, dtype.Dtype{Kind: 'i', Size: 1}, dtype.Dtype{Kind: 'u', Size: 1})
		for _, s := range []int{2, 4, 8} {
			fs = append(fs, dtype.Dtype{Kind: 'i', Size: s, Order: endian(be)}, dtype.Dtype{Kind: 'u', Size: s, Order: endian(be)})
		}
		for _, s := range []int{2, 4, 8} {
			fs = append(fs, dtype.Dtype{Kind: 'f', Size: s, Order: endian(be)})
		}
		fs = append(fs, dtype.Dtype{Kind: 'c', Size: 8, Order: endian(be)}, dtype.Dtype{Kind: 'c', Size: 16, Order: endian(be)})
	}
	return fs
}()

// randomBytes fills an array of format f with values that collide often:
// small integers, extremes, NaN, infinities and close floats.
func randomBytes(r *rand.Rand, f dtype.Dtype, n int) []byte {
	b := make([]byte, n*f.Size)
	for i := 0; i < n; i++ {
		e := b[i*f.Size : (i+1)*f.Size]
		if f.Kind == 'f' || f.Kind == 'c' {
			vals := make([]any, 1)
			pick := func() float64 {
				switch r.Intn(10) {
				case 0:
					return math.NaN()
				case 1:
					return math.Inf(1 - 2*r.Intn(2))
				case 2:
					return 0
				case 3:
					return 1 + 1e-8*float64(r.Intn(3))
				}
				return float64(r.Intn(5)) + []float64{0, 1e-7, 0.5}[r.Intn(3)]
			}
			if f.Kind == 'f' {
				vals[0] = pick()
			} else {
				vals[0] = complex(pick(), pick())
			}
			copy(e, encode(f, vals))
			continue
		}
		switch r.Intn(3) {
		case 0:
			r.Read(e)
		default:
			copy(e, encode(f, []any{int64(r.Intn(5) - 1)}))
		}
		if f.Kind == 'b' {
			e[0] &= 1
		}
	}
	return b
}

func TestCompareOracle(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for c := 0; c < 600; c++ {
		fa, fd := allFormats[r.Intn(len(allFormats))], allFormats[r.Intn(len(allFormats))]
		shape := []int{1 + r.Intn(7), 1 + r.Intn(9)}
		if c%40 == 0 {
			shape = []int{37, 1201} // several chunks, runs longer than a batch
		}
		n := Count(shape)
		a := Contiguous(fa.Size, shape, randomBytes(r, fa, n))
		d := Contiguous(fd.Size, shape, randomBytes(r, fd, n))
		if r.Intn(2) == 0 {
			// d in Fortran order: the same logical values, other storage.
			fdata := make([]byte, len(d.Data))
			fv := View{Elem: fd.Size, Shape: shape, Strides: FStrides(shape), Data: fdata}
			for i := 0; i < n; i++ {
				idx := Unravel(i, shape)
				copy(fdata[(idx[0]*fv.Strides[0]+idx[1]*fv.Strides[1])*fd.Size:], d.Data[i*fd.Size:(i+1)*fd.Size])
			}
			d = fv
		}
		tol := Tolerance{RTol: []float64{1e-7, 0, 0.1}[r.Intn(3)], ATol: []float64{0, 1e-8, 1}[r.Intn(3)], EqualNaN: r.Intn(2) == 0, Show: r.Intn(12)}
		name := fmt.Sprintf("%d/%c%d%v-%c%d%v/%+v", c, fa.Kind, fa.Size, fa.BigEndian(), fd.Kind, fd.Size, fd.BigEndian(), tol)
		t.Run(name, func(t *testing.T) {
			res, err := AllClose(a, fa, d, fd, tol, Options{Threads: 1 + r.Intn(3)})
			if err != nil {
				t.Fatal(err)
			}
			want, worstWant := 0, -1
			var first []int
			nans, infs := 0, 0
			for i := 0; i < n; i++ {
				idx := Unravel(i, shape)
				ea := a.Data[i*fa.Size : (i+1)*fa.Size]
				off := idx[0]*d.Strides[0] + idx[1]*d.Strides[1]
				ed := d.Data[off*fd.Size : (off+1)*fd.Size]
				if !naiveClose(fa, ea, fd, ed, tol) {
					if len(first) < tol.Show {
						first = append(first, i)
					}
					x, y := fa.Complex(ea), fd.Complex(ed)
					switch {
					case isNaNParts(x) || isNaNParts(y):
						nans++
					case cmplx.IsInf(x) || cmplx.IsInf(y):
						infs++
					}
					want++
					if worstWant < 0 {
						worstWant = i
					}
				}
			}
			if res.Mismatched != want || res.Total != n {
				t.Fatalf("mismatched %d of %d, want %d of %d", res.Mismatched, res.Total, want, n)
			}
			if (res.Worst < 0) != (worstWant < 0) {
				t.Fatalf("worst %d, want one iff mismatches", res.Worst)
			}
			if fmt.Sprint(res.First) != fmt.Sprint(first) || res.NaNMismatched != nans || res.InfMismatched != infs {
				t.Fatalf("first %v, %d NaN and %d inf mismatches; want %v, %d, %d", res.First, res.NaNMismatched, res.InfMismatched, first, nans, infs)
			}
		})
	}
}

func TestCompareThreads(t *testing.T) {
	// Above the parallel threshold, threads must not change the result.
	r := rand.New(rand.NewSource(4))
	f := dtype.Dtype{Kind: 'f', Size: 8}
	shape := []int{300, 257}
	a := Contiguous(8, shape, randomBytes(r, f, Count(shape)))
	d := Contiguous(8, shape, randomBytes(r, f, Count(shape)))
	tol := Tolerance{RTol: 1e-7, EqualNaN: true, Show: 9}
	one, err := AllClose(a, f, d, f, tol, Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, th := range []int{2, 3, 8} {
		got, err := AllClose(a, f, d, f, tol, Options{Threads: th})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", one) {
			t.Fatalf("threads %d: %+v, want %+v", th, got, one)
		}
	}
}

func TestCompareBroadcastTo(t *testing.T) {
	s := Contiguous(8, []int{}, encode(dtype.Dtype{Kind: 'f', Size: 8}, []any{2.0}))
	v, err := BroadcastTo(s, []int{2, 3})
	if err != nil || fmt.Sprint(v.Shape, v.Strides) != "[2 3] [0 0]" {
		t.Fatalf("%v %v %v", v.Shape, v.Strides, err)
	}
	if _, err := BroadcastTo(Contiguous(8, []int{1}, make([]byte, 8)), []int{3}); err == nil {
		t.Fatal("(1,) broadcast to (3,): assert_allclose refuses it")
	}
}

func TestCompareExact(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for c := 0; c < 300; c++ {
		elem := []int{1, 2, 3, 4, 8, 16}[r.Intn(6)]
		nd := r.Intn(4)
		shape := make([]int, nd)
		for k := range shape {
			shape[k] = r.Intn(6)
		}
		if c%50 == 0 {
			shape = []int{70, 40, 33} // over the parallel threshold
		}
		n := Count(shape)
		logical := make([]byte, n*elem)
		r.Read(logical)
		other := append([]byte{}, logical...)
		want, first := 0, -1
		for i := 0; i < n; i++ {
			if r.Intn(5) == 0 {
				other[i*elem+r.Intn(elem)] ^= byte(1 + r.Intn(255))
				want++
				if first < 0 {
					first = i
				}
			}
		}
		store := func(data []byte, fortran bool) View {
			if !fortran {
				return Contiguous(elem, shape, data)
			}
			v := View{Elem: elem, Shape: shape, Strides: FStrides(shape), Data: make([]byte, len(data))}
			for i := 0; i < n; i++ {
				off := 0
				for k, x := range Unravel(i, shape) {
					off += x * v.Strides[k]
				}
				copy(v.Data[off*elem:(off+1)*elem], data[i*elem:(i+1)*elem])
			}
			return v
		}
		fa, fb := r.Intn(2) == 0, r.Intn(2) == 0
		a, b := store(logical, fa), store(other, fb)
		t.Run(fmt.Sprintf("%d/%v/e%d/%v-%v", c, shape, elem, fa, fb), func(t *testing.T) {
			count, f, err := ExactDiff(a, b, Options{Threads: 1 + r.Intn(4)})
			if err != nil {
				t.Fatal(err)
			}
			if count != want || f != first {
				t.Fatalf("%d differ, first %d; want %d, %d", count, f, want, first)
			}
		})
	}
}

func BenchmarkCompareExact(b *testing.B) {
	shape := []int{2048, 2048}
	n := Count(shape)
	data := make([]byte, n*4)
	rand.New(rand.NewSource(1)).Read(data)
	c := Contiguous(4, shape, data)
	c2 := Contiguous(4, shape, append([]byte{}, data...))
	// f is data in Fortran order; ct the same logical array in C order.
	f := View{Elem: 4, Shape: shape, Strides: FStrides(shape), Data: data}
	ct := Contiguous(4, shape, make([]byte, len(data)))
	if err := Copy(ct.Data, f, Options{}); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		x, y View
	}{{"same-layout", c, c2}, {"c-vs-f", ct, f}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(2 * len(data)))
			for i := 0; i < b.N; i++ {
				if _, _, err := ExactDiff(bc.x, bc.y, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompareAllClose compares 1M float32 pairs, equal and all
// different (a relative change of about 1e-6 against rtol 1e-7), on one
// thread, with the batch kernel and pair by pair.
func BenchmarkCompareAllClose(b *testing.B) {
	shape := []int{1024, 1024}
	n := Count(shape)
	f := dtype.Dtype{Kind: 'f', Size: 4}
	r := rand.New(rand.NewSource(7))
	data, other := make([]byte, n*4), make([]byte, n*4)
	for i := 0; i < n; i++ {
		x := r.Float32()
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(x))
		binary.LittleEndian.PutUint32(other[4*i:], math.Float32bits(x*(1+1e-6*float32(r.NormFloat64()))))
	}
	v, w := Contiguous(4, shape, data), Contiguous(4, shape, other)
	pairwise := defaultTuning()
	pairwise.pairwiseCompare = true
	for _, c := range []struct {
		name string
		d    View
	}{{"equal", v}, {"different", w}} {
		for _, k := range []struct {
			name string
			tune *tuning
		}{{"batch", nil}, {"pairwise", &pairwise}} {
			b.Run(c.name+"/"+k.name, func(b *testing.B) {
				b.SetBytes(int64(2 * len(data)))
				done := cpuTime(b)
				for b.Loop() {
					if _, err := AllClose(v, f, c.d, f, Tolerance{RTol: 1e-7, EqualNaN: true}, Options{Threads: 1, tune: k.tune}); err != nil {
						b.Fatal(err)
					}
				}
				done()
			})
		}
	}
}

// BenchmarkCompareDecode compares arrays of each integer and float dtype,
// in both byte orders, with themselves (the int64 decoders) and with a
// float64 array (the float64 decoders), on one thread.
func BenchmarkCompareDecode(b *testing.B) {
	shape := []int{256, 1024}
	n := Count(shape)
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	other := Contiguous(8, shape, make([]byte, 8*n))
	for _, d := range []dtype.Dtype{{Kind: 'b', Size: 1}, {Kind: 'i', Size: 1}, {Kind: 'i', Size: 2, Order: '>'}, {Kind: 'u', Size: 4},
		{Kind: 'i', Size: 8}, {Kind: 'f', Size: 2}, {Kind: 'f', Size: 4, Order: '>'}, {Kind: 'f', Size: 8}} {
		data := make([]byte, n*d.Size)
		rand.New(rand.NewSource(2)).Read(data)
		if d.Kind == 'b' {
			for i := range data {
				data[i] &= 1
			}
		}
		v := Contiguous(d.Size, shape, data)
		for _, c := range []struct {
			name string
			y    View
			fy   dtype.Dtype
		}{{"self", v, d}, {"vs-f8", other, f8}} {
			b.Run(d.Descr()+"/"+c.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				done := cpuTime(b)
				for b.Loop() {
					if _, err := AllClose(v, d, c.y, c.fy, Tolerance{RTol: 1e-7, EqualNaN: true}, Options{Threads: 1}); err != nil {
						b.Fatal(err)
					}
				}
				done()
			})
		}
	}
}

// TestMergeAxes checks mergeAxes (coalesce under two stride lists) against
// the forward merge written out: drop size-1 axes, fold an axis into the
// previous one when both strides of the previous are n times its own.
func TestMergeAxes(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 5000; i++ {
		nd := r.Intn(6)
		shape, sa, sd := make([]int, nd), make([]int, nd), make([]int, nd)
		for k := range shape {
			shape[k] = 1 + r.Intn(4)
			sa[k], sd[k] = r.Intn(7)-2, r.Intn(7)-2
		}
		if r.Intn(2) == 0 {
			copy(sa, CStrides(shape))
		}
		if r.Intn(2) == 0 {
			copy(sd, CStrides(shape))
		}
		var ws, wa, wd []int
		for k, n := range shape {
			if n == 1 {
				continue
			}
			if m := len(ws); m > 0 && wa[m-1] == n*sa[k] && wd[m-1] == n*sd[k] {
				ws[m-1] *= n
				wa[m-1], wd[m-1] = sa[k], sd[k]
				continue
			}
			ws, wa, wd = append(ws, n), append(wa, sa[k]), append(wd, sd[k])
		}
		gs, ga, gd := mergeAxes(shape, sa, sd)
		if !slices.Equal(gs, ws) || !slices.Equal(ga, wa) || !slices.Equal(gd, wd) {
			t.Fatalf("%v %v %v: got %v %v %v, want %v %v %v", shape, sa, sd, gs, ga, gd, ws, wa, wd)
		}
	}
}

// TestCompareBatchKernel checks the batch kernels of native float pairs
// (foldFinite) against the pair-by-pair fold they stand for: the whole
// Comparison must be the same, over batches that are all finite, batches
// with a NaN or an infinity on either side, strided and broadcast views,
// ties for the worst element and short lists of first mismatches.
func TestCompareBatchKernel(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	pairwise := defaultTuning()
	pairwise.pairwiseCompare = true
	goOnly := defaultTuning()
	goOnly.simd = simdNone
	f4, f8 := dtype.Dtype{Kind: 'f', Size: 4}, dtype.Dtype{Kind: 'f', Size: 8}
	for c := 0; c < 400; c++ {
		fa, fd := []dtype.Dtype{f4, f8}[r.Intn(2)], []dtype.Dtype{f4, f8}[r.Intn(2)]
		shape := []int{1 + r.Intn(40), 1 + r.Intn(700)}
		if c%50 == 0 {
			shape = []int{129, 1031} // several chunks of the parallel split
		}
		n := Count(shape)
		special := []float64{0, 1e-4, 0.02}[r.Intn(3)] // the share of NaNs and infinities
		scale := []float64{1, 1e300}[r.Intn(2)]        // 1e300: float64 overflows to infinite differences
		values := func(f dtype.Dtype, base []float64) []byte {
			vals := make([]any, n)
			for i := range vals {
				v := base[i]
				switch p := r.Float64(); {
				case p < special/2:
					v = math.NaN()
				case p < special:
					v = math.Inf(1 - 2*r.Intn(2))
				case p < 0.3:
					// unchanged: a close pair, or a tie of the worst
				case p < 0.5:
					v += 1e-7 * v * float64(r.Intn(3)-1)
				case p < 0.6:
					v = -v
				case p < 0.75: // differences of 1 or 2 exactly: ties for the worst
					v += float64(1 + r.Intn(2))
				default:
					v += []float64{1e-3, 1e-9, scale}[r.Intn(3)] * (r.Float64() - 0.5)
				}
				if f.Size == 4 {
					v = float64(float32(v))
				}
				vals[i] = v
			}
			return encode(f, vals)
		}
		base := make([]float64, n)
		for i := range base {
			base[i] = float64(r.Intn(9)-4) + []float64{0, 0.5, 1e-3}[r.Intn(3)]
			if r.Intn(20) == 0 {
				base[i] = 0
			}
		}
		a := Contiguous(fa.Size, shape, values(fa, base))
		d := Contiguous(fd.Size, shape, values(fd, base))
		switch r.Intn(4) {
		case 0: // d read in Fortran order
			d.Strides = FStrides(shape)
		case 1: // a reversed along its last axis
			a.Offset, a.Strides = shape[1]-1, []int{shape[1], -1}
		case 2: // a 0-d desired, broadcast
			d = View{Elem: fd.Size, Shape: shape, Strides: []int{0, 0}, Offset: r.Intn(n), Data: d.Data}
		}
		tol := Tolerance{RTol: []float64{1e-7, 0, 1e-3}[r.Intn(3)], ATol: []float64{0, 1e-8, 1}[r.Intn(3)], EqualNaN: r.Intn(2) == 0, Show: r.Intn(4) * r.Intn(30)}
		threads := 1 + r.Intn(3)
		name := fmt.Sprintf("%d/f%d-f%d/%v/special=%v/%+v", c, fa.Size, fd.Size, shape, special, tol)
		t.Run(name, func(t *testing.T) {
			want, err := AllClose(a, fa, d, fd, tol, Options{Threads: threads, tune: &pairwise})
			if err != nil {
				t.Fatal(err)
			}
			for _, tn := range []*tuning{nil, &goOnly} { // the vector kernels where allowed, and the Go loop
				got, err := AllClose(a, fa, d, fd, tol, Options{Threads: threads, tune: tn})
				if err != nil {
					t.Fatal(err)
				}
				if g, w := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want); g != w {
					t.Fatalf("batch kernel (tuning %v):\n%s\npair by pair:\n%s", tn, g, w)
				}
			}
		})
	}
}

// TestClosePieces checks that ClosePieces, fed the arrays in pieces cut at
// random multiples of PieceAlign and added in random order (each piece a
// copy, as a remote input's range is), gives AllClose's Comparison on the
// whole arrays: the same counts, maxima, worst element and first
// mismatches, over every pair of formats, NaNs and infinities, a 0-d side
// broadcast, and arrays whose only mismatch is in the last piece.
func TestClosePieces(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	f4 := dtype.Dtype{Kind: 'f', Size: 4}
	for c := 0; c < 300; c++ {
		fa, fd := allFormats[r.Intn(len(allFormats))], allFormats[r.Intn(len(allFormats))]
		if c%3 == 0 {
			fa, fd = f4, f4 // the vector kernels
		}
		n := r.Intn(6*PieceAlign) + 1
		shape := []int{n}
		if n%7 == 0 {
			shape = []int{7, n / 7}
		}
		da := randomBytes(r, fa, n)
		dd := randomBytes(r, fd, n)
		lastOnly := c%4 == 1
		if lastOnly {
			// Equal arrays but one element of the last piece: the worst
			// element and the count come from the last piece alone.
			for fa.Kind == 'b' {
				fa = allFormats[r.Intn(len(allFormats))]
			}
			num := func(x int64) any {
				switch fa.Kind {
				case 'f':
					return float64(x)
				case 'c':
					return complex(float64(x), 0)
				}
				return x
			}
			fd = fa
			da, dd = make([]byte, n*fa.Size), make([]byte, n*fa.Size)
			for i := 0; i < n; i++ {
				copy(dd[i*fa.Size:], encode(fa, []any{num(int64(i % 100))}))
			}
			copy(da, dd)
			copy(da[(n-1)*fa.Size:], encode(fa, []any{num(127)}))
		}
		a := Contiguous(fa.Size, shape, da)
		d := Contiguous(fd.Size, shape, dd)
		scalar := !lastOnly && r.Intn(5) == 0
		if scalar {
			d = View{Elem: fd.Size, Shape: shape, Strides: make([]int, len(shape)), Offset: r.Intn(n), Data: dd}
		}
		// Cuts at random multiples of PieceAlign.
		cuts := []int{0, n}
		for k := r.Intn(5); k > 0; k-- {
			if p := PieceAlign * r.Intn(n/PieceAlign+1); p > 0 && p < n {
				cuts = append(cuts, p)
			}
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		order := r.Perm(len(cuts) - 1)
		tol := Tolerance{RTol: []float64{1e-7, 0, 0.1}[r.Intn(3)], ATol: []float64{0, 1e-8, 1}[r.Intn(3)], EqualNaN: r.Intn(2) == 0, Show: r.Intn(3) * r.Intn(12)}
		threads := 1 + r.Intn(3)
		name := fmt.Sprintf("%d/%c%d-%c%d/n=%d/cuts=%v/scalar=%v/last=%v", c, fa.Kind, fa.Size, fd.Kind, fd.Size, n, cuts, scalar, lastOnly)
		t.Run(name, func(t *testing.T) {
			want, err := AllClose(a, fa, d, fd, tol, Options{Threads: threads})
			if err != nil {
				t.Fatal(err)
			}
			p := NewClosePieces(n, fa, fd, tol)
			for _, k := range order {
				lo, hi := cuts[k], cuts[k+1]
				pa := Contiguous(fa.Size, []int{hi - lo}, slices.Clone(da[lo*fa.Size:hi*fa.Size]))
				pd := Contiguous(fd.Size, []int{hi - lo}, slices.Clone(dd[lo*fd.Size:hi*fd.Size]))
				if scalar {
					pd = View{Elem: fd.Size, Shape: []int{hi - lo}, Strides: []int{0}, Data: slices.Clone(dd[d.Offset*fd.Size : (d.Offset+1)*fd.Size])}
				}
				if err := p.Add(lo, pa, pd, Options{Threads: threads}); err != nil {
					t.Fatal(err)
				}
			}
			if g, w := fmt.Sprintf("%+v", p.Result()), fmt.Sprintf("%+v", want); g != w {
				t.Fatalf("in pieces:\n%s\nwhole:\n%s", g, w)
			}
			if lastOnly && (want.Mismatched != 1 || want.Worst != n-1) {
				t.Fatalf("mismatched %d, worst %d: want 1 at %d", want.Mismatched, want.Worst, n-1)
			}
		})
	}
	p := NewClosePieces(3*PieceAlign, f4, f4, Tolerance{})
	one := Contiguous(4, []int{PieceAlign}, make([]byte, 4*PieceAlign))
	if err := p.Add(1, one, one, Options{}); err == nil {
		t.Fatal("a piece off the chunks was added")
	}
}
