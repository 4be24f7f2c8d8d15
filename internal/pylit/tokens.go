package pylit

import (
	"fmt"
	"math/big"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokLBrack
	tokRBrack
	tokLParen
	tokRParen
	tokComma
	tokColon
	tokEllipsis
	tokPlus
	tokMinus
	tokInt
	tokName
)

type token struct {
	kind tokKind
	pos  int // byte offset in the expression
	text string
	val  *big.Int // tokInt
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "the end of the expression"
	case tokInt, tokName:
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("'%s'", t.text)
}

func bigInt(v int64) *big.Int { return big.NewInt(v) }

// isNameByte is a byte of a name or of a number's text in an index
// expression; bytes of non-ASCII characters count, so that a stray letter
// is reported whole.
func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c >= 0x80
}

var punct = map[byte]tokKind{'[': tokLBrack, ']': tokRBrack, '(': tokLParen, ')': tokRParen,
	',': tokComma, ':': tokColon, '+': tokPlus, '-': tokMinus}

// tokenize splits an index expression into tokens, checking integer
// literals as Python does. Every byte is read before parsing starts, so a
// stray character is reported wherever it stands.
func tokenize(s string) ([]token, error) {
	if !utf8.ValidString(s) {
		i := 0
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
		}
		return nil, indexError(s, i, "invalid UTF-8")
	}
	var toks []token
	sc := scanner{src: s, space: indexSpace}
	for sc.skipSpace(); sc.pos < len(s); sc.skipSpace() {
		t, err := sc.indexToken()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
	}
	return append(toks, token{kind: tokEOF, pos: len(s)}), nil
}

// indexToken reads the token at the current position.
func (sc *scanner) indexToken() (token, error) {
	s, i := sc.src, sc.pos
	c := s[i]
	switch {
	case punct[c] != tokEOF:
		sc.pos++
		return token{kind: punct[c], pos: i, text: s[i : i+1]}, nil
	case c == '.' && strings.HasPrefix(s[i:], "..."):
		sc.pos += 3
		return token{kind: tokEllipsis, pos: i, text: "..."}, nil
	case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
		j := i
		for j < len(s) && (isNameByte(s[j]) || s[j] == '.' ||
			(s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E') && !strings.ContainsAny(s[i:j], "xXbBoO")) {
			j++
		}
		sc.pos = j
		v, err := indexInt(s, i, s[i:j])
		return token{kind: tokInt, pos: i, text: s[i:j], val: v}, err
	case isNameByte(c):
		j := i
		for j < len(s) && (isNameByte(s[j]) || s[j] == '.' && j+1 < len(s) && isNameByte(s[j+1]) && !isDigit(s[j+1])) {
			j++
		}
		sc.pos = j
		return token{kind: tokName, pos: i, text: s[i:j]}, nil
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return token{}, indexError(s, i, "unexpected character %q", r)
}

// indexInt reads the text of a number token of an index expression, which
// must be one integer literal. Floats are NumPy's "only integers ..." error.
func indexInt(s string, pos int, text string) (*big.Int, error) {
	lit := scanInt(text)
	if lit.end == len(text) {
		switch lit.problem {
		case intOK:
			return lit.val, nil
		case intLeadingZero:
			return nil, indexError(s, pos, "leading zeros in decimal integer literals are not permitted: %q", text)
		}
	}
	if !isPrefixed(text) && isFloatLiteral(strings.ToLower(text)) {
		return nil, indexError(s, pos, "%s is not an integer: %s", text, invalidIndexMsg)
	}
	return nil, indexError(s, pos, "invalid integer literal %q", text)
}

// isFloatLiteral reports whether t (lower case) is a Python float or
// imaginary literal such as 1.5, .5, 1e3, 2j.
func isFloatLiteral(t string) bool {
	if !strings.ContainsAny(t, ".ej") {
		return false
	}
	t = strings.TrimSuffix(strings.ReplaceAll(t, "_", ""), "j")
	mant, exp, hasExp := strings.Cut(t, "e")
	if hasExp {
		exp = strings.TrimLeft(exp, "+-")
		if exp == "" || strings.Trim(exp, "0123456789") != "" {
			return false
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	return intPart+frac != "" && strings.Trim(intPart+frac, "0123456789") == ""
}

// sliceHint is the text inside the list that opens at open, for the hint
// that a[[1:3]] is written a[1:3].
func sliceHint(s string, open token) string {
	end := len(s)
	if toks, err := tokenize(s); err == nil {
		for i, t := range toks {
			if t.pos == open.pos {
				if j := matching(toks, i); j > 0 {
					end = toks[j].pos
				}
				break
			}
		}
	}
	hint := strings.TrimSpace(s[open.pos+1 : end])
	if utf8.RuneCountInString(hint) > 40 {
		return "the slice"
	}
	return hint
}

// matching returns the index of the token that closes the bracket at i, or
// -1 when it is not closed properly.
func matching(toks []token, i int) int {
	var stack []tokKind
	for j := i; j < len(toks); j++ {
		switch toks[j].kind {
		case tokLBrack, tokLParen:
			stack = append(stack, toks[j].kind)
		case tokRBrack, tokRParen:
			if len(stack) == 0 {
				return -1
			}
			open := stack[len(stack)-1]
			if open == tokLBrack != (toks[j].kind == tokRBrack) {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j
			}
		}
	}
	return -1
}
