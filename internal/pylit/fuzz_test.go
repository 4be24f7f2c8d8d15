package pylit

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// pySource writes v back as Python source that parses to the same value.
func pySource(v *Value) string {
	switch v.Kind {
	case None, Bool, Int:
		return canonLiteral(v)[map[bool]int{true: 1, false: 0}[v.Kind == Int]:]
	case Str:
		var b strings.Builder
		if v.Bytes {
			b.WriteByte('b')
		}
		b.WriteByte('\'')
		for i := 0; i < len(v.Str); i++ {
			switch c := v.Str[i]; c {
			case '\\', '\'':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			default:
				b.WriteByte(c)
			}
		}
		b.WriteByte('\'')
		return b.String()
	}
	parts := make([]string, 0, len(v.Items))
	for i := 0; i < len(v.Items); i++ {
		if v.Kind == Dict {
			parts = append(parts, pySource(v.Items[i])+": "+pySource(v.Items[i+1]))
			i++
			continue
		}
		parts = append(parts, pySource(v.Items[i]))
	}
	br := brackets[v.Kind]
	tail := ""
	if v.Kind == Tuple && len(parts) == 1 {
		tail = ","
	}
	return br[0] + strings.Join(parts, ", ") + tail + br[1]
}

// indexSource writes items back as an index expression.
func indexSource(items []IndexItem) string {
	parts := make([]string, len(items))
	opt := func(has bool, v int64) string {
		if has {
			return fmt.Sprint(v)
		}
		return ""
	}
	for k, it := range items {
		switch it.Kind {
		case IndexInt:
			parts[k] = fmt.Sprint(it.Int)
		case IndexBool:
			parts[k] = map[bool]string{true: "True", false: "False"}[it.Bool]
		case IndexNewAxis:
			parts[k] = "None"
		case IndexEllipsis:
			parts[k] = "..."
		case IndexSlice:
			parts[k] = opt(it.HasStart, it.Start) + ":" + opt(it.HasStop, it.Stop) + ":" + opt(it.HasStep, it.Step)
		case IndexArray, IndexBoolArray:
			leaves := make([]string, 0, len(it.Ints)+len(it.Bools))
			for _, x := range it.Ints {
				leaves = append(leaves, fmt.Sprint(x))
			}
			for _, b := range it.Bools {
				leaves = append(leaves, map[bool]string{true: "True", false: "False"}[b])
			}
			parts[k] = nested(it.Shape, leaves)
		}
	}
	if len(parts) == 0 {
		return "()"
	}
	return strings.Join(parts, ", ") + ","
}

func nested(shape []int, leaves []string) string {
	if len(shape) == 0 {
		return leaves[0]
	}
	n := count(shape[1:])
	parts := make([]string, shape[0])
	for k := range parts {
		parts[k] = nested(shape[1:], leaves[k*n:(k+1)*n])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// FuzzPylit feeds one text to the three parsers. None panics; a header
// error is a *LiteralError inside the text; index errors name a column;
// what parses, written back as Python, parses to the same value; and
// ParseIndexArray accepts only what ParseIndex reads as the same one item.
func FuzzPylit(f *testing.F) {
	if data, err := os.ReadFile("testdata/literal_eval.json"); err == nil {
		var cases []struct{ Src string }
		_ = json.Unmarshal(data, &cases)
		for _, c := range cases {
			f.Add(c.Src)
		}
	}
	for _, s := range []string{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", "[[0, 1], [2, 3]]", "1:, ::-1, None, [0,2]", "- 3", "(3)", "b'x' 'y'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 300 {
			s = s[:300]
		}
		checkLiteral(t, s)
		checkIndex(t, s)
		checkIndexArray(t, s)
	})
}

func checkLiteral(t *testing.T, s string) {
	for _, long := range []bool{false, true} {
		v, err := ParseLiteral(s, long)
		var le *LiteralError
		if errors.As(err, &le) {
			if le.Pos < 0 || le.Pos > len(s) {
				t.Fatalf("%q: error at byte %d of %d: %v", s, le.Pos, len(s), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: error %T %v", s, err, err)
		}
		src := pySource(v)
		w, err := ParseLiteral(src, false)
		if err != nil || canonLiteral(w) != canonLiteral(v) {
			t.Fatalf("%q parses to %s; written back as %q it parses to %v, %v", s, canonLiteral(v), src, w, err)
		}
	}
}

func checkIndex(t *testing.T, s string) {
	items, err := ParseIndex(s)
	if err != nil {
		if !strings.Contains(err.Error(), "column ") {
			t.Fatalf("error without a column: %v", err)
		}
		return
	}
	for _, it := range items {
		if n := count(it.Shape); it.Kind == IndexArray && n != len(it.Ints) || it.Kind == IndexBoolArray && n != len(it.Bools) {
			t.Fatalf("%q: %d values for shape %v", s, len(it.Ints)+len(it.Bools), it.Shape)
		}
	}
	src := indexSource(items)
	again, err := ParseIndex(src)
	if err != nil || canonIndex(again) != canonIndex(items) {
		t.Fatalf("%q parses to %s; written back as %q it parses to %s, %v", s, canonIndex(items), src, canonIndex(again), err)
	}
}

func checkIndexArray(t *testing.T, s string) {
	it, err := ParseIndexArray(s)
	if err != nil {
		if !strings.Contains(err.Error(), "column ") {
			t.Fatalf("error without a column: %v", err)
		}
		return
	}
	if it.Kind != IndexArray || count(it.Shape) != len(it.Ints) {
		t.Fatalf("%q: kind %d, %d values for shape %v", s, it.Kind, len(it.Ints), it.Shape)
	}
	items, err := ParseIndex(s + ",")
	if err != nil || len(items) != 1 {
		t.Fatalf("%q: --index takes it, the index expression %q gives %v, %v", s, s+",", items, err)
	}
	want := it
	if len(it.Shape) == 0 {
		want = IndexItem{Kind: IndexInt, Int: it.Ints[0]}
	}
	if canonIndex(items) != canonIndex([]IndexItem{want}) {
		t.Fatalf("%q: --index reads %s, the index expression %s", s, canonIndex([]IndexItem{want}), canonIndex(items))
	}
}
