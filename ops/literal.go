package ops

import (
	"fmt"
	"math/big"
	"strings"
)

// ParseIndexLiteral reads a NumPy-style integer literal: a scalar ("3",
// "-1") or nested lists ("[3,1,-1]", "[[0,1],[2,3]]"), returning its shape
// and its values in C order. Integers and tuples follow Python's grammar
// (ast.literal_eval): "0x1f", "0o17", "0b11", "1_000", "- 3"; "010" is an
// error, not octal; "(3)" is 3 and "(3,)" a tuple. Errors point at the
// column (1-based) where the text went wrong. Booleans, floats and ragged
// lists are refused.
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
		n, commas := 0, 0
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
				commas++
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
		if c == '(' && n == 1 && commas == 0 {
			return inner, nil // parentheses that only group, as in Python: (3) is 3
		}
		return append([]int{n}, inner...), nil
	}
	return nil, p.integer()
}

func (p *litParser) integer() error {
	start := p.i
	neg := false
	if p.i < len(p.s) && (p.s[p.i] == '-' || p.s[p.i] == '+') {
		neg = p.s[p.i] == '-'
		p.i++
		p.space() // Python takes "- 3"
	}
	digits := p.i
	word := p.i
	for word < len(p.s) && strings.IndexByte(" \t\n\r,])", p.s[word]) < 0 {
		word++
	}
	text := p.s[digits:word]
	if text == "" || text[0] < '0' || text[0] > '9' {
		p.i = start
		switch text {
		case "True", "False":
			return p.errorf("%s: indices must be integers, not booleans", text)
		}
		return p.errorf("%q is not an integer", p.s[start:word])
	}
	var v big.Int
	if len(text) > 1 && text[0] == '0' && strings.IndexByte("xXoObB", text[1]) < 0 {
		// Python: a decimal literal starting with 0 is all zeros ("00", "0_0"); Go's
		// base-0 parsing would read "010" as octal 8.
		if strings.Trim(text, "0_") != "" || strings.Contains(text, "__") || strings.HasSuffix(text, "_") {
			p.i = start
			return p.errorf("%q is not an integer (leading zeros are not allowed; octal is 0o...)", p.s[start:word])
		}
	} else if _, ok := v.SetString(text, 0); !ok {
		p.i = start
		return p.errorf("%q is not an integer", p.s[start:word])
	}
	if neg {
		v.Neg(&v)
	}
	p.i = word
	if !v.IsInt64() {
		p.i = start
		return p.errorf("%s does not fit in a 64-bit integer", p.s[start:word])
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
