package text

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

// TestPow10Table recomputes every entry of pow10tab.go from its definition.
func TestPow10Table(t *testing.T) {
	top := new(big.Int).Lsh(big.NewInt(1), 127)
	for e := pow10Min; e <= pow10Max; e++ {
		got := new(big.Int).SetUint64(pow10Tab[e-pow10Min][0])
		got.Lsh(got, 64).Or(got, new(big.Int).SetUint64(pow10Tab[e-pow10Min][1]))
		if got.Cmp(top) < 0 {
			t.Fatalf("1e%d: top bit not set", e)
		}
		// got/2^k <= 10^e < (got+1)/2^k with k = 127 - floor(log2 10^e),
		// compared in integers: got*den <= num*2^s < (got+1)*den.
		k := 127 - (217706 * e >> 16)
		num, den := big.NewInt(1), big.NewInt(1)
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(e, -e))), nil)
		if e >= 0 {
			num = p
		} else {
			den = p
		}
		if k >= 0 {
			num = new(big.Int).Lsh(num, uint(k))
		} else {
			den = new(big.Int).Lsh(den, uint(-k))
		}
		lo := new(big.Int).Mul(got, den)
		hi := new(big.Int).Mul(new(big.Int).Add(got, big.NewInt(1)), den)
		if lo.Cmp(num) > 0 || hi.Cmp(num) <= 0 {
			t.Fatalf("1e%d: table entry %#x is not floor(10^%d * 2^%d)", e, got, e, k)
		}
	}
}

func TestScanDecimal(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "+0.0e5", "1", "1.", ".5", "-.5e-3", "1e22", "1e23", "9007199254740993",
		"1.234567890123456789e+00", "-9.999999999999999999e+307", "1.797693134862315708e+308",
		"2.225073858507201136e-308", "4.940656458412465442e-324", "1e-400", "1e400",
		"0.000000000000000000000000000000123456", "12345678901234567890", "1234567890123456789",
		"7.038531e-26", "2.2250738585072011e-308", "1e", "e5", ".", "-", "1e+", "inf", "nan",
		"0.1", "0.2", "0.3", "123.456e-7", "5e-324", "1.5e", "1_0",
	} {
		checkScanDecimal(t, []byte(s))
	}
}

// checkScanDecimal holds scanDecimal to strconv.ParseFloat on its prefix,
// and to Python's grammar (floatSyntax) on what it takes.
func checkScanDecimal(t *testing.T, b []byte) {
	t.Helper()
	x, n, ok := scanDecimal(b)
	if !ok {
		return
	}
	if n == 0 || n > len(b) {
		t.Fatalf("scanDecimal(%q) took %d bytes", b, n)
	}
	if !floatSyntax(b[:n]) {
		t.Fatalf("scanDecimal(%q) took %q, not a Python float", b, b[:n])
	}
	want, err := strconv.ParseFloat(string(b[:n]), 64)
	if err != nil || math.Float64bits(x) != math.Float64bits(want) {
		t.Fatalf("scanDecimal(%q) = %v (%#x) of %q, strconv %v (%#x, %v)", b, x, math.Float64bits(x), b[:n], want, math.Float64bits(want), err)
	}
	if n < len(b) {
		// The prefix is the longest number there: one more byte is not.
		if c := b[n]; c >= '0' && c <= '9' {
			t.Fatalf("scanDecimal(%q) stopped at a digit (%d bytes)", b, n)
		}
	}
}

// FuzzScanDecimal: scanDecimal is strconv.ParseFloat wherever it answers.
// Seeds cover the digit counts and exponents around its limits; the
// generated inputs are random byte strings mutated from them.
func FuzzScanDecimal(f *testing.F) {
	for _, s := range []string{"1.234567890123456789e+00", "-0.5", ".5e-3", "9007199254740993", "1e23",
		"2.2250738585072014e-308", "1.7976931348623157e308", "12345678901234567890", "0.000001e-300", "1e"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkScanDecimal(t, b)
		// And with any 19 digits and an exponent, the case the loader sees.
		if len(b) >= 10 {
			var man uint64
			for _, c := range b[:8] {
				man = man<<8 | uint64(c)
			}
			man %= 1e19
			e := int(int8(b[8])) + int(int8(b[9]))
			s := strconv.FormatUint(man, 10) + "e" + strconv.Itoa(e)
			checkScanDecimal(t, []byte(s))
			checkScanDecimal(t, []byte(s[:1]+"."+s[1:]))
		}
	})
}

func BenchmarkScanDecimal(b *testing.B) {
	fields := [][]byte{[]byte("1.234567890123456789e+00"), []byte("-7.038531010938263172e-26"), []byte("3.141592653589793116e+02")}
	b.Run("scanDecimal", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			scanDecimal(fields[i%3])
		}
	})
	// Short fields take Clinger's fast path, some without an exponent.
	short := [][]byte{[]byte("12.5"), []byte("-0.001"), []byte("4.9e-3"), []byte("123456789"), []byte("0")}
	b.Run("scanDecimalShort", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			scanDecimal(short[i%len(short)])
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			strconv.ParseFloat(string(fields[i%3]), 64)
		}
	})
}

// FuzzLoadTxtFast: the fast row scanner changes nothing. Load with it and
// without it (every row through split and the field parser) returns the
// same bytes, shape and error, for float dtypes and delimiters that can
// and cannot be part of a number.
func FuzzLoadTxtFast(f *testing.F) {
	for _, s := range []string{"1 2\n3 4\n", "1.5e+00 -2.25e-03\r\n3 4", "5", "nan -inf +1e5\n", "1,2\r\n3,4", "# c\n\n1\t2 # x\n",
		"1 2\n3\n", "1e400 -nan 4.9e-324", "1.2345678901234567890123 2\n3 4", "1e5e7\n1e5e7", "1.5.7\n2.5.8", " 1, 2\n3 ,4",
		"1,2,\n3,4,", "1\x1c2\n3\v4", "0.000000000000000000e+00 -0\n1. .5", "1e-5-3\n2e-5-4",
		"1 2\u200330\n4\u00a05\u30006\n", "\u00a0\n\u3000\r\n", "1\u200b2", "1,\u20282\u2029\n3,4\u0085", "\xc2 1 \xe2\x80",
		"", "# only\n\n", strings.Repeat("7 ", 5000) + "\n" + strings.Repeat("8\t", 5000)} {
		for _, d := range []byte{0, ',', 'e', '.', '-', '5', ' '} {
			f.Add([]byte(s), d, uint8(0))
		}
	}
	f.Fuzz(func(t *testing.T, text []byte, delim byte, pick uint8) {
		formats := []dtype.Dtype{{Kind: 'f', Size: 8}, {Kind: 'f', Size: 4, Order: '>'}, {Kind: 'f', Size: 2}, {Kind: 'f', Size: 8, Order: '>'}}
		fm := formats[int(pick)%len(formats)]
		o := LoadTxt{Delimiter: delim, Comments: "#", SkipRows: int(pick/4) % 2, NDMin: int(pick/8) % 3}
		if delim == '#' {
			o.Comments = "//"
		}
		naive := o
		naive.naive = true
		for _, threads := range []int{1, 2} {
			got, gshape, gerr := o.Load(text, fm, ops.Options{Threads: threads})
			want, wshape, werr := naive.Load(text, fm, ops.Options{Threads: threads})
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("%q delim %q: error %v, naive %v", text, delim, gerr, werr)
			}
			if !bytes.Equal(bytes.Join(got, nil), bytes.Join(want, nil)) || fmt.Sprint(gshape) != fmt.Sprint(wshape) {
				t.Fatalf("%q delim %q %v: %v %x, naive %v %x", text, delim, fm, gshape, bytes.Join(got, nil), wshape, bytes.Join(want, nil))
			}
		}
		// usecols naming every column backwards (every other one from the
		// end) mirrors the rows: parseUseCols agrees with parseRow.
		o.NDMin = 2
		pieces, shape, err := o.Load(text, fm, ops.Options{Threads: 1})
		if err != nil || shape[0] == 0 {
			return
		}
		all := bytes.Join(pieces, nil)
		rows, cols := shape[0], shape[1]
		o.UseCols = make([]int, cols)
		for k := range o.UseCols {
			o.UseCols[k] = cols - 1 - k
			if k%2 == 1 {
				o.UseCols[k] -= cols
			}
		}
		pieces, shape, err = o.Load(text, fm, ops.Options{Threads: 2})
		if err != nil || fmt.Sprint(shape) != fmt.Sprint([]int{rows, cols}) {
			t.Fatalf("%q delim %q usecols %v: %v %v", text, delim, o.UseCols, shape, err)
		}
		mirrored := bytes.Join(pieces, nil)
		for r := 0; r < rows; r++ {
			for k := 0; k < cols; k++ {
				at, from := (r*cols+k)*fm.Size, (r*cols+cols-1-k)*fm.Size
				if !bytes.Equal(mirrored[at:at+fm.Size], all[from:from+fm.Size]) {
					t.Fatalf("%q delim %q usecols %v: row %d, element %d differs", text, delim, o.UseCols, r, k)
				}
			}
		}
	})
}

// TestLoadTxtChunks: an input of many chunks parses the same on 1 and 4
// threads, fast and naive, and a bad row anywhere is reported at its own
// line, before any later one, whichever chunk it falls in.
func TestLoadTxtChunks(t *testing.T) {
	var text []byte
	const rows = 6000
	for r := 0; r < rows; r++ {
		text = fmt.Appendf(text, "%.18e %.18e %g\n", float64(r)*1.1, -float64(r)/3, float64(r)*1e-300)
	}
	want, wshape, err := LoadTxt{naive: true}.Load(text, dtype.Dtype{Kind: 'f', Size: 8}, ops.Options{Threads: 1})
	if err != nil || fmt.Sprint(wshape) != fmt.Sprint([]int{rows, 3}) {
		t.Fatalf("naive: %v %v", wshape, err)
	}
	for _, threads := range []int{1, 4} {
		got, shape, err := LoadTxt{}.Load(text, dtype.Dtype{Kind: 'f', Size: 8}, ops.Options{Threads: threads})
		if err != nil || !bytes.Equal(got[0], want[0]) || fmt.Sprint(shape) != fmt.Sprint(wshape) {
			t.Fatalf("threads %d: %v %v, or data differs", threads, shape, err)
		}
	}
	lineStart := func(n int) int { // offset of 1-based line n
		off := 0
		for k := 1; k < n; k++ {
			off += bytes.IndexByte(text[off:], '\n') + 1
		}
		return off
	}
	for _, c := range []struct {
		line int
		put  string
		want string
	}{
		{1, "1 2\n", "line 2: the number of columns changed from 2 to 3 (use --usecols to pick some)"},
		{5000, "1 2 3 4\n", "line 5000: the number of columns changed from 3 to 4 (use --usecols to pick some)"},
		{4500, "1 x 3\n", "line 4500, column 2: could not convert string 'x' to float64"},
	} {
		at := lineStart(c.line)
		bad := append(append(append([]byte{}, text[:at]...), c.put...), text[at+bytes.IndexByte(text[at:], '\n')+1:]...)
		// And a later error, which must not win.
		bad = append(bad, "1 2 y\n"...)
		for _, threads := range []int{1, 4} {
			if _, _, err := (LoadTxt{}).Load(bad, dtype.Dtype{Kind: 'f', Size: 8}, ops.Options{Threads: threads}); err == nil || err.Error() != c.want {
				t.Errorf("line %d, threads %d: %v, want %s", c.line, threads, err, c.want)
			}
		}
	}
}
