package npprint

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// formatCase is one line of testdata/format.json (scripts/gen_npprint_cases.py):
// numpy.format_float_positional or format_float_scientific and its answer.
type formatCase struct {
	Size      int    `json:"size"`
	Bits      string `json:"bits"`
	Sci       bool   `json:"sci"`
	Unique    bool   `json:"unique"`
	Precision int    `json:"precision"`
	MinDigits int    `json:"min_digits"`
	Sign      bool   `json:"sign"`
	Trim      string `json:"trim"`
	PadLeft   int    `json:"pad_left"`
	PadRight  int    `json:"pad_right"`
	ExpDigits int    `json:"exp_digits"`
	Want      string `json:"want"`
}

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatalf("fixture: %v (run scripts/gen_npprint_cases.py)", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("fixture %s: %v", name, err)
	}
}

func TestFormatMatchesNumPy(t *testing.T) {
	var cases []formatCase
	loadJSON(t, "format.json", &cases)
	if len(cases) < 1000 {
		t.Fatalf("only %d cases in format.json", len(cases))
	}
	for i, c := range cases {
		bits, err := strconv.ParseUint(c.Bits, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		o := FloatOpts{Scientific: c.Sci, Unique: c.Unique, Precision: c.Precision, MinDigits: c.MinDigits,
			Sign: c.Sign, Trim: Trim(c.Trim[0]), PadLeft: c.PadLeft, PadRight: c.PadRight, ExpDigits: c.ExpDigits}
		x := Float{bits, c.Size}
		if got := Format(x, o); got != c.Want {
			t.Errorf("case %d: f%d %v (bits %#x) %+v: got %q, NumPy %q", i, 8*c.Size, x.Value(), bits, o, got, c.Want)
		}
	}
}

// arrayCase is one line of testdata/arrays.json: an array, print options,
// and NumPy's str() and repr().
type arrayCase struct {
	Kind    string         `json:"kind"`
	Size    int            `json:"size"`
	Shape   []int          `json:"shape"`
	Elems   []string       `json:"elems"`
	Options map[string]any `json:"options"`
	Str     string         `json:"str"`
	Repr    string         `json:"repr"`
	Descr   string         `json:"descr"`
}

func (c arrayCase) options(t *testing.T) Options {
	o := Defaults()
	for k, v := range c.Options {
		switch k {
		case "precision":
			o.Precision = int(v.(float64))
		case "threshold":
			o.Threshold = int(v.(float64))
		case "edgeitems":
			o.EdgeItems = int(v.(float64))
		case "linewidth":
			o.LineWidth = int(v.(float64))
		case "suppress":
			o.Suppress = v.(bool)
		case "floatmode":
			o.FloatMode = v.(string)
		case "sign":
			o.Sign = v.(string)[0]
		case "nanstr":
			o.NanStr = v.(string)
		case "infstr":
			o.InfStr = v.(string)
		default:
			t.Fatalf("unknown option %q", k)
		}
	}
	return o
}

// edgeArray keeps the elements Edges selects from a full C-order list,
// as the show command reads them from a file.
func edgeArray(kind byte, size int, shape []int, all []uint64, o Options) Array {
	per := 1
	if kind == 'c' {
		per = 2
	}
	_, keep := Edges(shape, o)
	strides := make([]int, len(shape))
	step := 1
	for k := len(shape) - 1; k >= 0; k-- {
		strides[k] = step
		step *= shape[k]
	}
	var elems []uint64
	idx := make([]int, len(shape))
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(shape) {
			elems = append(elems, all[off*per:off*per+per]...)
			return
		}
		for _, i := range keep[axis] {
			idx[axis] = i
			walk(axis+1, off+i*strides[axis])
		}
	}
	if Count(shape) > 0 {
		walk(0, 0)
	}
	return Array{Kind: kind, Size: size, Shape: shape, Elems: elems}
}

func TestArraysMatchNumPy(t *testing.T) {
	var cases []arrayCase
	loadJSON(t, "arrays.json", &cases)
	if len(cases) < 500 {
		t.Fatalf("only %d cases in arrays.json", len(cases))
	}
	for i, c := range cases {
		all := make([]uint64, len(c.Elems))
		for k, s := range c.Elems {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			all[k] = v
		}
		o := c.options(t)
		a := edgeArray(c.Kind[0], c.Size, c.Shape, all, o)
		name := fmt.Sprintf("%d/%s/%v/%v", i, c.Descr, c.Shape, c.Options)
		if got := Str(a, o); got != c.Str {
			t.Errorf("%s: str\n got %q\nwant %q", name, got, c.Str)
		}
		if got := Repr(a, o); got != c.Repr {
			t.Errorf("%s: repr\n got %q\nwant %q", name, got, c.Repr)
		}
	}
}

// FuzzPrinted: Printed counts the elements Edges keeps, for any shape and
// options, and allocates nothing, so that show can bound --full of a view of
// 2**40 elements before Edges would allocate its indices (issue 27). Each
// extent byte is an extent under 128, or with its top bit set a power of two
// up to 2**47 (a torch tensor's largest; the hostile seeds).
func FuzzPrinted(f *testing.F) {
	f.Add([]byte{7, 3, 4}, 1000, 3)
	f.Add([]byte{0x80 | 40}, 1000, 3)                      // (2**40,), summarized
	f.Add([]byte{0x80 | 40}, math.MaxInt, 3)               // --full
	f.Add([]byte{0x80 | 40}, 1000, 0)                      // --edgeitems 0
	f.Add([]byte{0x80 | 28, 0x80 | 28}, 1000, 3)           // (2**28, 2**28)
	f.Add([]byte{2, 0x80 | 39}, 1000, 1<<40)               // huge edge items
	f.Add([]byte{0x80 | 47, 0x80 | 12, 0}, math.MaxInt, 3) // empty
	f.Fuzz(func(t *testing.T, dims []byte, threshold, edge int) {
		if len(dims) > 4 || edge < 0 {
			return
		}
		shape := make([]int, len(dims))
		for k, b := range dims {
			shape[k] = int(b & 0x7f)
			if b&0x80 != 0 {
				shape[k] = 1 << (b & 0x3f % 48)
			}
		}
		count, ok := checkedProduct(shape)
		if !ok || count > 1<<59 {
			return // no reader accepts it
		}
		o := Defaults()
		o.Threshold, o.EdgeItems = threshold, edge
		var n int
		if allocs := testing.AllocsPerRun(1, func() { n = Printed(shape, o) }); allocs != 0 {
			t.Fatalf("Printed(%v) allocates", shape)
		}
		if n < 0 || n > count {
			t.Fatalf("Printed(%v, threshold %d, edgeitems %d) = %d of %d elements", shape, threshold, edge, n, count)
		}
		if MemoryEstimate('c', 16, n, o) < int64(min(n, 1<<40)) {
			t.Fatalf("MemoryEstimate of %d complex128 is less than a byte each", n)
		}
		if count == 0 && n != 0 {
			t.Fatalf("Printed(%v) = %d of an empty array", shape, n)
		}
		if n > 1<<16 || count == 0 { // Edges of an empty array is never asked for
			return
		}
		_, keep := Edges(shape, o)
		kept := 1
		for _, idx := range keep {
			kept *= len(idx)
		}
		if kept != n {
			t.Fatalf("Printed(%v, threshold %d, edgeitems %d) = %d, Edges keeps %d", shape, threshold, edge, n, kept)
		}
	})
}

// checkedProduct is the product of shape, or false when it overflows.
func checkedProduct(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range shape {
		if n > math.MaxInt/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// TestPrintLongLine: a line as long as --linewidth allows costs each word
// its own length, not the line's: with a linewidth of 2**30 the 2**17
// elements below share one line of 256 KiB, which copying the line for
// every word made 16 GiB of allocations (show --full --linewidth 100000 of
// 4 M float32s took 8 minutes; now 3 s).
func TestPrintLongLine(t *testing.T) {
	const n = 1 << 17
	a := Array{Kind: 'i', Size: 1, Shape: []int{n}, Elems: make([]uint64, n)}
	o := Defaults()
	o.Threshold, o.LineWidth = math.MaxInt, 1<<30
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got := Str(a, o)
	runtime.ReadMemStats(&after)
	if want := "[" + strings.Repeat("0 ", n-1) + "0]"; got != want {
		t.Fatalf("%d bytes, want %d: %.40q...", len(got), len(want), got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64*uint64(len(got)) {
		t.Fatalf("%d bytes allocated for %d bytes of text: the line is copied for every word", alloc, len(got))
	}
}
