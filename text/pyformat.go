package text

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PyFormat is a parsed Python %-format string ("%.3f, %d"): the
// conversions NumPy users give np.savetxt's fmt, d i u x X o e E f F g G
// s r c, with the flags - + space # 0, a width and a precision.
type PyFormat struct {
	parts []pyPart
	convs int // how many arguments the format consumes
}

// pyPart is literal text, or one conversion when conv != 0.
type pyPart struct {
	lit                     string
	conv                    byte
	minus, plus, space, alt bool
	zero                    bool
	width, prec             int // prec < 0: none
}

// ParsePyFormat parses s as Python's % operator does, refusing what it
// refuses (an incomplete spec, an unknown conversion) and what strider
// does not take (mapping keys, * widths).
func ParsePyFormat(s string) (PyFormat, error) {
	var p PyFormat
	lit := strings.Builder{}
	for i := 0; i < len(s); {
		c := s[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		i++
		if i < len(s) && s[i] == '%' {
			lit.WriteByte('%')
			i++
			continue
		}
		part, next, err := parseConversion(s, i)
		if err != nil {
			return PyFormat{}, err
		}
		i = next
		if lit.Len() > 0 {
			p.parts = append(p.parts, pyPart{lit: lit.String()})
			lit.Reset()
		}
		p.parts = append(p.parts, part)
		p.convs++
	}
	if lit.Len() > 0 {
		p.parts = append(p.parts, pyPart{lit: lit.String()})
	}
	return p, nil
}

// parseConversion parses the conversion spec of the format s that starts
// at i, after its '%': flags, width, precision, length modifiers and the
// conversion character. It returns the offset past the spec.
func parseConversion(s string, i int) (pyPart, int, error) {
	part := pyPart{prec: -1}
	for ; i < len(s) && strings.IndexByte("-+ #0", s[i]) >= 0; i++ {
		part.setFlag(s[i])
	}
	if i < len(s) && (s[i] == '(' || s[i] == '*') {
		return pyPart{}, 0, fmt.Errorf("format %q: %%( mapping keys and * widths are not supported", s)
	}
	var ok bool
	if part.width, i, ok = parseFormatCount(s, i); !ok {
		return pyPart{}, 0, fmt.Errorf("format %q: width too big", s)
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i < len(s) && s[i] == '*' {
			return pyPart{}, 0, fmt.Errorf("format %q: * precisions are not supported", s)
		}
		if part.prec, i, ok = parseFormatCount(s, i); !ok {
			return pyPart{}, 0, fmt.Errorf("format %q: precision too big", s)
		}
	}
	for i < len(s) && (s[i] == 'h' || s[i] == 'l' || s[i] == 'L') {
		i++ // length modifiers: accepted and ignored, as Python does
	}
	if i >= len(s) {
		return pyPart{}, 0, fmt.Errorf("format %q: incomplete format", s)
	}
	part.conv = s[i]
	if strings.IndexByte("diuxXoeEfFgGsrc", part.conv) < 0 {
		return pyPart{}, 0, fmt.Errorf("format %q: unsupported format character %q (0x%x) at index %d", s, part.conv, part.conv, i)
	}
	return part, i + 1, nil
}

// setFlag sets the conversion flag c, one of "-+ #0".
func (s *pyPart) setFlag(c byte) {
	switch c {
	case '-':
		s.minus = true
	case '+':
		s.plus = true
	case ' ':
		s.space = true
	case '#':
		s.alt = true
	case '0':
		s.zero = true
	}
}

// parseFormatCount reads the decimal digits of a width or precision at i
// (none is 0) and returns their value and the offset past them; ok is false
// past 2^20.
func parseFormatCount(s string, i int) (n, next int, ok bool) {
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<20 {
			return 0, 0, false
		}
	}
	return n, i, true
}

// minLen is the fewest bytes Append writes for any arguments: the literal
// text (less its '+' signs when plusFree, for a caller that may delete
// each "+-"'s plus) and each conversion at its narrowest, nan or inf for a
// float one.
func (p PyFormat) minLen(plusFree bool) int {
	n := 0
	for _, part := range p.parts {
		if part.conv == 0 {
			n += len(part.lit)
			if plusFree {
				n -= strings.Count(part.lit, "+")
			}
			continue
		}
		n += part.minLen()
	}
	return n
}

// minLen is the narrowest a conversion writes.
func (s pyPart) minLen() int {
	body := 1 // a digit, or str() of a value
	switch s.conv {
	case 'c':
		return max(s.width, body) // one character, no sign
	case 's', 'r':
		if s.prec >= 0 {
			body = min(body, s.prec)
		}
		return max(s.width, body)
	case 'd', 'i', 'u', 'x', 'X', 'o':
		body = max(body, s.prec)
		if s.alt && s.conv != 'd' && s.conv != 'i' && s.conv != 'u' {
			body += 2 // 0x, 0X, 0o
		}
	case 'e', 'E':
		body = 3 // nan and inf; a finite value takes 5 at least (1e+00)
	case 'f', 'F':
		switch {
		case s.prec != 0:
			body = 3 // nan, inf, 0.0 and longer
		case s.alt:
			body = 2 // 0.
		}
	}
	if s.plus || s.space {
		body++
	}
	return max(s.width, body)
}

// Converts reports whether one of p's conversions is conv ('c', 'd', ...).
func (p PyFormat) Converts(conv byte) bool {
	for _, part := range p.parts {
		if part.conv == conv {
			return true
		}
	}
	return false
}

// convertsToInt reports whether a conversion turns its argument into an
// integer (%d %i %u), which fails on a float NaN or infinity.
func (p PyFormat) convertsToInt() bool {
	return p.Converts('d') || p.Converts('i') || p.Converts('u')
}

// PyValue is one argument of a %-format: a bool, an integer (sign and
// magnitude) or a float with the bit size of its NumPy type (for %s).
type PyValue struct {
	Kind    byte // 'b', 'i' or 'f'
	Neg     bool
	Mag     uint64
	F       float64
	BitSize int
}

// Append formats args with p onto dst, as Python's p % tuple(args).
func (p PyFormat) Append(dst []byte, args []PyValue) ([]byte, error) {
	if len(args) < p.convs {
		return dst, fmt.Errorf("not enough arguments for format string")
	}
	if len(args) > p.convs {
		return dst, fmt.Errorf("not all arguments converted during string formatting")
	}
	k := 0
	var err error
	for _, part := range p.parts {
		if part.conv == 0 {
			dst = append(dst, part.lit...)
			continue
		}
		if dst, err = part.format(dst, args[k]); err != nil {
			return dst, err
		}
		k++
	}
	return dst, nil
}

// format appends one converted argument.
func (s pyPart) format(dst []byte, v PyValue) ([]byte, error) {
	switch s.conv {
	case 'c':
		return s.char(dst, v)
	case 's', 'r':
		t := v.str()
		if s.prec >= 0 && s.prec < len(t) {
			t = t[:s.prec]
		}
		return s.pad(dst, "", t, false), nil
	case 'd', 'i', 'u', 'x', 'X', 'o':
		neg, digits, err := s.integer(v)
		if err != nil {
			return dst, err
		}
		if s.prec > len(digits) {
			digits = strings.Repeat("0", s.prec-len(digits)) + digits
		}
		prefix := s.sign(neg)
		if s.alt {
			switch s.conv {
			case 'x':
				prefix += "0x"
			case 'X':
				prefix += "0X"
			case 'o':
				prefix += "0o"
			}
		}
		return s.pad(dst, prefix, digits, true), nil
	}
	x := v.float()
	sign := s.sign(math.Signbit(x) && x == x)
	if s.width == 0 { // nothing to pad: append in place
		return appendPyFloat(append(dst, sign...), math.Abs(x), s.conv, s.prec, s.alt), nil
	}
	body := appendPyFloat(nil, math.Abs(x), s.conv, s.prec, s.alt)
	return s.pad(dst, sign, string(body), true), nil
}

// char appends %c of v: the character of that code point (UTF-8), an
// integer or bool only, justified in the width as one character (Python
// ignores the sign flags, '0' and the precision for it).
func (s pyPart) char(dst []byte, v PyValue) ([]byte, error) {
	switch {
	case v.Kind == 'f':
		return dst, fmt.Errorf("%%c requires int or char, not float%d", v.BitSize)
	case v.Neg && v.Mag != 0 || v.Mag > unicode.MaxRune:
		return dst, fmt.Errorf("%%c arg not in range(0x110000)")
	case v.Mag >= 0xd800 && v.Mag <= 0xdfff:
		return dst, fmt.Errorf("%%c arg 0x%x is a surrogate, which UTF-8 cannot encode", v.Mag)
	}
	c := string(utf8.AppendRune(nil, rune(v.Mag)))
	s.width += len(c) - 1 // pad counts bytes; the width counts one character
	return s.pad(dst, "", c, false), nil
}

// sign is the sign text Python writes before a number.
func (s pyPart) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case s.plus:
		return "+"
	case s.space:
		return " "
	}
	return ""
}

// pad writes prefix and body justified in the width: left with '-',
// zero-filled between them with '0' (numbers only), else right.
func (s pyPart) pad(dst []byte, prefix, body string, number bool) []byte {
	n := s.width - len(prefix) - len(body)
	switch {
	case n <= 0:
		dst = append(append(dst, prefix...), body...)
	case s.minus:
		dst = append(append(dst, prefix...), body...)
		dst = append(dst, strings.Repeat(" ", n)...)
	case s.zero && number:
		dst = append(dst, prefix...)
		dst = append(dst, strings.Repeat("0", n)...)
		dst = append(dst, body...)
	default:
		dst = append(dst, strings.Repeat(" ", n)...)
		dst = append(append(dst, prefix...), body...)
	}
	return dst
}

// integer is the sign and digits of v for an integer conversion: floats
// are truncated as int() does (%d only; %x and %o take integers only).
func (s pyPart) integer(v PyValue) (bool, string, error) {
	base := 10
	switch s.conv {
	case 'x', 'X':
		base = 16
	case 'o':
		base = 8
	}
	if v.Kind == 'f' {
		if base != 10 {
			return false, "", fmt.Errorf("%%%c format: an integer is required, not float%d", s.conv, v.BitSize)
		}
		switch {
		case math.IsNaN(v.F):
			return false, "", fmt.Errorf("cannot convert float NaN to integer")
		case math.IsInf(v.F, 0):
			return false, "", fmt.Errorf("cannot convert float infinity to integer")
		}
		t := math.Trunc(v.F)
		i, _ := new(big.Float).SetFloat64(math.Abs(t)).Int(nil)
		return t < 0, i.String(), nil
	}
	d := strconv.FormatUint(v.Mag, base)
	if s.conv == 'X' {
		d = strings.ToUpper(d)
	}
	return v.Neg && v.Mag != 0, d, nil
}

// float is float(v), as Python converts an argument for %e %f %g.
func (v PyValue) float() float64 {
	if v.Kind == 'f' {
		return v.F
	}
	x := float64(v.Mag)
	if v.Neg {
		x = -x
	}
	return x
}

// str is Python's str() of the NumPy scalar.
func (v PyValue) str() string {
	switch v.Kind {
	case 'b':
		if v.Mag != 0 {
			return "True"
		}
		return "False"
	case 'i':
		t := strconv.FormatUint(v.Mag, 10)
		if v.Neg && v.Mag != 0 {
			t = "-" + t
		}
		return t
	}
	return FormatFloatRepr(v.F, v.BitSize)
}

// appendPyFloat appends a non-negative x (or NaN) as Python's %e %f %g
// (upper case for E F G) with precision prec (-1: 6) and the # flag alt.
// The digits are correctly rounded, as Python's and strconv's are.
func appendPyFloat(dst []byte, x float64, conv byte, prec int, alt bool) []byte {
	if conv == 'e' && prec == 18 {
		// np.savetxt's default, %.18e: 19 digits, past strconv's fast
		// (Ryū) range, so they are worked out here when they can be.
		if out, ok := appendExp18(dst, x); ok {
			return out
		}
	}
	return append(dst, formatPyFloat(x, conv, prec, alt)...)
}

// formatPyFloat is appendPyFloat's general case.
func formatPyFloat(x float64, conv byte, prec int, alt bool) string {
	upper := conv == 'E' || conv == 'F' || conv == 'G'
	var t string
	switch {
	case math.IsNaN(x):
		t = "nan"
	case math.IsInf(x, 0):
		t = "inf"
	}
	if t != "" {
		if upper {
			t = strings.ToUpper(t)
		}
		return t
	}
	if prec < 0 {
		prec = 6
	}
	switch conv {
	case 'e', 'E':
		t = strconv.FormatFloat(x, 'e', prec, 64)
		if alt && prec == 0 {
			t = strings.Replace(t, "e", ".e", 1)
		}
	case 'f', 'F':
		t = strconv.FormatFloat(x, 'f', prec, 64)
		if alt && prec == 0 {
			t += "."
		}
	default: // g, G
		if prec == 0 {
			prec = 1
		}
		e := strconv.FormatFloat(x, 'e', prec-1, 64)
		_, exp := splitExp(e)
		if exp >= -4 && exp < prec {
			t = strconv.FormatFloat(x, 'f', prec-1-exp, 64)
		} else {
			t = e
		}
		if !alt {
			t = trimFractionZeros(t)
		} else if !strings.Contains(t, ".") {
			if i := strings.IndexByte(t, 'e'); i >= 0 {
				t = t[:i] + "." + t[i:]
			} else {
				t += "."
			}
		}
	}
	if upper {
		t = strings.ToUpper(t)
	}
	return t
}

// trimFractionZeros drops trailing zeros of the fraction, and the point
// when nothing follows it: "1.500000" -> "1.5", "1.000e+05" -> "1e+05".
func trimFractionZeros(t string) string {
	mant, exp := t, ""
	if i := strings.IndexByte(t, 'e'); i >= 0 {
		mant, exp = t[:i], t[i:]
	}
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}

// splitExp splits strconv's "d.ddde±XX" into the mantissa and exponent.
func splitExp(s string) (string, int) {
	m, e, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(e)
	return m, exp
}
