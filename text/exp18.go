package text

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// digitPairs holds "00" to "99", for writing two digits at a time.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// pow10s are 10^0 .. 10^19, all exact in a uint64.
var pow10s = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// appendExp18 appends x (positive, finite) as strconv.FormatFloat(x, 'e',
// 18, 64) does, exactly, when 1e-4 <= x < 2^53, and reports whether it
// did. x = m * 2^-k with m < 2^53, so its 19 leading digits are
// m * 10^s / 2^k for s = 18 - floor(log10 x) in 3..22: the product fits in
// 128 bits, and the bits shifted out decide the rounding (half to even).
func appendExp18(dst []byte, x float64) ([]byte, bool) {
	if !(x >= 1e-4 && x < 1<<53) {
		return dst, false
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	m := uint64(frac * (1 << 53))
	k := uint(53 - exp) // x = m / 2^k, k in 1..67
	// floor(log10 x) is floor((exp-1)*log10 2) or one more; the loop
	// corrects the estimate.
	e10 := ((exp - 1) * 78913) >> 18
	for try := 0; try < 2; try++ {
		s := 18 - e10
		if s < 0 || s > 22 {
			return dst, false
		}
		d, up, ok := mulPow10Shift(m, s, k)
		switch {
		case !ok:
			return dst, false // D does not fit: the estimate was far off
		case d < pow10s[18]:
			e10-- // the estimate was one too high
			continue
		case d >= 10*pow10s[18]:
			e10++
			continue
		}
		if up {
			d++
			if d == 10*pow10s[18] {
				d, e10 = pow10s[18], e10+1
			}
		}
		return appendDigits19(dst, d, e10), true
	}
	return dst, false
}

// mulPow10Shift returns D = floor(m * 10^s / 2^k), for s in 0..22 and k in
// 1..67, and whether D rounds up: the bits shifted out are more than half,
// or half with D odd (half to even). ok is false when D does not fit in 64
// bits.
func mulPow10Shift(m uint64, s int, k uint) (d uint64, up, ok bool) {
	// N = m * 10^s, 10^s = ph*2^64 + pl.
	var ph, pl uint64
	if s < 20 {
		pl = pow10s[s]
	} else {
		ph, pl = bits.Mul64(pow10s[19], pow10s[s-19])
	}
	hi, lo := bits.Mul64(m, pl)
	hi += m * ph
	// D = N >> k, rem = N mod 2^k.
	var remHi, remLo, halfHi, halfLo uint64
	if k < 64 {
		d = hi<<(64-k) | lo>>k
		if hi>>k != 0 {
			return 0, false, false
		}
		remLo = lo & (1<<k - 1)
		halfLo = 1 << (k - 1)
	} else {
		d = hi >> (k - 64)
		remHi, remLo = hi&(1<<(k-64)-1), lo
		if k == 64 {
			halfLo = 1 << 63
		} else {
			halfHi = 1 << (k - 65)
		}
	}
	up = remHi > halfHi || remHi == halfHi && (remLo > halfLo || remLo == halfLo && d&1 == 1)
	return d, up, true
}

// appendDigits19 appends d, 19 digits, as d.ddddddddddddddddddde±XX with
// the exponent e10.
func appendDigits19(dst []byte, d uint64, e10 int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 25)[:n+24]
	out := dst[n:]
	for k := 18; k >= 2; k -= 2 { // two digits at a time
		pair := d % 100
		d /= 100
		out[k], out[k+1] = digitPairs[2*pair], digitPairs[2*pair+1]
	}
	out[0], out[1], out[20], out[21] = byte('0'+d), '.', 'e', '+'
	if e10 < 0 {
		out[21], e10 = '-', -e10
	}
	if e10 >= 100 { // not reached for x < 2^53, kept for safety
		return strconv.AppendInt(dst[:n+22], int64(e10), 10)
	}
	out[22], out[23] = byte('0'+e10/10), byte('0'+e10%10)
	return dst
}
