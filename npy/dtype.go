package npy

import (
	"strconv"
	"strings"
)

// Dtype is a NumPy numeric dtype.
type Dtype struct {
	Kind  byte // 'b' bool, 'i' signed int, 'u' unsigned int, 'f' float, 'c' complex
	Size  int  // bytes per element: b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16
	Order byte // '<' little, '>' big, '|' for one-byte types (always '|' when Size==1)
}

// charCodes are NumPy's one-letter type codes for the dtypes strider
// handles, as numpy.dtype resolves them on 64-bit Linux ('l' is 8 bytes).
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

// kindSizes lists the sizes each kind letter takes in a descr like "<f4".
var kindSizes = map[byte][]int{
	'b': {1},
	'i': {1, 2, 4, 8},
	'u': {1, 2, 4, 8},
	'f': {2, 4, 8},
	'c': {8, 16},
}

// ParseDescr parses a dtype descriptor as numpy.dtype does for the numeric
// dtypes: "<f4", ">i8", "|b1", "?", "f4", "=f8", "float32". A missing, '='
// or '|' byte order means native, which is little endian on strider's
// targets. Other dtypes are refused with an error naming the descr.
func ParseDescr(s string) (Dtype, error) {
	body, order := s, byte('<')
	if s != "" && strings.IndexByte("<>=|", s[0]) >= 0 {
		body = s[1:]
		if s[0] == '>' {
			order = '>'
		}
		if body == "" {
			return Dtype{}, unknownDescr(s)
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
		return Dtype{}, refuseDescr(s, body)
	}
	if d.Size == 1 {
		d.Order = '|'
	} else {
		d.Order = order
	}
	return d, nil
}

// kindAndSize parses the "f4" form: a kind letter and a decimal byte count.
func kindAndSize(body string) (Dtype, bool) {
	sizes, ok := kindSizes[body[0]]
	if !ok {
		return Dtype{}, false
	}
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
	for _, size := range sizes {
		if n == size {
			return Dtype{Kind: body[0], Size: n}, true
		}
	}
	return Dtype{}, false
}

// refuseDescr explains why a descr that is not numeric is refused.
func refuseDescr(s, body string) error {
	class := ""
	switch {
	case body == "":
		return unknownDescr(s)
	case body == "g" || body == "G" || body == "f16" || body == "c32" || body == "longdouble" ||
		body == "clongdouble" || body == "float128" || body == "complex256":
		return unsupported("unsupported dtype %s (longdouble is not supported)", pyString(s))
	case body == "object" || body == "object_" || letterThenDigits(body, "O"):
		class = "object"
	case body == "c" || body == "str" || body == "bytes" || body == "str_" || body == "bytes_" ||
		body == "unicode" || letterThenDigits(body, "SUa"):
		class = "string"
	case body == "void" || letterThenDigits(body, "V") || strings.Contains(body, ","):
		class = "structured"
	case strings.HasPrefix(body, "datetime64") || strings.HasPrefix(body, "timedelta64") ||
		(body[0] == 'M' || body[0] == 'm') && (len(body) == 1 || body[1] == '8' || body[1] == '['):
		class = "datetime"
	default:
		return unknownDescr(s)
	}
	return unsupported("unsupported dtype %s (%s arrays are refused)", pyString(s), class)
}

// letterThenDigits reports whether body is one of letters followed by
// nothing or by decimal digits, as in "S5", "O", "V16".
func letterThenDigits(body, letters string) bool {
	if body == "" || strings.IndexByte(letters, body[0]) < 0 {
		return false
	}
	for i := 1; i < len(body); i++ {
		if body[i] < '0' || body[i] > '9' {
			return false
		}
	}
	return true
}

func unknownDescr(s string) error {
	return unsupported("unknown dtype %s", pyString(s))
}

// Descr returns the descriptor numpy writes for the dtype (dtype.str):
// "|b1", "|u1", "<f4", ">c16".
func (d Dtype) Descr() string {
	order := d.Order
	switch {
	case d.Size == 1:
		order = '|'
	case order != '>':
		order = '<'
	}
	return string(order) + string(d.Kind) + strconv.Itoa(d.Size)
}

// Name returns NumPy's name for the dtype: "bool", "int8", "float32",
// "complex128". The name does not depend on the byte order.
func (d Dtype) Name() string {
	bits := strconv.Itoa(8 * d.Size)
	switch d.Kind {
	case 'b':
		return "bool"
	case 'i':
		return "int" + bits
	case 'u':
		return "uint" + bits
	case 'f':
		return "float" + bits
	case 'c':
		return "complex" + bits
	}
	return "unknown" + bits
}

// Native reports whether the elements are stored in the machine's byte
// order: little endian, or a single byte.
func (d Dtype) Native() bool {
	return d.Size == 1 || d.Order != '>'
}
