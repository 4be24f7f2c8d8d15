package npprint

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"strider/internal/dtype"
	"strider/internal/pylit"
	"strider/internal/shape"
)

// Options are numpy.set_printoptions' options (legacy=False).
type Options struct {
	Precision int    // digits after the point (floatmode permitting)
	Threshold int    // summarize when the element count exceeds it
	EdgeItems int    // elements kept at each end of a summarized axis
	LineWidth int    // characters per line
	Suppress  bool   // no scientific notation for small values
	FloatMode string // "fixed", "unique", "maxprec" or "maxprec_equal"
	Sign      byte   // '-', '+' or ' '
	NanStr    string // how NaN prints
	InfStr    string // how infinity prints
}

// Defaults are NumPy's default print options.
func Defaults() Options {
	return Options{Precision: 8, Threshold: 1000, EdgeItems: 3, LineWidth: 75,
		FloatMode: "maxprec", Sign: '-', NanStr: "nan", InfStr: "inf"}
}

// MaxPrecision is the largest precision accepted: any float64 printed
// with it fits NumPy's 16384-character Dragon4 buffer, which NumPy 1.24
// would silently cut a longer number at.
const MaxPrecision = 10000

// Check reports options NumPy refuses, or that strider refuses because
// NumPy's result would not be an array's picture (negative edge items).
func (o Options) Check() error {
	switch o.FloatMode {
	case "fixed", "unique", "maxprec", "maxprec_equal":
	default:
		return fmt.Errorf(`floatmode option must be one of "fixed", "unique", "maxprec", "maxprec_equal", not %q`, o.FloatMode)
	}
	switch o.Sign {
	case '-', '+', ' ':
	default:
		return fmt.Errorf("sign option must be one of ' ', '+', or '-', not %q", string(o.Sign))
	}
	if o.Precision < 0 {
		return fmt.Errorf("precision must be >= 0, not %d", o.Precision)
	}
	if o.Precision > MaxPrecision {
		// NumPy would cut such a number off at its Dragon4 buffer's end.
		return fmt.Errorf("precision %d is more than %d", o.Precision, MaxPrecision)
	}
	if o.EdgeItems < 0 {
		return fmt.Errorf("edgeitems must be >= 0, not %d", o.EdgeItems)
	}
	return nil
}

// Array is an array to print. Elems holds only the elements that are
// printed (see Edges), in C order over the kept indices: one value per
// element, or two (real, then imaginary) for complex. A bool is 0 or 1, a
// signed integer is its int64 value's bits, a float or complex part is
// its IEEE bits.
type Array struct {
	Kind  byte // 'b', 'i', 'u', 'f' or 'c'
	Size  int  // bytes per element, both parts of a complex
	Shape []int
	Elems []uint64
}

// Count is the product of shape.
func Count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// Edges says which indices of each axis NumPy prints for an array of
// shape: all of them, or, when the array has more than Threshold elements
// (summarized), the first and last EdgeItems of each axis longer than
// twice that. It is arrayprint's _leading_trailing.
func Edges(shape []int, o Options) (summarized bool, keep [][]int) {
	summarized = Count(shape) > o.Threshold
	keep = make([][]int, len(shape))
	for k, n := range shape {
		if o.cutsAxis(summarized, n) {
			e := o.EdgeItems
			idx := make([]int, 0, 2*e)
			for i := 0; i < e; i++ {
				idx = append(idx, i)
			}
			for i := n - e; i < n; i++ {
				idx = append(idx, i)
			}
			keep[k] = idx
			continue
		}
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		keep[k] = idx
	}
	return summarized, keep
}

// cutsAxis reports whether an axis of n elements is cut to its edges: the
// array is summarized and the axis is longer than twice EdgeItems. With no
// edge items NumPy keeps a[:0] and a[-0:], the whole axis: it measures
// every element and prints a[..., -1].
func (o Options) cutsAxis(summarized bool, n int) bool {
	return summarized && o.EdgeItems > 0 && o.EdgeItems <= (n-1)/2 // n > 2*EdgeItems
}

// Printed is how many elements Edges keeps of an array of shape: the
// elements Str and Repr format. It allocates nothing, so that a caller can
// bound the work and the memory of printing a huge array (show --full of a
// view of 2**40 elements) before asking for it.
func Printed(shape []int, o Options) int {
	summarized := Count(shape) > o.Threshold
	n := 1
	for _, d := range shape {
		if o.cutsAxis(summarized, d) {
			d = 2 * o.EdgeItems
		}
		n *= d
	}
	return n
}

// MemoryEstimate is about the most memory Str or Repr hold at once for
// printed elements of kind and size (an Array's Kind and Size): each
// element's bits and its floats for measuring, and its text, which the
// line and bracket building copies about six times. The text is taken at
// its widest for these options, and the NaN and infinity strings when
// longer. Measured with
// show --full on 2**20 elements (peak RSS): float64 118 bytes an element
// (estimate 202), with --floatmode unique 165 (256), fixed with precision
// 100 670 (754), complex128 240 (404), int64 168 (184), uint8 33 (88).
func MemoryEstimate(kind byte, size, printed int, o Options) int64 {
	parts, width := 1, 0
	switch kind {
	case 'b':
		width = 5
	case 'i', 'u':
		width = 1 + len(strconv.FormatUint(1<<(8*size-1), 10)) // sign and digits
	default:
		// At most Precision digits after the point, but unique's own
		// (17, or up to 340 for a tiny value printed positionally).
		digits := o.Precision
		if o.FloatMode == "unique" {
			digits = 17
			if o.Suppress {
				digits = 340
			}
		}
		// sign, 8 integer digits (positional takes values under 1e8), the
		// point, the digits, an exponent of up to 3 digits
		width = max(1+8+1+digits+5, len(o.NanStr)+1, len(o.InfStr)+1)
		if kind == 'c' {
			parts = 2
		}
	}
	per := int64(parts) * (64 + 6*int64(width))
	if int64(printed) > math.MaxInt64/per {
		return math.MaxInt64
	}
	return int64(printed) * per
}

// Str is str(a) (what print(a) writes, less the newline).
func Str(a Array, o Options) string {
	if len(a.Shape) == 0 {
		return scalarStr(a)
	}
	return array2string(a, o, " ", "", "")
}

// Repr is repr(a).
func Repr(a Array, o Options) string {
	const prefix = "array("
	n := Count(a.Shape)
	skipDtype := a.impliedDtype() && n > 0
	suffix := ")"
	if !skipDtype {
		suffix = ","
	}
	var lst string
	if n > 0 || len(a.Shape) == 1 {
		lst = array2string(a, o, ", ", prefix, suffix)
	} else {
		lst = "[], shape=" + pylit.ShapeString(a.Shape)
	}
	s := prefix + lst + suffix
	if skipDtype {
		return s
	}
	dt := "dtype=" + a.dtypeName() + ")"
	last := width(s[strings.LastIndexByte(s, '\n')+1:])
	if last+width(dt)+1 > o.LineWidth {
		return s + "\n" + strings.Repeat(" ", len(prefix)) + dt
	}
	return s + " " + dt
}

// impliedDtype is dtype_is_implied: int64, float64, complex128 and bool
// arrays print no dtype= (in either byte order).
func (a Array) impliedDtype() bool {
	switch a.Kind {
	case 'b':
		return true
	case 'i', 'f':
		return a.Size == 8
	case 'c':
		return a.Size == 16
	}
	return false
}

// dtypeName is NumPy's name of the array's dtype ("float32").
func (a Array) dtypeName() string {
	return dtype.Dtype{Kind: a.Kind, Size: a.Size}.Name()
}

// width is Python's len of s: its code points.
func width(s string) int { return utf8.RuneCountInString(s) }

// array2string is numpy.array2string with legacy=False.
func array2string(a Array, o Options, sep, prefix, suffix string) string {
	o.LineWidth -= width(suffix)
	if Count(a.Shape) == 0 {
		return "[]"
	}
	summarized, keep := Edges(a.Shape, o)
	insert := ""
	if summarized {
		insert = "..."
	}
	kept := make([]int, len(keep))
	for k, idx := range keep {
		kept[k] = len(idx)
	}
	f := formatter(a, o)
	p := &printer{shape: a.Shape, kept: kept, strides: shape.CStrides(kept), format: f,
		sep: sep, edge: o.EdgeItems, insert: insert}
	return p.recurse(0, 0, " "+strings.Repeat(" ", width(prefix)), o.LineWidth)
}

// printer is _formatArray's state.
type printer struct {
	shape   []int
	kept    []int // extents of the kept (summarized) array
	strides []int // its C strides
	format  func(k int) string
	sep     string
	edge    int
	insert  string // "..." when summarized, else ""
}

// recurse is _formatArray's recurser at axis with the flat position pos
// of the kept array.
func (p *printer) recurse(axis, pos int, hanging string, currWidth int) string {
	left := len(p.shape) - axis
	if left == 0 {
		return p.format(pos)
	}
	nextHanging := hanging + " "
	nextWidth := currWidth - 1
	n := p.shape[axis]
	summary := p.insert != "" && p.edge <= (n-1)/2 // 2*edge < n, without overflow
	leading, trailing := 0, n
	if summary {
		leading, trailing = p.edge, p.edge
	}
	// at maps a trailing index -i to the kept array's position.
	at := func(i int) int { return pos + i*p.strides[axis] }
	tail := func(i int) int { return at(p.kept[axis] - i) }
	var s strings.Builder
	if left == 1 {
		elemWidth := currWidth - max(width(strings.TrimRightFunc(p.sep, pyIsSpace)), 1)
		line := newTextLine(hanging)
		for i := 0; i < leading; i++ {
			word := p.recurse(axis+1, at(i), nextHanging, nextWidth)
			extendLinePretty(&s, line, word, elemWidth, hanging)
			line.add(p.sep)
		}
		if summary {
			extendLine(&s, line, p.insert, elemWidth, hanging)
			line.add(p.sep)
		}
		for i := trailing; i > 1; i-- {
			word := p.recurse(axis+1, tail(i), nextHanging, nextWidth)
			extendLinePretty(&s, line, word, elemWidth, hanging)
			line.add(p.sep)
		}
		word := p.recurse(axis+1, tail(1), nextHanging, nextWidth)
		extendLinePretty(&s, line, word, elemWidth, hanging)
		s.Write(line.b)
	} else {
		lineSep := strings.TrimRightFunc(p.sep, pyIsSpace) + strings.Repeat("\n", left-1)
		for i := 0; i < leading; i++ {
			s.WriteString(hanging)
			s.WriteString(p.recurse(axis+1, at(i), nextHanging, nextWidth))
			s.WriteString(lineSep)
		}
		if summary {
			s.WriteString(hanging)
			s.WriteString(p.insert)
			s.WriteString(lineSep)
		}
		for i := trailing; i > 1; i-- {
			s.WriteString(hanging)
			s.WriteString(p.recurse(axis+1, tail(i), nextHanging, nextWidth))
			s.WriteString(lineSep)
		}
		s.WriteString(hanging)
		s.WriteString(p.recurse(axis+1, tail(1), nextHanging, nextWidth))
	}
	body := s.String()
	return "[" + body[len(hanging):] + "]"
}

// textLine is the line _formatArray builds, and its width in code points:
// kept as it grows, so that adding a word costs the word, not the line
// (a --linewidth of 10**9 made each word copy and measure the whole line).
type textLine struct {
	b []byte
	w int
}

func newTextLine(prefix string) *textLine {
	return &textLine{b: []byte(prefix), w: width(prefix)}
}

func (l *textLine) add(s string) {
	l.b = append(l.b, s...)
	l.w += width(s)
}

// breakLine moves line to s, less its trailing spaces, ends that line, and
// starts line again with prefix.
func (l *textLine) breakLine(s *strings.Builder, prefix string) {
	s.Write(bytes.TrimRightFunc(l.b, pyIsSpace))
	s.WriteByte('\n')
	l.b, l.w = append(l.b[:0], prefix...), width(prefix)
}

// extendLine is _extendLine: it adds word to line, first moving line to
// s when word does not fit, unless line holds nothing but the indent.
func extendLine(s *strings.Builder, line *textLine, word string, lineWidth int, nextPrefix string) {
	if line.w+width(word) > lineWidth && line.w > width(nextPrefix) {
		line.breakLine(s, nextPrefix)
	}
	line.add(word)
}

// extendLinePretty is _extendLine_pretty, for words that may span lines
// (a --nanstr with a line break).
func extendLinePretty(s *strings.Builder, line *textLine, word string, lineWidth int, nextPrefix string) {
	if !strings.ContainsAny(word, "\n\r\v\f\x1c\x1d\x1e\u0085\u2028\u2029") {
		extendLine(s, line, word, lineWidth, nextPrefix)
		return
	}
	words := splitLines(word)
	if len(words) == 1 {
		extendLine(s, line, word, lineWidth, nextPrefix)
		return
	}
	maxLen := 0
	for _, w := range words {
		maxLen = max(maxLen, width(w))
	}
	var indent string
	if line.w+maxLen > lineWidth && line.w > width(nextPrefix) {
		line.breakLine(s, nextPrefix)
		indent = nextPrefix
	} else {
		indent = strings.Repeat(" ", line.w)
	}
	line.add(words[0])
	for _, w := range words[1:] {
		line.breakLine(s, indent)
		line.add(w)
	}
	if pad := maxLen - width(words[len(words)-1]); pad > 0 {
		line.add(strings.Repeat(" ", pad))
	}
}

// splitLines is Python's str.splitlines().
func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\u0085', '\u2028', '\u2029':
			out = append(out, s[start:i])
			start = i + n
		case '\r':
			out = append(out, s[start:i])
			if i+1 < len(s) && s[i+1] == '\n' {
				n++
			}
			start = i + n
		}
		i += n
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

// pyIsSpace is Python's str.isspace for one code point.
func pyIsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', '\x1c', '\x1d', '\x1e', '\x1f', '\u0085', '\u00a0',
		'\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// formatter is _get_format_function over the printed elements: it returns
// the text of element k of data.Elems.
func formatter(data Array, o Options) func(k int) string {
	elems := data.Elems
	switch data.Kind {
	case 'b':
		t := " True"
		if len(data.Shape) == 0 {
			t = "True"
		}
		return func(k int) string {
			if elems[k] != 0 {
				return t
			}
			return "False"
		}
	case 'i', 'u':
		str := func(v uint64) string {
			if data.Kind == 'i' {
				return strconv.FormatInt(int64(v), 10)
			}
			return strconv.FormatUint(v, 10)
		}
		w := 0
		for _, v := range data.Elems {
			w = max(w, len(str(v)))
		}
		return func(k int) string {
			s := str(elems[k])
			if len(s) < w {
				s = strings.Repeat(" ", w-len(s)) + s
			}
			return s
		}
	case 'f':
		ff := newFloatFormat(floats(data.Elems, data.Size, 0, 1), o, o.Sign)
		return func(k int) string { return ff.format(Float{elems[k], data.Size}) }
	}
	half := data.Size / 2
	rf := newFloatFormat(floats(data.Elems, half, 0, 2), o, o.Sign)
	jf := newFloatFormat(floats(data.Elems, half, 1, 2), o, '+')
	return func(k int) string {
		i := jf.format(Float{elems[2*k+1], half})
		sp := len(strings.TrimRightFunc(i, pyIsSpace))
		return rf.format(Float{elems[2*k], half}) + i[:sp] + "j" + i[sp:]
	}
}

// floats is elems[first], elems[first+step], ... as floats of size bytes.
func floats(elems []uint64, size, first, step int) []Float {
	out := make([]Float, 0, len(elems)/step)
	for k := first; k < len(elems); k += step {
		out = append(out, Float{elems[k], size})
	}
	return out
}

// floatFormat is arrayprint's FloatingFormat (legacy=False).
type floatFormat struct {
	mode      string
	precision int
	minDigits int
	suppress  bool
	sign      byte
	expFormat bool
	padLeft   int
	padRight  int
	trim      Trim
	expSize   int
	unique    bool
	nanStr    string
	infStr    string
}

func newFloatFormat(data []Float, o Options, sign byte) *floatFormat {
	f := &floatFormat{mode: o.FloatMode, precision: o.Precision, suppress: o.Suppress, sign: sign,
		nanStr: o.NanStr, infStr: o.InfStr}
	if o.FloatMode == "unique" {
		f.precision = -1
	}
	f.fill(data)
	return f
}

// fill is FloatingFormat.fillFormat: the finite values alone choose
// exponential mode and, printed once, the widths every value pads to.
func (f *floatFormat) fill(data []Float) {
	var finite []Float
	for _, x := range data {
		if x.IsFinite() {
			finite = append(finite, x)
		}
	}
	f.expFormat = f.wantsExp(finite)
	switch {
	case len(finite) == 0:
		f.padLeft, f.padRight, f.trim, f.expSize, f.unique, f.minDigits = 0, 0, '.', -1, true, -1
	case f.expFormat:
		f.fillScientific(finite)
	default:
		f.fillPositional(finite)
	}
	// sign=' ' adds one to pad_left where no value has a minus sign.
	if f.sign == ' ' && !anySignBit(finite) {
		f.padLeft++
	}
	if len(data) != len(finite) {
		f.padForNonFinite(data)
	}
}

// wantsExp is fillFormat's choice of exponential mode, made on the
// nonzero finite values: the largest magnitude is 1e8 or more or, unless
// small values are suppressed, the smallest is under 1e-4 or the ratio of
// the two is over 1000.
func (f *floatFormat) wantsExp(finite []Float) bool {
	var maxAbs, minAbs Float
	found := false
	for _, x := range finite {
		v := math.Abs(x.Value())
		if v == 0 {
			continue
		}
		if !found || v > math.Abs(maxAbs.Value()) {
			maxAbs = x
		}
		if !found || v < math.Abs(minAbs.Value()) {
			minAbs = x
		}
		found = true
	}
	if !found {
		return false
	}
	hi, lo := math.Abs(maxAbs.Value()), math.Abs(minAbs.Value())
	return hi >= 1e8 || !f.suppress && (lo < 0.0001 || ratioOver1000(hi, lo, maxAbs.Size))
}

// firstPass is the trim and digit mode fillFormat prints the values with
// to measure them: every digit of the precision in fixed mode, else the
// unique digits.
func (f *floatFormat) firstPass() (trim Trim, unique bool) {
	if f.mode == "fixed" {
		return 'k', false
	}
	return '.', true
}

// fillScientific is fillFormat's exponential branch: the widest integer
// part, fraction and exponent of the finite values in scientific notation.
func (f *floatFormat) fillScientific(finite []Float) {
	trim, unique := f.firstPass()
	intLen, fracLen, expLen := 0, 0, 0
	for _, x := range finite {
		s := Format(x, FloatOpts{Scientific: true, Unique: unique, Precision: f.precision, MinDigits: -1,
			Sign: f.sign == '+', Trim: trim, PadLeft: -1, PadRight: -1, ExpDigits: -1})
		mant, exp, _ := strings.Cut(s, "e")
		ip, fp, _ := strings.Cut(mant, ".")
		intLen, fracLen, expLen = max(intLen, len(ip)), max(fracLen, len(fp)), max(expLen, len(exp))
	}
	f.expSize = expLen - 1
	f.trim = 'k'
	f.precision = fracLen
	f.minDigits = fracLen
	f.unique = unique
	f.padLeft = intLen
	f.padRight = f.expSize + 2 + f.precision // only for the width of nan and inf
}

// fillPositional is fillFormat's positional branch: the widest integer
// part and fraction of the finite values.
func (f *floatFormat) fillPositional(finite []Float) {
	trim, unique := f.firstPass()
	intLen, fracLen := 0, 0
	for _, x := range finite {
		s := Format(x, FloatOpts{Unique: unique, Precision: f.precision, MinDigits: -1,
			Sign: f.sign == '+', Trim: trim, PadLeft: -1, PadRight: -1, ExpDigits: -1})
		ip, fp, _ := strings.Cut(s, ".")
		intLen, fracLen = max(intLen, len(ip)), max(fracLen, len(fp))
	}
	f.padLeft, f.padRight, f.expSize, f.unique = intLen, fracLen, -1, unique
	if f.mode == "fixed" || f.mode == "maxprec_equal" {
		f.precision, f.minDigits, f.trim = fracLen, fracLen, 'k'
	} else {
		f.trim, f.minDigits = '.', 0
	}
}

// anySignBit reports whether any of xs has its sign bit set.
func anySignBit(xs []Float) bool {
	for _, x := range xs {
		if x.SignBit() {
			return true
		}
	}
	return false
}

// padForNonFinite is fillFormat's last step where some values are not
// finite: padLeft grows so that nan and inf, with a sign where one may
// print, fill the width of the finite values and the point.
func (f *floatFormat) padForNonFinite(data []Float) {
	negInf := 0
	if f.sign != '-' {
		negInf = 1
	}
	for _, x := range data {
		if math.IsInf(x.Value(), -1) {
			negInf = 1
		}
	}
	offset := f.padRight + 1 // +1 for the point
	f.padLeft = max(f.padLeft, width(f.nanStr)-offset, width(f.infStr)+negInf-offset)
}

// ratioOver1000 is max_val/min_val > 1000. in the array's own float type,
// as NumPy divides two scalars of that type.
func ratioOver1000(hi, lo float64, size int) bool {
	switch size {
	case 2:
		// NumPy divides halves in float32 and rounds to half: above
		// 1000.25 (a tie rounds to 1000, whose mantissa is even) is > 1000.
		r := float32(hi) / float32(lo)
		return r > 1000.25
	case 4:
		return float32(hi)/float32(lo) > 1000
	}
	return hi/lo > 1000
}

// format is FloatingFormat.__call__.
func (f *floatFormat) format(x Float) string {
	if !x.IsFinite() {
		v := x.Value()
		var ret string
		switch {
		case math.IsNaN(v):
			ret = f.nanStr
			if f.sign == '+' {
				ret = "+" + ret
			}
		case v < 0:
			ret = "-" + f.infStr
		case f.sign == '+':
			ret = "+" + f.infStr
		default:
			ret = f.infStr
		}
		if pad := f.padLeft + f.padRight + 1 - width(ret); pad > 0 {
			ret = strings.Repeat(" ", pad) + ret
		}
		return ret
	}
	return Format(x, FloatOpts{Scientific: f.expFormat, Unique: f.unique, Precision: f.precision,
		MinDigits: f.minDigits, Sign: f.sign == '+', Trim: f.trim, PadLeft: f.padLeft,
		PadRight: f.padRight, ExpDigits: f.expSize})
}

// scalarStr is str() of a 0-d array: the str of its scalar, which
// ignores the print options.
func scalarStr(a Array) string {
	switch a.Kind {
	case 'b':
		if a.Elems[0] != 0 {
			return "True"
		}
		return "False"
	case 'i':
		return strconv.FormatInt(int64(a.Elems[0]), 10)
	case 'u':
		return strconv.FormatUint(a.Elems[0], 10)
	case 'f':
		return floatStr(Float{a.Elems[0], a.Size}, '0', '-', false)
	}
	re, im := Float{a.Elems[0], a.Size / 2}, Float{a.Elems[1], a.Size / 2}
	if re.Value() == 0 && !re.SignBit() {
		return floatStr(im, '-', '-', false) + "j"
	}
	return "(" + complexPartStr(re, false) + complexPartStr(im, true) + "j)"
}

// complexPartStr is the str of a part of a complex scalar, nan and inf
// included; with sign, a part that is not negative starts with "+".
func complexPartStr(x Float, sign bool) string {
	plus := ""
	if sign {
		plus = "+"
	}
	switch v := x.Value(); {
	case x.IsFinite():
		return floatStr(x, '-', '-', sign)
	case math.IsNaN(v):
		return plus + "nan"
	case v > 0:
		return plus + "inf"
	}
	return "-inf"
}

// floatStr is the str of a float scalar: positional for 0, NaN and
// magnitudes in [1e-4, 1e16), scientific otherwise, shortest digits.
func floatStr(x Float, trimPos, trimSci Trim, sign bool) string {
	v := math.Abs(x.Value())
	positional := v == 0 || v < 1e16 && v >= 1e-4
	if math.IsNaN(v) {
		positional = x.Size != 2 // the half scalar's test is false for NaN
	}
	trim := trimSci
	if positional {
		trim = trimPos
	}
	return Format(x, FloatOpts{Scientific: !positional, Unique: true, Precision: -1, MinDigits: -1,
		Sign: sign, Trim: trim, PadLeft: -1, PadRight: -1, ExpDigits: -1})
}
