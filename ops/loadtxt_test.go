package ops

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"strider/internal/dtype"
)

func TestLoadTxtShapes(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	for _, c := range []struct {
		text  string
		opt   LoadTxt
		shape []int
		vals  []float64
	}{
		{"1 2\n3 4\n", LoadTxt{Comments: "#"}, []int{2, 2}, []float64{1, 2, 3, 4}},
		{"5", LoadTxt{Comments: "#"}, []int{}, []float64{5}},
		{"5", LoadTxt{Comments: "#", NDMin: 1}, []int{1}, []float64{5}},
		{"5", LoadTxt{Comments: "#", NDMin: 2}, []int{1, 1}, []float64{5}},
		{"1\n2\n", LoadTxt{Comments: "#", NDMin: 2}, []int{2, 1}, []float64{1, 2}},
		{"# h\r\n 1\t2 # c\r\n\r\n3 4", LoadTxt{Comments: "#"}, []int{2, 2}, []float64{1, 2, 3, 4}},
		{"a b\n1,2,3\n4,5,6\n", LoadTxt{Delimiter: ',', Comments: "#", SkipRows: 1, UseCols: []int{-1, 0}}, []int{2, 2}, []float64{3, 1, 6, 4}},
		{"1\r2\r", LoadTxt{Comments: "#"}, []int{2}, []float64{1, 2}},
	} {
		pieces, shape, err := c.opt.Load([]byte(c.text), f8, Options{})
		data := bytes.Join(pieces, nil)
		if err != nil || !slices.Equal(shape, c.shape) || len(data) != 8*len(c.vals) {
			t.Errorf("%q: shape %v, %d bytes, %v; want %v", c.text, shape, len(data), err, c.shape)
			continue
		}
		for i, v := range c.vals {
			if got := math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:])); got != v {
				t.Errorf("%q: element %d = %v, want %v", c.text, i, got, v)
			}
		}
	}
	for _, c := range []struct{ text, where string }{
		{"1 2\n3\n", "line 2"},
		{"1 2\nx 4\n", "line 2, column 1"},
		{"", "line 1"},
		{"# only\n\n", "line 3"},
		{"1 1_0", "line 1, column 2"},
		{"0x10", "line 1, column 1"},
	} {
		_, _, err := LoadTxt{Comments: "#"}.Load([]byte(c.text), f8, Options{})
		var te *TextError
		if !errors.As(err, &te) || !bytes.Contains([]byte(err.Error()), []byte(c.where)) {
			t.Errorf("%q: error %v, want one at %s", c.text, err, c.where)
		}
	}
}

func TestCastFloatX86(t *testing.T) {
	// What NumPy 1.24's loadtxt gives on x86-64 for these fallbacks.
	for _, c := range []struct {
		x      float64
		size   int
		signed bool
		want   uint64
	}{
		{1e19, 8, false, 10000000000000000000}, {-1e19, 8, false, 1 << 63}, {math.NaN(), 8, false, 1 << 63},
		{1e10, 4, false, 1410065408}, {math.NaN(), 4, false, 0}, {-3e9, 4, false, 1294967296},
		{1e10, 2, true, 0}, {70000.5, 2, true, 4464}, {300, 1, true, 44}, {-1, 1, false, 255},
		{1e10, 4, true, 1 << 31}, {-1, 8, false, math.MaxUint64},
	} {
		if got := castFloatX86(c.x, c.size, c.signed); got != c.want {
			t.Errorf("cast(%v, %d, %v) = %d, want %d", c.x, c.size, c.signed, got, c.want)
		}
	}
}

func TestFloat64ToHalfBits(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		x := dtype.HalfToFloat64(uint16(h))
		if x != x {
			continue
		}
		if got := float64ToHalfBits(x); got != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, x, got)
		}
	}
}

// FuzzFromText: whatever the bytes, Load and LoadJSON return data that
// fills their shape, or an error; never a panic.
func FuzzFromText(f *testing.F) {
	for _, s := range []string{"1 2\n3 4\n", "5", "nan -inf +1e5\n", "1,2\r\n3,4", "# c\n\n1\t2 # x\n", "1 2\n3\n",
		"[[1, 2], [3, NaN]]", "[[], []]", "[1, [2]]", "(1+2j) 3-4j", "-1 300 1e30", "1e400 -nan"} {
		f.Add([]byte(s), byte(0), uint8(0))
		f.Add([]byte(s), byte(','), uint8(3))
	}
	f.Fuzz(func(t *testing.T, text []byte, delim byte, pick uint8) {
		if _, ok := parsePyFloat(text); ok != floatSyntax(trimTextSpace(text)) {
			t.Fatalf("%q: strconv and Python's grammar disagree", text)
		}
		formats := []dtype.Dtype{{Kind: 'f', Size: 8}, {Kind: 'f', Size: 4, Order: '>'}, {Kind: 'f', Size: 2}, {Kind: 'i', Size: 1}, {Kind: 'u', Size: 8, Order: '>'}, {Kind: 'b', Size: 1}, {Kind: 'c', Size: 16}, {Kind: 'i', Size: 4}}
		fm := formats[int(pick)%len(formats)]
		o := LoadTxt{Delimiter: delim, Comments: "#", SkipRows: int(pick % 3), NDMin: int(pick/3) % 3}
		if pick%5 == 0 {
			o.UseCols = []int{0, -1}
		}
		if delim == '#' {
			o.Comments = "//"
		}
		for _, load := range []func() ([]byte, []int, error){
			func() ([]byte, []int, error) {
				pieces, shape, err := o.Load(text, fm, Options{Threads: 2})
				return bytes.Join(pieces, nil), shape, err
			},
			func() ([]byte, []int, error) { return LoadJSON(text, fm) },
		} {
			data, shape, err := load()
			if err != nil {
				continue
			}
			if len(data) != Count(shape)*fm.Size {
				t.Fatalf("%q: %d bytes for shape %v", text, len(data), shape)
			}
		}
	})
}

// parsePyFloat takes strconv's answer where strconv's grammar is Python's:
// the grammar check floatSyntax must agree with it on every spelling.
func TestParsePyFloatGrammar(t *testing.T) {
	for _, s := range []string{"1", "+1.5", "-.5", "5.", "1e5", "1E+05", "1e-400", "1e400", "inf", "-Infinity", "+INF", "nan", "-nan",
		"NaN", "1_0", "0x10", "0x1p3", "1e", ".", "+", "", "1.5e+", "infinit", "nan(1)", "1d5", "--1", "1.2.3", "e5", "in", "+-1", "0X1P3", "1__0", "0b1"} {
		_, ok := parsePyFloat([]byte(s))
		if want := floatSyntax([]byte(s)); ok != want {
			t.Errorf("%q: parsed %v, Python's grammar says %v", s, ok, want)
		}
	}
}
