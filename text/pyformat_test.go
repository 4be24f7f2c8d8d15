package text

import (
	"math"
	"testing"
)

// The wants are Python 3's own output of fmt % value (NumPy scalars).
func TestPyFormat(t *testing.T) {
	f := func(x float64) PyValue { return PyValue{Kind: 'f', F: x, BitSize: 64} }
	i := func(x int64) PyValue {
		if x < 0 {
			return PyValue{Kind: 'i', Neg: true, Mag: uint64(-x)}
		}
		return PyValue{Kind: 'i', Mag: uint64(x)}
	}
	for _, c := range []struct {
		fmt  string
		v    PyValue
		want string
	}{
		{"%010f", f(math.Inf(1)), "0000000inf"},
		{"%010f", f(math.Inf(-1)), "-000000inf"},
		{"%-10e", f(math.NaN()), "nan       "},
		{"%+e", f(math.NaN()), "+nan"},
		{"%E", f(math.Inf(1)), "INF"},
		{"%F", f(math.NaN()), "NAN"},
		{"%010.3g", f(-1.5), "-0000001.5"},
		{"%d", PyValue{Kind: 'b', Mag: 1}, "1"},
		{"%d", f(-3.7), "-3"},
		{"%s", PyValue{Kind: 'f', F: float64(float32(0.1)), BitSize: 32}, "0.1"},
		{"%s", f(1e16), "1e+16"},
		{"%e", PyValue{Kind: 'i', Mag: math.MaxUint64}, "1.844674e+19"},
		{"%#g", f(1), "1.00000"},
		{"%#.0f", f(2.5), "2."},
		{"%.0f", f(2.5), "2"},
		{"%.0f", f(3.5), "4"},
		{"%5s", i(-3), "   -3"},
		{"%-8.3e|", f(1234.5), "1.234e+03|"},
		{"%X", i(255), "FF"},
		{"%#o", i(8), "0o10"},
		{"%o", i(-8), "-10"},
		{"% d", i(5), " 5"},
		{"%#x", i(-255), "-0xff"},
		{"%g", f(1e-5), "1e-05"},
		{"%g", f(123456789), "1.23457e+08"},
		{"%g", f(100000), "100000"},
		{"%.3g", f(1e5), "1e+05"},
		{"%g", f(0.0001), "0.0001"},
		{"%G", f(1e-10), "1E-10"},
		{"%.2s", f(3.14159), "3."},
		{"%s", f(math.Copysign(0, -1)), "-0.0"},
		{"%g", f(math.Copysign(0, -1)), "-0"},
		{"%+.2f", f(0), "+0.00"},
		{"%.20g", f(0.1), "0.10000000000000000555"},
		{"%5.1f%%", f(3), "  3.0%"},
		{"%.3d", i(5), "005"},
		{"%+05d", i(-5), "-0005"},
		{"%-5d|", i(5), "5    |"},
		{"%#.3x", i(5), "0x005"},
		{"%d", f(1e20), "100000000000000000000"},
		{"%c", i(65), "A"},
		{"%5c", i(65), "    A"},
		{"%-3c|", i(65), "A  |"},
		{"%+05c", i(65), "    A"},
		{"%.2c", i(65), "A"},
		{"%3c", i(0x263a), "  \u263a"},
		{"%c", i(0x10ffff), "\U0010ffff"},
		{"%c", i(10), "\n"},
		{"%c", PyValue{Kind: 'b', Mag: 1}, "\x01"},
	} {
		p, err := ParsePyFormat(c.fmt)
		if err != nil {
			t.Errorf("%q: %v", c.fmt, err)
			continue
		}
		got, err := p.Append(nil, []PyValue{c.v})
		if err != nil || string(got) != c.want {
			t.Errorf("%q %% %+v = %q, %v; want %q", c.fmt, c.v, got, err, c.want)
		}
	}
	for _, bad := range []string{"%", "%y", "%.3", "abc%", "%(a)s", "%*d", "%k"} {
		if _, err := ParsePyFormat(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	p, _ := ParsePyFormat("%x")
	if _, err := p.Append(nil, []PyValue{f(1)}); err == nil {
		t.Errorf("%%x of a float: no error")
	}
	// Python: TypeError, OverflowError twice; a surrogate is a str Python
	// makes but UTF-8 cannot encode.
	c, _ := ParsePyFormat("%c")
	for _, v := range []PyValue{f(65), i(-1), i(0x110000), i(0xd800)} {
		if got, err := c.Append(nil, []PyValue{v}); err == nil {
			t.Errorf("%%c of %+v: %q, no error", v, got)
		}
	}
	if _, err := p.Append(nil, nil); err == nil {
		t.Error("too few arguments: no error")
	}
}

// TestPyFormatMinLen: minLen is a lower bound of every output, and the
// least output of these formats over a spread of values (issue 27: to-text
// refuses a text whose least size exceeds the free disk).
func TestPyFormatMinLen(t *testing.T) {
	var values []PyValue
	for _, x := range []float64{0, -0.0, 1, -1.5, 1e300, -1e-300, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1)} {
		values = append(values, PyValue{Kind: 'f', F: x, BitSize: 64}, PyValue{Kind: 'f', F: x, BitSize: 16})
	}
	for _, m := range []uint64{0, 1, 9, 10, 255, math.MaxUint64} {
		values = append(values, PyValue{Kind: 'i', Mag: m}, PyValue{Kind: 'i', Neg: true, Mag: m}, PyValue{Kind: 'b', Mag: min(m, 1)})
	}
	for _, c := range []struct {
		fmt   string
		least int // the shortest output over values
	}{
		{"%.18e", 3}, {"%e", 3}, {"%E", 3}, {"%.0e", 3}, {"%10.3e", 10}, {"%-4e|", 5}, {"%+e", 4},
		{"%f", 3}, {"%.0f", 1}, {"%#.0f", 2}, {"%g", 1}, {"% g", 2}, {"%08.3f", 8},
		{"%d", 1}, {"%.3d", 3}, {"%#x", 3}, {"%#o", 3}, {"%X", 1}, {"%+d", 2},
		{"%s", 1}, {"%r", 1}, {"%.0s", 0}, {"%.2s", 1}, {"%5s", 5},
		{"a%sb%%c", 5}, {"%s, %s", 4}, {"(%s+%sj)", 6},
	} {
		p, err := ParsePyFormat(c.fmt)
		if err != nil {
			t.Fatalf("%q: %v", c.fmt, err)
		}
		n := p.convs
		least := math.MaxInt
		for _, v := range values {
			args := make([]PyValue, n)
			for k := range args {
				args[k] = v
			}
			out, err := p.Append(nil, args)
			if err != nil {
				continue // %d of NaN, %x of a float
			}
			least = min(least, len(out))
			if len(out) < p.minLen(false) {
				t.Errorf("%q %% %+v = %q, shorter than minLen %d", c.fmt, v, out, p.minLen(false))
			}
		}
		if got := p.minLen(false); got != c.least || least != c.least {
			t.Errorf("%q: minLen %d, shortest output %d, want both %d", c.fmt, got, least, c.least)
		}
	}
	p, _ := ParsePyFormat(" (%s+%sj)")
	if got := p.minLen(true); got != 6 { // " (" "j)" and the two parts; the "+" may go
		t.Errorf("complex column: minLen(plusFree) %d, want 6", got)
	}
}
