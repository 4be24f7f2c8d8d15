package testkit

import "strings"

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
