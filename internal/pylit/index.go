package pylit

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ParseIndex parses exactly what stands between the brackets of a[...] in
// NumPy: a comma-separated tuple of integers, start:stop:step slices (any
// part omitted, negative values allowed), ..., None (newaxis, np.newaxis),
// True/False, and nested lists of integers or booleans. The syntax is
// Python's (integer literals such as 0x1f and 1_000, unary signs,
// parentheses for grouping and tuples). Brackets are always a list, as in
// Python: "[0, 2]" is a[[0, 2]], an integer array index, and "[]" is a[[]],
// an empty integer index.
//
// Errors point at the column (1-based, in characters) where the text went
// wrong. Nothing here depends on the array: ranges are checked by
// ops.View.Index.
func ParseIndex(s string) ([]IndexItem, error) {
	toks, err := tokenize(s)
	if err != nil {
		return nil, err
	}
	p := &indexParser{s: s, toks: toks}
	values, trailing, err := p.subscript()
	if err != nil {
		return nil, err
	}
	// a[(1, 2)] is a[1, 2]: a lone parenthesised tuple is the index tuple.
	if len(values) == 1 && !trailing && values[0].Kind == Tuple {
		values = values[0].Items
	}
	items := make([]IndexItem, 0, len(values))
	for _, v := range values {
		it, err := item(v, column(s, v.Pos), p.errorAt)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, nil
}

// column is the 1-based column, in characters, of byte offset pos.
func column(s string, pos int) int { return utf8.RuneCountInString(s[:pos]) + 1 }

// indexError is a parse error at a byte offset of the expression.
func indexError(s string, pos int, format string, args ...any) error {
	pos = min(pos, len(s))
	shown := s
	if len(s) > 60 {
		// Show a window around the column of a long expression.
		lo, hi := max(0, pos-30), min(len(s), pos+30)
		shown = strings.ToValidUTF8(s[lo:hi], "?")
		if lo > 0 {
			shown = "..." + shown
		}
		if hi < len(s) {
			shown += "..."
		}
	}
	return fmt.Errorf("index expression %q, column %d: %s", shown, column(s, pos), fmt.Sprintf(format, args...))
}

type indexParser struct {
	s     string
	toks  []token
	i     int
	depth int
}

func (p *indexParser) peek() token { return p.toks[p.i] }

func (p *indexParser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *indexParser) errorf(t token, format string, args ...any) error {
	return indexError(p.s, t.pos, format, args...)
}

func (p *indexParser) errorAt(pos int, format string, args ...any) error {
	return indexError(p.s, pos, format, args...)
}

// subscript parses the comma-separated items up to the end of the text.
func (p *indexParser) subscript() (items []*Value, trailing bool, err error) {
	if t := p.peek(); t.kind == tokEOF {
		return nil, false, p.errorf(t, "empty index; write ... or () for the whole array")
	}
	for {
		v, err := p.sliceItem()
		if err != nil {
			return nil, false, err
		}
		items = append(items, v)
		t := p.next()
		switch t.kind {
		case tokEOF:
			return items, false, nil
		case tokComma:
			if p.peek().kind == tokEOF {
				return items, true, nil
			}
		default:
			return nil, false, p.errorf(t, "expected ',' or the end of the expression, found %v", t)
		}
	}
}

// endsPart reports whether t ends a slice part.
func endsPart(t token) bool {
	return t.kind == tokColon || t.kind == tokComma || t.kind == tokEOF
}

// sliceItem parses an expression or a start:stop:step slice.
func (p *indexParser) sliceItem() (*Value, error) {
	start := p.peek()
	var first *Value
	if start.kind != tokColon {
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tokColon {
			return v, nil
		}
		first = v
	}
	sl := &Value{Kind: Slice, Pos: start.pos, Items: []*Value{first, nil, nil}}
	p.next() // the first ':'
	if !endsPart(p.peek()) {
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		sl.Items[1] = v
	}
	if p.peek().kind == tokColon {
		p.next()
		if t := p.peek(); t.kind != tokComma && t.kind != tokEOF {
			v, err := p.expr()
			if err != nil {
				return nil, err
			}
			sl.Items[2] = v
		}
	}
	if t := p.peek(); t.kind == tokColon {
		return nil, p.errorf(t, "a slice has at most three parts (start:stop:step)")
	}
	return sl, nil
}

// expr parses a value with optional unary signs. Python's unary + and -
// turn True and False into 1 and 0.
func (p *indexParser) expr() (*Value, error) {
	first := p.peek()
	neg, signed := false, false
	for t := p.peek(); t.kind == tokPlus || t.kind == tokMinus; t = p.peek() {
		p.next()
		signed = true
		if t.kind == tokMinus {
			neg = !neg
		}
	}
	v, err := p.atom()
	if err != nil || !signed {
		return v, err
	}
	return signedInt(v, neg, first.pos, func() error { return p.errorf(first, "a sign applies to integers only") })
}

// signedInt applies unary signs to v: True and False become 1 and 0, and
// anything but a number is refused.
func signedInt(v *Value, neg bool, pos int, refuse func() error) (*Value, error) {
	n := &Value{Kind: Int, Pos: pos}
	switch v.Kind {
	case Bool:
		n.Int = bigInt(map[bool]int64{true: 1}[v.Bool])
	case Int:
		n.Int = v.Int
	default:
		return nil, refuse()
	}
	if neg {
		n.Int = bigInt(0).Neg(n.Int)
	}
	return n, nil
}

func (p *indexParser) atom() (*Value, error) {
	t := p.next()
	switch t.kind {
	case tokInt:
		return &Value{Kind: Int, Pos: t.pos, Int: t.val}, nil
	case tokName:
		switch t.text {
		case "None", "newaxis", "np.newaxis", "numpy.newaxis":
			return &Value{Kind: None, Pos: t.pos}, nil
		case "True", "False":
			return &Value{Kind: Bool, Pos: t.pos, Bool: t.text == "True"}, nil
		case "Ellipsis":
			return &Value{Kind: Ellipsis, Pos: t.pos}, nil
		}
		return nil, p.errorf(t, "unknown name %q: indices are integers, slices, ..., None, True, False and lists of integers or booleans", t.text)
	case tokEllipsis:
		return &Value{Kind: Ellipsis, Pos: t.pos}, nil
	case tokLBrack, tokLParen:
		if p.depth >= MaxIndexDepth {
			return nil, p.errorf(t, "nested deeper than %d levels", MaxIndexDepth)
		}
		p.depth++
		defer func() { p.depth-- }()
		return p.sequence(t)
	}
	return nil, p.errorf(t, "expected an index, found %v", t)
}

// sequence parses a list or a parenthesised group or tuple after its
// opening token: (x) is x, (x,) and () are tuples.
func (p *indexParser) sequence(open token) (*Value, error) {
	closer, kind, closeText := tokRBrack, List, "]"
	if open.kind == tokLParen {
		closer, kind, closeText = tokRParen, Tuple, ")"
	}
	v := &Value{Kind: kind, Pos: open.pos}
	commas := 0
	for {
		if t := p.peek(); t.kind == closer {
			p.next()
			break
		}
		if t := p.peek(); t.kind == tokColon && kind == List {
			return nil, p.errorf(t, "a slice cannot stand inside a list; write %s without the brackets", sliceHint(p.s, open))
		}
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, e)
		t := p.next()
		switch {
		case t.kind == closer:
		case t.kind == tokComma:
			commas++
			continue
		case t.kind == tokColon && kind == List:
			return nil, p.errorf(t, "a slice cannot stand inside a list; write %s without the brackets", sliceHint(p.s, open))
		case t.kind == tokEOF:
			return nil, p.errorf(t, "missing '%s' for the '%s' at column %d", closeText, open.text, column(p.s, open.pos))
		default:
			return nil, p.errorf(t, "expected ',' or '%s', found %v", closeText, t)
		}
		break
	}
	if kind == Tuple && len(v.Items) == 1 && commas == 0 {
		return v.Items[0], nil // grouping parentheses
	}
	return v, nil
}
