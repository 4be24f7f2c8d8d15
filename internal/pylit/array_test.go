package pylit

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseIndexLiteral(t *testing.T) {
	good := []struct {
		in    string
		shape []int
		vals  []int64
	}{
		{"3", []int{}, []int64{3}},
		{" -1 ", []int{}, []int64{-1}},
		{"[3,1,-1]", []int{3}, []int64{3, 1, -1}},
		{"[[0, 1], [2, 3]]", []int{2, 2}, []int64{0, 1, 2, 3}},
		{"[]", []int{0}, nil},
		{"[[], []]", []int{2, 0}, nil},
		{"(1, 2,)", []int{2}, []int64{1, 2}},
		{"[9223372036854775807, -9223372036854775808]", []int{2}, []int64{9223372036854775807, -9223372036854775808}},
		{"1_000", []int{}, []int64{1000}},
	}
	for _, c := range good {
		t.Run(c.in, func(t *testing.T) {
			sh, v, err := parseIndexLiteral(c.in)
			if err != nil || fmt.Sprint(sh) != fmt.Sprint(c.shape) || fmt.Sprint(v) != fmt.Sprint(c.vals) {
				t.Fatalf("got %v %v %v", sh, v, err)
			}
		})
	}
	bad := []struct{ in, want string }{
		{"", "column 1: expected an integer"},
		{"[1,", "column 4: expected an integer"},
		{"[1 2]", "column 4: expected ',' or ']'"},
		{"[1,2", "missing ']'"},
		{"1.5", `column 1: "1.5" is not an integer`},
		{"True", "not booleans"},
		{"[[1],[2,3]]", "column 6: ragged nested list"},
		{"[1],", "column 4: unexpected"},
		{"99999999999999999999", "does not fit in a 64-bit integer"},
		{strings.Repeat("[", 40) + "1" + strings.Repeat("]", 40), "nested deeper than 32"},
		{"--1", "is not an integer"},
	}
	for _, c := range bad {
		t.Run("bad/"+c.in, func(t *testing.T) {
			_, _, err := parseIndexLiteral(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// parseIndexLiteral is ParseIndexArray as the old ops.ParseIndexLiteral
// returned it, so that its tests read as they did.
func parseIndexLiteral(s string) ([]int, []int64, error) {
	it, err := ParseIndexArray(s)
	if err != nil {
		return nil, nil, err
	}
	if it.Kind != IndexArray {
		return nil, nil, fmt.Errorf("kind %d, not an integer array", it.Kind)
	}
	return it.Shape, it.Ints, nil
}

func count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func FuzzIndexLiteral(f *testing.F) {
	for _, s := range []string{"3", "[3,1,-1]", "[[0,1],[2,3]]", "[]", "(1,)", "[[1],[2,3]]", "1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shape, vals, err := parseIndexLiteral(s)
		if err != nil {
			if !strings.Contains(err.Error(), "column ") {
				t.Fatalf("error without a column: %v", err)
			}
			return
		}
		if count(shape) != len(vals) {
			t.Fatalf("shape %v holds %d values, parsed %d", shape, count(shape), len(vals))
		}
	})
}

// TestParseIndexLiteralPythonGrammar: --index follows Python's literal
// grammar (ast.literal_eval), which parity.py judges it against: "010" is an
// error (Go's base-0 parsing read it as octal 8), "(3)" is the scalar 3 (it
// was a 1-element list), and prefixed integers and "- 3" are integers.
func TestParseIndexLiteralPythonGrammar(t *testing.T) {
	good := []struct {
		in    string
		shape []int
		vals  []int64
	}{
		{"(3)", []int{}, []int64{3}},
		{"((1))", []int{}, []int64{1}},
		{"( -2 )", []int{}, []int64{-2}},
		{"([1, 2])", []int{2}, []int64{1, 2}},
		{"((1, 2), (3, 4))", []int{2, 2}, []int64{1, 2, 3, 4}},
		{"[(1), 2]", []int{2}, []int64{1, 2}},
		{"(3,)", []int{1}, []int64{3}},
		{"()", []int{0}, nil},
		{"00", []int{}, []int64{0}},
		{"0_0", []int{}, []int64{0}},
		{"0xF", []int{}, []int64{15}},
		{"0X1f", []int{}, []int64{31}},
		{"0x_a", []int{}, []int64{10}},
		{"-0o7", []int{}, []int64{-7}},
		{"0B1_1", []int{}, []int64{3}},
		{"- 3", []int{}, []int64{-3}},
		{"[+ 1, -\t2]", []int{2}, []int64{1, -2}},
		{"-0x8000000000000000", []int{}, []int64{-1 << 63}},
	}
	for _, c := range good {
		sh, v, err := parseIndexLiteral(c.in)
		if err != nil || fmt.Sprint(sh) != fmt.Sprint(c.shape) || fmt.Sprint(v) != fmt.Sprint(c.vals) {
			t.Errorf("%q: got %v %v %v, want %v %v", c.in, sh, v, err, c.shape, c.vals)
		}
	}
	for _, in := range []string{"010", "07", "0_7", "00_1", "0_", "1__0", "1_", "0x", "0b2", "08",
		"0x8000000000000000", "- -3", "-", "(3", "(,)", "(1 2)"} {
		if sh, v, err := parseIndexLiteral(in); err == nil {
			t.Errorf("%q: got %v %v, want an error", in, sh, v)
		} else if !strings.Contains(err.Error(), "column ") {
			t.Errorf("%q: error without a column: %v", in, err)
		}
	}
}
