package text

// parseComplex parses a complex field as NumPy 1.24's loadtxt does
// (to_complex_int in numpy/core/src/multiarray/textreading/conversions.c):
// optional parentheses, whitespace around the field and inside the
// parentheses; then a real part alone ("1.5"), an imaginary part alone
// ("2j"), or both ("1+2j", "1-2j"; after a '+' the imaginary part may
// have a sign of its own: "7+-5j" is 7-5j, "7++5j" 7+5j). Each part is
// the longest prefix Python's float parser reads (pyFloatPrefix), so no
// whitespace may stand inside the number: "1+2 j" and "1 +2j" are
// refused. Unbalanced parentheses are refused.
func parseComplex(b []byte) (re, im float64, ok bool) {
	// number reads the part at b[i:]: its value and where it ends, or -1.
	number := func(i int) (float64, int) {
		n := pyFloatPrefix(b[i:])
		if n == 0 {
			return 0, -1
		}
		x, _ := parsePyFloat(b[i : i+n])
		return x, i + n
	}
	i := skipTextSpace(b, 0)
	paren := i < len(b) && b[i] == '('
	if paren {
		i = skipTextSpace(b, i+1)
	}
	if re, i = number(i); i < 0 {
		return 0, 0, false
	}
	if i == len(b) {
		return re, 0, !paren
	}
	switch b[i] {
	case 'j':
		re, im = 0, re
		i++
	case '+', '-':
		if b[i] == '+' {
			i++
		}
		if im, i = number(i); i < 0 || i == len(b) || b[i] != 'j' {
			return 0, 0, false
		}
		i++
	}
	if paren {
		if i = skipTextSpace(b, i); i == len(b) || b[i] != ')' {
			return 0, 0, false
		}
		i++
	}
	return re, im, skipTextSpace(b, i) == len(b)
}
