package pylit

import (
	"math"
	"math/big"
	"strings"
)

// scanner reads Python source text byte by byte. The header grammar
// (ParseLiteral) and the index grammar (ParseIndex, ParseIndexArray) both
// read through it; they differ only in the space they skip.
type scanner struct {
	src   string
	pos   int
	space string // the bytes that count as space
	// comments makes # comments and backslash-newline line continuations
	// space, as in a Python source line (a .npy header is one).
	comments bool
}

// The space of each grammar: a header is Python source, where a form feed
// is space; an index expression takes what a command line can hold.
const (
	headerSpace = " \t\n\r\f"
	indexSpace  = " \t\n\r"
)

func (s *scanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

func (s *scanner) hasPrefix(p string) bool { return strings.HasPrefix(s.src[s.pos:], p) }

// skipSpace skips space, and comments and line continuations where they
// count.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case strings.IndexByte(s.space, c) >= 0:
			s.pos++
		case c == '\\' && s.comments && (s.hasPrefix("\\\n") || s.hasPrefix("\\\r\n")):
			s.pos++
		case c == '#' && s.comments:
			for s.pos < len(s.src) && s.src[s.pos] != '\n' && s.src[s.pos] != '\r' {
				s.pos++
			}
		default:
			return
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool { return isNameStart(c) || isDigit(c) }

// digitValue returns the value of a hexadecimal digit, or 99.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}

// intProblem is what is wrong with an integer literal.
type intProblem uint8

const (
	intOK            intProblem = iota
	intBadUnderscore            // an underscore not between two digits
	intNoDigits                 // a base prefix with no digits after it
	intLeadingZero              // a decimal literal such as 01
)

// intLit is an integer literal read at the start of a text.
type intLit struct {
	val     *big.Int   // the magnitude, nil unless problem is intOK
	end     int        // the bytes read: prefix, digits and underscores
	problem intProblem // what went wrong
	at      int        // where: the underscore, or the end of the prefix
}

// scanInt reads Python's integer grammar at the start of s: decimal without
// leading zeros, 0x, 0o and 0b with digits of their base, single
// underscores between digits (and one right after a prefix). It stops at
// the first byte that is no digit of the base; what may follow is the
// caller's rule. This is the one integer grammar of the package.
func scanInt(s string) intLit {
	base, pos := 10, 0
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 10 {
			pos = 2
			if pos < len(s) && s[pos] == '_' {
				pos++ // Python allows one underscore right after the prefix.
			}
		}
	}
	// The magnitude accumulates in a uint64; only a longer literal goes
	// through big.Int's parser.
	start, ndigits, first := pos, 0, byte(0)
	var mag uint64
	overflow := false
	for pos < len(s) {
		c := s[pos]
		if c == '_' {
			if ndigits == 0 || pos+1 >= len(s) || digitValue(s[pos+1]) >= base {
				return intLit{end: pos, problem: intBadUnderscore, at: pos}
			}
			pos++
			continue
		}
		d := digitValue(c)
		if d >= base {
			break
		}
		if ndigits == 0 {
			first = c
		}
		if mag > (math.MaxUint64-uint64(d))/uint64(base) {
			overflow = true
		}
		mag = mag*uint64(base) + uint64(d)
		ndigits++
		pos++
	}
	if ndigits == 0 {
		return intLit{end: pos, problem: intNoDigits, at: pos}
	}
	if base == 10 && first == '0' && (mag != 0 || overflow) {
		return intLit{end: pos, problem: intLeadingZero}
	}
	if !overflow {
		return intLit{val: new(big.Int).SetUint64(mag), end: pos}
	}
	v, _ := new(big.Int).SetString(strings.ReplaceAll(s[start:pos], "_", ""), base)
	return intLit{val: v, end: pos}
}
