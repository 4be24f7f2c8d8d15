package pylit

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Kind is the type of a parsed Python value.
type Kind uint8

const (
	None     Kind = iota // None (and newaxis in an index)
	Bool                 // True, False
	Int                  // an integer of any size
	Str                  // a str or bytes literal
	Tuple                // (a, b)
	List                 // [a, b]
	Dict                 // {k: v}
	Slice                // start:stop:step, only inside an index expression
	Ellipsis             // ... or Ellipsis, only inside an index expression
)

var kindNames = [...]string{"None", "bool", "int", "str", "tuple", "list", "dict", "slice", "ellipsis"}

func (k Kind) String() string { return kindNames[k] }

// Article returns the kind's name after "a" or "an": "an int", "a tuple".
func (k Kind) Article() string {
	switch k {
	case None:
		return "None"
	case Int, Ellipsis:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// Value is a Python literal: the subset of ast.literal_eval that a .npy
// header or an index expression can use.
type Value struct {
	Kind  Kind
	Pos   int      // byte offset of the value in the source, for messages
	Int   *big.Int // Int
	Bool  bool     // Bool
	Str   string   // Str
	Bytes bool     // Str written as a bytes literal, b'...'
	// Tuple and List: the elements; Dict: keys and values alternating;
	// Slice: start, stop and step, nil where omitted.
	Items []*Value
}

// Int64 is an Int's value; the caller has checked that it fits.
func (v *Value) Int64() int64 { return v.Int.Int64() }

// maxRepr bounds the text of a value quoted in an error message.
const maxRepr = 60

// Repr returns Python's repr of the value, cut short after about 60 bytes.
func (v *Value) Repr() string {
	var b strings.Builder
	v.writeRepr(&b)
	s := b.String()
	if len(s) > maxRepr {
		s = s[:maxRepr] + "..."
	}
	return s
}

var brackets = map[Kind][2]string{Tuple: {"(", ")"}, List: {"[", "]"}, Dict: {"{", "}"}}

func (v *Value) writeRepr(b *strings.Builder) {
	if b.Len() > maxRepr {
		return
	}
	switch v.Kind {
	case None:
		b.WriteString("None")
	case Bool:
		b.WriteString(map[bool]string{true: "True", false: "False"}[v.Bool])
	case Int:
		b.WriteString(v.Int.String())
	case Str:
		if v.Bytes {
			b.WriteByte('b')
		}
		b.WriteString(Quote(v.Str))
	case Ellipsis:
		b.WriteString("Ellipsis")
	case Slice:
		b.WriteString("slice(")
		for i, item := range v.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			if item == nil {
				b.WriteString("None")
			} else {
				item.writeRepr(b)
			}
		}
		b.WriteString(")")
	case Tuple, List, Dict:
		v.writeContainer(b)
	}
}

func (v *Value) writeContainer(b *strings.Builder) {
	br := brackets[v.Kind]
	b.WriteString(br[0])
	for i, item := range v.Items {
		if b.Len() > maxRepr {
			break
		}
		switch {
		case v.Kind == Dict && i%2 == 1:
			b.WriteString(": ")
		case i > 0:
			b.WriteString(", ")
		}
		item.writeRepr(b)
	}
	if v.Kind == Tuple && len(v.Items) == 1 {
		b.WriteString(",")
	}
	b.WriteString(br[1])
}

// Quote returns Python's repr of a string, as it would quote it, shortened
// when long.
func Quote(s string) string {
	if len(s) > maxRepr {
		s = s[:maxRepr] + "..."
	}
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == quote || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// ShapeString writes a shape as Python writes a tuple: (), (3,), (2, 3).
func ShapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, d := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}
