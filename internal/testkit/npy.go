package testkit

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// NpyHeader builds a .npy header of the given version (1, 2 or 3) around
// text, padded as NumPy pads it, for headers that numpy.save would never
// write: any text, any version. The magic string is spelt out here (a
// test builder must not import the format it builds for).
func NpyHeader(major byte, text string) []byte {
	lenSize := 2
	if major > 1 {
		lenSize = 4
	}
	hlen := len(text) + 1
	pad := 64 - (8+lenSize+hlen)%64
	b := []byte("\x93NUMPY")
	b = append(b, major, 0)
	n := hlen + pad
	if lenSize == 2 {
		b = append(b, byte(n), byte(n>>8))
	} else {
		b = append(b, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	b = append(b, text...)
	b = append(b, strings.Repeat(" ", pad)...)
	return append(b, '\n')
}

// NpySeeds adds to f's corpus the .npy and .npz files in the folder
// testdata and in its malformed/ (when present; their first 4 KiB), then
// headers, then headers numpy.save never writes: Python 2 longs and a
// comment, bytes literals, other versions, a structured dtype, a shape of
// 2^63-1, escapes, a length field of 2^32-1.
func NpySeeds(f *testing.F, testdata string, headers ...[]byte) {
	var seeds []string
	for _, glob := range []string{filepath.Join(testdata, "*.np[yz]"), filepath.Join(testdata, "malformed", "*")} {
		files, _ := filepath.Glob(glob)
		seeds = append(seeds, files...)
	}
	for _, path := range seeds {
		if strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".json") {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)])
	}
	for _, h := range headers {
		f.Add(h)
	}
	f.Add(NpyHeader(1, "{'descr': '<i8', 'fortran_order': True, 'shape': (2L, 3), } # comment"))
	f.Add(NpyHeader(2, `{"shape": (0x10,), 'descr': b'>u2', 'fortran_order': False}`))
	f.Add(NpyHeader(3, "{'descr': '<f2', 'fortran_order': False, 'shape': (1_000, 2,)}"))
	f.Add(NpyHeader(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}"))
	f.Add(NpyHeader(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775807,)}"))
	f.Add(NpyHeader(1, `{'descr': '\x3c\u0066\1064', 'fortran_order': False, 'shape': ()}`))
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"))
}

// SaveHeader is what numpy.save writes before the data of an array of the
// descr and shape (format.py's _write_array_header and _wrap_header,
// version 1.0): the magic, the header's length, the dict with NumPy's
// spacing and the room it leaves for the first axis to grow, padded with
// spaces to a multiple of 64 bytes and ended by a newline. A test builds
// the file NumPy would write by appending the elements in the file's order.
func SaveHeader(descr string, fortran bool, shape []int) []byte {
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
