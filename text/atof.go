package text

import (
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// parsePyFloat parses a float as NumPy's loadtxt does (PyOS_string_to_double
// after stripping whitespace): an optional sign, then decimal digits with
// an optional point and exponent, or inf, infinity, nan in any case. No
// underscores, no hexadecimal. Overflow gives ±inf, underflow 0.
func parsePyFloat(b []byte) (float64, bool) {
	b = trimTextSpace(b)
	if x, n, ok := scanDecimal(b); ok && n == len(b) {
		return x, true
	}
	if n := len(b); n >= 3 && (b[n-1]|0x20) == 'n' && (b[n-2]|0x20) == 'a' {
		// nan, with its sign: Python's NaN has no payload (strconv's does).
		if !floatSyntax(b) {
			return 0, false
		}
		return math.Copysign(math.Float64frombits(0x7ff8000000000000), map[bool]float64{true: -1, false: 1}[b[0] == '-']), true
	}
	// strconv reads a superset of Python's grammar: hexadecimal (which
	// needs an x) and underscores (only after a base prefix). Anything
	// else it accepts, Python accepts.
	for _, c := range b {
		if c == 'x' || c == 'X' || c == '_' {
			return 0, false
		}
	}
	x, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return x, true
}

// parseUnderscored is Python's float() of a field with underscores
// (PEP 515): each one between two digits, then dropped.
func parseUnderscored(b []byte) (float64, bool) {
	b = trimTextSpace(b)
	digits := make([]byte, 0, len(b))
	for i, c := range b {
		if c != '_' {
			digits = append(digits, c)
			continue
		}
		if i == 0 || i == len(b)-1 || b[i-1]-'0' >= 10 || b[i+1]-'0' >= 10 {
			return 0, false
		}
	}
	if len(digits) == len(b) {
		return 0, false
	}
	return parsePyFloat(digits)
}

// floatSyntax checks b against Python's float grammar (ASCII only).
func floatSyntax(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	rest := b[i:]
	if len(rest) == 3 || len(rest) == 8 {
		w := strings.ToLower(string(rest))
		if w == "inf" || w == "nan" || w == "infinity" {
			return true
		}
	}
	digits := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		e := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			e++
		}
		if e == 0 {
			return false
		}
	}
	return i == len(b)
}

// pyFloatPrefix is the length of the longest prefix of b that Python's
// PyOS_string_to_double reads when it is given an end pointer, 0 where b
// does not start with a number (whitespace included): a sign, then inf,
// infinity or nan in any case, or digits with an optional point and an
// exponent, which counts only with digits ("1e+j" reads "1").
func pyFloatPrefix(b []byte) int {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	word := func(w string) bool { return len(b)-i >= len(w) && strings.EqualFold(string(b[i:i+len(w)]), w) }
	switch {
	case word("infinity"):
		return i + 8
	case word("inf"), word("nan"):
		return i + 3
	}
	digits := 0
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i]-'0' < 10; i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && b[j]-'0' < 10 {
			for j < len(b) && b[j]-'0' < 10 {
				j++
			}
			i = j
		}
	}
	return i
}
