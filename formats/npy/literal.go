package npy

import (
	"errors"

	"strider/internal/pylit"
)

// parseLiteral parses a header's text with pylit.ParseLiteral and words its
// errors as a header's: "header is not a Python literal: ...", ErrFormat.
// allowLong accepts Python 2 long suffixes, "3L", as NumPy does for format
// 1.0 and 2.0.
func parseLiteral(text []byte, allowLong bool) (*pylit.Value, error) {
	v, err := pylit.ParseLiteral(string(text), allowLong)
	var le *pylit.LiteralError
	if errors.As(err, &le) {
		if le.Range {
			return nil, Malformed("%s", le.Msg)
		}
		found := le.Found
		if found == "" {
			found = "the end of the header"
		}
		return nil, Malformed("header is not a Python literal: %s at byte %d, found %s", le.Msg, le.Pos, found)
	}
	return v, err
}

// pyString returns Python's repr of a string, shortened when long.
func pyString(s string) string { return pylit.Quote(s) }
