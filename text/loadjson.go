package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"strider/internal/dtype"
)

// LoadJSON parses nested JSON lists of numbers (what json.dumps(a.tolist())
// writes, NaN and Infinity included) into elements of format f, as
// np.array(json.loads(text), dtype) does for rectangular lists: bools are
// 0 and 1, integers exact (out of the dtype's range is an error), floats
// into an integer dtype truncated. Complex dtypes take real numbers.
func LoadJSON(text []byte, f dtype.Dtype) ([]byte, []int, error) {
	if err := f.Check(); err != nil {
		return nil, nil, err
	}
	p := jsonParser{text: text, f: f}
	var shape []int
	depthSeen := -1
	if err := p.value(0, &shape, &depthSeen); err != nil {
		return nil, nil, err
	}
	p.space()
	if p.i != len(p.text) {
		return nil, nil, p.errorf("unexpected %s after the value", pyQuote(p.text[p.i:min(len(p.text), p.i+10)]))
	}
	if shape == nil {
		shape = []int{}
	}
	return p.out, shape, nil
}

type jsonParser struct {
	text []byte
	i    int
	f    dtype.Dtype
	out  []byte
}

func (p *jsonParser) errorf(format string, args ...any) error {
	line, col := 1, 1
	for _, c := range p.text[:min(p.i, len(p.text))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &TextError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) space() {
	for p.i < len(p.text) && (p.text[p.i] == ' ' || p.text[p.i] == '\t' || p.text[p.i] == '\n' || p.text[p.i] == '\r') {
		p.i++
	}
}

// value parses one value at nesting depth; shape collects the extent of
// each depth from the first list seen there, and every later list must
// agree (leaves must all sit at the same depth).
func (p *jsonParser) value(depth int, shape *[]int, leafDepth *int) error {
	p.space()
	if p.i >= len(p.text) {
		return p.errorf("unexpected end of input")
	}
	if p.text[p.i] != '[' {
		if *leafDepth >= 0 && *leafDepth != depth {
			return p.errorf("ragged nested lists: a number at depth %d, others at depth %d", depth, *leafDepth)
		}
		*leafDepth = depth
		return p.number()
	}
	if *leafDepth >= 0 && depth >= *leafDepth {
		return p.errorf("ragged nested lists: a list at depth %d, numbers at depth %d", depth, *leafDepth)
	}
	if depth > 64 {
		return p.errorf("lists nested more than 64 deep")
	}
	p.i++
	n := 0
	p.space()
	if p.i < len(p.text) && p.text[p.i] == ']' {
		p.i++
	} else {
		for {
			if err := p.value(depth+1, shape, leafDepth); err != nil {
				return err
			}
			n++
			p.space()
			if p.i < len(p.text) && p.text[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.text) && p.text[p.i] == ']' {
				p.i++
				break
			}
			return p.errorf("expected ',' or ']'")
		}
	}
	for len(*shape) <= depth {
		*shape = append(*shape, -1)
	}
	switch {
	case (*shape)[depth] < 0:
		(*shape)[depth] = n
		if n == 0 {
			*leafDepth = depth + 1 // an empty list ends the shape here
		}
	case (*shape)[depth] != n:
		return p.errorf("ragged nested lists: %d items where the first list at this depth has %d", n, (*shape)[depth])
	}
	return nil
}

// number parses one JSON number, true, false, NaN, Infinity or -Infinity.
func (p *jsonParser) number() error {
	start := p.i
	for p.i < len(p.text) && strings.IndexByte(",] \t\r\n", p.text[p.i]) < 0 {
		p.i++
	}
	tok := p.text[start:p.i]
	x, digits, isInt, ok := jsonScalar(tok)
	if !ok {
		p.i = start
		return p.errorf("not a number: %s", pyQuote(tok))
	}
	f := p.f
	switch f.Kind {
	case 'f', 'c':
		half := f
		if f.Kind == 'c' {
			half = f.Part()
		}
		for part, v := range []float64{x, 0} {
			if part == 1 && f.Kind != 'c' {
				break
			}
			p.out = appendFloat(p.out, v, half)
		}
		return nil
	case 'b':
		if x != 0 {
			p.out = append(p.out, 1)
		} else {
			p.out = append(p.out, 0)
		}
		return nil
	}
	if !isInt {
		digits = tok
	}
	u, err := jsonInt(x, digits, isInt, f)
	if err != nil {
		p.i = start
		return p.errorf("%v", err)
	}
	p.out = appendFloatBits(p.out, u, f)
	return nil
}

// jsonScalar reads a token: a JSON number, true, false, NaN, Infinity or
// -Infinity, whose value is x. An integer (true and false are 1 and 0) is
// isInt, with digits its decimal text; ok is false for any other token.
func jsonScalar(tok []byte) (x float64, digits []byte, isInt, ok bool) {
	switch t := string(tok); t {
	case "true":
		return 1, []byte("1"), true, true
	case "false":
		return 0, []byte("0"), true, true
	case "NaN":
		return math.Float64frombits(0x7ff8000000000000), nil, false, true // Python's NaN
	case "Infinity":
		return math.Inf(1), nil, false, true
	case "-Infinity":
		return math.Inf(-1), nil, false, true
	default:
		if !jsonNumber(tok) {
			return 0, nil, false, false
		}
		x, _ = strconv.ParseFloat(t, 64)
		return x, tok, !strings.ContainsAny(t, ".eE"), true
	}
}

// jsonInt is the number x as an integer of the dtype f, its bits in a
// uint64: exactly when it isInt (tok its digits), else truncated. Python
// int(x) of a float truncates; the integer must fit a C long (uint64 takes
// up to 2^64-1) and then wraps to the dtype's width, as NumPy 1.24 does
// with a deprecation warning.
func jsonInt(x float64, tok []byte, isInt bool, f dtype.Dtype) (uint64, error) {
	var neg, inRange bool
	var mag uint64
	if isInt {
		neg, mag, inRange = parseCInt(tok)
	} else {
		if x != x || math.IsInf(x, 0) {
			return 0, fmt.Errorf("cannot convert float %s to integer", tok)
		}
		t := math.Trunc(x)
		if inRange = math.Abs(t) < 1<<64; inRange {
			neg, mag = t < 0, uint64(math.Abs(t))
		}
	}
	if !inRange || neg && mag > 1<<63 || !neg && mag > math.MaxInt64 && !(f.Kind == 'u' && f.Size == 8) {
		return 0, fmt.Errorf("Python int %s too large to convert to C long (for %s)", tok, f.Name())
	}
	if neg {
		return -mag, nil
	}
	return mag, nil
}

// jsonNumber checks JSON's number grammar.
func jsonNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		d := i + 1
		if i = skipDigits(b, d); i == d {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		if i = skipDigits(b, d); i == d {
			return false
		}
	}
	return i == len(b)
}

// skipDigits returns the offset of the first byte at or after i that is
// not a decimal digit (len(b) if none).
func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
