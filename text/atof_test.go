package text

import "testing"

// parsePyFloat takes strconv's answer where strconv's grammar is Python's:
// the grammar check floatSyntax must agree with it on every spelling.
func TestParsePyFloatGrammar(t *testing.T) {
	for _, s := range []string{"1", "+1.5", "-.5", "5.", "1e5", "1E+05", "1e-400", "1e400", "inf", "-Infinity", "+INF", "nan", "-nan",
		"NaN", "1_0", "0x10", "0x1p3", "1e", ".", "+", "", "1.5e+", "infinit", "nan(1)", "1d5", "--1", "1.2.3", "e5", "in", "+-1", "0X1P3", "1__0", "0b1"} {
		_, ok := parsePyFloat([]byte(s))
		if want := floatSyntax([]byte(s)); ok != want {
			t.Errorf("%q: parsed %v, Python's grammar says %v", s, ok, want)
		}
	}
}
