package text

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"strider/internal/dtype"
	"strider/ops"
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
		pieces, shape, err := c.opt.Load([]byte(c.text), f8, ops.Options{})
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
		{"1 1_0", "line 1, column 2"},
		{"0x10", "line 1, column 1"},
	} {
		_, _, err := LoadTxt{Comments: "#"}.Load([]byte(c.text), f8, ops.Options{})
		var te *TextError
		if !errors.As(err, &te) || !bytes.Contains([]byte(err.Error()), []byte(c.where)) {
			t.Errorf("%q: error %v, want one at %s", c.text, err, c.where)
		}
	}
}

// FuzzFromText: whatever the bytes, Load and LoadJSON return data that
// fills their shape, or an error; never a panic.
func FuzzFromText(f *testing.F) {
	for _, s := range []string{"1 2\n3 4\n", "5", "nan -inf +1e5\n", "1,2\r\n3,4", "# c\n\n1\t2 # x\n", "1 2\n3\n",
		"[[1, 2], [3, NaN]]", "[[], []]", "[1, [2]]", "(1+2j) 3-4j", "-1 300 1e30", "1e400 -nan",
		"", "# only\n\n", "1 2\u200330\n", "\u00a0\n\u3000\r\n", "7+-5.0j ( 4+5j )", "1+2 j", "(1+2j", "1++2j\u3000(3)",
		"\x1b[2J\x07 \x00\xff", "[1, \x1b[31m]", strings.Repeat("1 ", 4000) + "\n" + strings.Repeat("2\u2003", 4000)} {
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
				pieces, shape, err := o.Load(text, fm, ops.Options{Threads: 2})
				return bytes.Join(pieces, nil), shape, err
			},
			func() ([]byte, []int, error) { return LoadJSON(text, fm) },
		} {
			data, shape, err := load()
			if err != nil {
				continue
			}
			if len(data) != ops.Count(shape)*fm.Size {
				t.Fatalf("%q: %d bytes for shape %v", text, len(data), shape)
			}
		}
	})
}

// TestLoadTxtEmpty: an input without data rows gives loadtxt's empty
// array, shaped as NumPy 1.24 shapes it (which also warns; the command
// prints the warning): (0,) or (0, len(usecols)) or, with ndmin 2, a column.
func TestLoadTxtEmpty(t *testing.T) {
	for _, c := range []struct {
		text  string
		opt   LoadTxt
		shape []int
	}{
		{"", LoadTxt{Comments: "#"}, []int{0}},
		{"", LoadTxt{Comments: "#", NDMin: 1}, []int{0}},
		{"", LoadTxt{Comments: "#", NDMin: 2}, []int{0, 1}},
		{"# c\n", LoadTxt{Comments: "#", UseCols: []int{0}}, []int{0}},
		{"# c\n", LoadTxt{Comments: "#", UseCols: []int{0, 2}}, []int{0, 2}},
		{"\n\n", LoadTxt{Comments: "#", UseCols: []int{0, 2}, NDMin: 1}, []int{0, 2}},
		{"\n\n", LoadTxt{Comments: "#", UseCols: []int{0, 2}, NDMin: 2}, []int{0, 2}},
		{"  \n\t\n", LoadTxt{Comments: "#", UseCols: []int{-1}}, []int{0}},
		{"  \n\t\n", LoadTxt{Comments: "#", UseCols: []int{0}, NDMin: 2}, []int{0, 1}},
		{"1 2\n", LoadTxt{Comments: "#", SkipRows: 1}, []int{0}},
		{"1 2\n", LoadTxt{Comments: "#", SkipRows: 5, NDMin: 2}, []int{0, 1}},
		{"1,2\n", LoadTxt{Delimiter: ',', Comments: "#", SkipRows: 1, UseCols: []int{0, 1, 2}}, []int{0, 3}},
		{"\r\n\r", LoadTxt{Delimiter: ',', Comments: "#"}, []int{0}},
		{"// only\n", LoadTxt{Comments: "//", NDMin: 2, UseCols: []int{1, 0, 1}}, []int{0, 3}},
	} {
		for _, f := range []dtype.Dtype{{Kind: 'f', Size: 8}, {Kind: 'i', Size: 1}, {Kind: 'c', Size: 8}} {
			pieces, shape, err := c.opt.Load([]byte(c.text), f, ops.Options{})
			if err != nil || !slices.Equal(shape, c.shape) || len(bytes.Join(pieces, nil)) != 0 {
				t.Errorf("%q %+v %v: shape %v, %v; want %v", c.text, c.opt, f, shape, err, c.shape)
			}
		}
	}
	// A blank line is a data row when a delimiter splits it: NumPy cannot
	// convert its one field.
	_, _, err := LoadTxt{Delimiter: ',', Comments: "#"}.Load([]byte("  \n"), dtype.Dtype{Kind: 'f', Size: 8}, ops.Options{})
	if err == nil || err.Error() != "line 1, column 1: could not convert string '  ' to float64" {
		t.Errorf("a blank delimited line: %v", err)
	}
}

// pythonSpaces is every character for which Python's str.isspace is true
// (NumPy's tokenizer splits at Py_UNICODE_ISSPACE), from Python 3.11.
var pythonSpaces = []rune{0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
	0x2028, 0x2029, 0x202f, 0x205f, 0x3000}

// TestLoadTxtUnicodeSpace: every Python whitespace character splits
// fields, starts and ends rows and pads a delimited field, as in NumPy
// 1.24 (np.loadtxt of "1 2\u200330" is [1, 2, 30]); other characters do
// not.
func TestLoadTxtUnicodeSpace(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	for _, r := range pythonSpaces {
		if r == '\n' || r == '\r' {
			continue // line breaks
		}
		s := string(r)
		for _, c := range []struct {
			text string
			opt  LoadTxt
			f    dtype.Dtype
			want []float64
		}{
			{"1 2" + s + "30\n" + s + "4" + s + "5 6" + s + s + "\n", LoadTxt{Comments: "#"}, f8, []float64{1, 2, 30, 4, 5, 6}},
			{"1 2" + s + "30\n" + s + "4" + s + "5 6" + s + s + "\n", LoadTxt{Comments: "#", UseCols: []int{-1, 0}}, f8, []float64{30, 1, 6, 4}},
			{s + "\n1" + s + "2" + s + "\n" + s + s + "\n", LoadTxt{Comments: "#"}, dtype.Dtype{Kind: 'i', Size: 2}, []float64{1, 2}},
			{"1," + s + "2" + s + "\n", LoadTxt{Delimiter: ',', Comments: "#"}, f8, []float64{1, 2}},
			{"1," + s + "2" + s + "\n", LoadTxt{Delimiter: ',', Comments: "#"}, dtype.Dtype{Kind: 'i', Size: 8}, []float64{1, 2}},
			{"1," + s + "2" + s + "\n", LoadTxt{Delimiter: ',', Comments: "#"}, dtype.Dtype{Kind: 'c', Size: 16}, []float64{1, 0, 2, 0}},
			{s + "(1+2j)" + s + "3j\n", LoadTxt{Comments: "#"}, dtype.Dtype{Kind: 'c', Size: 16}, []float64{1, 2, 0, 3}},
		} {
			got, err := loadFloats(c.opt, c.text, c.f)
			if err != nil || !slices.Equal(got, c.want) {
				t.Errorf("U+%04X: %q %v: %v %v, want %v", r, c.text, c.f, got, err, c.want)
			}
		}
	}
	// Not whitespace: a zero-width space, a non-breaking hyphen.
	for _, s := range []string{"1\u200b2", "1\u20112", "1\u00e9"} {
		if _, err := loadFloats(LoadTxt{Comments: "#"}, s, f8); err == nil {
			t.Errorf("%q: parsed", s)
		}
	}
}

// loadFloats loads text and returns its elements as float64s (a complex
// element as two).
func loadFloats(o LoadTxt, text string, f dtype.Dtype) ([]float64, error) {
	pieces, _, err := o.Load([]byte(text), f, ops.Options{})
	if err != nil {
		return nil, err
	}
	data := bytes.Join(pieces, nil)
	var out []float64
	part := f
	if f.Kind == 'c' {
		part = f.Part()
	}
	for i := 0; i+part.Size <= len(data); i += part.Size {
		switch {
		case part.Kind == 'f' && part.Size == 8:
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(data[i:])))
		case part.Kind == 'f' && part.Size == 2:
			out = append(out, dtype.HalfToFloat64(binary.LittleEndian.Uint16(data[i:])))
		case part.Kind == 'f' && part.Size == 4:
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(data[i:]))))
		case part.Size == 8:
			out = append(out, float64(int64(binary.LittleEndian.Uint64(data[i:]))))
		case part.Size == 2:
			out = append(out, float64(int16(binary.LittleEndian.Uint16(data[i:]))))
		default:
			out = append(out, float64(int8(data[i])))
		}
	}
	return out, nil
}

// TestLoadTxtErrorQuotes: the field an error quotes reaches a terminal as
// visible escapes (no ESC, BEL, CR, NUL, bidi override or byte that is
// not UTF-8 of its own), Python's quoting kept, and a long field cut.
func TestLoadTxtErrorQuotes(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	for _, c := range []struct{ field, want string }{
		{"\x1b[2J\x07", `could not convert string '\x1b[2J\x07' to float64`},
		{"a\x00b\x7f", `could not convert string 'a\x00b\x7f' to float64`},
		{"x\xff\xfe", `could not convert string 'x\xff\xfe' to float64`},
		{"rtl\u202e1", `could not convert string 'rtl\u202e1' to float64`},
		{"c1\u009b31m", `could not convert string 'c1\u009b31m' to float64`},
		{`a\b`, `could not convert string 'a\\b' to float64`},
		{`a'b`, `could not convert string "a'b" to float64`},
		{`a'b"`, `could not convert string 'a\'b"' to float64`},
		{"é", `could not convert string 'é' to float64`},
	} {
		_, _, err := LoadTxt{Delimiter: ','}.Load([]byte(c.field+",1\n"), f8, ops.Options{})
		if err == nil || err.Error() != "line 1, column 1: "+c.want {
			t.Errorf("%q: %v, want %s", c.field, err, c.want)
		}
	}
	long := bytes.Repeat([]byte("x"), 1<<20)
	_, _, err := LoadTxt{}.Load(long, f8, ops.Options{})
	if err == nil || len(err.Error()) > 200 || !bytes.Contains([]byte(err.Error()), []byte("'xxxxxxxxxx")) {
		t.Errorf("a field of 1 MiB: error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
}

// TestLoadTxtWideRow: a row of a million fields is parsed as it is read,
// on every path (the fast float scanner, the field parser of an integer
// dtype, usecols): besides the output, the parse allocates a working
// block, not a slice entry per field (a 100M-column row once took 24 GB).
func TestLoadTxtWideRow(t *testing.T) {
	const cols = 1 << 20
	text := bytes.Repeat([]byte("7 "), cols)
	text = append(text, "\n"...)
	text = append(text, bytes.Repeat([]byte("8\t"), cols)...)
	for _, c := range []struct {
		name string
		opt  LoadTxt
		f    dtype.Dtype
	}{
		{"f8", LoadTxt{}, dtype.Dtype{Kind: 'f', Size: 8}},
		{"i1", LoadTxt{}, dtype.Dtype{Kind: 'i', Size: 1}},
		{"c8", LoadTxt{}, dtype.Dtype{Kind: 'c', Size: 8}},
		{"f4/usecols", LoadTxt{UseCols: []int{-1, 5, 0, cols - 2}}, dtype.Dtype{Kind: 'f', Size: 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := c.opt.Plan(text, c.f, ops.Options{Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]byte, p.Bytes())
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = p.Fill(dst)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
				t.Errorf("Fill allocated %d bytes for a %d-byte result", n, len(dst))
			}
			want := []int{2, cols}
			if c.opt.UseCols != nil {
				want = []int{2, len(c.opt.UseCols)}
			}
			if !slices.Equal(p.Shape, want) {
				t.Errorf("shape %v, want %v", p.Shape, want)
			}
		})
	}
	// Plan counts the columns without a slice of them.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := LoadTxt{}.Plan(text, dtype.Dtype{Kind: 'f', Size: 8}, ops.Options{Threads: 1})
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; err != nil || n > 1<<20 {
		t.Errorf("Plan allocated %d bytes (%v)", n, err)
	}
}

// TestTextSpace: textSpace and lastTextSpace know exactly Python's
// whitespace, for every character, in UTF-8; a byte that is not UTF-8
// is not whitespace.
func TestTextSpace(t *testing.T) {
	space := map[rune]bool{}
	for _, r := range pythonSpaces {
		space[r] = true
	}
	delete(space, '\n') // a line break, gone before a line is split
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r == '\n' || !utf8.ValidRune(r) {
			continue
		}
		b := utf8.AppendRune(nil, r)
		want := 0
		if space[r] {
			want = len(b)
		}
		if got := textSpace(append(b, 'x')); got != want {
			t.Fatalf("textSpace(U+%04X) = %d, want %d", r, got, want)
		}
		if got := lastTextSpace(append([]byte{'x'}, b...)); got != want {
			t.Fatalf("lastTextSpace(U+%04X) = %d, want %d", r, got, want)
		}
	}
	for _, b := range [][]byte{{0xc2}, {0xe2, 0x80}, {0xa0}, {0x80, 0x80}, {0xff}} {
		if textSpace(b) != 0 || lastTextSpace(b) != 0 {
			t.Errorf("% x: whitespace", b)
		}
	}
}

// TestLoadTxtHalfUnderscores: NumPy 1.24 reads float16 fields with
// Python's float(), which takes underscores between digits; the other
// dtypes refuse them.
func TestLoadTxtHalfUnderscores(t *testing.T) {
	f2 := dtype.Dtype{Kind: 'f', Size: 2}
	for _, c := range []struct {
		field string
		want  float64 // NaN: refused
	}{
		{"1_0", 10}, {"1_0e1_0", math.Inf(1)}, {"1_0.5", 10.5}, {"1.5_5", 1.5498046875}, {" 1_0 ", 10},
		{"\u00a01_0\u3000", 10}, {"+1_0", 10}, {"1__0", math.NaN()}, {"_1", math.NaN()}, {"1_", math.NaN()},
		{"1._5", math.NaN()}, {"1_.5", math.NaN()}, {"1e1_", math.NaN()}, {"in_f", math.NaN()}, {"1_e5", math.NaN()},
		{"1e_5", math.NaN()}, {"0x1_0", math.NaN()},
	} {
		got, err := loadFloats(LoadTxt{Delimiter: ';'}, c.field, f2)
		if c.want != c.want {
			if err == nil {
				t.Errorf("%q: read as %v, NumPy refuses it", c.field, got)
			}
			continue
		}
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("%q: %v %v, want %v", c.field, got, err, c.want)
		}
	}
	if _, err := loadFloats(LoadTxt{}, "1_0", dtype.Dtype{Kind: 'f', Size: 4}); err == nil {
		t.Errorf("float32 read 1_0")
	}
}
