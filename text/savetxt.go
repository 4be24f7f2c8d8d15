package text

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"

	"strider/internal/dtype"
	"strider/ops"
)

// SaveTxt holds np.savetxt's options.
type SaveTxt struct {
	Fmt, Delimiter, Newline, Header, Footer, Comments string
}

// Write writes v, a 1-D or 2-D array of elements encoded as f, to w as
// np.savetxt(fh, a, fmt, delimiter, newline, header, footer, comments)
// writes it, byte for byte. A 1-D array is one column. A complex array
// with a single-% fmt writes each number as " (re+imj)" with fmt for both
// parts, and every "+-" in a row becomes "-", as NumPy does.
//
// Rows are formatted on opt.Threads threads in rounds of about a MiB per
// thread, into buffers reused from round to round (fresh memory costs a
// page fault per 4 KiB, more than the formatting). Nothing is written
// before the first round has formatted without error; a format whose
// later rows could still fail (%d of a float that may be NaN) is first
// run over every row without writing, so a failure never leaves part of
// the text behind. As each round is written, opt.Done advances by the
// bytes of the elements in it: v.Count()*v.Elem in all.
func (o SaveTxt) Write(w io.Writer, v ops.View, f dtype.Dtype, opt ops.Options) error {
	if err := checkTextArray(v, f); err != nil {
		return err
	}
	t := textRows{v: v, f: f, newline: o.Newline, ncol: 1, rowStep: v.Strides[0]}
	rows := v.Shape[0]
	if len(v.Shape) == 2 {
		t.ncol, t.colStep = v.Shape[1], v.Strides[1]
	}
	rowFmt, err := o.rowFormat(t.ncol, f.Kind == 'c')
	if err != nil {
		return err
	}
	if t.pf, err = ParsePyFormat(rowFmt); err != nil && rows > 0 { // Python sees the format only when a row is formatted
		return err
	}
	header, footer := o.commented(o.Header), o.commented(o.Footer)
	r := newTextRounds(&t, rows, rowFmt, opt)
	if t.pf.convertsToInt() && (f.Kind == 'f' || f.Kind == 'c') && rows > r.size {
		for r0 := 0; r0 < rows; r0 += r.size {
			if err := r.format(r0, min(rows, r0+r.size)); err != nil {
				return err
			}
		}
	}
	for r0 := 0; r0 < rows || r0 == 0; r0 += r.size {
		if err := r.format(r0, min(rows, r0+r.size)); err != nil {
			return err
		}
		if r0 == 0 && header != "" {
			if _, err := io.WriteString(w, header); err != nil {
				return err
			}
		}
		for _, b := range r.bufs {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		if opt.Done != nil {
			opt.Done.Add(int64((min(rows, r0+r.size) - r0) * t.ncol * v.Elem))
		}
	}
	_, err = io.WriteString(w, footer)
	return err
}

// checkTextArray checks what savetxt takes: a valid 1-D or 2-D view of
// elements of format f.
func checkTextArray(v ops.View, f dtype.Dtype) error {
	if err := f.CheckElem(v.Elem); err != nil {
		return err
	}
	if err := v.Check(); err != nil {
		return err
	}
	if nd := len(v.Shape); nd == 0 || nd > 2 {
		return fmt.Errorf("Expected 1D or 2D array, got %dD array instead", nd)
	}
	return nil
}

// textRounds formats the rows of a textRows a round at a time: a round's
// rows are cut into chunks, 4 a thread, formatted in parallel into
// buffers reused from round to round.
type textRounds struct {
	t       *textRows
	rowFmt  string // the row format, for errors
	threads int
	size    int // rows a round: about 256 KiB of text a chunk
	bufs    [][]byte
	errs    []error
}

func newTextRounds(t *textRows, rows int, rowFmt string, opt ops.Options) *textRounds {
	threads := opt.ThreadCount()
	if rows*t.ncol < 4096 {
		threads = 1
	}
	chunks := threads * 4
	return &textRounds{t: t, rowFmt: rowFmt, threads: threads,
		size: max(1, chunks*(256<<10)/max(1, t.ncol*26)),
		bufs: make([][]byte, chunks), errs: make([]error, chunks)}
}

// format formats rows r0 to r1-1 into the buffers, and returns the first
// error.
func (r *textRounds) format(r0, r1 int) error {
	chunks := len(r.bufs)
	ops.Parallel(chunks, r.threads, func(lo, hi int) {
		args := make([]PyValue, 0, 2*r.t.ncol)
		for c := lo; c < hi; c++ {
			r.bufs[c], args, r.errs[c] = r.t.appendRows(r.bufs[c][:0], args, r0+c*(r1-r0)/chunks, r0+(c+1)*(r1-r0)/chunks)
		}
	})
	for _, e := range r.errs {
		if e != nil {
			return fmt.Errorf("Mismatch between array dtype (%s) and format specifier (%s): %w", r.t.f.Name(), r.rowFmt, e)
		}
	}
	return nil
}

// Needs returns, before Write, the fewest bytes of text Write produces for
// v (a lower bound: every conversion at its narrowest) and about the most
// memory it holds (the row format, o.Fmt once per column, parsed; each
// thread's arguments for a row; rows of text in flight), so that a caller
// can refuse a text larger than the disk or a row larger than the memory
// before anything is allocated or written. A format Write would refuse
// gets 0 and 0: Write says what is wrong with it.
func (o SaveTxt) Needs(v ops.View, f dtype.Dtype, opt ops.Options) (text, memory int64, err error) {
	if err := checkTextArray(v, f); err != nil {
		return 0, 0, err
	}
	rows, ncol := int64(v.Shape[0]), int64(1)
	if len(v.Shape) == 2 {
		ncol = int64(v.Shape[1])
	}
	complexX := f.Kind == 'c'
	one, perColumn := o.columnFormat(complexX)
	pf, err := ParsePyFormat(one)
	if err != nil {
		return 0, 0, nil
	}
	var row, fmtBytes int64 // the least text of a row; the row format's bytes
	switch {
	case ncol == 0: // an empty row is its newline
	case perColumn:
		delim := int64(len(o.Delimiter))
		if complexX {
			delim -= int64(strings.Count(o.Delimiter, "+"))
		}
		row = addSat(mulSat(ncol, int64(pf.minLen(complexX))), mulSat(ncol-1, delim))
		fmtBytes = mulSat(ncol, int64(len(one)+len(o.Delimiter)))
	default:
		row, fmtBytes = int64(pf.minLen(complexX)), int64(len(one))
	}
	text = mulSat(rows, addSat(row, int64(len(o.Newline))))
	text = addSat(text, int64(len(o.commented(o.Header))+len(o.commented(o.Footer))))
	// Measured on a (1, 2**22) uint8 array with %.18e on 2 threads: 418
	// bytes a column at the peak (the parsed parts and the arguments
	// dominate); the estimate errs high. Rounds of rows take about 256 KiB
	// of text per chunk, 4 chunks a thread (see Write).
	threads := int64(opt.ThreadCount())
	perCol := 512 + 64*threads
	memory = addSat(mulSat(2, fmtBytes), mulSat(ncol, perCol))
	memory = addSat(memory, 4*threads*(256<<10))
	return text, memory, nil
}

// mulSat is a*b for a, b >= 0, or math.MaxInt64 when that overflows.
func mulSat(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// addSat is a+b for a, b >= 0, or math.MaxInt64 when that overflows.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// columnFormat returns the %-format of one column, and whether o.Fmt is
// one (a single conversion, repeated for every column; for complex numbers
// " (fmt+fmtj)"). Otherwise it is o.Fmt itself, the format of a whole row.
func (o SaveTxt) columnFormat(complexX bool) (string, bool) {
	if strings.Count(o.Fmt, "%") != 1 {
		return o.Fmt, false
	}
	if complexX {
		return " (" + o.Fmt + "+" + o.Fmt + "j)", true
	}
	return o.Fmt, true
}

// rowFormat returns the %-format of a whole row of ncol columns: o.Fmt
// repeated with the delimiter when it has one conversion (for complex
// numbers, " (fmt+fmtj)"), else o.Fmt itself, which must then have one
// conversion per column (two for complex numbers).
func (o SaveTxt) rowFormat(ncol int, complexX bool) (string, error) {
	one, perColumn := o.columnFormat(complexX)
	if perColumn {
		cols := make([]string, ncol)
		for k := range cols {
			cols[k] = one
		}
		return strings.Join(cols, o.Delimiter), nil
	}
	if n := strings.Count(o.Fmt, "%"); complexX && n != 2*ncol || !complexX && n != ncol {
		return "", fmt.Errorf("fmt has wrong number of %% formats:  %s", o.Fmt)
	}
	return o.Fmt, nil
}

// commented returns text with o.Comments before each of its lines and
// o.Newline after it, as np.savetxt writes a header or footer; "" for "".
func (o SaveTxt) commented(text string) string {
	if text == "" {
		return ""
	}
	return o.Comments + strings.ReplaceAll(text, "\n", "\n"+o.Comments) + o.Newline
}

// textRows formats the rows of a 1-D or 2-D view (a 1-D view is one
// column) with a whole-row %-format.
type textRows struct {
	v                      ops.View
	f                      dtype.Dtype
	pf                     PyFormat
	newline                string
	ncol, rowStep, colStep int
}

// appendRows appends rows r0 to r1-1 to buf, each followed by the newline,
// and returns buf, args (scratch for one row's values, grown as needed)
// and the first formatting error, at which it stops. In a row of complex
// numbers every "+-" becomes "-", as NumPy does.
func (t *textRows) appendRows(buf []byte, args []PyValue, r0, r1 int) ([]byte, []PyValue, error) {
	v := t.v
	for r := r0; r < r1; r++ {
		args = args[:0]
		for k := 0; k < t.ncol; k++ {
			off := (v.Offset + r*t.rowStep + k*t.colStep) * v.Elem
			args = appendPyValues(args, v.Data[off:off+v.Elem], t.f)
		}
		start := len(buf)
		var err error
		if buf, err = t.pf.Append(buf, args); err != nil {
			return buf, args, err
		}
		buf = append(buf, t.newline...)
		if t.f.Kind == 'c' {
			buf = append(buf[:start], bytes.ReplaceAll(buf[start:], []byte("+-"), []byte("-"))...)
		}
	}
	return buf, args, nil
}

// appendPyValues appends the %-format arguments of one element: one, or
// the real and imaginary parts of a complex number.
func appendPyValues(args []PyValue, b []byte, f dtype.Dtype) []PyValue {
	switch f.Kind {
	case 'b', 'i', 'u':
		neg, mag := f.Int(b)
		kind := byte('i')
		if f.Kind == 'b' {
			kind = 'b'
		}
		return append(args, PyValue{Kind: kind, Neg: neg, Mag: mag})
	case 'f':
		return append(args, PyValue{Kind: 'f', F: f.Float(b), BitSize: 8 * f.Size})
	}
	z := f.Complex(b)
	bits := 4 * f.Size
	return append(args, PyValue{Kind: 'f', F: real(z), BitSize: bits}, PyValue{Kind: 'f', F: imag(z), BitSize: bits})
}
