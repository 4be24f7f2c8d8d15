package npprint

import (
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"strider/internal/dtype"
)

var (
	halvesOnce sync.Once
	halves     []float64 // every finite binary16 value, ascending, -0 left out
	halfTable  []uint16  // their bits
)

// nearestHalf rounds v to binary16 (ties to even) by search over every
// finite half: the oracle that binary16 output reads back.
func nearestHalf(v float64) uint16 {
	halvesOnce.Do(func() {
		for b := 0; b < 1<<16; b++ {
			if x := dtype.HalfToFloat64(uint16(b)); !math.IsNaN(x) && !math.IsInf(x, 0) && !(x == 0 && b != 0) {
				halves = append(halves, x)
				halfTable = append(halfTable, uint16(b))
			}
		}
		idx := make([]int, len(halves))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return halves[idx[a]] < halves[idx[b]] })
		h, hb := make([]float64, len(idx)), make([]uint16, len(idx))
		for i, k := range idx {
			h[i], hb[i] = halves[k], halfTable[k]
		}
		halves, halfTable = h, hb
	})
	i := sort.SearchFloat64s(halves, v)
	if i == len(halves) {
		return halfTable[i-1]
	}
	if i == 0 || halves[i] == v {
		return halfTable[i]
	}
	lo, hi := v-halves[i-1], halves[i]-v
	if lo < hi || lo == hi && halfTable[i-1]&1 == 0 {
		return halfTable[i-1]
	}
	return halfTable[i]
}

// FuzzFormat checks Dragon4 on any float bits against oracles: the
// shortest (unique) output reads back as the same float and has as few
// significant digits as Go's shortest; the exact output with a precision
// equals strconv's correctly rounded 'e' format; and the strconv fast path
// equals the big-integer path under random options.
func FuzzFormat(f *testing.F) {
	for _, s := range []struct {
		bits uint64
		size int
	}{{0x3c00, 2}, {0x0001, 2}, {0x7bff, 2}, {0x3f800000, 4}, {0x00000001, 4}, {0x3fb999999999999a, 8}, {1, 8}, {0x7fefffffffffffff, 8}} {
		f.Add(s.bits, uint8(s.size), uint8(5))
	}
	f.Fuzz(func(t *testing.T, bits uint64, sizeSel, prec uint8) {
		size := []int{2, 4, 8}[int(sizeSel)%3]
		bits &= 1<<(8*size) - 1
		x := Float{bits, size}
		if !x.IsFinite() {
			return
		}
		v := x.Value()
		for _, sci := range []bool{false, true} {
			s := Format(x, FloatOpts{Scientific: sci, Unique: true, Precision: -1, MinDigits: -1, Trim: '.', PadLeft: -1, PadRight: -1, ExpDigits: -1})
			back, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("%v: %q does not parse: %v", v, s, err)
			}
			var same bool
			switch size {
			case 2:
				same = nearestHalf(back) == uint16(bits) || back == 0 && v == 0
			case 4:
				same = math.Float32bits(float32(back)) == uint32(bits)
			default:
				same = math.Float64bits(back) == bits
			}
			if !same {
				t.Fatalf("f%d %v (bits %#x): %q reads back as %v", 8*size, v, bits, s, back)
			}
			if sci && size > 2 {
				goShort := strconv.FormatFloat(v, 'e', -1, 8*size)
				if got, want := sigDigits(s), sigDigits(goShort); got != want {
					t.Fatalf("f%d %v: %q has %d significant digits, Go's shortest %q has %d", 8*size, v, s, got, goShort, want)
				}
			}
		}
		o := randomOpts(rand.New(rand.NewSource(int64(bits) ^ int64(prec)<<56)))
		if fast, slow := format(x, o, false), format(x, o, true); fast != slow {
			t.Fatalf("f%d %v %+v: fast path %q, Dragon4 %q", 8*size, v, o, fast, slow)
		}
		p := int(prec % 40)
		got := Format(x, FloatOpts{Scientific: true, Unique: false, Precision: p, MinDigits: -1, Trim: 'k', PadLeft: -1, PadRight: -1, ExpDigits: -1})
		if want := strconv.FormatFloat(v, 'e', p, 64); got != want && !(p == 0 && got == strings.Replace(want, "e", ".e", 1)) {
			t.Fatalf("f%d %v precision %d: %q, strconv %q", 8*size, v, p, got, want)
		}
	})
}

// sigDigits counts the mantissa digits of a scientific-notation string.
func sigDigits(s string) int {
	m, _, _ := strings.Cut(s, "e")
	m = strings.TrimLeft(m, "+-")
	m = strings.Replace(m, ".", "", 1)
	return len(m)
}

// randomOpts draws FloatOpts as NumPy accepts them.
func randomOpts(r *rand.Rand) FloatOpts {
	o := FloatOpts{Scientific: r.Intn(2) == 0, Unique: r.Intn(3) != 0, Precision: -1, MinDigits: -1,
		Sign: r.Intn(4) == 0, Trim: Trim("k.0-"[r.Intn(4)]), PadLeft: -1, PadRight: -1, ExpDigits: -1}
	if !o.Unique || r.Intn(2) == 0 {
		o.Precision = r.Intn(25)
	}
	if r.Intn(3) == 0 {
		top := 25
		if o.Precision >= 0 {
			top = o.Precision + 1
		}
		o.MinDigits = r.Intn(top)
	}
	if r.Intn(3) == 0 {
		o.PadLeft = r.Intn(6)
	}
	if r.Intn(3) == 0 {
		o.PadRight = r.Intn(10)
	}
	return o
}

// randomFloat draws bits that are often round decimals, powers of two or
// subnormals, where shortcuts go wrong.
func randomFloat(r *rand.Rand, size int) Float {
	bits := r.Uint64() & (1<<(8*size) - 1)
	switch r.Intn(4) {
	case 0:
		v := float64(r.Intn(200000)-100000) / math.Pow(10, float64(r.Intn(9)))
		switch size {
		case 2:
			bits = uint64(nearestHalf(v))
		case 4:
			bits = uint64(math.Float32bits(float32(v)))
		default:
			bits = math.Float64bits(v)
		}
	case 1:
		mbits := map[int]uint{2: 10, 4: 23, 8: 52}[size]
		bits &^= 1<<mbits - 1 // a power of two
	}
	return Float{bits, size}
}

// TestFastPathEqualsDragon4: the strconv shortcuts give Dragon4's text for
// random values and options.
func TestFastPathEqualsDragon4(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		x := randomFloat(r, []int{2, 4, 8}[r.Intn(3)])
		if !x.IsFinite() {
			continue
		}
		o := randomOpts(r)
		if fast, slow := format(x, o, false), format(x, o, true); fast != slow {
			t.Fatalf("f%d %v (bits %#x) %+v: fast path %q, Dragon4 %q", 8*x.Size, x.Value(), x.Bits, o, fast, slow)
		}
	}
}

// TestFastPathAllHalves: every finite binary16 value, under random
// options, formats the same by the fast path and by Dragon4.
func TestFastPathAllHalves(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	per := 3
	if testing.Short() {
		per = 1
	}
	for b := 0; b < 1<<16; b++ {
		x := Float{uint64(b), 2}
		if !x.IsFinite() {
			continue
		}
		for k := 0; k < per; k++ {
			o := randomOpts(r)
			if fast, slow := format(x, o, false), format(x, o, true); fast != slow {
				t.Fatalf("f16 %v (bits %#x) %+v: fast path %q, Dragon4 %q", x.Value(), b, o, fast, slow)
			}
		}
	}
}
