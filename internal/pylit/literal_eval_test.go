package pylit

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// canonLiteral is scripts/gen_pylit_cases.py's canon_literal in Go.
func canonLiteral(v *Value) string {
	switch v.Kind {
	case None:
		return "None"
	case Bool:
		return map[bool]string{true: "True", false: "False"}[v.Bool]
	case Int:
		return "i" + v.Int.String()
	case Str:
		if v.Bytes {
			return "b:" + hex.EncodeToString([]byte(v.Str))
		}
		return "s:" + hex.EncodeToString([]byte(v.Str))
	}
	parts := make([]string, 0, len(v.Items))
	for i := 0; i < len(v.Items); i++ {
		if v.Kind == Dict {
			parts = append(parts, canonLiteral(v.Items[i])+":"+canonLiteral(v.Items[i+1]))
			i++
			continue
		}
		parts = append(parts, canonLiteral(v.Items[i]))
	}
	br := brackets[v.Kind]
	return br[0] + strings.Join(parts, " ") + br[1]
}

// canonIndex is scripts/gen_pylit_cases.py's canon_index_item, joined.
func canonIndex(items []IndexItem) string {
	parts := make([]string, len(items))
	part := func(has bool, v int64) string {
		if !has {
			return "None"
		}
		return fmt.Sprint(v)
	}
	for k, it := range items {
		switch it.Kind {
		case IndexInt:
			parts[k] = fmt.Sprintf("i:%d", it.Int)
		case IndexBool:
			parts[k] = map[bool]string{true: "bool:True", false: "bool:False"}[it.Bool]
		case IndexNewAxis:
			parts[k] = "None"
		case IndexEllipsis:
			parts[k] = "..."
		case IndexSlice:
			parts[k] = fmt.Sprintf("slice(%s,%s,%s)", part(it.HasStart, it.Start), part(it.HasStop, it.Stop), part(it.HasStep, it.Step))
		case IndexArray, IndexBoolArray:
			shape := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(it.Shape)), ","), "[]")
			vals := make([]string, 0, len(it.Ints)+len(it.Bools))
			for _, x := range it.Ints {
				vals = append(vals, fmt.Sprint(x))
			}
			for _, b := range it.Bools {
				vals = append(vals, map[bool]string{true: "1", false: "0"}[b])
			}
			kind := map[IndexKind]string{IndexArray: "ai", IndexBoolArray: "ab"}[it.Kind]
			parts[k] = fmt.Sprintf("%s:(%s):%s", kind, shape, strings.Join(vals, ","))
		}
	}
	return strings.Join(parts, " | ")
}

// TestLiteralEval checks ParseLiteral against ast.literal_eval and
// ParseIndex against Python's parser and numpy.asarray, on the cases
// scripts/gen_pylit_cases.py wrote with Python 3.11 and NumPy 1.24.
func TestLiteralEval(t *testing.T) {
	data, err := os.ReadFile("testdata/literal_eval.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Grammar, Src, Want string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 300 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		got := "error"
		switch c.Grammar {
		case "literal":
			if v, err := ParseLiteral(c.Src, false); err == nil {
				got = canonLiteral(v)
			}
		case "index":
			if items, err := ParseIndex(c.Src); err == nil {
				got = canonIndex(items)
			}
		}
		if got != c.Want {
			t.Errorf("%s %q: got %s, Python %s", c.Grammar, c.Src, got, c.Want)
		}
	}
}
