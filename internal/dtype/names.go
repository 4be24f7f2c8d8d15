package dtype

import (
	"strconv"
	"strings"
)

// charCodes are NumPy's one-letter type codes for the numeric dtypes, as
// numpy.dtype resolves them on 64-bit Linux ('l' is 8 bytes).
var charCodes = map[byte]Dtype{
	'?': {'b', 1, '|'},
	'b': {'i', 1, '|'}, 'B': {'u', 1, '|'},
	'h': {'i', 2, '<'}, 'H': {'u', 2, '<'},
	'i': {'i', 4, '<'}, 'I': {'u', 4, '<'},
	'l': {'i', 8, '<'}, 'L': {'u', 8, '<'},
	'q': {'i', 8, '<'}, 'Q': {'u', 8, '<'},
	'p': {'i', 8, '<'}, 'P': {'u', 8, '<'},
	'e': {'f', 2, '<'}, 'f': {'f', 4, '<'}, 'd': {'f', 8, '<'},
	'F': {'c', 8, '<'}, 'D': {'c', 16, '<'},
}

// typeNames are the dtype names numpy.dtype accepts without a byte-order
// prefix.
var typeNames = map[string]Dtype{
	"bool": {'b', 1, '|'}, "bool_": {'b', 1, '|'}, "bool8": {'b', 1, '|'},
	"int8": {'i', 1, '|'}, "int16": {'i', 2, '<'}, "int32": {'i', 4, '<'}, "int64": {'i', 8, '<'},
	"uint8": {'u', 1, '|'}, "uint16": {'u', 2, '<'}, "uint32": {'u', 4, '<'}, "uint64": {'u', 8, '<'},
	"float16": {'f', 2, '<'}, "float32": {'f', 4, '<'}, "float64": {'f', 8, '<'},
	"complex64": {'c', 8, '<'}, "complex128": {'c', 16, '<'},
	"byte": {'i', 1, '|'}, "ubyte": {'u', 1, '|'},
	"short": {'i', 2, '<'}, "ushort": {'u', 2, '<'},
	"intc": {'i', 4, '<'}, "uintc": {'u', 4, '<'},
	"int": {'i', 8, '<'}, "uint": {'u', 8, '<'}, "int_": {'i', 8, '<'}, "intp": {'i', 8, '<'}, "uintp": {'u', 8, '<'},
	"long": {'i', 8, '<'}, "ulong": {'u', 8, '<'}, // C long: 64 bits on the Linux NumPy strider matches
	"longlong": {'i', 8, '<'}, "ulonglong": {'u', 8, '<'},
	"half": {'f', 2, '<'}, "single": {'f', 4, '<'}, "double": {'f', 8, '<'}, "float": {'f', 8, '<'}, "float_": {'f', 8, '<'},
	"csingle": {'c', 8, '<'}, "cdouble": {'c', 16, '<'}, "complex": {'c', 16, '<'}, "complex_": {'c', 16, '<'},
}

// Parse reads a numeric dtype as numpy.dtype does: "<f4", ">i8", "|b1",
// "?", "f4", "=f8", "float32". A missing, '=' or '|' byte order means
// native, which is little endian on strider's targets. It reports false for
// every other spelling; npy.ParseDescr says why one is refused.
func Parse(s string) (Dtype, bool) {
	body, order := s, byte('<')
	if s != "" && strings.IndexByte("<>=|", s[0]) >= 0 {
		body = s[1:]
		if s[0] == '>' {
			order = '>'
		}
		if body == "" {
			return Dtype{}, false
		}
	}
	d, ok := Dtype{}, false
	if len(body) == 1 {
		d, ok = charCodes[body[0]]
	} else if body == s {
		d, ok = typeNames[body]
	}
	if !ok && len(body) > 1 {
		d, ok = kindAndSize(body)
	}
	if !ok {
		return Dtype{}, false
	}
	if d.Size == 1 {
		d.Order = '|'
	} else {
		d.Order = order
	}
	return d, true
}

// kindAndSize parses the "f4" form: a kind letter and a decimal byte count
// that Check accepts.
func kindAndSize(body string) (Dtype, bool) {
	digits := body[1:]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return Dtype{}, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return Dtype{}, false
	}
	d := Dtype{Kind: body[0], Size: n}
	if d.Check() != nil {
		return Dtype{}, false
	}
	return d, true
}
