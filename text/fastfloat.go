package text

//go:generate go run gen_pow10.go

import (
	"math"
	"math/bits"
)

// scanDecimal reads the longest prefix of b of the form
// [+-]digits[.digits][(e|E)[+-]digits] (at least one mantissa digit, before
// or after the point) and returns its value, correctly rounded to float64,
// and its length. It is strconv.ParseFloat(string(b[:n]), 64) for the
// common case only: ok is false, and the caller must use strconv, when the
// mantissa has more than 19 significant digits, the exponent is out of
// Eisel-Lemire's range (overflow, underflow, subnormals), the rounding is
// a tie Eisel-Lemire cannot settle, or the prefix is not a number at all
// (inf, nan, a bare sign or point, an exponent without digits).
// FuzzScanDecimal compares it with strconv bit for bit.
func scanDecimal(b []byte) (x float64, n int, ok bool) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var man uint64
	nd, digits, exp := 0, 0, 0 // significant digits in man, all digits, power of ten
	// Digits, with one point among them; a fraction digit divides by 10.
	point := false
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' && !point {
			point = true
			continue
		}
		if c-'0' >= 10 {
			break
		}
		digits++
		if point {
			exp--
		}
		if man == 0 && c == '0' {
			continue // leading zeros are not significant digits
		}
		if nd == 19 {
			return 0, 0, false
		}
		man = man*10 + uint64(c-'0')
		nd++
	}
	if digits == 0 {
		return 0, 0, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		e, n := scanExponent(b[i:])
		if n == 0 {
			return 0, 0, false
		}
		i += n
		exp += e
	}
	f, ok := decimalToFloat(man, exp, neg)
	if !ok {
		return 0, 0, false
	}
	return f, i, true
}

// decimalToFloat is man * 10^exp (negated with neg) correctly rounded to
// float64: zero; Clinger's fast path, where both operands are exact so
// there is one rounding; or else Eisel-Lemire, whose ok may be false.
func decimalToFloat(man uint64, exp int, neg bool) (float64, bool) {
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if man < 1<<53 && exp >= -22 && exp <= 22 {
		f := float64(man)
		if exp < 0 {
			f /= float64pow10[-exp]
		} else {
			f *= float64pow10[exp]
		}
		if neg {
			f = -f
		}
		return f, true
	}
	return eiselLemire64(man, exp, neg)
}

// scanExponent reads an exponent at the start of b, its 'e' or 'E' (which
// the caller has seen) then [+-]digits, and returns its value and length;
// n is 0 when no digit follows. Once the value reaches 100000 further
// digits are skipped: the number is 0 or inf anyway. It is small enough
// for the compiler to inline.
func scanExponent(b []byte) (e, n int) {
	n = 1
	if n < len(b) && (b[n] == '+' || b[n] == '-') {
		n++
	}
	start := n
	for ; n < len(b) && b[n]-'0' < 10; n++ {
		if e < 100000 {
			e = e*10 + int(b[n]-'0')
		}
	}
	if n == start {
		return 0, 0
	}
	if b[1] == '-' {
		e = -e
	}
	return e, n
}

// float64pow10 holds the powers of ten that float64 represents exactly.
var float64pow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
	1e20, 1e21, 1e22,
}

// eiselLemire64 is man * 10^exp10 correctly rounded to float64, or ok false
// where the 128-bit product cannot decide the rounding or the result is
// not a normal float64. It is Go's internal/strconv eiselLemire64 (after
// Lemire's fast_double_parser and Nigel Tao's write-up,
// https://nigeltao.github.io/blog/2020/eisel-lemire.html), with the same
// table of powers (pow10tab.go) and the same answer.
func eiselLemire64(man uint64, exp10 int, neg bool) (float64, bool) {
	if exp10 < pow10Min || exp10 > pow10Max {
		return 0, false
	}
	pow := &pow10Tab[exp10-pow10Min]
	// Normalization; 217706/2^16 is log2(10), floor(exp10*log2(10)) exact
	// over the table's range.
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	retExp2 := uint64(217706*exp10>>16+64+1023) - uint64(clz)
	// Multiplication.
	xHi, xLo := bits.Mul64(man, pow[0])
	// Wider approximation, where the low bits could carry into the result.
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	// Shifting to 54 bits.
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	// Half-way ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}
	// From 54 to 53 bits.
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	// Subnormal, zero, inf: leave them to strconv.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	retBits := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		retBits |= 1 << 63
	}
	return math.Float64frombits(retBits), true
}
