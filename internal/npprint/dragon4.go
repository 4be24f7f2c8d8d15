package npprint

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"

	"strider/internal/dtype"
)

// Float is the bits of an IEEE 754 binary16, binary32 or binary64 value
// and its size in bytes (2, 4 or 8).
type Float struct {
	Bits uint64
	Size int
}

// Trim is Dragon4's post-processing of trailing zeros (numpy's trim
// argument): 'k' keeps them and the point, '.' drops trailing zeros but
// keeps the point, '0' keeps one zero after the point, '-' drops trailing
// zeros and the point.
type Trim byte

// FloatOpts are the arguments of numpy.format_float_positional and
// numpy.format_float_scientific; -1 stands for None.
type FloatOpts struct {
	Scientific bool
	Unique     bool
	Precision  int
	MinDigits  int
	Sign       bool // '+' before non-negative values
	Trim       Trim
	PadLeft    int
	PadRight   int // positional only
	ExpDigits  int // scientific only
}

// bufferSize is the size of NumPy's Dragon4 output buffer (its repr
// scratch), which bounds the digits of any one number.
const bufferSize = 16384

// parts splits f into sign, the integer mantissa and binary exponent of
// its value (mantissa * 2^exponent), the index of the mantissa's highest
// bit, whether the upper margin is twice the lower one, and whether it is
// a NaN or an infinity. It is Dragon4_PrintFloat_IEEE_binaryN's prologue.
func (f Float) parts() (neg bool, mant uint64, exp, mantBit int, unequal, inf, nan bool) {
	var mbits, ebits, bias int
	switch f.Size {
	case 2:
		mbits, ebits, bias = 10, 5, 15
	case 4:
		mbits, ebits, bias = 23, 8, 127
	default:
		mbits, ebits, bias = 52, 11, 1023
	}
	fm := f.Bits & (1<<mbits - 1)
	fe := int(f.Bits>>mbits) & (1<<ebits - 1)
	neg = f.Bits>>(mbits+ebits)&1 != 0
	if fe == 1<<ebits-1 {
		return neg, fm, 0, 0, false, fm == 0, fm != 0
	}
	if fe != 0 {
		return neg, 1<<mbits | fm, fe - bias - mbits, mbits, fe != 1 && fm == 0, false, false
	}
	bit := 0
	if fm != 0 {
		bit = 63 - leadingZeros64(fm)
	}
	return neg, fm, 1 - bias - mbits, bit, false, false, false
}

func leadingZeros64(x uint64) int {
	n := 0
	for x&(1<<63) == 0 {
		x <<= 1
		n++
	}
	return n
}

// Value is f as a float64 (exact: every binary16 and binary32 is one).
func (f Float) Value() float64 {
	switch f.Size {
	case 2:
		return dtype.HalfToFloat64(uint16(f.Bits))
	case 4:
		return float64(math.Float32frombits(uint32(f.Bits)))
	}
	return math.Float64frombits(f.Bits)
}

// IsFinite reports whether f is neither NaN nor infinite.
func (f Float) IsFinite() bool {
	_, _, _, _, _, inf, nan := f.parts()
	return !inf && !nan
}

// SignBit reports whether f's sign bit is set (-0.0 included).
func (f Float) SignBit() bool { return f.Bits>>(8*f.Size-1)&1 != 0 }

// Format is numpy's dragon4_positional / dragon4_scientific of f.
func Format(f Float, o FloatOpts) string { return format(f, o, false) }

// format is Format; slow forces the big-integer path, for tests.
func format(f Float, o FloatOpts, slow bool) string {
	neg, mant, exp, mantBit, unequal, inf, nan := f.parts()
	sign := byte(0)
	if neg {
		sign = '-'
	} else if o.Sign {
		sign = '+'
	}
	if nan {
		return "nan"
	}
	if inf {
		if sign != 0 {
			return string(sign) + "inf"
		}
		return "inf"
	}
	d := digitGen{mant: mant, exp: exp, mantBit: mantBit, unequal: unequal, unique: o.Unique,
		value: math.Abs(f.Value()), bitSize: 8 * f.Size, noFast: slow}
	if o.Scientific {
		return formatScientific(&d, sign, o)
	}
	return formatPositional(&d, sign, o)
}

// digitGen holds one Dragon4 conversion's input: the value
// mant * 2^exp, the index of mant's highest set bit, whether the high
// margin is twice the low one, and the digit mode.
type digitGen struct {
	mant    uint64
	exp     int
	mantBit int
	unequal bool
	unique  bool

	value   float64 // the same value, for the fast path
	bitSize int     // 16, 32 or 64
	noFast  bool    // tests: always take Dragon4's big-integer path
}

// run is NumPy's Dragon4: the decimal digits of the value and the decimal
// exponent of the first one. With a cutoff (cutoffMax >= 0) it stops at
// that many digits in all (total) or after the point (!total), and in
// unique mode it goes on to at least cutoffMin digits. bufSize bounds the
// digit count, as NumPy's output buffer does.
func (d *digitGen) run(total bool, cutoffMax, cutoffMin, bufSize int) ([]byte, int) {
	// If the mantissa is zero, the value is zero whatever the exponent.
	if d.mant == 0 {
		return []byte{'0'}, 0
	}
	if digits, exp, ok := d.fast(total, cutoffMax, cutoffMin); ok {
		return digits, exp
	}
	var s scaledValue
	s.init(d)
	digitExp := s.toFirstDigit(d.mantBit+d.exp, total, cutoffMax)
	outExp := digitExp - 1 // the exponent of the first digit
	// The exponents of the last digit to print (the buffer's end unless
	// the cutoff comes first) and of the first digit unique mode may stop
	// at (min_digits' cutoff).
	cutMaxExp := digitExp - bufSize
	if cutoffMax >= 0 {
		cutMaxExp = max(cutMaxExp, cutoffExp(digitExp, cutoffMax, total))
	}
	cutMinExp := digitExp
	if cutoffMin >= 0 {
		cutMinExp = min(cutMinExp, cutoffExp(digitExp, cutoffMin, total))
	}

	var digits []byte
	var low, hi bool
	var digit int64
	if d.unique {
		digits, digit, low, hi = s.uniqueDigits(digitExp, cutMinExp, cutMaxExp, d.mant%2 == 0)
	} else {
		digits, digit = s.exactDigits(digitExp, cutMaxExp)
	}
	return s.roundLast(digits, digit, low, hi, outExp)
}

// uniqueDigits is Dragon4's unique mode: it prints digits until they tell
// the value from its neighbours (and reach min_digits' cutoff, cutMinExp),
// or to the cutoff cutMaxExp, starting at the exponent digitExp. It
// returns the digits before the last, the last, and whether the value is
// within the low and high margins of it. With even, a value on a margin
// rounds to it (the mantissa is even: ties go its way).
func (s *scaledValue) uniqueDigits(digitExp, cutMinExp, cutMaxExp int, even bool) (digits []byte, digit int64, low, hi bool) {
	q := new(big.Int)
	valueHigh := new(big.Int)
	for {
		digitExp--
		q.QuoRem(&s.value, &s.scale, &s.value)
		digit = q.Int64()
		valueHigh.Add(&s.value, s.high())
		c := s.value.Cmp(&s.marginLow)
		low = c < 0 || even && c == 0
		c = valueHigh.Cmp(&s.scale)
		hi = c > 0 || even && c == 0
		if (low || hi) && digitExp <= cutMinExp || digitExp == cutMaxExp {
			return digits, digit, low, hi
		}
		digits = append(digits, byte('0'+digit))
		s.times10()
	}
}

// exactDigits is Dragon4's exact mode: it prints digits until the
// remaining ones are all zeros, or to the cutoff cutMaxExp, starting at
// the exponent digitExp, and returns the digits before the last and the
// last.
func (s *scaledValue) exactDigits(digitExp, cutMaxExp int) (digits []byte, digit int64) {
	q := new(big.Int)
	for {
		digitExp--
		q.QuoRem(&s.value, &s.scale, &s.value)
		digit = q.Int64()
		if s.value.Sign() == 0 || digitExp == cutMaxExp {
			return digits, digit
		}
		digits = append(digits, byte('0'+digit))
		s.value.Mul(&s.value, bigTen)
	}
}

// cutoffExp is the exponent of the last digit that a cutoff of n digits
// lets through: n digits in all from a first digit of exponent first-1
// (total: dragon4.c's CutoffMode_TotalLength), or n digits after the point.
func cutoffExp(first, n int, total bool) int {
	if total {
		return first - n
	}
	return -n
}

// scaledValue is Dragon4's big-integer state: the value is value/scale,
// and marginLow/scale and high()/scale are half the distances to the
// neighbouring floats below and above. With equal margins high is
// marginLow (dragon4.c's scaledMarginHigh pointing at scaledMarginLow);
// with unequal ones it is marginHigh, kept at twice marginLow. run keeps
// one on its stack (the integers' headers off the heap); it must not be
// copied.
type scaledValue struct {
	value, scale, marginLow, marginHigh big.Int
	unequal                             bool
}

// bigTen is the output base; read only.
var bigTen = big.NewInt(10)

// init is Dragon4's start: s becomes d's value mant * 2^exp as a ratio
// of integers, both doubled (doubled again with unequal margins) so that
// the margins, each half a step to the neighbouring float, are integers.
func (s *scaledValue) init(d *digitGen) {
	s.value.SetUint64(d.mant)
	s.unequal = d.unequal
	if d.unequal {
		if d.exp > 0 {
			// A whole number: value = 2 * 2 * mant*2^exp, scale = 2 * 2.
			s.value.Lsh(&s.value, uint(d.exp+2))
			s.scale.SetInt64(4)
			s.marginLow.Lsh(big.NewInt(1), uint(d.exp))
			s.marginHigh.Lsh(big.NewInt(1), uint(d.exp+1))
		} else {
			// A fraction: value = 2 * 2 * mant, scale = 2 * 2 * 2^-exp.
			s.value.Lsh(&s.value, 2)
			s.scale.Lsh(big.NewInt(1), uint(-d.exp+2))
			s.marginLow.SetInt64(1)
			s.marginHigh.SetInt64(2)
		}
		return
	}
	if d.exp > 0 {
		s.value.Lsh(&s.value, uint(d.exp+1))
		s.scale.SetInt64(2)
		s.marginLow.Lsh(big.NewInt(1), uint(d.exp))
	} else {
		s.value.Lsh(&s.value, 1)
		s.scale.Lsh(big.NewInt(1), uint(-d.exp+1))
		s.marginLow.SetInt64(1)
	}
}

// toFirstDigit divides the value by the power of ten that leaves
// value/scale in [1, 10), its integer part the first digit, and returns
// digitExp, that digit's exponent plus one. log2 is floor(log2(value)),
// from which digitExp is estimated as Burger and Dybvig do: right or one
// too low, and the 0.69 makes it low more often, which saves a
// multiplication by ten. A fractional cutoff above the estimate raises it
// to the cutoff, leaving the value under 1, so that the digits round there.
func (s *scaledValue) toFirstDigit(log2 int, total bool, cutoffMax int) int {
	const log10of2 = 0.30102999566398119521373889472449
	digitExp := int(math.Ceil(float64(log2)*log10of2 - 0.69))
	if cutoffMax >= 0 && !total && digitExp <= -cutoffMax {
		digitExp = -cutoffMax + 1
	}
	if digitExp > 0 {
		// A positive exponent divides: multiply the scale.
		s.scale.Mul(&s.scale, pow10(digitExp))
	} else if digitExp < 0 {
		// A negative one multiplies the value and the margins.
		p := pow10(-digitExp)
		s.value.Mul(&s.value, p)
		s.marginLow.Mul(&s.marginLow, p)
		if s.unequal {
			s.marginHigh.Lsh(&s.marginLow, 1)
		}
	}
	if s.value.Cmp(&s.scale) >= 0 {
		return digitExp + 1 // value >= 1: the estimate was one too low
	}
	s.times10()
	return digitExp
}

// high is the high margin.
func (s *scaledValue) high() *big.Int {
	if s.unequal {
		return &s.marginHigh
	}
	return &s.marginLow
}

// times10 multiplies the value and the margins by the output base, for
// the next digit.
func (s *scaledValue) times10() {
	s.value.Mul(&s.value, bigTen)
	s.marginLow.Mul(&s.marginLow, bigTen)
	if s.unequal {
		s.marginHigh.Lsh(&s.marginLow, 1)
	}
}

// roundLast appends the last digit, rounded as dragon4.c does after its
// digit loops: down where only the low margin was in reach, up where only
// the high one was, and otherwise (both, neither, or exact mode) to the
// nearer of digit and digit+1, ties to the even one. outExp is the
// exponent of the first digit, which a carry out of the first raises.
func (s *scaledValue) roundLast(digits []byte, digit int64, low, hi bool, outExp int) ([]byte, int) {
	roundDown := low
	if low == hi {
		// compare(value, 0.5) as compare(2*value, scale).
		s.value.Lsh(&s.value, 1)
		c := s.value.Cmp(&s.scale)
		roundDown = c < 0
		if c == 0 {
			roundDown = digit&1 == 0
		}
	}
	if roundDown {
		return append(digits, byte('0'+digit)), outExp
	}
	if digit < 9 {
		return append(digits, byte('0'+digit+1)), outExp
	}
	// Carry into the digits before: drop trailing nines, bump the first
	// other digit, or start over at 1 one exponent up.
	for len(digits) > 0 && digits[len(digits)-1] == '9' {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		return []byte{'1'}, outExp + 1
	}
	digits[len(digits)-1]++
	return digits, outExp
}

// fast is run through strconv where the result is sure to be the same:
// Go's shortest digits are Dragon4's unique digits (both pick the shortest
// string in the rounding interval, boundaries included for an even
// mantissa, the nearer one on a choice), and strconv's digits at a given
// precision are the exact value's, rounded half to even, as Dragon4's exact
// mode and its unique mode cut short before uniqueness are. It reports
// false where only the big-integer path knows the answer: unique digits
// that min_digits extends past uniqueness, binary16's shortest digits, and
// no cutoff in exact mode.
func (d *digitGen) fast(total bool, cutoffMax, cutoffMin int) ([]byte, int, bool) {
	if d.noFast || cutoffMax > 400 {
		return nil, 0, false
	}
	var buf [32]byte
	n := cutoffMax // digits in all (total) or after the point to round to
	if d.unique {
		digits, e := d.shortest(buf[:0])
		if digits == nil {
			return nil, 0, false
		}
		last := e - len(digits) + 1 // exponent of the last digit
		first := e + 1              // Dragon4's digitExp before the first digit
		cutMax, cutMin := math.MinInt, first
		if cutoffMax >= 0 {
			cutMax = cutoffExp(first, cutoffMax, total)
		}
		if cutoffMin >= 0 {
			cutMin = min(cutMin, cutoffExp(first, cutoffMin, total))
		}
		switch {
		case last < cutMax:
			// Cut before uniqueness: the exact value rounded there.
		case last <= cutMin && d.lastExactDigit() != last-1:
			// (When the exact value ends one digit after the shortest
			// digits it may be a tie between two of them, which Dragon4
			// breaks to even and Go's shortest may not.)
			return digits, e, true
		case last > cutMin && cutMin >= cutMax && !d.unequal && d.lastExactDigit() != cutMin-1 &&
			!(len(digits) == 1 && digits[0] == '1'):
			// min_digits past uniqueness: Dragon4 goes on with the exact
			// digits and rounds the one at cutMin. With equal margins and
			// no tie that is the nearest digit. (A lone 1 may be a carry
			// past a power of ten, which puts first one too high.)
			n = cutoffMin
		default:
			return nil, 0, false
		}
	} else if cutoffMax < 0 {
		return nil, 0, false
	}
	return d.rounded(buf[:0], total, n)
}

// shortest returns the shortest digits that read back as the value, and
// the exponent of the first: Go's, or for float16 shortestHalf's; nil
// where shortestHalf has none.
func (d *digitGen) shortest(buf []byte) ([]byte, int) {
	if d.bitSize == 16 {
		return d.shortestHalf(buf)
	}
	return splitE(strconv.AppendFloat(buf, d.value, 'e', -1, d.bitSize))
}

// rounded is fast's exact digits: the value rounded to n digits in all
// (total) or n after the point, by strconv, and ok false where exactEnd
// cannot vouch for the last digit as Dragon4's.
func (d *digitGen) rounded(buf []byte, total bool, n int) ([]byte, int, bool) {
	if total {
		if n == 0 {
			return nil, 0, false // Dragon4 still prints one digit
		}
		text := strconv.AppendFloat(buf, d.value, 'e', n-1, 64)
		digits, e := splitE(text)
		digits, ok := d.exactEnd(digits, text, e-n+1)
		return digits, e, ok
	}
	text := strconv.AppendFloat(buf, d.value, 'f', n, 64)
	digits, e := splitF(text)
	if digits == nil {
		return []byte{'0'}, -n, true
	}
	digits, ok := d.exactEnd(digits, text, -n)
	return digits, e, ok
}

// exactEnd gives strconv's rounded digits (text is the whole number)
// Dragon4's ending. Exact mode stops at the exact value's last digit, where
// strconv pads with zeros (unique mode goes on with zeros); a carry out of
// trailing nines drops the zeros it leaves, where strconv keeps them; zeros
// that are digits of the value rounded down stay. It reports false when
// the direction of the rounding is not plain from a float64 comparison.
func (d *digitGen) exactEnd(digits, text []byte, cutMax int) ([]byte, bool) {
	if digits[len(digits)-1] != '0' {
		return digits, true
	}
	var strip bool
	if d.lastExactDigit() >= cutMax {
		strip = !d.unique // no rounding: the zeros are the value's own
	} else {
		r, err := strconv.ParseFloat(string(text), 64)
		if err != nil || r == d.value {
			return nil, false
		}
		strip = r > d.value // rounded up: the zeros are a carry's
	}
	if strip {
		for len(digits) > 1 && digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
	}
	return digits, true
}

// lastExactDigit is the decimal exponent of the last nonzero digit of the
// exact value mant * 2^exp: with mant odd, exp itself for a fraction
// (m/2^k has exactly k decimals), else the trailing zeros of the integer.
func (d *digitGen) lastExactDigit() int {
	m, e := d.mant, d.exp
	for m%2 == 0 {
		m /= 2
		e++
	}
	if e < 0 {
		return e
	}
	fives := 0
	for m%5 == 0 && fives < e {
		m /= 5
		fives++
	}
	return fives
}

// shortestHalf is the shortest digits of a binary16 value (strconv has
// no 16-bit shortest): the first correctly rounded p-digit decimal that
// reads back as the value. With equal margins the rounding interval is
// symmetric, so the nearest p-digit decimal is in it if any is, and ties
// go to the even digit in both; a power of two (unequal margins) gets nil.
// Reading back through float64 cannot round twice wrongly: a 5-digit
// decimal is never within a float64 ulp of a binary16 midpoint unless it
// is the midpoint.
func (d *digitGen) shortestHalf(buf []byte) ([]byte, int) {
	if d.unequal {
		return nil, 0
	}
	want := dtype.Float64ToHalf(d.value)
	for p := 1; p <= 5; p++ {
		t := strconv.AppendFloat(buf[:0], d.value, 'e', p-1, 64)
		r, err := strconv.ParseFloat(string(t), 64)
		if err == nil && dtype.Float64ToHalf(r) == want {
			return splitE(t)
		}
	}
	return nil, 0
}

// splitF splits strconv's "ddd.ddd" into its digits from the first
// nonzero one and that one's decimal exponent; digits is nil for zero.
func splitF(text []byte) ([]byte, int) {
	point := len(text)
	var digits []byte
	e := 0
	for i, c := range text {
		if c == '.' {
			point = i
			continue
		}
		if len(digits) == 0 && c == '0' {
			continue
		}
		if len(digits) == 0 {
			e = i
		}
		digits = append(digits, c)
	}
	if len(digits) == 0 {
		return nil, 0
	}
	if e < point {
		return digits, point - e - 1
	}
	return digits, point - e
}

// splitE splits strconv's "d.ddde±XX" into its digits and decimal
// exponent.
func splitE(b []byte) ([]byte, int) {
	i := len(b) - 1
	for b[i] != 'e' {
		i--
	}
	e, _ := strconv.Atoi(string(b[i+1:]))
	digits := make([]byte, 0, i)
	for _, c := range b[:i] {
		if c != '.' {
			digits = append(digits, c)
		}
	}
	return digits, e
}

// pow10Cache holds 10^n for n up to 400, made on first use; Format may be
// called from several goroutines.
var pow10Cache sync.Map // int -> *big.Int

// pow10 returns 10^n; the result must not be modified.
func pow10(n int) *big.Int {
	if p, ok := pow10Cache.Load(n); ok {
		return p.(*big.Int)
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	if n <= 400 {
		pow10Cache.Store(n, p)
	}
	return p
}

// formatPositional is dragon4.c's FormatPositional, with fractional
// cutoff (the only mode array printing uses).
func formatPositional(d *digitGen, sign byte, o FloatOpts) string {
	maxPrintLen := bufferSize - 1
	hasSign := 0
	var buf [64]byte // on the stack: most numbers fit
	b := buf[:0]
	if sign != 0 {
		b = append(b, sign)
		hasSign = 1
	}
	digits, printExp := d.run(false, o.Precision, o.MinDigits, maxPrintLen-hasSign)
	b, numWhole, numFrac := appendPositional(b, digits, printExp)
	b, numFrac = finishFraction(b, numFrac, d.unique, o, true)
	if o.PadRight >= numFrac {
		if o.Trim == '-' && numFrac == 0 {
			b = append(b, ' ')
		}
		for k := numFrac; k < o.PadRight; k++ {
			b = append(b, ' ')
		}
	}
	s := string(b)
	if shift := o.PadLeft - (numWhole + hasSign); shift > 0 {
		s = strings.Repeat(" ", shift) + s
	}
	return s
}

// appendPositional appends the digits, the first of exponent printExp, as
// "ddd", "dd.ddd" or "0.000ddd" (whole numbers padded with zeros), and
// returns the counts of digits before and after the point.
func appendPositional(b, digits []byte, printExp int) (out []byte, numWhole, numFrac int) {
	if printExp < 0 {
		zeros := -(printExp + 1)
		b = append(b, '0', '.')
		for k := 0; k < zeros; k++ {
			b = append(b, '0')
		}
		return append(b, digits...), 1, zeros + len(digits)
	}
	numWhole = printExp + 1
	if len(digits) <= numWhole {
		b = append(b, digits...)
		for k := len(digits); k < numWhole; k++ {
			b = append(b, '0')
		}
		return b, numWhole, 0
	}
	b = append(b, digits[:numWhole]...)
	b = append(b, '.')
	return append(b, digits[numWhole:]...), numWhole, len(digits) - numWhole
}

// finishFraction is the end of the fraction, which dragon4.c's
// FormatPositional and FormatScientific share: a point after a whole
// number unless trim is '-'; then trim 'k' pads with zeros to the precision
// (min_digits in unique mode) and '0' puts a zero after a bare point, while
// the other trims drop trailing zeros, '0' keeping one. It returns the
// count of digits after the point. A point left bare by the dropping stays
// but for positional '-' (dropBarePoint): NumPy's
// format_float_scientific(1.0, min_digits=3, trim='-') is "1.e+00".
func finishFraction(b []byte, numFrac int, unique bool, o FloatOpts, dropBarePoint bool) ([]byte, int) {
	if o.Trim != '-' && numFrac == 0 {
		b = append(b, '.')
	}
	desired := o.Precision
	if unique {
		desired = o.MinDigits
	}
	switch o.Trim {
	case '0':
		if numFrac == 0 {
			b = append(b, '0')
			numFrac++
		}
	case 'k':
		for ; numFrac < desired; numFrac++ {
			b = append(b, '0')
		}
	}
	if o.Trim != 'k' && numFrac > 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
			numFrac--
		}
		if b[len(b)-1] == '.' {
			switch {
			case o.Trim == '0':
				b = append(b, '0')
				numFrac++
			case o.Trim == '-' && dropBarePoint:
				b = b[:len(b)-1]
			}
		}
	}
	return b, numFrac
}

// formatScientific is dragon4.c's FormatScientific.
func formatScientific(d *digitGen, sign byte, o FloatOpts) string {
	var buf [64]byte // on the stack: most numbers fit
	b := buf[:0]
	left := 1
	if sign != 0 {
		left++
	}
	for k := left; k < o.PadLeft; k++ {
		b = append(b, ' ')
	}
	if sign != 0 {
		b = append(b, sign)
	}
	cutMax, cutMin := -1, -1
	if o.Precision >= 0 {
		cutMax = o.Precision + 1
	}
	if o.MinDigits >= 0 {
		cutMin = o.MinDigits + 1
	}
	digits, printExp := d.run(true, cutMax, cutMin, bufferSize-len(b))
	b = append(b, digits[0])
	numFrac := len(digits) - 1
	if numFrac > 0 {
		b = append(b, '.')
		b = append(b, digits[1:]...)
	}
	b, _ = finishFraction(b, numFrac, d.unique, o, false)
	return string(appendExp(b, printExp, o.ExpDigits))
}

// appendExp appends the exponent as "e+XX": the sign, then at least
// expDigits digits (two for -1) and no leading zeros past that, with at
// most five digits in all, as NumPy's buffer for them has.
func appendExp(b []byte, exp, expDigits int) []byte {
	if expDigits > 5 {
		expDigits = 5
	}
	if expDigits < 0 {
		expDigits = 2
	}
	b = append(b, 'e')
	if exp >= 0 {
		b = append(b, '+')
	} else {
		b = append(b, '-')
		exp = -exp
	}
	var ed [5]byte
	for k := 0; k < 5; k++ {
		ed[k] = byte('0' + exp%10)
		exp /= 10
	}
	n := 5
	for n > expDigits && ed[n-1] == '0' {
		n--
	}
	for k := n; k > 0; k-- {
		b = append(b, ed[k-1])
	}
	return b
}
