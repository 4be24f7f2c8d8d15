package pylit

import (
	"fmt"
	"strconv"
)

// MaxDepth bounds the nesting of containers in a literal, so that no input
// can exhaust the stack; a real .npy header nests two deep. Index
// expressions have the tighter MaxIndexDepth.
const MaxDepth = 64

// LiteralError is a literal that does not parse: a syntax error at Pos, or
// an integer that does not fit in 64 bits.
type LiteralError struct {
	Pos   int
	Msg   string // what was expected or is wrong: "expected a value"
	Found string // the text at Pos, quoted, or "" at the end of the input
	// Range marks an integer out of the int64 range: Msg is then the whole
	// message, "integer 9223372036854775808 at byte 0 does not fit in 64 bits".
	Range bool
}

func (e *LiteralError) Error() string {
	if e.Range {
		return e.Msg
	}
	found := e.Found
	if found == "" {
		found = "the end of the input"
	}
	return fmt.Sprintf("%s at byte %d, found %s", e.Msg, e.Pos, found)
}

// literalParser is a recursive-descent parser for the literals
// ast.literal_eval accepts that a .npy header can use.
type literalParser struct {
	scanner
	depth     int
	allowLong bool // accept Python 2 long suffixes, "3L", as NumPy does for format 1.0 and 2.0
}

// ParseLiteral parses src as one Python literal, as ast.literal_eval would,
// surrounded by any whitespace and comments: None, True, False, integers
// (which must fit in 64 bits), str and bytes literals with Python's
// escapes, and tuples, lists and dicts of them, nested at most MaxDepth
// deep. allowLong accepts Python 2's long suffix, 3L. Errors are
// *LiteralError.
func ParseLiteral(src string, allowLong bool) (*Value, error) {
	p := &literalParser{scanner: scanner{src: src, space: headerSpace, comments: true}, allowLong: allowLong}
	p.skipSpace()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return nil, p.errorf("expected the end of the header")
	}
	return v, nil
}

// errorf reports a syntax error at the current position, naming what is
// found there.
func (p *literalParser) errorf(format string, args ...any) error {
	e := &LiteralError{Pos: p.pos, Msg: fmt.Sprintf(format, args...)}
	if p.pos < len(p.src) {
		end := min(p.pos+12, len(p.src))
		e.Found = string(p.src[p.pos:end])
		if end < len(p.src) {
			e.Found += "..."
		}
		e.Found = strconv.Quote(e.Found)
	}
	return e
}

// value parses one literal starting at the current position.
func (p *literalParser) value() (*Value, error) {
	if p.depth >= MaxDepth {
		return nil, p.errorf("nesting deeper than %d", MaxDepth)
	}
	p.depth++
	defer func() { p.depth-- }()

	start := p.pos
	c := p.peek()
	switch {
	case c == '{':
		return p.container(Dict, '}')
	case c == '[':
		return p.container(List, ']')
	case c == '(':
		return p.container(Tuple, ')')
	case c == '\'' || c == '"':
		return p.strings()
	case c == '+' || c == '-' || isDigit(c):
		return p.integer()
	case c == '.' && p.pos+1 < len(p.src) && isDigit(p.src[p.pos+1]):
		return nil, p.errorf("float literals are not supported")
	case isNameStart(c):
		for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
			p.pos++
		}
		name := p.src[start:p.pos]
		if p.peek() == '\'' || p.peek() == '"' {
			p.pos = start
			return p.strings()
		}
		switch name {
		case "True", "False":
			return &Value{Kind: Bool, Bool: name == "True", Pos: start}, nil
		case "None":
			return &Value{Kind: None, Pos: start}, nil
		}
		p.pos = start
		return nil, p.errorf("unexpected name")
	}
	return nil, p.errorf("expected a value")
}

// container parses a dict, list or tuple, or a parenthesised value, whose
// opening bracket is at the current position.
func (p *literalParser) container(kind Kind, closer byte) (*Value, error) {
	v := &Value{Kind: kind, Pos: p.pos}
	p.pos++
	sawComma := false
	for {
		p.skipSpace()
		if p.peek() == closer {
			p.pos++
			break
		}
		if len(v.Items) > 0 && !sawComma {
			return nil, p.errorf("expected ',' or '%c'", closer)
		}
		item, err := p.value()
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, item)
		p.skipSpace()
		if kind == Dict {
			if p.peek() != ':' {
				return nil, p.errorf("expected ':' after a dict key")
			}
			p.pos++
			p.skipSpace()
			item, err := p.value()
			if err != nil {
				return nil, err
			}
			v.Items = append(v.Items, item)
			p.skipSpace()
		}
		sawComma = p.peek() == ','
		if sawComma {
			p.pos++
		}
	}
	// "(5)" is the integer 5; only "(5,)" is a tuple.
	if kind == Tuple && len(v.Items) == 1 && !sawComma {
		return v.Items[0], nil
	}
	return v, nil
}

// integer parses an integer literal with an optional unary sign.
func (p *literalParser) integer() (*Value, error) {
	start := p.pos
	// ast.literal_eval takes one sign, as in "-1" or "- 1", but not "--1".
	negative := false
	if p.peek() == '+' || p.peek() == '-' {
		negative = p.peek() == '-'
		p.pos++
		p.skipSpace()
	}
	if !isDigit(p.peek()) {
		return nil, p.errorf("expected digits after a sign")
	}
	digitsStart := p.pos
	lit := scanInt(p.src[p.pos:])
	switch lit.problem {
	case intBadUnderscore:
		p.pos += lit.at
		return nil, p.errorf("invalid underscore in an integer")
	case intNoDigits:
		p.pos += lit.at
		return nil, p.errorf("expected digits after %q", p.src[digitsStart:p.pos])
	case intLeadingZero:
		return nil, p.errorf("leading zeros in a decimal integer are not allowed")
	}
	p.pos += lit.end
	end := p.pos
	if p.allowLong && (p.peek() == 'L' || p.peek() == 'l') {
		p.pos++
	}
	switch c := p.peek(); {
	case c == '.' || c == 'e' || c == 'E' || c == 'j' || c == 'J':
		if !isPrefixed(p.src[digitsStart:]) {
			return nil, p.errorf("float and complex literals are not supported")
		}
		fallthrough
	case isNameChar(c):
		return nil, p.errorf("invalid character after an integer")
	}
	if negative {
		lit.val.Neg(lit.val)
	}
	if !lit.val.IsInt64() {
		text := p.src[start:end]
		if len(text) > 40 {
			text = text[:40] + "..."
		}
		return nil, &LiteralError{Pos: start, Range: true, Msg: fmt.Sprintf("integer %s at byte %d does not fit in 64 bits", text, start)}
	}
	return &Value{Kind: Int, Int: lit.val, Pos: start}, nil
}

// isPrefixed reports whether an integer literal starts with 0x, 0o or 0b.
func isPrefixed(s string) bool {
	return len(s) > 1 && s[0] == '0' && (s[1]|0x20 == 'x' || s[1]|0x20 == 'o' || s[1]|0x20 == 'b')
}
