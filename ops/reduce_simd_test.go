package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"strider/internal/dtype"
)

// reduceSIMDLevels are the levels whose reduction kernels differ, up to
// the widest this machine has: the tests run every one.
func reduceSIMDLevels() []simdLevel {
	var ls []simdLevel
	for _, l := range []simdLevel{simdNone, simdAVX2, simdAVX512} {
		if l <= defaults.simd {
			ls = append(ls, l)
		}
	}
	return ls
}

// simdTuning is the default tuning with the kernels capped at l.
func simdTuning(l simdLevel) *tuning {
	t := defaultTuning()
	t.simd = l
	return &t
}

// extremeValue is a random float with many NaNs, zeros of both signs and
// infinities, and a few values that repeat, so that ties are met.
func extremeValue(r *rand.Rand) float64 {
	switch r.IntN(40) {
	case 0:
		return math.NaN()
	case 1:
		return math.Float64frombits(0xfff8000000000123) // a negative NaN with a payload
	case 2, 3:
		return 0
	case 4, 5:
		return math.Copysign(0, -1)
	case 6:
		return math.Inf(1)
	case 7:
		return math.Inf(-1)
	case 8, 9, 10:
		return float64(r.IntN(3) - 1)
	}
	return r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4))
}

// randomFloats is n values as T at an offset of off elements into a fresh
// buffer (unaligned starts), NaNs only when nans is set. extremeValue's
// specials come often, about once in the array, or never, so that a long
// array's extremes are not always infinities.
func randomFloats[T float](r *rand.Rand, n, off int, nans bool) []T {
	buf := make([]T, n+off+1)
	xs := buf[off : off+n : off+n]
	often := []int{1, 40, 4 * n}[r.IntN(3)]
	for i := range xs {
		x := r.NormFloat64()
		if r.IntN(often+1) < 40 {
			x = extremeValue(r)
		}
		for !nans && x != x {
			x = extremeValue(r)
		}
		xs[i] = T(x)
	}
	return xs
}

// refRange is the least and greatest of xs by value, and whether none is
// a NaN: the plain loop the run kernels equal.
func refRange[T float](xs []T) (lo, hi T, ok bool) {
	lo, hi = T(math.Inf(1)), T(math.Inf(-1))
	for _, x := range xs {
		if x != x {
			return lo, hi, false
		}
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi, true
}

// TestRangeKernelsMatchLoop checks rangeKernel's call (the run kernels)
// and its row with steps 1 and 2 (the column kernels) at every SIMD
// level against the plain loops, over lengths around the vector widths,
// unaligned starts, NaNs, zeros of both signs and infinities, with guard
// pairs after the row's.
func TestRangeKernelsMatchLoop(t *testing.T) {
	testRangeKernels[float32](t)
	testRangeKernels[float64](t)
}

func testRangeKernels[T float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	var z T
	name := fmt.Sprintf("f%d", 8*unsafe.Sizeof(z))
	lengths := []int{}
	for n := 0; n <= 67; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 127, 128, 129, 255, 256, 257, 1000, 4099)
	for range 20 {
		lengths = append(lengths, 68+r.IntN(3000))
	}
	for _, level := range reduceSIMDLevels() {
		for _, n := range lengths {
			for rep := 0; rep < 6; rep++ {
				off := r.IntN(4)
				nans := rep%3 == 0
				xs := randomFloats[T](r, n, off, nans)
				wantHi, wantLo := []bool{true, false, true}[rep%3], []bool{true, true, false}[rep%3]
				k := rangeKernel[T](wantHi, wantLo, level)
				label := fmt.Sprintf("%s/%v/n=%d/off=%d/hi=%v/lo=%v", name, level, n, off, wantHi, wantLo)
				if n > 0 {
					checkRangeCall(t, label, k, xs, wantHi, wantLo)
				}
				for _, step := range []int{1, 2} {
					checkRangeRow(t, fmt.Sprintf("%s/step=%d", label, step), r, k, xs, step, wantHi, wantLo)
				}
				if wantHi != wantLo {
					e := extremeKernel[T](wantHi, level)
					if n > 0 {
						checkExtremeCall(t, label+"/one", e, xs, wantHi)
					}
					for _, step := range []int{1, 2} {
						checkExtremeRow(t, fmt.Sprintf("%s/one/step=%d", label, step), r, e, xs, step, wantHi)
					}
				}
			}
		}
	}
}

// checkRangeCall checks k.call on xs from the identity against refRange.
func checkRangeCall[T float](t *testing.T, label string, k foldKernel, xs []T, wantHi, wantLo bool) {
	t.Helper()
	acc := make([]T, 2)
	k.init(rawBytes(acc))
	k.call(rawBytes(acc), 0, rawBytes(xs), true, nil)
	lo, hi, ok := refRange(xs)
	if !ok {
		if acc[0] == acc[0] || acc[1] == acc[1] {
			t.Errorf("%s: call gave %v %v over a NaN", label, acc[0], acc[1])
		}
		return
	}
	// A zero's sign is left to NumPy's order (settleRange redoes it), so
	// values are compared, which for a number other than zero are its bits.
	if wantLo && acc[0] != lo || wantHi && acc[1] != hi {
		t.Errorf("%s: call gave (%v, %v), want (%v, %v)", label, acc[0], acc[1], lo, hi)
	}
}

// checkRangeRow checks k.row of xs with step into random pairs, among
// them NaN pairs, against the plain fold of rangeRow, bit for bit; the
// pairs it does not fold into (between the steps and after the last) keep
// their poison.
func checkRangeRow[T float](t *testing.T, label string, r *rand.Rand, k foldKernel, xs []T, step int, wantHi, wantLo bool) {
	t.Helper()
	pos := r.IntN(3)
	npairs := pos + len(xs)*step + 5
	acc := make([]T, 2*npairs)
	poison := T(math.Float64frombits(0x7ff4dead0000beef))
	for q := 0; q < npairs; q++ {
		acc[2*q], acc[2*q+1] = poison, poison
	}
	for i := range xs {
		q := pos + i*step
		lo, hi := T(extremeValue(r)), T(extremeValue(r))
		if lo != lo || hi != hi {
			lo, hi = T(math.NaN()), T(math.NaN())
		} else if lo > hi {
			lo, hi = hi, lo
		}
		if r.IntN(8) == 0 {
			lo, hi = T(math.Inf(1)), T(math.Inf(-1)) // the identity
		}
		acc[2*q], acc[2*q+1] = lo, hi
	}
	want := append([]T(nil), acc...)
	for i, x := range xs {
		q := 2 * (pos + i*step)
		if x != x || want[q] != want[q] {
			want[q], want[q+1] = T(math.NaN()), T(math.NaN())
			continue
		}
		if x < want[q] {
			want[q] = x
		}
		if x > want[q+1] {
			want[q+1] = x
		}
	}
	k.row(rawBytes(acc), pos, step, rawBytes(xs), nil)
	for q := 0; q < npairs; q++ {
		g, w := acc[2*q:2*q+2], want[2*q:2*q+2]
		folded := q >= pos && (q-pos)%step == 0 && (q-pos)/step < len(xs)
		if !folded {
			if u64(g[0]) != u64(poison) || u64(g[1]) != u64(poison) {
				t.Fatalf("%s: pair %d outside the row was written: %v", label, q, g)
			}
			continue
		}
		if (g[1] != g[1]) != (w[1] != w[1]) || (g[0] != g[0]) != (w[0] != w[0]) {
			t.Fatalf("%s: pair %d is (%v, %v), want (%v, %v)", label, q, g[0], g[1], w[0], w[1])
		}
		if w[1] != w[1] {
			continue
		}
		if wantLo && u64(g[0]) != u64(w[0]) || wantHi && u64(g[1]) != u64(w[1]) {
			t.Fatalf("%s: pair %d is (%v, %v), want (%v, %v)", label, q, g[0], g[1], w[0], w[1])
		}
	}
}

// checkExtremeCall checks extremeKernel's call on xs from the identity
// against refRange.
func checkExtremeCall[T float](t *testing.T, label string, k foldKernel, xs []T, isMax bool) {
	t.Helper()
	acc := make([]T, 1)
	k.init(rawBytes(acc))
	k.call(rawBytes(acc), 0, rawBytes(xs), true, nil)
	lo, hi, ok := refRange(xs)
	want := lo
	if isMax {
		want = hi
	}
	if !ok && acc[0] == acc[0] || ok && acc[0] != want {
		t.Errorf("%s: call gave %v, want %v (NaN met: %v)", label, acc[0], want, !ok)
	}
}

// checkExtremeRow checks extremeKernel's row of xs with step into random
// results, among them NaNs, against the plain fold, bit for bit (but for
// which NaN), with poison between the steps and after the row.
func checkExtremeRow[T float](t *testing.T, label string, r *rand.Rand, k foldKernel, xs []T, step int, isMax bool) {
	t.Helper()
	pos := r.IntN(3)
	nacc := pos + len(xs)*step + 5
	poison := T(math.Float64frombits(0x7ff4dead0000beef))
	acc := make([]T, nacc)
	for q := range acc {
		acc[q] = poison
	}
	for i := range xs {
		acc[pos+i*step] = T(extremeValue(r))
	}
	want := append([]T(nil), acc...)
	for i, x := range xs {
		q := pos + i*step
		switch {
		case x != x || want[q] != want[q]:
			want[q] = T(math.NaN())
		case isMax && x > want[q], !isMax && x < want[q]:
			want[q] = x
		}
	}
	k.row(rawBytes(acc), pos, step, rawBytes(xs), nil)
	for q := range acc {
		folded := q >= pos && (q-pos)%step == 0 && (q-pos)/step < len(xs)
		g, w := acc[q], want[q]
		switch {
		case !folded && u64(g) != u64(poison):
			t.Fatalf("%s: result %d outside the row was written: %v", label, q, g)
		case folded && (g != g) != (w != w), folded && w == w && u64(g) != u64(w):
			t.Fatalf("%s: result %d is %v, want %v", label, q, g, w)
		}
	}
}

// TestNonzeroRowMatchesLoop checks the count kernels' row for 4-byte
// elements at every SIMD level against the plain loop, with guard counts
// around the row.
func TestNonzeroRowMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 8))
	for _, ds := range []string{"<f4", "<i4", "<u4"} {
		d, _ := dtype.Parse(ds)
		mask := uint32(nonzeroMask(d))
		for _, level := range reduceSIMDLevels() {
			k := nonzeroKernel(d, level)
			for n := 0; n <= 300; n++ {
				if n > 67 && n%37 != 0 {
					continue
				}
				step := 1 + r.IntN(2)
				off := r.IntN(4)
				buf := make([]uint32, n+off)
				us := buf[off:]
				for i := range us {
					switch r.IntN(4) {
					case 0:
						us[i] = 0
					case 1:
						us[i] = 0x80000000 // -0.0
					default:
						us[i] = r.Uint32()
					}
				}
				pos := r.IntN(3)
				counts := make([]int64, pos+n*step+4)
				for i := range counts {
					counts[i] = r.Int64N(1 << 40)
				}
				want := append([]int64(nil), counts...)
				for i, u := range us {
					if u&mask != 0 {
						want[pos+i*step]++
					}
				}
				k.row(rawBytes(counts), pos, step, rawBytes(us), nil)
				for i := range counts {
					if counts[i] != want[i] {
						t.Fatalf("%s/%v/n=%d/off=%d/step=%d: count %d is %d, want %d", ds, level, n, off, step, i, counts[i], want[i])
					}
				}
			}
		}
	}
}

// TestArithColsMatchLoop checks the sums' and products' rowFast (the
// column kernels of vectorArithCols) at every SIMD level against the
// plain loop: the same bits for every finite result, the same infinity,
// and a NaN for a NaN (whose bits the engine redoes with NumPy's rules).
func TestArithColsMatchLoop(t *testing.T) {
	testArithCols[float32](t)
	testArithCols[float64](t)
}

func testArithCols[T float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 9))
	var z T
	for _, level := range reduceSIMDLevels() {
		for _, uf := range []ufuncKind{ufAdd, ufMultiply} {
			k := floatKernel[T](uf, level)
			for n := 0; n <= 300; n++ {
				if n > 67 && n%29 != 0 {
					continue
				}
				step := 1 + r.IntN(2)
				xs := randomFloats[T](r, n, r.IntN(4), true)
				pos := r.IntN(3)
				acc := make([]T, pos+n*step+4)
				for i := range acc {
					acc[i] = T(extremeValue(r))
				}
				want := append([]T(nil), acc...)
				for i, x := range xs {
					q := pos + i*step
					if uf == ufAdd {
						want[q] += x
					} else {
						want[q] *= x
					}
				}
				k.rowFast(rawBytes(acc), pos, step, rawBytes(xs))
				for i := range acc {
					g, w := acc[i], want[i]
					if g != g && w != w {
						continue
					}
					if u64(g) != u64(w) {
						t.Fatalf("f%d/%v/%s/n=%d/step=%d: result %d is %v, want %v", 8*unsafe.Sizeof(z), level, ufuncName(uf), n, step, i, g, w)
					}
				}
			}
		}
	}
}

// TestDeviationColsMatchLoop checks deviationKernel's rowFast (the column
// kernels of vectorDeviationCols) at every SIMD level against the plain
// loop: the same bits for every finite result, NaN for NaN.
func TestDeviationColsMatchLoop(t *testing.T) {
	testDeviationCols[float32](t)
	testDeviationCols[float64](t)
}

func testDeviationCols[T float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 12))
	var z T
	for _, level := range reduceSIMDLevels() {
		for n := 0; n <= 300; n++ {
			if n > 67 && n%31 != 0 {
				continue
			}
			step := 1 + r.IntN(2)
			xs := randomFloats[T](r, n, r.IntN(4), true)
			pos := r.IntN(3)
			size := pos + n*step + 4
			means := randomFloats[T](r, size, 0, true)
			acc := make([]T, size)
			for i := range acc {
				acc[i] = T(extremeValue(r))
			}
			want := append([]T(nil), acc...)
			for i, x := range xs {
				q := pos + i*step
				d := x - means[q]
				want[q] += T(d * d)
			}
			k := deviationKernel(means, &lockedFlags{}, level)
			k.rowFast(rawBytes(acc), pos, step, rawBytes(xs))
			for i := range acc {
				g, w := acc[i], want[i]
				if g != g && w != w {
					continue
				}
				if u64(g) != u64(w) {
					t.Fatalf("f%d/%v/n=%d/step=%d: result %d is %v, want %v", 8*unsafe.Sizeof(z), level, n, step, i, g, w)
				}
			}
		}
	}
}

// TestPairwiseLeavesMatchLoop checks pairwiseSum and pairwiseSquares with
// their vector leaves (vectorLeaf) at every SIMD level against the Go
// loop (simdNone, the one NumPy's cases check): the same bits for every
// finite sum, NaN for NaN, on lengths around the leaf sizes and values of
// mixed magnitudes, signed zeros and the odd infinity.
func TestPairwiseLeavesMatchLoop(t *testing.T) {
	testPairwiseLeaves[float32](t)
	testPairwiseLeaves[float64](t)
}

func testPairwiseLeaves[T float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 13))
	var z T
	lengths := []int{1000003, 8192, 4097}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	same := func(g, w T) bool { return g != g && w != w || u64(g) == u64(w) }
	for _, level := range reduceSIMDLevels() {
		for _, n := range lengths {
			xs := randomFloats[T](r, n, r.IntN(4), r.IntN(8) == 0)
			m := T(extremeValue(r))
			if r.IntN(4) > 0 {
				m = T(r.NormFloat64())
			}
			if g, w := pairwiseSum(xs, level), pairwiseSum(xs, simdNone); !same(g, w) {
				t.Fatalf("f%d/%v/n=%d: sum %v, want %v", 8*unsafe.Sizeof(z), level, n, g, w)
			}
			if g, w := pairwiseSquares(xs, m, level), pairwiseSquares(xs, m, simdNone); !same(g, w) {
				t.Fatalf("f%d/%v/n=%d: squares about %v %v, want %v", 8*unsafe.Sizeof(z), level, n, m, g, w)
			}
		}
	}
}
