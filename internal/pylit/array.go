package pylit

import (
	"fmt"
	"strings"
)

// ParseIndexArray reads the text of an --index option: an index
// expression restricted to one integer array, a scalar ("3", "-1") or
// nested lists or tuples of integers ("[3,1,-1]", "[[0,1],[2,3]]"). It
// returns an IndexItem of kind IndexArray (shape () for a scalar). Integers
// and tuples follow Python's grammar (ast.literal_eval): "0x1f", "0o17",
// "0b11", "1_000", "- 3"; "010" is an error, not octal; "(3)" is 3 and
// "(3,)" a tuple. A sign applies to one integer only. Errors point at the
// column (1-based, in bytes) where the text went wrong. Booleans, floats,
// slices and ragged lists are refused.
func ParseIndexArray(s string) (IndexItem, error) {
	r := &arrayReader{scanner: scanner{src: s, space: indexSpace}}
	v, err := r.value(0)
	if err != nil {
		return IndexItem{}, err
	}
	r.skipSpace()
	if r.pos < len(s) {
		return IndexItem{}, r.errorf("unexpected %q after the literal", r.rest())
	}
	return array(v, IndexItem{Col: 1}, func(pos int, format string, args ...any) error {
		r.pos = pos
		return r.errorf(format, args...)
	})
}

// arrayReader reads an --index literal. Its integers are words that end at
// space, a comma or a closing bracket, as NumPy's command-line users write
// them, so "1:2" is reported as one word that is not an integer.
type arrayReader struct {
	scanner
}

func (r *arrayReader) errorf(format string, args ...any) error {
	return fmt.Errorf("index literal %q, column %d: %s", r.src, r.pos+1, fmt.Sprintf(format, args...))
}

func (r *arrayReader) rest() string {
	s := r.src[r.pos:]
	if len(s) > 12 {
		s = s[:12] + "..."
	}
	return s
}

// value reads a scalar or a list or tuple nested depth deep.
func (r *arrayReader) value(depth int) (*Value, error) {
	r.skipSpace()
	c := r.peek()
	switch {
	case r.pos >= len(r.src):
		return nil, r.errorf("expected an integer or '['")
	case c != '[' && c != '(':
		return r.integer()
	case depth >= MaxIndexDepth:
		return nil, r.errorf("nested deeper than %d levels", MaxIndexDepth)
	}
	closer, kind := byte(']'), List
	if c == '(' {
		closer, kind = ')', Tuple
	}
	v := &Value{Kind: kind, Pos: r.pos}
	r.pos++
	commas := 0
	for {
		r.skipSpace()
		if r.peek() == closer {
			r.pos++
			break
		}
		e, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, e)
		r.skipSpace()
		if r.peek() == ',' && r.pos < len(r.src) {
			r.pos++
			commas++
			continue
		}
		if r.peek() == closer && r.pos < len(r.src) {
			r.pos++
			break
		}
		if r.pos >= len(r.src) {
			return nil, r.errorf("missing '%c'", closer)
		}
		return nil, r.errorf("expected ',' or '%c', found %q", closer, r.rest())
	}
	if kind == Tuple && len(v.Items) == 1 && commas == 0 {
		return v.Items[0], nil // parentheses that only group, as in Python: (3) is 3
	}
	return v, nil
}

// integer reads one integer word with an optional sign.
func (r *arrayReader) integer() (*Value, error) {
	start := r.pos
	neg := false
	if c := r.peek(); c == '-' || c == '+' {
		neg = c == '-'
		r.pos++
		r.skipSpace() // Python takes "- 3"
	}
	word := r.pos
	for word < len(r.src) && strings.IndexByte(" \t\n\r,])", r.src[word]) < 0 {
		word++
	}
	text := r.src[r.pos:word]
	lit := scanInt(text)
	if lit.problem != intOK || lit.end != len(text) {
		quoted := r.src[start:word]
		r.pos = start
		switch {
		case text == "True" || text == "False":
			return nil, r.errorf("%s: indices must be integers, not booleans", text)
		case text == "" || !isDigit(text[0]):
		case text[0] == '0' && !isPrefixed(text):
			return nil, r.errorf("%q is not an integer (leading zeros are not allowed; octal is 0o...)", quoted)
		}
		return nil, r.errorf("%q is not an integer", quoted)
	}
	if neg {
		lit.val.Neg(lit.val)
	}
	if !lit.val.IsInt64() {
		r.pos = start
		return nil, r.errorf("%s does not fit in a 64-bit integer", r.src[start:word])
	}
	r.pos = word
	return &Value{Kind: Int, Pos: start, Int: lit.val}, nil
}
