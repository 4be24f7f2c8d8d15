package dtype

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sort"
	"strconv"
	"testing"
)

// widen32 is the float64 of float32 bits f, a NaN's payload moved bit for
// bit (Go's float64(x) would set a signaling NaN's quiet bit), as
// npy_float_to_half sees the float.
func widen32(f uint32) float64 {
	if f&0x7fffffff > 0x7f800000 {
		return math.Float64frombits(uint64(f>>31)<<63 | 0x7ff<<52 | uint64(f&0x7fffff)<<29)
	}
	return float64(math.Float32frombits(f))
}

// TestHalfNumPy checks Float64ToHalf (and Float32ToHalf, of the float32
// bits) against NumPy's astype(float16) of the float64 and float32 bit
// patterns of testdata/float16.txt, and
// HalfToFloat64 of all 65536 halves against NumPy's astype(float64) by
// the SHA-256 of the little-endian results.
func TestHalfNumPy(t *testing.T) {
	n := 0
	for _, r := range readTable(t, "float16.txt") {
		if r[0] == "f2-all-to-f8-sha256" {
			var b [8 << 16]byte
			for h := range 1 << 16 {
				binary.LittleEndian.PutUint64(b[8*h:], math.Float64bits(HalfToFloat64(uint16(h))))
			}
			if sum := sha256.Sum256(b[:]); hex.EncodeToString(sum[:]) != r[1] {
				t.Errorf("HalfToFloat64 of every half differs from NumPy's astype(float64)")
			}
			continue
		}
		bits, err1 := strconv.ParseUint(r[1], 16, 64)
		want, err2 := strconv.ParseUint(r[2], 16, 16)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %q", r)
		}
		x := math.Float64frombits(bits)
		if r[0] == "f4" {
			x = widen32(uint32(bits))
		}
		if got := Float64ToHalf(x); got != uint16(want) {
			t.Errorf("Float64ToHalf(%s %s) = %#04x, NumPy %#04x", r[0], r[1], got, want)
		}
		if got := Float32ToHalf(uint32(bits)); r[0] == "f4" && got != uint16(want) {
			t.Errorf("Float32ToHalf(%s) = %#04x, NumPy %#04x", r[1], got, want)
		}
		n++
	}
	if n < 5000 {
		t.Fatalf("%d conversions, want the table's thousands", n)
	}
}

// finiteHalves are the values of the non-negative finite halves, in order
// (bits 0 to 0x7bff).
var finiteHalves = func() []float64 {
	v := make([]float64, 0x7c00)
	for h := range v {
		v[h] = math.Ldexp(float64(h&0x3ff|min(h>>10, 1)<<10), max(h>>10, 1)-25)
	}
	return v
}()

// nearestHalf is the oracle: x rounded to a half by search over every
// finite half, ties to the even bits, infinity past 65504 plus half an ulp.
func nearestHalf(x float64) uint16 {
	sign := uint16(0)
	if math.Signbit(x) {
		sign = 0x8000
	}
	if x != x {
		h := uint16(0x7c00 | math.Float64bits(x)>>42&0x3ff)
		if h == 0x7c00 {
			h++
		}
		return sign | h
	}
	a := math.Abs(x)
	if a >= 65520 {
		return sign | 0x7c00
	}
	i := sort.SearchFloat64s(finiteHalves, a) // finiteHalves[i-1] < a <= finiteHalves[i]
	if i == len(finiteHalves) || finiteHalves[i] == a {
		return sign | uint16(min(i, 0x7bff))
	}
	lo, hi := a-finiteHalves[i-1], finiteHalves[i]-a
	if lo < hi || lo == hi && (i-1)&1 == 0 {
		return sign | uint16(i-1)
	}
	return sign | uint16(i)
}

// TestHalfRoundTrip: every half, NaNs included, converts to float64 and
// back to its own bits, and HalfToFloat64 of a finite half is its value.
func TestHalfRoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		x := HalfToFloat64(uint16(h))
		if got := Float64ToHalf(x); got != uint16(h) {
			t.Fatalf("Float64ToHalf(HalfToFloat64(%#04x)) = %#04x", h, got)
		}
		if a := h & 0x7fff; a < 0x7c00 && math.Abs(x) != finiteHalves[a] {
			t.Fatalf("HalfToFloat64(%#04x) = %v, want ±%v", h, x, finiteHalves[a])
		}
	}
}

// TestFloat64ToHalfDense checks Float64ToHalf against the search oracle
// at every half, at every tie between neighbours and three float64 ulps
// either side of each, and at a dense sample of all float32 bit patterns
// (every 509th; the whole 2^32 agreed with NumPy when the conversion
// became the one copy).
func TestFloat64ToHalfDense(t *testing.T) {
	check := func(x float64) {
		if got, want := Float64ToHalf(x), nearestHalf(x); got != want {
			t.Fatalf("Float64ToHalf(%v, bits %#016x) = %#04x, want %#04x", x, math.Float64bits(x), got, want)
		}
		r := RoundHalf(x)
		if x != x {
			if math.Float64bits(r) != math.Float64bits(x) {
				t.Fatalf("RoundHalf(NaN %#016x) = %#016x", math.Float64bits(x), math.Float64bits(r))
			}
		} else if math.Float64bits(r) != math.Float64bits(HalfToFloat64(Float64ToHalf(x))) {
			t.Fatalf("RoundHalf(%v) = %v", x, r)
		}
	}
	for h := range 0x7c00 {
		x := finiteHalves[h]
		next := 65520.0 // the tie that rounds to infinity
		if h < 0x7bff {
			next = finiteHalves[h+1]
		}
		for _, y := range []float64{x, x + (next-x)/2} {
			z := y
			for range 3 {
				z = math.Nextafter(z, 0)
			}
			for range 7 {
				check(z)
				check(-z)
				z = math.Nextafter(z, math.Inf(1))
			}
		}
	}
	step := uint64(509)
	if testing.Short() {
		step = 65521
	}
	for f := uint64(0); f < 1<<32; f += step {
		check(widen32(uint32(f)))
	}
	for _, x := range []float64{0x1p-25, math.Nextafter(0x1p-25, 1), 0x1p-26 * 3, 5e-324, 1e300, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff0040000000000)} {
		check(x)
	}
}

func TestRoundHalf(t *testing.T) {
	for _, c := range [][2]float64{{1, 1}, {1 + 1.0/2048, 1}, {1 + 3.0/2048, 1 + 2.0/1024}, {65504, 65504}, {65519.99, 65504},
		{65520, math.Inf(1)}, {-3e-8, -5.960464477539063e-08}, {2e-8, 0}, {0.1, 0.0999755859375}} {
		if got := RoundHalf(c[0]); got != c[1] {
			t.Errorf("RoundHalf(%v) = %v, want %v", c[0], got, c[1])
		}
	}
}
