package pylit

import (
	"fmt"
	"strings"
	"testing"
)

func TestSliceParse(t *testing.T) {
	good := []struct {
		in   string
		want string // items as itemString writes them
	}{
		{"0", "0"},
		{"-1", "-1"},
		{"[-1]", "int(1,)[-1]"},
		{"1:, ::-1, None, [0,2]", "1: ; ::-1 ; None ; int(2,)[0 2]"},
		{":", ":"},
		{"::", ":"},
		{"1:2:3", "1:2:3"},
		{"-2:0:-1", "-2:0:-1"},
		{"None:None:None", ":"},
		{"True:False", "1:0"},
		{"...", "..."},
		{"Ellipsis, 0", "... ; 0"},
		{"newaxis, np.newaxis, numpy.newaxis", "None ; None ; None"},
		{"True", "bool(true)"},
		{"[0, 2]", "int(2,)[0 2]"},
		{"[0, 2],", "int(2,)[0 2]"},
		{"[[0, 2]]", "int(1, 2)[0 2]"},
		{"[True, False]", "bool(2,)[true false]"},
		{"[True, 2]", "int(2,)[1 2]"},
		{"[]", "int(0,)[]"},
		{"[[]]", "int(1, 0)[]"},
		{"[[], []]", "int(2, 0)[]"},
		{"[[0, 1], [2, 3]]", "int(2, 2)[0 1 2 3]"},
		{"[0, 2], 1:", "int(2,)[0 2] ; 1:"},
		{"[(0, 1), (1, 0)],", "int(2, 2)[0 1 1 0]"},
		{"()", ""},
		{"[()]", "int(1, 0)[]"},
		{"(),", "int(0,)[]"},
		{"(1, 2)", "1 ; 2"},
		{"((1, 2))", "1 ; 2"},
		{"((1, 2),)", "int(2,)[1 2]"},
		{"(1)", "1"},
		{"-(1)", "-1"},
		{"- - 1", "1"},
		{"-True", "-1"},
		{"+False", "0"},
		{"0x1f, 0o17, 0b101, 1_000, 0_0", "31 ; 15 ; 5 ; 1000 ; 0"},
		{" 1 , 2 , ", "1 ; 2"},
		{"0:99999999999999999999999", "0:9223372036854775807"},
		{"-99999999999999999999999::-99999999999999999999999", "-9223372036854775808::-9223372036854775808"},
		{"[9223372036854775807, -9223372036854775808],", "int(2,)[9223372036854775807 -9223372036854775808]"},
	}
	for _, c := range good {
		t.Run(c.in, func(t *testing.T) {
			items, err := ParseIndex(c.in)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got := itemsString(items); got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	bad := []struct{ in, want string }{
		{"", "column 1: empty index"},
		{"  ", "column 3: empty index"},
		{"1.5", "column 1: 1.5 is not an integer: only integers, slices"},
		{"0, 1e3", "column 4: 1e3 is not an integer"},
		{"[1,", "column 4: expected an index, found the end"},
		{"[[1, 2]", "column 8: missing ']' for the '[' at column 1"},
		{"1 2", "column 3: expected ',' or the end of the expression, found \"2\""},
		{"1:2:3:4", "column 6: a slice has at most three parts"},
		{"01", "column 1: leading zeros"},
		{"1__0", "column 1: invalid integer literal"},
		{"0x", "column 1: invalid integer literal"},
		{"0b12", "column 1: invalid integer literal"},
		{"1_", "column 1: invalid integer literal"},
		{"foo", `column 1: unknown name "foo"`},
		{"0, np.nan", `column 4: unknown name "np.nan"`},
		{"[None],", "column 2: lists may hold only integers or booleans"},
		{"[...],", "column 2: lists may hold only integers or booleans"},
		{"[[0, 1], [2]],", "column 10: ragged nested list"},
		{"[1, [2]],", "column 5: ragged nested list"},
		{"[0:1],", "column 3: a slice cannot stand inside a list; write 0:1 without the brackets"},
		{"[1:3]", "column 3: a slice cannot stand inside a list; write 1:3 without the brackets"},
		{"[0, ::-1]", "column 5: a slice cannot stand inside a list; write 0, ::-1 without the brackets"},
		{"(1:2)", "column 3: expected ',' or ')'"},
		{"[1]:2", "column 1: slice indices must be integers or None"},
		{"::[1]", "column 3: slice indices must be integers or None"},
		{"-[1]", "column 1: a sign applies to integers only"},
		{"-None", "column 1: a sign applies to integers only"},
		{"99999999999999999999", "column 1: 99999999999999999999 does not fit in a 64-bit integer"},
		{"[99999999999999999999],", "column 2: 99999999999999999999 does not fit"},
		{"1, ]", "column 4: expected an index, found ']'"},
		{"a[0]", `column 1: unknown name "a"`},
		{"0 ; 1", "column 3: unexpected character ';'"},
		{"é", "column 1: unknown name"},
		{"0, \xff", "column 4: invalid UTF-8"},
		{",", "column 1: expected an index, found ','"},
		{"1,,", "column 3: expected an index, found ','"},
		{". . .", "column 1: unexpected character '.'"},
		{strings.Repeat("[", 40) + "0" + strings.Repeat("]", 40), "nested deeper than 32 levels"},
		{strings.Repeat("(", 40) + "0" + strings.Repeat(")", 40), "nested deeper than 32 levels"},
	}
	for _, c := range bad {
		t.Run("bad/"+c.in, func(t *testing.T) {
			_, err := ParseIndex(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// itemsString writes parsed items compactly for the tests.
func itemsString(items []IndexItem) string {
	parts := make([]string, len(items))
	for k, it := range items {
		switch it.Kind {
		case IndexInt:
			parts[k] = fmt.Sprint(it.Int)
		case IndexBool:
			parts[k] = fmt.Sprintf("bool(%v)", it.Bool)
		case IndexNewAxis:
			parts[k] = "None"
		case IndexEllipsis:
			parts[k] = "..."
		case IndexSlice:
			s := ""
			if it.HasStart {
				s += fmt.Sprint(it.Start)
			}
			s += ":"
			if it.HasStop {
				s += fmt.Sprint(it.Stop)
			}
			if it.HasStep {
				s += ":" + fmt.Sprint(it.Step)
			}
			parts[k] = s
		case IndexArray:
			parts[k] = "int" + ShapeString(it.Shape) + fmt.Sprint(it.Ints)
		case IndexBoolArray:
			parts[k] = "bool" + ShapeString(it.Shape) + fmt.Sprint(it.Bools)
		}
	}
	return strings.Join(parts, " ; ")
}
