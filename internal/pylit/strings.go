package pylit

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// strings parses one string literal or several adjacent ones, which Python
// concatenates.
func (p *literalParser) strings() (*Value, error) {
	v := &Value{Kind: Str, Pos: p.pos}
	var b strings.Builder
	for first := true; ; first = false {
		start := p.pos
		isBytes, err := p.stringLiteral(&b)
		if err != nil {
			return nil, err
		}
		if !first && isBytes != v.Bytes {
			p.pos = start
			return nil, p.errorf("cannot mix bytes and nonbytes literals")
		}
		v.Bytes = isBytes
		save := p.pos
		p.skipSpace()
		c := p.peek()
		if c != '\'' && c != '"' && !(isNameStart(c) && p.stringPrefixLen() > 0) {
			p.pos = save
			break
		}
	}
	v.Str = b.String()
	return v, nil
}

// stringPrefixLen returns the length of a string prefix like b, r, u, rb at
// the current position when a quote follows it, else 0.
func (p *literalParser) stringPrefixLen() int {
	n := 0
	for n < 2 && p.pos+n < len(p.src) && strings.IndexByte("bBrRuU", p.src[p.pos+n]) >= 0 {
		n++
	}
	if n > 0 && p.pos+n < len(p.src) && (p.src[p.pos+n] == '\'' || p.src[p.pos+n] == '"') {
		return n
	}
	return 0
}

// stringLiteral parses one quoted string with an optional prefix and
// appends its value to b; isBytes reports a b prefix.
func (p *literalParser) stringLiteral(b *strings.Builder) (isBytes bool, err error) {
	start := p.pos
	raw, bytesLit, err := p.stringPrefix()
	if err != nil {
		return bytesLit, err
	}
	quote := p.peek()
	if quote != '\'' && quote != '"' {
		return bytesLit, p.errorf("expected a quote")
	}
	triple := p.hasPrefix(strings.Repeat(string(quote), 3))
	if triple {
		p.pos += 3
	} else {
		p.pos++
	}
	return bytesLit, p.stringBody(b, start, quote, triple, raw, bytesLit)
}

// stringPrefix reads a string's prefix (b, r, u, rb, br in either case, or
// none) and reports whether it makes the string raw and bytes.
func (p *literalParser) stringPrefix() (raw, bytesLit bool, err error) {
	start := p.pos
	unicodeLit := false
	for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
		switch p.src[p.pos] {
		case 'r', 'R':
			raw = true
		case 'b', 'B':
			bytesLit = true
		case 'u', 'U':
			unicodeLit = true
		default:
			return raw, bytesLit, p.errorf("unsupported string prefix")
		}
		p.pos++
	}
	if p.pos-start > 2 || (unicodeLit && (raw || bytesLit)) || (p.pos-start == 2 && !(raw && bytesLit)) {
		p.pos = start
		return raw, bytesLit, p.errorf("invalid string prefix")
	}
	return raw, bytesLit, nil
}

// stringBody reads a string's characters after its opening quote (three of
// them when triple) up to and including its closing quote, appending its
// value to b. An unterminated string is reported at start, where its
// prefix begins.
func (p *literalParser) stringBody(b *strings.Builder, start int, quote byte, triple, raw, bytesLit bool) error {
	for {
		if p.pos >= len(p.src) {
			p.pos = start
			return p.errorf("unterminated string")
		}
		c := p.src[p.pos]
		switch {
		case c == quote && !triple:
			p.pos++
			return nil
		case c == quote && p.hasPrefix(strings.Repeat(string(quote), 3)):
			p.pos += 3
			return nil
		case (c == '\n' || c == '\r') && !triple:
			p.pos = start
			return p.errorf("unterminated string")
		case c == '\\' && raw:
			// A raw string keeps the backslash but still may not end on it.
			b.WriteByte(c)
			p.pos++
			if p.pos < len(p.src) {
				b.WriteByte(p.src[p.pos])
				p.pos++
			}
		case c == '\\':
			if err := p.escape(b, bytesLit); err != nil {
				return err
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// escape decodes the backslash escape at the current position.
func (p *literalParser) escape(b *strings.Builder, bytesLit bool) error {
	p.pos++ // the backslash
	if p.pos >= len(p.src) {
		return p.errorf("unterminated string")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case '\n':
	case '\r':
		if p.peek() == '\n' {
			p.pos++
		}
	case '0', '1', '2', '3', '4', '5', '6', '7':
		p.octalEscape(b, c, bytesLit)
	case 'x', 'u', 'U':
		return p.codeEscape(b, c, bytesLit)
	case 'N':
		if bytesLit {
			b.WriteString("\\N")
			return nil
		}
		p.pos -= 2
		return p.errorf("named unicode escapes are not supported")
	default:
		if e, ok := charEscape(c); ok {
			b.WriteByte(e)
			return nil
		}
		// Python keeps unknown escapes as written.
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return nil
}

// charEscape is the character the one-character escape \c stands for.
func charEscape(c byte) (byte, bool) {
	switch c {
	case '\\', '\'', '"':
		return c, true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	}
	return 0, false
}

// octalEscape decodes \ooo, of one to three octal digits, the first c.
func (p *literalParser) octalEscape(b *strings.Builder, c byte, bytesLit bool) {
	n := int(c - '0')
	for i := 0; i < 2 && p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '7'; i++ {
		n = n*8 + int(p.src[p.pos]-'0')
		p.pos++
	}
	writeCode(b, n, bytesLit)
}

// codeEscape decodes \xhh, \uhhhh and \Uhhhhhhhh (c is x, u or U); a bytes
// literal keeps \u and \U as written.
func (p *literalParser) codeEscape(b *strings.Builder, c byte, bytesLit bool) error {
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if c != 'x' && bytesLit {
		b.WriteByte('\\')
		b.WriteByte(c)
		return nil
	}
	if p.pos+width > len(p.src) {
		return p.errorf("truncated \\%c escape", c)
	}
	n, err := strconv.ParseUint(p.src[p.pos:p.pos+width], 16, 32)
	if err != nil || n > utf8.MaxRune {
		return p.errorf("invalid \\%c escape", c)
	}
	p.pos += width
	writeCode(b, int(n), bytesLit)
	return nil
}

// writeCode appends a character given by its code: a byte in a bytes
// literal, a code point (as UTF-8) in a str literal.
func writeCode(b *strings.Builder, n int, bytesLit bool) {
	if bytesLit || n < utf8.RuneSelf {
		b.WriteByte(byte(n))
		return
	}
	b.WriteRune(rune(n))
}
