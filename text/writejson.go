package text

import (
	"fmt"
	"io"
	"strconv"

	"strider/internal/dtype"
	"strider/ops"
)

// WriteJSON writes v to w as Python's json.dumps(a.tolist()) writes it:
// nested lists with ", " between items, floats as Python's repr of their
// float64 value (NaN, Infinity, -Infinity as the json module writes them),
// bools as true/false. Complex numbers are refused, as json refuses them,
// before anything is written. The text goes out in pieces of about 64 KiB,
// so its size never has to fit in memory; as each goes out, opt.Done
// advances by the bytes of the elements in it (v.Count()*v.Elem in all).
func WriteJSON(w io.Writer, v ops.View, f dtype.Dtype, opt ops.Options) error {
	if err := f.Check(); err != nil {
		return err
	}
	if f.Kind == 'c' && v.Count() > 0 {
		return fmt.Errorf("Object of type complex is not JSON serializable")
	}
	if err := v.Check(); err != nil {
		return err
	}
	const piece = 64 << 10
	out := make([]byte, 0, piece+64)
	var err error
	pending := 0 // the bytes of the elements in out
	flush := func() {
		if err == nil {
			_, err = w.Write(out)
		}
		if err == nil && opt.Done != nil {
			opt.Done.Add(int64(pending))
		}
		out, pending = out[:0], 0
	}
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(v.Shape) {
			out = appendJSONScalar(out, v.Data[off*v.Elem:(off+1)*v.Elem], f)
			pending += v.Elem
			if len(out) >= piece {
				flush()
			}
			return
		}
		out = append(out, '[')
		for i := 0; i < v.Shape[axis] && err == nil; i++ {
			if i > 0 {
				out = append(out, ", "...)
			}
			walk(axis+1, off+i*v.Strides[axis])
		}
		out = append(out, ']')
	}
	walk(0, v.Offset)
	flush()
	return err
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
