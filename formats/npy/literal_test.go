package npy

import (
	"strings"
	"testing"

	"strider/internal/testkit"
)

// The expected values are Python's repr of ast.literal_eval(src), checked
// by hand against Python 3; refusals are inputs literal_eval refuses too,
// or values no header can use (floats, sets).
func TestParseLiteral(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty dict", "{}", "{}"},
		{"dict trailing comma", "{'a': 1,}", "{'a': 1}"},
		{"parenthesised int", "(5)", "5"},
		{"one-tuple", "(5,)", "(5,)"},
		{"empty tuple", "()", "()"},
		{"nested parens", "(((1)))", "1"},
		{"tuple of tuple", "((1,),)", "((1,),)"},
		{"list trailing comma", "[1,2,]", "[1, 2]"},
		{"tuple trailing comma", "(1,2,)", "(1, 2)"},
		{"newline in a tuple", "(1,\n)", "(1,)"},
		{"nested", "{'a': [1, (2,), {'b': None}]}", "{'a': [1, (2,), {'b': None}]}"},
		{"non-string key", "{1: 2, 'x': True}", "{1: 2, 'x': True}"},
		{"leading comment", "# c\n{}", "{}"},
		{"trailing comment", "  {'a': 1}  # trailing", "{'a': 1}"},
		{"comment lines", "{'x': 1} # comment\n# more\n", "{'x': 1}"},
		{"newlines inside", "{'a'\n :\n 1}", "{'a': 1}"},
		{"crlf", "{'a':1}\r\n", "{'a': 1}"},
		{"tab first", "\t{}", "{}"},
		{"minus", "-5", "-5"},
		{"minus space", "- 5", "-5"},
		{"plus zero", "+0", "0"},
		{"minus zero", "-0", "0"},
		{"hex underscore after prefix", "0x_1f", "31"},
		{"hex underscore", "0x1_f", "31"},
		{"upper prefixes", "(0O7, 0X1F, 0B1)", "(7, 31, 1)"},
		{"binary underscore", "0b1_0", "2"},
		{"zeros", "(0_0, 00)", "(0, 0)"},
		{"thousands", "1_000_000", "1000000"},
		{"max int64", "9223372036854775807", "9223372036854775807"},
		{"min int64", "-9223372036854775808", "-9223372036854775808"},
		{"long suffix", "1L", "1"},
		{"bytes hex escape", `b'x\x41'`, "b'xA'"},
		{"raw", `r'\n'`, `'\\n'`},
		{"unicode escape", `u'\u0041'`, "'A'"},
		{"octal escape", `'\101'`, "'A'"},
		{"null escape", `'\0'`, `'\x00'`},
		{"unknown escape kept", `'\q'`, `'\\q'`},
		{"bytes keep \\u", `b'\u0041'`, `b'\\u0041'`},
		{"line continuation in string", "'a\\\nb'", "'ab'"},
		{"escaped newline alone", "'\\\n'", "''"},
		{"triple quotes", "'''a\nb'''", `'a\nb'`},
		{"triple double quotes", `"""x"""`, "'x'"},
		{"concatenation", `'a' "b" '''c'''`, "'abc'"},
		{"quotes", `('\'', "\"", 'a"b', "a'b")`, `("'", '"', 'a"b', "a'b")`},
		{"raw bytes", `br'\x'`, `b'\\x'`},
		{"raw bytes upper", `Rb'\x'`, `b'\\x'`},
		{"empty unicode", "u''", "''"},
		{"singletons", "[True, False, None]", "[True, False, None]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := parseLiteral([]byte(tc.src), true)
			if err != nil {
				t.Fatalf("parseLiteral(%q): %v", tc.src, err)
			}
			if got := v.Repr(); got != tc.want {
				t.Fatalf("parseLiteral(%q) = %s, want %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestParseLiteralRefuses(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"lone comma", "(,)", "expected a value at byte 1"},
		{"list lone comma", "[,]", "expected a value at byte 1"},
		{"double comma", "[1,,2]", "expected a value at byte 3"},
		{"missing comma", "(1 2)", "expected ',' or ')' at byte 3"},
		{"dict missing comma", "{'a': 1 'b': 2}", "expected ',' or '}' at byte 8"},
		{"dict double comma", "{'a':1,,}", "expected a value at byte 7"},
		{"dict lone comma", "{,}", "expected a value at byte 1"},
		{"two signs", "--5", "expected digits after a sign at byte 1"},
		{"signs mixed", "+-5", "expected digits after a sign at byte 1"},
		{"sign on a paren", "-(5)", "expected digits after a sign"},
		{"sign on a name", "+True", "expected digits after a sign"},
		{"bare sign", "{'a': -}", "expected digits after a sign at byte 7"},
		{"hex without digits", "0x", "expected digits after \"0x\""},
		{"leading zero", "01", "leading zeros"},
		{"double underscore", "1__0", "invalid underscore"},
		{"trailing underscore", "1_", "invalid underscore"},
		{"binary digit 2", "0b102", "invalid character after an integer at byte 4"},
		{"octal digit 8", "0o78", "invalid character after an integer at byte 3"},
		{"name after int", "12abc", "invalid character after an integer"},
		{"overflow", "9223372036854775808", "integer 9223372036854775808 at byte 0 does not fit in 64 bits"},
		{"negative overflow", "-9223372036854775809", "integer -9223372036854775809 at byte 0 does not fit in 64 bits"},
		{"long overflow", strings.Repeat("9", 100), "integer 9999999999999999999999999999999999999999... at byte 0 does not fit"},
		{"float", "1.0", "float and complex literals are not supported at byte 1"},
		{"exponent", "1e5", "float and complex literals are not supported"},
		{"complex", "1j", "float and complex literals are not supported"},
		{"dot float", ".5", "float literals are not supported at byte 0"},
		{"lower true", "true", "unexpected name at byte 0"},
		{"call", "set()", "unexpected name at byte 0"},
		{"set", "{1, 2}", "expected ':' after a dict key at byte 2"},
		{"unpacking", "{**{}}", "expected a value at byte 1"},
		{"two literals", "{'a': 'b'}{}", "expected the end of the header at byte 10"},
		{"unterminated", "'abc", "unterminated string at byte 0"},
		{"newline in string", "'a\nb'", "unterminated string at byte 0"},
		{"unterminated triple", "'''abc''", "unterminated string at byte 0"},
		{"short hex escape", `'\x4'`, `invalid \x escape`},
		{"truncated hex escape", `'\x`, `truncated \x escape`},
		{"bad unicode escape", `'\U00110000'`, `invalid \U escape`},
		{"named escape", `'\N{LATIN SMALL LETTER A}'`, "named unicode escapes are not supported at byte 1"},
		{"bu prefix", "bu''", "invalid string prefix at byte 0"},
		{"f-string", "f''", "unsupported string prefix at byte 0"},
		{"empty", "", "expected a value at byte 0, found the end of the header"},
		{"only a comment", "# nothing", "expected a value at byte 9, found the end of the header"},
		{"deep lists", strings.Repeat("[", 65) + strings.Repeat("]", 65), "nesting deeper than 64 at byte 64"},
		{"deep dicts", strings.Repeat("{'a':", 70), "nesting deeper than 64"},
		{"control byte", "{'a': 1}\x01", `expected the end of the header at byte 8, found "\x01"`},
		{"non-ascii", "{'a': \xe9}", `expected a value at byte 6, found "\xe9}"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := parseLiteral([]byte(tc.src), true)
			if err == nil {
				t.Fatalf("parseLiteral(%q) = %s, want an error", tc.src, v.Repr())
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("parseLiteral(%q) error %q does not contain %q", tc.src, err, tc.want)
			}
			testkit.CheckMessage(t, err.Error())
		})
	}
}

func TestReprIsShort(t *testing.T) {
	v, err := parseLiteral([]byte("["+strings.Repeat("'abcdefgh', ", 10000)+"]"), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Repr(); len(got) > 60+3 || !strings.HasSuffix(got, "...") {
		t.Fatalf("repr of a long list is %d bytes: %q", len(got), got)
	}
}
