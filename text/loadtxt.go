package text

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"strider/internal/dtype"
	"strider/internal/termsafe"
	"strider/ops"
)

// LoadTxt holds np.loadtxt's options.
type LoadTxt struct {
	// Delimiter is one byte, or 0 for runs of whitespace (delimiter=None).
	Delimiter byte
	// Comments starts a comment that runs to the end of the line; "" for
	// none.
	Comments string
	SkipRows int
	// UseCols picks columns (negative ones count from the end); nil: all.
	UseCols []int
	// NDMin is 0, 1 or 2.
	NDMin int
	// naive parses every row with parseRow, the reference that the fast
	// row scanner is tested against.
	naive bool
}

// Check refuses the option combinations np.loadtxt refuses with a
// TypeError: a delimiter or a comment marker that is a line break, a
// comment marker that is the delimiter, and a one-character comment
// marker that is whitespace when whitespace splits the fields (NumPy
// cannot tell the two apart: "The values for control characters
// 'delimiter' and 'comment' are incompatible"). A marker of several
// characters may hold anything.
func (o LoadTxt) Check() error {
	if o.Delimiter == '\n' || o.Delimiter == '\r' {
		return fmt.Errorf("delimiter %q: a line break cannot be the delimiter (NumPy: control character 'delimiter' cannot be a newline)", o.Delimiter)
	}
	c := []byte(o.Comments)
	if utf8.RuneCount(c) != 1 {
		return nil
	}
	switch {
	case c[0] == '\n' || c[0] == '\r':
		return fmt.Errorf("comment marker %q: a line break cannot start a comment (NumPy: control character 'comment' cannot be a newline)", o.Comments)
	case o.Delimiter != 0 && o.Comments == string(o.Delimiter):
		return fmt.Errorf("comment marker %q is the delimiter too (NumPy: the values for control characters 'comment' and 'delimiter' are incompatible)", o.Comments)
	case o.Delimiter == 0 && textSpace(c) == len(c):
		return fmt.Errorf("comment marker %q is whitespace, which splits the fields when no delimiter is given (NumPy: the values for control characters 'delimiter' and 'comment' are incompatible)", o.Comments)
	}
	return nil
}

// TextError is a parse error at a 1-based line and column of the input.
type TextError struct {
	Line, Column int
	Msg          string
}

func (e *TextError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// textChunk is the parse of a run of whole lines.
type textChunk struct {
	data  []byte // the elements, encoded
	rows  int
	cols  int // every row's column count
	lines int // line breaks in the chunk
	err   *TextError
	// raggedLine, when > 0, is the chunk's line (1-based) of the first
	// row whose column count differs from cols; raggedCols is its count.
	raggedLine, raggedCols int
}

// Load parses text as np.loadtxt(text, dtype, delimiter, comments,
// skiprows, usecols, ndmin) does (NumPy 1.24's C reader), on opt.Threads
// threads, and returns the array's C-order data, in pieces to be joined,
// and its shape. Lines end at
// "\n", "\r\n" or "\r" (files are read with universal newlines). An
// input without data rows gives loadtxt's empty array (NumPy warns; the
// caller can tell by a shape of length 0 on the first axis). A ragged row
// or a field that does not parse is an error naming its line and column.
// It is Plan and Fill into fresh memory.
func (o LoadTxt) Load(text []byte, f dtype.Dtype, opt ops.Options) ([][]byte, []int, error) {
	p, err := o.Plan(text, f, opt)
	if err != nil {
		return nil, nil, err
	}
	data := make([]byte, p.Bytes())
	if err := p.Fill(data); err != nil {
		return nil, nil, err
	}
	return [][]byte{data}, p.Shape, nil
}

// TextPlan is Load's first pass: the rows counted (the lines with data)
// and the columns of the first row, so that Fill can parse straight into
// the caller's output, each thread at its own rows.
type TextPlan struct {
	// Shape is the shape of the array Fill writes.
	Shape []int

	o      LoadTxt
	f      dtype.Dtype
	parse  fieldFunc
	body   []byte // the text after the skipped rows
	line   int    // body's first line (1-based)
	bounds []int  // chunk c is body[bounds[c]:bounds[c+1]], whole lines
	rows   []int  // data rows in each chunk
	cols   int
	opt    ops.Options
}

// Bytes is the size of the data Fill writes.
func (p *TextPlan) Bytes() int {
	n := 0
	for _, r := range p.rows {
		n += r
	}
	return n * p.cols * p.f.Size
}

// Plan counts the data rows of text and the columns of its first row, as
// Load's first pass. Without data rows the shape is NumPy's for an empty
// input: (0,), (0, len(UseCols)), or with NDMin 2 a column. Errors in the
// rows themselves are Fill's to find.
func (o LoadTxt) Plan(text []byte, f dtype.Dtype, opt ops.Options) (*TextPlan, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	parse, err := fieldParser(f)
	if err != nil {
		return nil, err
	}
	body, line := o.skipRows(text)
	threads := textThreads(body, opt)
	bounds := lineChunks(body, threads*4)
	p := &TextPlan{o: o, f: f, parse: parse, body: body, line: line, bounds: bounds,
		rows: make([]int, len(bounds)-1), cols: -1, opt: opt}
	total := p.countRows(threads)
	switch {
	case o.UseCols != nil:
		p.cols = len(o.UseCols)
	case total == 0:
		// NumPy's reader makes an empty input a (0, 1) array; loadtxt's
		// squeeze then gives (0,) unless ndmin is 2.
		p.cols = 1
	default:
		p.cols = p.firstRowCols()
	}
	p.Shape = loadtxtShape(total, p.cols, o.NDMin)
	return p, nil
}

// skipRows returns the text after the SkipRows lines it skips, and the
// number (1-based) of its first line.
func (o LoadTxt) skipRows(text []byte) (body []byte, line int) {
	start, line := 0, 1
	for k := 0; k < o.SkipRows && start < len(text); k++ {
		start = nextLine(text, start)
		line++
	}
	return text[start:], line
}

// textThreads is how many threads parse body: one for a short text.
func textThreads(body []byte, opt ops.Options) int {
	if len(body) < 1<<16 {
		return 1
	}
	return opt.ThreadCount()
}

// lineChunks cuts body into n chunks of whole lines, about equal in size:
// chunk c is body[bounds[c]:bounds[c+1]].
func lineChunks(body []byte, n int) (bounds []int) {
	bounds = append(bounds, 0)
	for c := 1; c < n; c++ {
		at := max(len(body)*c/n, bounds[len(bounds)-1])
		for at < len(body) && body[at] != '\n' {
			at++
		}
		if at < len(body) {
			at++
		}
		bounds = append(bounds, at)
	}
	return append(bounds, len(body))
}

// countRows counts the data rows of each chunk into p.rows, on threads
// threads, and returns their sum.
func (p *TextPlan) countRows(threads int) int {
	ops.Parallel(len(p.rows), threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			forLines(p.chunk(c), func(l []byte) {
				if p.o.hasData(l) {
					p.rows[c]++
				}
			})
		}
	})
	total := 0
	for _, r := range p.rows {
		total += r
	}
	return total
}

// firstRowCols is the number of fields of the first data row.
func (p *TextPlan) firstRowCols() int {
	c := 0
	for p.rows[c] == 0 {
		c++
	}
	cols := -1
	forLines(p.chunk(c), func(l []byte) {
		if cols < 0 && p.o.hasData(l) {
			cols = p.o.countFields(p.o.content(l))
		}
	})
	return cols
}

// chunk is the text of chunk c.
func (p *TextPlan) chunk(c int) []byte {
	return p.body[p.bounds[c]:p.bounds[c+1]]
}

// Fill parses the rows into dst (Bytes long), in C order, on the plan's
// threads, and returns the first error in the text: a ragged row or a
// field that does not parse, naming its line and column. Nothing beyond
// dst is written; on error dst holds a partial result.
func (p *TextPlan) Fill(dst []byte) error {
	if len(dst) != p.Bytes() {
		return fmt.Errorf("loadtxt: %d bytes for a %d-byte result", len(dst), p.Bytes())
	}
	rowBytes := p.cols * p.f.Size
	offsets := make([]int, len(p.rows)+1)
	for c, r := range p.rows {
		offsets[c+1] = offsets[c] + r*rowBytes
	}
	threads := textThreads(p.body, p.opt)
	chunks := make([]textChunk, len(p.rows))
	ops.Parallel(len(chunks), threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			// The chunk appends into its own rows of dst: a capacity of
			// exactly its counted rows, so the appends never move it.
			out := dst[offsets[c]:offsets[c]:offsets[c+1]]
			chunks[c] = p.o.parseChunk(p.chunk(c), p.f, p.parse, p.cols, out)
		}
	})
	// The first error in text order.
	line := p.line
	for c := range chunks {
		ch := &chunks[c]
		if ch.err != nil {
			ch.err.Line += line - 1
			return ch.err
		}
		if ch.raggedLine > 0 {
			return &TextError{Line: line - 1 + ch.raggedLine,
				Msg: fmt.Sprintf("the number of columns changed from %d to %d (use --usecols to pick some)", ch.cols, ch.raggedCols)}
		}
		if ch.rows != p.rows[c] || len(ch.data) != offsets[c+1]-offsets[c] {
			return fmt.Errorf("loadtxt: internal error: chunk %d parsed %d rows (%d bytes), counted %d", c, ch.rows, len(ch.data), p.rows[c])
		}
		line += ch.lines
	}
	return nil
}

// forLines calls fn with each line of chunk, its line break included.
// Without a '\r' in the chunk, lines end at '\n' only, found by
// IndexByte's vector loop rather than nextLine's byte loop.
func forLines(chunk []byte, fn func(l []byte)) {
	plainLF := bytes.IndexByte(chunk, '\r') < 0
	for i := 0; i < len(chunk); {
		var j int
		if k := bytes.IndexByte(chunk[i:], '\n'); plainLF && k >= 0 {
			j = i + k + 1
		} else if plainLF {
			j = len(chunk)
		} else {
			j = nextLine(chunk, i)
		}
		fn(chunk[i:j])
		i = j
	}
}

// loadtxtShape applies loadtxt's shape rules to its rows x cols result:
// squeezed when it has more dimensions than ndmin, then ndmin 1 makes it
// 1-d and ndmin 2 makes a 1-d result a column.
func loadtxtShape(rows, cols, ndmin int) []int {
	if ndmin == 2 {
		return []int{rows, cols}
	}
	shape := []int{}
	for _, d := range []int{rows, cols} {
		if d != 1 {
			shape = append(shape, d)
		}
	}
	if len(shape) == 0 && ndmin == 1 {
		shape = []int{1}
	}
	return shape
}

// nextLine returns the offset after the line break that ends the line
// starting at i (or len(text)).
func nextLine(text []byte, i int) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case '\n':
			return i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				return i + 2
			}
			return i + 1
		}
	}
	return i
}

// content is a line without its line break and comment.
func (o LoadTxt) content(l []byte) []byte {
	for len(l) > 0 && (l[len(l)-1] == '\n' || l[len(l)-1] == '\r') {
		l = l[:len(l)-1]
	}
	if o.Comments != "" {
		if i := strings.Index(unsafe.String(unsafe.SliceData(l), len(l)), o.Comments); i >= 0 {
			l = l[:i]
		}
	}
	return l
}

// hasData reports whether a line is a data row: not empty once the
// comment is gone (with whitespace splitting, not blank either).
func (o LoadTxt) hasData(l []byte) bool {
	l = o.content(l)
	if o.Delimiter != 0 {
		return len(l) > 0
	}
	return len(trimTextSpace(l)) > 0
}

// isTextSpace is Python's str.isspace for the ASCII characters a line
// can hold (line breaks are gone by then).
func isTextSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c >= 0x1c && c <= 0x1f
}

// textSpace is the length in bytes of the whitespace character that l
// starts with, 0 if it starts with none. Whitespace is Python's
// str.isspace, where NumPy's tokenizer splits (Py_UNICODE_ISSPACE) and
// its number parsers trim, in the UTF-8 that NumPy decodes a file from:
// the ASCII ones of isTextSpace, U+0085, U+00A0, U+1680, U+2000 to
// U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.
func textSpace(l []byte) int {
	if len(l) == 0 || l[0] >= utf8.RuneSelf {
		return unicodeSpace(l)
	}
	return int(asciiSpace[l[0]])
}

// asciiSpace is isTextSpace as a table of lengths, which keeps textSpace
// small enough to inline into the loops over every byte of a row.
var asciiSpace = [utf8.RuneSelf]uint8{'\t': 1, '\v': 1, '\f': 1, '\r': 1, ' ': 1, 0x1c: 1, 0x1d: 1, 0x1e: 1, 0x1f: 1}

// unicodeSpace is textSpace for l starting with a byte past ASCII (or
// empty).
func unicodeSpace(l []byte) int {
	r, n := utf8.DecodeRune(l)
	switch {
	case r == 0x85 || r == 0xa0 || r == 0x1680 || r >= 0x2000 && r <= 0x200a,
		r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000:
		return n
	}
	return 0
}

// lastTextSpace is the length of the whitespace character that l ends
// with, 0 if none.
func lastTextSpace(l []byte) int {
	if len(l) > 0 && l[len(l)-1] < utf8.RuneSelf {
		return int(asciiSpace[l[len(l)-1]])
	}
	_, n := utf8.DecodeLastRune(l)
	if unicodeSpace(l[len(l)-n:]) == n {
		return n
	}
	return 0
}

// parseChunk parses whole lines, every row of cols columns, appending the
// elements to dst. Float dtypes without usecols go through scanRow
// first, which parses a row in one pass; any row it does not take (a
// field it cannot parse, a column count that differs) is parsed again by
// parseRow, the reference, which also finds the error to report. Neither
// holds a row's fields in a slice: a row of 100 million columns takes
// the memory of its elements and no more.
func (o LoadTxt) parseChunk(chunk []byte, f dtype.Dtype, parse fieldFunc, cols int, dst []byte) textChunk {
	ch := textChunk{cols: cols, data: dst}
	// scanRow cuts fields where a number ends, which is only where split
	// cuts them if the delimiter cannot be part of a number.
	fast := !o.naive && f.Kind == 'f' && o.UseCols == nil && !strings.ContainsRune("0123456789.eE+-", rune(o.Delimiter))
	var picks []colPick
	if o.UseCols != nil {
		picks = make([]colPick, 0, len(o.UseCols))
	}
	forLines(chunk, func(line []byte) {
		if ch.err != nil || ch.raggedLine > 0 {
			return
		}
		ch.lines++
		l := o.content(line)
		if fast {
			if data, ok := o.scanRow(ch.data, l, cols, f); ok {
				ch.data = data
				ch.rows++
				return
			}
		}
		if o.UseCols != nil {
			o.parseUseCols(&ch, l, f, parse, picks)
		} else {
			o.parseRow(&ch, l, parse)
		}
	})
	return ch
}

// parseRow parses the row l (a line without its break and comment) field
// by field, appending its elements to ch.data; a line without fields is
// skipped. A bad row sets ch.err or ch.raggedLine: as in NumPy, which
// splits the whole row before it converts a field, a row with another
// number of columns is reported as such whatever its fields hold.
func (o LoadTxt) parseRow(ch *textChunk, l []byte, parse fieldFunc) {
	start := len(ch.data)
	n := 0
	var bad *TextError
	for field, next, ok := o.nextField(l, 0); ok; field, next, ok = o.nextField(l, next) {
		n++
		if bad != nil || n > ch.cols {
			continue // counted only
		}
		var err error
		if ch.data, err = parse(ch.data, field); err != nil {
			bad = &TextError{Line: ch.lines, Column: n, Msg: err.Error()}
		}
	}
	switch {
	case n == 0:
		return
	case n != ch.cols:
		ch.raggedLine, ch.raggedCols = ch.lines, n
	case bad != nil:
		ch.err = bad
	default:
		ch.rows++
		return
	}
	ch.data = ch.data[:start]
}

// colPick is a column that usecols picks from a row: the field's index
// in the row, and the index k of its element in the output row.
type colPick struct{ col, k int }

// parseUseCols is parseRow with usecols: the row's fields are walked
// once, each picked field parsed into its element's place, and the walk
// ends at the last column picked. Negative columns count from the end, so
// with one of them the fields are counted first. Rows may differ in
// length. The error reported is NumPy's, which converts the columns in
// usecols' order: the first column that is out of range or does not
// parse. picks is scratch of len(o.UseCols) capacity.
func (o LoadTxt) parseUseCols(ch *textChunk, l []byte, f dtype.Dtype, parse fieldFunc, picks []colPick) {
	n := -1 // the row's number of fields, once known
	if slices.ContainsFunc(o.UseCols, func(c int) bool { return c < 0 }) {
		if n = o.countFields(l); n == 0 {
			return
		}
	}
	picks, badK := o.pickCols(picks, n) // badK: the first column out of range
	field, next, ok := o.nextField(l, 0)
	if !ok {
		return // no fields: not a row
	}
	start := ch.growRow(len(o.UseCols) * f.Size)
	errK := badK // the first element that did not parse
	var bad *TextError
	i, col := 0, 0
	for ; ok && i < len(picks); field, next, ok = o.nextField(l, next) {
		for ; i < len(picks) && picks[i].col == col; i++ {
			if k := picks[i].k; k < errK {
				// The element's place, of capacity one element: parse's
				// append writes there.
				at := start + k*f.Size
				if _, err := parse(ch.data[at:at:at+f.Size], field); err != nil {
					errK, bad = k, &TextError{Line: ch.lines, Column: col + 1, Msg: err.Error()}
				}
			}
		}
		col++
	}
	if i < len(picks) { // the row ended before these columns
		n = col
		for _, p := range picks[i:] {
			badK = min(badK, p.k)
		}
	}
	switch {
	case errK < badK:
		ch.err = bad
	case badK < len(o.UseCols):
		ch.err = &TextError{Line: ch.lines, Msg: fmt.Sprintf("invalid column index %d for a row with %d columns", o.UseCols[badK], n)}
	default:
		ch.rows++
		return
	}
	ch.data = ch.data[:start]
}

// pickCols appends to picks, in column order, the columns of usecols in a
// row of n fields (n < 0: not counted, so any column not negative is in
// range), up to the first that is out of range, and returns picks and the
// index in usecols of that column (len(o.UseCols) if none).
func (o LoadTxt) pickCols(picks []colPick, n int) ([]colPick, int) {
	badK := len(o.UseCols)
	for k, col := range o.UseCols {
		if col < 0 {
			col += n
		}
		if col < 0 || n >= 0 && col >= n {
			badK = k
			break
		}
		picks = append(picks, colPick{col, k})
	}
	slices.SortFunc(picks, func(a, b colPick) int { return a.col - b.col })
	return picks, badK
}

// growRow extends ch.data by a row of rowBytes and returns where the row
// starts: within the capacity Plan's count gave it, or past the rows Plan
// counted, which Fill reports.
func (ch *textChunk) growRow(rowBytes int) (start int) {
	start = len(ch.data)
	if cap(ch.data)-start >= rowBytes {
		ch.data = ch.data[:start+rowBytes]
	} else {
		ch.data = append(ch.data, make([]byte, rowBytes)...)
	}
	return start
}

// scanRow is parseRow for a float row of cols fields in the common
// spelling: it finds and parses each field in one pass with scanDecimal
// and appends the elements to dst. It returns false, and dst as it was,
// where the row needs parseRow: a field scanDecimal does not take whole
// (inf, nan, more than 19 digits, spaces around a delimited field, a
// subnormal, a bad number), another number of fields, or no fields.
// FuzzLoadTxtFast holds it to parseRow.
func (o LoadTxt) scanRow(dst, l []byte, cols int, f dtype.Dtype) ([]byte, bool) {
	start := len(dst)
	i, n := 0, 0
	for {
		if o.Delimiter == 0 {
			for n := textSpace(l[i:]); n > 0; n = textSpace(l[i:]) {
				i += n
			}
			if i == len(l) {
				break
			}
		}
		x, m, ok := scanDecimal(l[i:])
		i += m
		if !ok || n == cols {
			return dst[:start], false
		}
		n++
		dst = appendFloat(dst, x, f)
		if i == len(l) {
			break
		}
		if o.Delimiter != 0 {
			if l[i] != o.Delimiter {
				return dst[:start], false
			}
			i++ // a delimiter at the end is an empty last field: scanDecimal refuses it
		} else if textSpace(l[i:]) == 0 {
			return dst[:start], false
		}
	}
	if n != cols {
		return dst[:start], false
	}
	return dst, true
}

// appendFloat appends x rounded to the float format f (half, single or
// double; its size and byte order), as NumPy casts a parsed double.
func appendFloat(dst []byte, x float64, f dtype.Dtype) []byte {
	if f.Size == 8 && !f.BigEndian() { // the common case first: a third of from-text's time went to the switches
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(x))
	}
	switch f.Size {
	case 2:
		return appendFloatBits(dst, uint64(dtype.Float64ToHalf(x)), f)
	case 4:
		return appendFloatBits(dst, uint64(math.Float32bits(float32(x))), f)
	}
	return appendFloatBits(dst, math.Float64bits(x), f)
}

// nextField returns the field of the row l that starts at offset i and
// the offset where the next one starts, or ok false past the last field;
// the first field starts at 0. Fields are cut at every delimiter byte,
// or, without one, at runs of whitespace (textSpace), whitespace at
// either end ignored. A row with no content has no fields.
func (o LoadTxt) nextField(l []byte, i int) (field []byte, next int, ok bool) {
	if o.Delimiter != 0 {
		if i > len(l) || len(l) == 0 {
			return nil, 0, false
		}
		j := bytes.IndexByte(l[i:], o.Delimiter)
		if j < 0 {
			return l[i:], len(l) + 1, true
		}
		return l[i : i+j], i + j + 1, true
	}
	i = skipTextSpace(l, i)
	if i >= len(l) {
		return nil, 0, false
	}
	end := fieldEnd(l, i)
	return l[i:end], end, true
}

// countFields is the number of fields nextField finds in the row l.
func (o LoadTxt) countFields(l []byte) int {
	if o.Delimiter != 0 {
		if len(l) == 0 {
			return 0
		}
		return bytes.Count(l, []byte{o.Delimiter}) + 1
	}
	n := 0
	for i := skipTextSpace(l, 0); i < len(l); i = skipTextSpace(l, fieldEnd(l, i)) {
		n++
	}
	return n
}

// fieldEnd returns the offset of the first whitespace character at or
// after i (len(l) if none). The printable ASCII bytes, which make up most
// of a row, are passed over with one comparison each.
func fieldEnd(l []byte, i int) int {
	for ; i < len(l); i++ {
		if c := l[i]; c-'!' >= utf8.RuneSelf-'!' && textSpace(l[i:]) != 0 {
			break
		}
	}
	return i
}

// skipTextSpace returns the offset of the first byte at or after i that
// does not start a whitespace character (len(l) if none).
func skipTextSpace(l []byte, i int) int {
	for n := textSpace(l[i:]); n > 0; n = textSpace(l[i:]) {
		i += n
	}
	return i
}

// fieldFunc appends the element a field encodes.
type fieldFunc func(dst, field []byte) ([]byte, error)

// fieldParser returns the parser of fields into elements of format f.
func fieldParser(f dtype.Dtype) (fieldFunc, error) {
	name := f.Name()
	bad := func(field []byte) error {
		return fmt.Errorf("could not convert string %s to %s", pyQuote(field), name)
	}
	switch f.Kind {
	case 'f':
		return floatField(f, bad), nil
	case 'c':
		return complexField(f, bad), nil
	case 'b':
		return boolField(bad), nil
	}
	return intField(f, bad), nil
}

// floatField parses a field as Python's float() does, into a float of
// format f.
func floatField(f dtype.Dtype, bad func([]byte) error) fieldFunc {
	return func(dst, field []byte) ([]byte, error) {
		x, ok := parsePyFloat(field)
		if !ok && f.Size == 2 {
			// NumPy 1.24 reads float16 with Python's float(), which
			// takes underscores between digits ("1_0" is 10).
			x, ok = parseUnderscored(field)
		}
		if !ok {
			return dst, bad(field)
		}
		return appendFloat(dst, x, f), nil
	}
}

// complexField parses a field as Python's complex() does, into a complex
// number of format f.
func complexField(f dtype.Dtype, bad func([]byte) error) fieldFunc {
	half := f.Part()
	return func(dst, field []byte) ([]byte, error) {
		re, im, ok := parseComplex(field)
		if !ok {
			return dst, bad(field)
		}
		return appendFloat(appendFloat(dst, re, half), im, half), nil
	}
}

// boolField parses a field as a C integer, into a bool: whether it is not
// zero.
func boolField(bad func([]byte) error) fieldFunc {
	return func(dst, field []byte) ([]byte, error) {
		neg, mag, ok := parseCInt(field)
		if !ok || neg && mag > 1<<63 {
			return dst, bad(field)
		}
		if mag != 0 {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	}
}

// intField parses a field as a C integer within the range of the integer
// format f, or else as a float cast to f.
func intField(f dtype.Dtype, bad func([]byte) error) fieldFunc {
	put := func(dst []byte, u uint64) []byte { return appendFloatBits(dst, u, f) }
	signed := f.Kind == 'i'
	lo, hi := int64(0), int64(-1) // the range of the dtype
	var uhi uint64 = math.MaxUint64 >> (64 - 8*uint(f.Size))
	if signed {
		hi = int64(uhi >> 1)
		lo = -hi - 1
	}
	return func(dst, field []byte) ([]byte, error) {
		neg, mag, ok := parseCInt(field)
		switch {
		case ok && signed && !neg && mag <= uint64(hi):
			return put(dst, mag), nil
		case ok && signed && neg && mag <= uint64(-(lo+1))+1:
			return put(dst, -mag), nil
		case ok && !signed && !neg && mag <= uhi:
			return put(dst, mag), nil
		}
		// NumPy 1.23+ falls back to parsing a float and casting it with
		// C's conversion (deprecated, with a warning), as on x86-64:
		// Cast's.
		x, fok := parsePyFloat(field)
		if !fok {
			return dst, bad(field)
		}
		return put(dst, ops.FloatToInt(x, f)), nil
	}
}

// appendFloatBits appends the low f.Size bytes of u in f's byte order.
func appendFloatBits(dst []byte, u uint64, f dtype.Dtype) []byte {
	// Concrete byte orders, so the appends inline.
	switch {
	case f.Size == 1:
		return append(dst, byte(u))
	case f.Size == 8 && !f.BigEndian():
		return binary.LittleEndian.AppendUint64(dst, u)
	case f.Size == 8:
		return binary.BigEndian.AppendUint64(dst, u)
	case f.Size == 4 && !f.BigEndian():
		return binary.LittleEndian.AppendUint32(dst, uint32(u))
	case f.Size == 4:
		return binary.BigEndian.AppendUint32(dst, uint32(u))
	case !f.BigEndian():
		return binary.LittleEndian.AppendUint16(dst, uint16(u))
	}
	return binary.BigEndian.AppendUint16(dst, uint16(u))
}

// trimTextSpace is b without the whitespace (textSpace) at either end.
func trimTextSpace(b []byte) []byte {
	b = b[skipTextSpace(b, 0):]
	for n := lastTextSpace(b); n > 0; n = lastTextSpace(b) {
		b = b[:len(b)-n]
	}
	return b
}

// pyQuote is Python's repr of a field, near enough for a message, and
// safe to print: termsafe.Escape writes what a terminal would act on
// (ESC, BEL, CR, NUL, bidi overrides, bytes that are not UTF-8) as
// visible escapes, after the backslashes are doubled as repr doubles
// them. A field past 100 bytes is cut there, and "..." says so (NumPy's
// message cuts the repr at 100 characters).
func pyQuote(b []byte) string {
	const most = 100
	cut := len(b) > most
	if cut {
		n := most
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		b = b[:n]
	}
	q := "'"
	if bytes.IndexByte(b, '\'') >= 0 && bytes.IndexByte(b, '"') < 0 {
		q = `"`
	}
	s := strings.ReplaceAll(string(b), `\`, `\\`)
	if q == "'" {
		s = strings.ReplaceAll(s, "'", `\'`)
	}
	s = q + termsafe.Escape(s) + q
	if cut {
		s += "..."
	}
	return s
}
