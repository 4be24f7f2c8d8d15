package ops

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"strider/internal/dtype"
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
// the text behind.
func (o SaveTxt) Write(w io.Writer, v View, f dtype.Dtype, opt Options) error {
	if err := f.CheckElem(v.Elem); err != nil {
		return err
	}
	if err := v.Check(); err != nil {
		return err
	}
	nd := len(v.Shape)
	if nd == 0 || nd > 2 {
		return fmt.Errorf("Expected 1D or 2D array, got %dD array instead", nd)
	}
	t := textRows{v: v, f: f, newline: o.Newline, ncol: 1, rowStep: v.Strides[0]}
	rows := v.Shape[0]
	if nd == 2 {
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
	threads := opt.threads()
	if rows*t.ncol < 4096 {
		threads = 1
	}
	chunks := threads * 4
	perRound := max(1, chunks*(256<<10)/max(1, t.ncol*26))
	bufs := make([][]byte, chunks)
	errs := make([]error, chunks)
	// round formats rows r0..r1 into bufs, and returns the first error.
	round := func(r0, r1 int) error {
		parallel(chunks, threads, func(lo, hi int) {
			args := make([]PyValue, 0, 2*t.ncol)
			for c := lo; c < hi; c++ {
				bufs[c], args, errs[c] = t.appendRows(bufs[c][:0], args, r0+c*(r1-r0)/chunks, r0+(c+1)*(r1-r0)/chunks)
			}
		})
		for _, e := range errs {
			if e != nil {
				return fmt.Errorf("Mismatch between array dtype (%s) and format specifier (%s): %w", f.Name(), rowFmt, e)
			}
		}
		return nil
	}
	if t.pf.convertsToInt() && (f.Kind == 'f' || f.Kind == 'c') && rows > perRound {
		for r0 := 0; r0 < rows; r0 += perRound {
			if err := round(r0, min(rows, r0+perRound)); err != nil {
				return err
			}
		}
	}
	for r0 := 0; r0 < rows || r0 == 0; r0 += perRound {
		if err := round(r0, min(rows, r0+perRound)); err != nil {
			return err
		}
		if r0 == 0 && header != "" {
			if _, err := io.WriteString(w, header); err != nil {
				return err
			}
		}
		for _, b := range bufs {
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
	}
	_, err = io.WriteString(w, footer)
	return err
}

// rowFormat returns the %-format of a whole row of ncol columns: o.Fmt
// repeated with the delimiter when it has one conversion (for complex
// numbers, " (fmt+fmtj)"), else o.Fmt itself, which must then have one
// conversion per column (two for complex numbers).
func (o SaveTxt) rowFormat(ncol int, complexX bool) (string, error) {
	switch n := strings.Count(o.Fmt, "%"); {
	case n == 1:
		one := o.Fmt
		if complexX {
			one = " (" + o.Fmt + "+" + o.Fmt + "j)"
		}
		cols := make([]string, ncol)
		for k := range cols {
			cols[k] = one
		}
		return strings.Join(cols, o.Delimiter), nil
	case complexX && n != 2*ncol, !complexX && n != ncol:
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
	v                      View
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

// JSONText returns v as Python's json.dumps(a.tolist()) writes it: nested
// lists with ", " between items, floats as Python's repr of their float64
// value (NaN, Infinity, -Infinity as the json module writes them), bools
// as true/false. Complex numbers are refused, as json refuses them.
func JSONText(v View, f dtype.Dtype) ([]byte, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f.Kind == 'c' && v.Count() > 0 {
		return nil, fmt.Errorf("Object of type complex is not JSON serializable")
	}
	if err := v.Check(); err != nil {
		return nil, err
	}
	var out []byte
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(v.Shape) {
			out = appendJSONScalar(out, v.Data[off*v.Elem:(off+1)*v.Elem], f)
			return
		}
		out = append(out, '[')
		for i := 0; i < v.Shape[axis]; i++ {
			if i > 0 {
				out = append(out, ", "...)
			}
			walk(axis+1, off+i*v.Strides[axis])
		}
		out = append(out, ']')
	}
	walk(0, v.Offset)
	return out, nil
}

func appendJSONScalar(out, b []byte, f dtype.Dtype) []byte {
	switch f.Kind {
	case 'b':
		if _, m := f.Int(b); m != 0 {
			return append(out, "true"...)
		}
		return append(out, "false"...)
	case 'i', 'u':
		neg, m := f.Int(b)
		if neg {
			out = append(out, '-')
		}
		return strconv.AppendUint(out, m, 10)
	}
	x := f.Float(b)
	switch {
	case x != x:
		return append(out, "NaN"...)
	case x > 1.7976931348623157e308:
		return append(out, "Infinity"...)
	case x < -1.7976931348623157e308:
		return append(out, "-Infinity"...)
	}
	return append(out, FormatFloatRepr(x, 64)...)
}
