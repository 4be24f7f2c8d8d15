package ops

import (
	"fmt"
	"math/big"
	"strings"
)

// ParseIndexLiteral reads a NumPy-style integer literal: a scalar ("3",
// "-1") or nested lists ("[3,1,-1]", "[[0,1],[2,3]]"), returning its shape
// and its values in C order. Errors point at the column (1-based) where the
// text went wrong. Booleans, floats and ragged lists are refused.
func ParseIndexLiteral(s string) (shape []int, vals []int64, err error) {
	p := &litParser{s: s}
	shape, err = p.value(0)
	if err != nil {
		return nil, nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, nil, p.errorf("unexpected %q after the literal", p.rest())
	}
	return shape, p.vals, nil
}

type litParser struct {
	s    string
	i    int
	vals []int64
}

// maxLiteralDepth bounds nesting: NumPy arrays have at most 32 dimensions.
const maxLiteralDepth = 32

func (p *litParser) errorf(format string, args ...any) error {
	return fmt.Errorf("index literal %q, column %d: %s", p.s, p.i+1, fmt.Sprintf(format, args...))
}

func (p *litParser) rest() string {
	r := p.s[p.i:]
	if len(r) > 12 {
		r = r[:12] + "..."
	}
	return r
}

func (p *litParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

// value parses a scalar or a list and returns its shape.
func (p *litParser) value(depth int) ([]int, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("expected an integer or '['")
	}
	c := p.s[p.i]
	if c == '[' || c == '(' {
		if depth >= maxLiteralDepth {
			return nil, p.errorf("nested deeper than %d levels", maxLiteralDepth)
		}
		close := byte(']')
		if c == '(' {
			close = ')'
		}
		p.i++
		var inner []int
		n := 0
		for {
			p.space()
			if p.i < len(p.s) && p.s[p.i] == close {
				p.i++
				break
			}
			start := p.i
			sh, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				inner = sh
			} else if !sameShape(inner, sh) {
				p.i = start
				return nil, p.errorf("ragged nested list: element %d has shape %v, the first %v", n, sh, inner)
			}
			n++
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == close {
				p.i++
				break
			}
			if p.i >= len(p.s) {
				return nil, p.errorf("missing '%c'", close)
			}
			return nil, p.errorf("expected ',' or '%c', found %q", close, p.rest())
		}
		if n == 0 {
			return []int{0}, nil
		}
		return append([]int{n}, inner...), nil
	}
	return nil, p.integer()
}

func (p *litParser) integer() error {
	start := p.i
	if p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		p.i++
	}
	digits := p.i
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '_') {
		p.i++
	}
	word := p.i
	for word < len(p.s) && strings.IndexByte(" \t\n\r,])", p.s[word]) < 0 {
		word++
	}
	text := p.s[start:word]
	if p.i == digits || word != p.i {
		p.i = start
		switch text {
		case "True", "False":
			return p.errorf("%s: indices must be integers, not booleans", text)
		}
		return p.errorf("%q is not an integer", text)
	}
	var v big.Int
	if _, ok := v.SetString(text, 0); !ok {
		p.i = start
		return p.errorf("%q is not an integer", text)
	}
	if !v.IsInt64() {
		p.i = start
		return p.errorf("%s does not fit in a 64-bit integer", text)
	}
	p.vals = append(p.vals, v.Int64())
	return nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
