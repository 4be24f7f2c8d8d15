// Package termsafe makes strings that a file controls safe to print on a
// terminal: tensor names, dtype strings, archive members, fields of a text
// file. Such a string may hold ESC, OSC, BEL, CR, BS or NUL, which a
// terminal obeys instead of showing: a safetensors key "\x1b[2J" would clear
// the screen. Escape writes each of them as a visible escape, as `ls -b`
// and gguf_dump do; printable text, non-ASCII letters included, is kept.
//
// Machine-readable output (--json) does not use this: it keeps the exact
// name, JSON-escaped.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every byte or character a terminal would act on
// written as an escape: \n, \r, \t, \xNN for the other C0 controls, DEL and
// bytes that are not UTF-8, \uNNNN for the C1 controls, the line and
// paragraph separators and the bidirectional overrides (which reorder what
// follows them on screen). A string with none of them is returned as is.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// clean reports whether s needs no escape (the common case, checked
// without allocating).
func clean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < 0x20 || r == 0x7f || r == utf8.RuneError && n == 1 || unsafeRune(r) {
			return false
		}
		i += n
	}
	return true
}

// unsafeRune reports the non-ASCII characters a terminal acts on or that
// change how the rest of the line is shown.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI is U+009B)
		return true
	case r == 0x2028 || r == 0x2029: // line and paragraph separators
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f: // bidi marks
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r == 0xfeff: // zero-width no-break space (a BOM)
		return true
	}
	return false
}
