package termsafe

import (
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"layer.0.weight", "layer.0.weight"},
		{"poids_é_层", "poids_é_层"},
		{"\x1b[2J\x1b[31mX", `\x1b[2J\x1b[31mX`},
		{"a\x07b\x08c\x00d", `a\x07b\x08c\x00d`},
		{"x\ry\nz\tw", `x\ry\nz\tw`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"del\x7f", `del\x7f`},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"rtl\u202eoverride\u2066", `rtl\u202eoverride\u2066`},
		{"sep\u2028", `sep\u2028`},
		{"", ""},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("\x1b[2J")
	f.Add("\xc2\x9b")
	f.Add("ok")
	f.Fuzz(func(t *testing.T, s string) {
		e := Escape(s)
		for _, r := range e {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("Escape(%q) = %q keeps %U", s, e, r)
			}
		}
		if strings.ContainsRune(e, '\uFFFD') && !strings.ContainsRune(s, '\uFFFD') {
			t.Fatalf("Escape(%q) = %q invents U+FFFD", s, e)
		}
		if clean(s) && e != s {
			t.Fatalf("clean string %q changed to %q", s, e)
		}
	})
}
