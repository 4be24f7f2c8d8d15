package ops

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
)

// statsNaive is the reference Stats: every element decoded on its own, the
// mean and the squared deviations from it summed exactly (math/big).
func statsNaive(v View, f dtype.Dtype) (n, nan int, lo, hi, mean, std float64) {
	var xs []float64
	eachElem(v, func(b []byte) {
		x := f.Float(b)
		n++
		if math.IsNaN(x) {
			nan++
			return
		}
		xs = append(xs, x)
	})
	lo, hi = math.Inf(1), math.Inf(-1)
	if len(xs) == 0 {
		return n, nan, lo, hi, math.NaN(), math.NaN()
	}
	const prec = 256 // exact for these values: 2^-70 to 2^60, 2^18 of them
	sum := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
		sum.Add(sum, big.NewFloat(x))
	}
	cnt := new(big.Float).SetPrec(prec).SetInt64(int64(len(xs)))
	exact := new(big.Float).SetPrec(prec).Quo(sum, cnt)
	m2 := new(big.Float).SetPrec(prec)
	d := new(big.Float).SetPrec(prec)
	for _, x := range xs {
		d.Sub(big.NewFloat(x), exact)
		m2.Add(m2, d.Mul(d, d))
	}
	mean, _ = exact.Float64()
	variance, _ := m2.Quo(m2, cnt).Float64()
	return n, nan, lo, hi, mean, math.Sqrt(variance)
}

// eachElem calls fn on every element of v in C order.
func eachElem(v View, fn func([]byte)) {
	dst := make([]byte, v.Count()*v.Elem)
	if err := CopyNaive(dst, v); err != nil {
		panic(err)
	}
	for i := 0; i < len(dst); i += v.Elem {
		fn(dst[i : i+v.Elem])
	}
}

func f64View(xs []float64, shape []int) View {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return Contiguous(8, shape, b)
}

func TestStatsFloat64(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	f := dtype.Dtype{Kind: 'f', Size: 8}
	for _, tc := range []struct {
		name string
		gen  func(i int) float64
	}{
		{"normal", func(int) float64 { return rng.NormFloat64() }},
		{"1e8+noise", func(int) float64 { return 1e8 + rng.NormFloat64()*1e-3 }},
		{"1e15+ints", func(int) float64 { return 1e15 + float64(rng.Intn(100)) }},
		{"nan-every-7", func(i int) float64 {
			if i%7 == 0 {
				return math.NaN()
			}
			return rng.Float64()
		}},
	} {
		for _, shape := range [][]int{{1}, {1000}, {300, 700}} {
			xs := make([]float64, Count(shape))
			for i := range xs {
				xs[i] = tc.gen(i)
			}
			for _, threads := range []int{1, 3} {
				v := f64View(xs, shape)
				if len(shape) == 2 { // a transposed view walks memory out of order
					v = v.Permute([]int{1, 0})
				}
				s, err := Stats(v, f, Options{Threads: threads})
				if err != nil {
					t.Fatal(err)
				}
				n, nan, lo, hi, mean, std := statsNaive(v, f)
				if s.Count != n || s.NaN != nan || s.HasMinMax && (s.MinFloat != lo || s.MaxFloat != hi) || s.HasMinMax != (n > nan) {
					t.Errorf("%s/%v/t%d: got %+v, want n=%d nan=%d min=%g max=%g", tc.name, shape, threads, s, n, nan, lo, hi)
				}
				if n > nan && (math.Abs(s.Mean-mean) > 1e-14*math.Abs(mean) || math.Abs(s.Std-std) > 1e-13*std+1e-15*math.Abs(mean)) {
					t.Errorf("%s/%v/t%d: mean %v std %v, want %v %v", tc.name, shape, threads, s.Mean, s.Std, mean, std)
				}
			}
		}
	}
}

func TestStatsIntExtremes(t *testing.T) {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, math.MaxUint64)
	binary.BigEndian.PutUint64(b[8:], 3)
	s, err := Stats(Contiguous(8, []int{2}, b), dtype.Dtype{Kind: 'u', Size: 8, Order: '>'}, Options{})
	if err != nil || s.MinUint != 3 || s.MaxUint != math.MaxUint64 {
		t.Fatalf("u8: %+v %v", s, err)
	}
	b = []byte{0x80, 0x7f, 0, 0xff}
	s, err = Stats(Contiguous(1, []int{4}, b), dtype.Dtype{Kind: 'i', Size: 1}, Options{})
	if err != nil || s.MinInt != -128 || s.MaxInt != 127 || s.Zero != 1 || s.Mean != -0.5 {
		t.Fatalf("i1: %+v %v", s, err)
	}
	s, err = Stats(Contiguous(1, []int{4}, b), dtype.Dtype{Kind: 'u', Size: 1}, Options{})
	if err != nil || s.MinUint != 0 || s.MaxUint != 255 {
		t.Fatalf("u1: %+v %v", s, err)
	}
}

func BenchmarkStats(b *testing.B) {
	for _, elem := range []int{4, 8} {
		n := 1 << 24
		data := make([]byte, n*elem)
		rng := rand.New(rand.NewSource(1))
		for i := 0; i < n; i++ {
			if elem == 4 {
				binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(rng.NormFloat64())))
			} else {
				binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(rng.NormFloat64()))
			}
		}
		v := Contiguous(elem, []int{n}, data)
		f := dtype.Dtype{Kind: 'f', Size: elem}
		b.Run(map[int]string{4: "f4", 8: "f8"}[elem], func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				if _, err := Stats(v, f, Options{Threads: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestAbsComplexHypot checks the magnitudes stats uses (glibc's hypot and
// hypotf, transcribed) against the exact square root of x*x + y*y from
// math/big: hypot within glibc's bound of ~0.8 units in the last place (a
// plain sqrt(x*x + y*y) exceeds it), hypotf within half a unit plus the
// double rounding's sliver; and special values as C's hypot gives them.
func TestAbsComplexHypot(t *testing.T) {
	const prec = 2200
	// ulpErr is |got - sqrt(x*x + y*y)| in units of got's last place.
	ulpErr := func(got, x, y float64, f32 bool) float64 {
		bx, by := new(big.Float).SetPrec(prec).SetFloat64(x), new(big.Float).SetPrec(prec).SetFloat64(y)
		s := new(big.Float).SetPrec(prec).Mul(bx, bx)
		s.Add(s, new(big.Float).SetPrec(prec).Mul(by, by))
		r := new(big.Float).SetPrec(prec).Sqrt(s)
		d := new(big.Float).SetPrec(prec).Sub(r, new(big.Float).SetPrec(prec).SetFloat64(got))
		ulp := math.Nextafter(got, math.Inf(1)) - got
		if f32 {
			ulp = float64(math.Nextafter32(float32(got), float32(math.Inf(1))) - float32(got))
		}
		q, _ := new(big.Float).Quo(d.Abs(d), new(big.Float).SetFloat64(ulp)).Float64()
		return q
	}
	rng := rand.New(rand.NewSource(12))
	wide := func() float64 {
		return math.Ldexp(rng.Float64()+0.5, rng.Intn(2098)-1074) * float64(1-2*rng.Intn(2))
	}
	for i := 0; i < 20000; i++ {
		x, y := wide(), wide()
		if i%3 != 0 {
			y = math.Ldexp(x*(rng.Float64()+0.5), rng.Intn(6)-3) // close: the correction matters
		}
		if got := absComplex128(x, y); !math.IsInf(got, 0) && ulpErr(got, x, y, false) > 0.8 {
			t.Fatalf("absComplex128(%g, %g) = %g, %.3f units in the last place off", x, y, got, ulpErr(got, x, y, false))
		}
		fx, fy := float32(x), float32(y)
		if got := absComplex64(fx, fy); !math.IsInf(float64(got), 0) && ulpErr(float64(got), float64(fx), float64(fy), true) > 0.5001 {
			t.Fatalf("absComplex64(%g, %g) = %g, %.4f units in the last place off", fx, fy, got, ulpErr(float64(got), float64(fx), float64(fy), true))
		}
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct{ x, y, want float64 }{
		{3, 4, 5}, {0, 0, 0}, {-0.0, 0, 0}, {-5, 12, 13}, {1e308, 1e308, 1.4142135623730951e308},
		{math.MaxFloat64, math.MaxFloat64, inf}, {5e-324, 5e-324, 5e-324}, {3e-320, 4e-320, 5e-320},
		{inf, nan, inf}, {nan, -inf, inf}, {nan, 1, nan}, {1, 1e-300, 1},
	} {
		got := absComplex128(c.x, c.y)
		if got != c.want && !(got != got && c.want != c.want) {
			t.Errorf("absComplex128(%g, %g) = %g, want %g", c.x, c.y, got, c.want)
		}
	}
	if got := absComplex64(3e38, 3e38); !math.IsInf(float64(got), 1) {
		t.Errorf("absComplex64(3e38, 3e38) = %g, want +Inf (the float64 sum fits; float32 does not)", got)
	}
	if got := absComplex64(float32(nan), float32(-inf)); !math.IsInf(float64(got), 1) {
		t.Errorf("absComplex64(NaN, -Inf) = %g, want +Inf", got)
	}
}

// TestStatsRepeats: a view with axes of stride 0 (an expanded torch tensor)
// has the statistics of its C-order copy, and one of 2**40 elements over 8
// bytes of storage is summarised at once (issue 27: it was walked element
// by element, after an allocation of one summary per 16384 of them).
func TestStatsRepeats(t *testing.T) {
	xs := []float64{1.5, math.NaN(), -2, 0, math.Inf(1), 1e8 + 0.25}
	for _, tc := range []struct {
		name           string
		shape, strides []int
		f              dtype.Dtype
	}{
		{"f8/6x0s/expand", []int{6, 5}, []int{1, 0}, dtype.Dtype{Kind: 'f', Size: 8}},
		{"f8/0sx5", []int{4, 5}, []int{0, 1}, dtype.Dtype{Kind: 'f', Size: 8}},
		{"f8/3x0sx2", []int{3, 7, 2}, []int{2, 0, 1}, dtype.Dtype{Kind: 'f', Size: 8}},
		{"f8/finite/0sx3", []int{9, 3}, []int{0, 1}, dtype.Dtype{Kind: 'f', Size: 8}},
		{"f4/2x0s", []int{2, 11}, []int{2, 0}, dtype.Dtype{Kind: 'f', Size: 4}},
		{"f4/finite/0sx3", []int{9, 3}, []int{0, 1}, dtype.Dtype{Kind: 'f', Size: 4}},
		{"f4/6x0s/inf", []int{6, 3}, []int{1, 0}, dtype.Dtype{Kind: 'f', Size: 4}}, // no second pass
		{"i2/0sx0s", []int{3, 4}, []int{0, 0}, dtype.Dtype{Kind: 'i', Size: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := make([]byte, len(xs)*8)
			for i, x := range xs {
				switch {
				case tc.name == "f8/finite/0sx3":
					binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(float64(i)*0.1+3))
				case tc.name == "f4/finite/0sx3":
					binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(i)*0.1+3))
				case tc.f.Kind == 'f' && tc.f.Size == 8:
					binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
				case tc.f.Kind == 'f':
					binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
				default:
					binary.LittleEndian.PutUint16(b[2*i:], uint16(int16(i-2)))
				}
			}
			v := View{Elem: tc.f.Size, Shape: tc.shape, Strides: tc.strides, Data: b}
			dst := make([]byte, v.Count()*v.Elem)
			if err := CopyNaive(dst, v); err != nil {
				t.Fatal(err)
			}
			var done atomic.Int64
			got, err := Stats(v, tc.f, Options{Done: &done})
			if err != nil {
				t.Fatal(err)
			}
			if want := StatsWork(v, tc.f); done.Load() != want {
				t.Fatalf("progress %d of StatsWork's %d bytes", done.Load(), want)
			}
			want, err := Stats(Contiguous(v.Elem, v.Shape, dst), tc.f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !sameSummary(got, want, 1e-14) {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
		})
	}
	v := View{Elem: 8, Shape: []int{1 << 20, 1 << 20}, Strides: []int{0, 0}, Data: make([]byte, 8)}
	s, err := Stats(v, dtype.Dtype{Kind: 'f', Size: 8}, Options{})
	if err != nil || s.Count != 1<<40 || s.Zero != 1<<40 || s.Mean != 0 || s.Std != 0 {
		t.Fatalf("2**40 zeros over 8 bytes: %+v %v", s, err)
	}
}

// sameSummary compares two summaries: the counts and extremes exactly, the
// moments to within tolerances of the largest magnitude summed, NaN equal
// to NaN. The mean within 1e-14 of it: the order of the sums differs, and
// where the values cancel (6e-10 and -6e-10), a mean of 0 and one of
// 1e-28 are that close. The standard deviation within stdTol relatively,
// or within 2 stdTol of the largest magnitude: a float32 array's
// deviations are rounded to float32, as NumPy rounds them, so a mean one
// unit apart can move a deviation by a float32 unit of the values where
// it falls on a tie, and the deviation of a value near the mean is much
// smaller than that value (|Δstd| is at most the largest |Δdeviation|).
func sameSummary(a, b Summary, stdTol float64) bool {
	near := func(x, y, tol float64) bool {
		return x == y || x != x && y != y || math.Abs(x-y) <= tol
	}
	scale := math.Max(math.Abs(a.Mean), math.Abs(b.Mean))
	if a.HasMinMax && !math.IsInf(a.MinFloat, 0) && !math.IsInf(a.MaxFloat, 0) {
		scale = math.Max(scale, math.Max(math.Abs(a.MinFloat), math.Abs(a.MaxFloat)))
	}
	stdScale := math.Max(math.Abs(a.Std), math.Abs(b.Std))
	moments := near(a.Mean, b.Mean, 1e-14*scale) && near(a.Std, b.Std, max(stdTol*stdScale, 2*stdTol*scale))
	a.Mean, a.Std, b.Mean, b.Std = 0, 0, 0, 0
	return moments && a == b
}

// FuzzStatsRepeats: Stats of any strided view over a few float32s, axes of
// stride 0 included, equals Stats of its C-order copy, and a view of up to
// 2**59 elements that repeats them (an expanded torch tensor: the hostile
// seeds of issue 27) is summarised without walking its repeats. Each axis
// is two bytes: its extent (under 128, or with the top bit set a power of
// two up to 2**47) and its stride in elements (0 to 3).
func FuzzStatsRepeats(f *testing.F) {
	f.Add([]byte{3, 1, 4, 0}, []byte{0, 0, 0x80, 0x3f, 0, 0, 0xc0, 0x7f})
	f.Add([]byte{0x80 | 40, 0}, []byte{0, 0, 0xc0, 0x3f})                         // (2**40,) of 1.5
	f.Add([]byte{0x80 | 28, 0, 0x80 | 28, 0}, []byte{0, 0, 0xc0, 0x3f})           // (2**28, 2**28)
	f.Add([]byte{2, 1, 0x80 | 39, 0}, []byte{0, 0, 0xc0, 0x3f, 0, 0, 0xc0, 0x7f}) // (2, 2**39): 1.5 and NaN
	f.Add([]byte{0x80 | 47, 0, 0x80 | 12, 0}, []byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, axes, data []byte) {
		if len(axes)%2 != 0 || len(axes) > 8 || len(data) < 4 || len(data) > 64 {
			return
		}
		v := View{Elem: 4, Data: data[:len(data)/4*4]}
		for k := 0; k < len(axes); k += 2 {
			n := int(axes[k] & 0x7f)
			if axes[k]&0x80 != 0 {
				n = 1 << (axes[k] & 0x3f % 48)
			}
			v.Shape = append(v.Shape, n)
			v.Strides = append(v.Strides, int(axes[k+1]%4))
		}
		count, ok := checkedCount(v.Shape)
		if !ok || count > 1<<59 {
			return // no reader accepts it
		}
		f4 := dtype.Dtype{Kind: 'f', Size: 4}
		got, err := Stats(v, f4, Options{Threads: 2})
		if v.Check() != nil {
			if err == nil {
				t.Fatalf("%v strides %v over %d bytes: no error", v.Shape, v.Strides, len(v.Data))
			}
			return
		}
		if err != nil || got.Count != count {
			t.Fatalf("%v strides %v: count %d, %v", v.Shape, v.Strides, got.Count, err)
		}
		if count > 1<<16 {
			return
		}
		dst := make([]byte, count*4)
		if err := CopyNaive(dst, v); err != nil {
			t.Fatal(err)
		}
		want, _ := Stats(Contiguous(4, v.Shape, dst), f4, Options{Threads: 2})
		if !sameSummary(got, want, 1e-7) {
			t.Fatalf("%v strides %v:\ngot  %+v\nwant %+v", v.Shape, v.Strides, got, want)
		}
	})
}

// TestStatsOverflowingSums: float64 data whose sums overflow get NumPy's
// np.nanmean and np.nanstd (dtype=float64), as NumPy 1.24 printed them for
// these arrays: an overflowing sum is an infinity, or 0 where the pairwise
// order cancels first, and the squares overflow to an infinite std.
func TestStatsOverflowingSums(t *testing.T) {
	const big = 1.5e308
	inf := math.Inf(1)
	nan := math.NaN()
	for _, c := range []struct {
		xs        []float64
		mean, std float64
	}{
		{[]float64{big, big, -big, -big}, inf, inf},
		{[]float64{big, -big, big, -big}, 0, inf},
		{[]float64{big, big, big, big, big, big, big, big, -big, -big, -big, -big, -big, -big, -big, -big}, 0, inf},
		{[]float64{1e308, nan, 8e307}, inf, inf},
		{[]float64{-1e308, -1e308, 5}, math.Inf(-1), inf},
	} {
		for _, order := range []byte{'<', '>'} {
			f := dtype.Dtype{Kind: 'f', Size: 8, Order: order}
			b := make([]byte, 8*len(c.xs))
			for i, x := range c.xs {
				if order == '>' {
					binary.BigEndian.PutUint64(b[8*i:], math.Float64bits(x))
				} else {
					binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
				}
			}
			s, err := Stats(Contiguous(8, []int{len(c.xs)}, b), f, Options{})
			if err != nil || s.Mean != c.mean || s.Std != c.std {
				t.Errorf("%v (%c): mean %v std %v (%v), NumPy %v %v", c.xs, order, s.Mean, s.Std, err, c.mean, c.std)
			}
		}
	}
}
