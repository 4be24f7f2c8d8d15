package ops

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
			sh, v, err := ParseIndexLiteral(c.in)
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
			_, _, err := ParseIndexLiteral(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

func FuzzIndexLiteral(f *testing.F) {
	for _, s := range []string{"3", "[3,1,-1]", "[[0,1],[2,3]]", "[]", "(1,)", "[[1],[2,3]]", "1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shape, vals, err := ParseIndexLiteral(s)
		if err != nil {
			if !strings.Contains(err.Error(), "column ") {
				t.Fatalf("error without a column: %v", err)
			}
			return
		}
		if Count(shape) != len(vals) {
			t.Fatalf("shape %v holds %d values, parsed %d", shape, Count(shape), len(vals))
		}
	})
}
