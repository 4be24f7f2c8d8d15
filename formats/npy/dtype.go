package npy

import (
	"strings"

	"strider/internal/dtype"
)

// ParseDescr parses a dtype descriptor as numpy.dtype does for the numeric
// dtypes (see dtype.Parse). Other dtypes are refused with an
// ErrUnsupported error naming the descr and, where it is one, its class.
func ParseDescr(s string) (dtype.Dtype, error) {
	d, ok := dtype.Parse(s)
	if !ok {
		body := s
		if s != "" && strings.IndexByte("<>=|", s[0]) >= 0 {
			body = s[1:]
		}
		return dtype.Dtype{}, refuseDescr(s, body)
	}
	return d, nil
}

// refuseDescr explains why a descr that is not numeric is refused.
func refuseDescr(s, body string) error {
	class := ""
	switch {
	case body == "":
		return unknownDescr(s)
	case body == "g" || body == "G" || body == "f16" || body == "c32" || body == "longdouble" ||
		body == "clongdouble" || body == "float128" || body == "complex256":
		return Unsupported("unsupported dtype %s (longdouble is not supported)", pyString(s))
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
	return Unsupported("unsupported dtype %s (%s arrays are refused)", pyString(s), class)
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
	return Unsupported("unknown dtype %s", pyString(s))
}
