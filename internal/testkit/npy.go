package testkit

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// NpyHeader is what numpy.save writes before the data of an array of the
// descr and shape (format.py's _write_array_header and _wrap_header,
// version 1.0): the magic, the header's length, the dict with NumPy's
// spacing and the room it leaves for the first axis to grow, padded with
// spaces to a multiple of 64 bytes and ended by a newline. A test builds
// the file NumPy would write by appending the elements in the file's order.
func NpyHeader(descr string, fortran bool, shape []int) []byte {
	fo := "False"
	if fortran {
		fo = "True"
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	sh := "(" + strings.Join(parts, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	sh += ")"
	text := "{'descr': '" + descr + "', 'fortran_order': " + fo + ", 'shape': " + sh + ", }"
	if len(shape) > 0 {
		grow := shape[0]
		if fortran {
			grow = shape[len(shape)-1]
		}
		text += strings.Repeat(" ", 21-len(strconv.Itoa(grow)))
	}
	hlen := len(text) + 1
	pad := 64 - (8+2+hlen)%64
	out := []byte("\x93NUMPY\x01\x00")
	out = binary.LittleEndian.AppendUint16(out, uint16(hlen+pad))
	out = append(out, text...)
	out = append(out, strings.Repeat(" ", pad)...)
	return append(out, '\n')
}
