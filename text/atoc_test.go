package text

import (
	"math"
	"testing"

	"strider/internal/dtype"
)

// TestParseComplex: what NumPy 1.24's loadtxt makes of each spelling of a
// complex field (np.loadtxt(f, dtype=complex, delimiter=",")): a pair of
// numbers, or a refusal (bad).
func TestParseComplex(t *testing.T) {
	const bad = "bad"
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		field  string
		re, im float64
		err    string
	}{
		{"7+-5.0j", 7, -5, ""}, {"7++5j", 7, 5, ""}, {"7-+5j", 0, 0, bad}, {"7--5j", 0, 0, bad},
		{"( 4+5j )", 4, 5, ""}, {"(4+5j )", 4, 5, ""}, {"( 4+5j)", 4, 5, ""}, {"(4+5j", 0, 0, bad}, {"4+5j)", 0, 0, bad},
		{"(1)", 1, 0, ""}, {"( 1 )", 1, 0, ""}, {"(1", 0, 0, bad}, {"1)", 0, 0, bad}, {"()", 0, 0, bad}, {"(j)", 0, 0, bad},
		{"(1j)", 0, 1, ""}, {"( 1j )", 0, 1, ""}, {"1+2 j", 0, 0, bad}, {"1 +2j", 0, 0, bad}, {"1+ 2j", 0, 0, bad},
		{"1 + 2j", 0, 0, bad}, {" 1+2j ", 1, 2, ""}, {"\u00a01+2j\u3000", 1, 2, ""}, {"(\u00a01+2j\u00a0)", 1, 2, ""},
		{"1+2J", 0, 0, bad}, {"1+2jj", 0, 0, bad}, {"j", 0, 0, bad}, {"1j", 0, 1, ""}, {"-1j", 0, -1, ""}, {"+1j", 0, 1, ""},
		{"-j", 0, 0, bad}, {"1+j", 0, 0, bad}, {"inf+nanj", inf, nan, ""}, {"nan-infj", nan, -inf, ""}, {"infj", 0, inf, ""},
		{"-infinityj", 0, -inf, ""}, {"1e5+1e-5j", 1e5, 1e-5, ""}, {"1e+5-2e-5j", 1e5, -2e-5, ""}, {"1E5j", 0, 1e5, ""},
		{"1e+j", 0, 0, bad}, {"1.+.5j", 1, .5, ""}, {".j", 0, 0, bad}, {"1.5", 1.5, 0, ""}, {" 2 ", 2, 0, ""},
		{"1e400+1e400j", inf, inf, ""}, {"1+2j ", 1, 2, ""}, {"(1+2j) ", 1, 2, ""}, {" (1+2j)", 1, 2, ""}, {"((1+2j))", 0, 0, bad},
		{"(1+2j)x", 0, 0, bad}, {"1+2jx", 0, 0, bad}, {"1_0+2j", 0, 0, bad}, {"0x1+2j", 0, 0, bad}, {"1+2j+3j", 0, 0, bad},
		{"1 2", 0, 0, bad}, {" ", 0, 0, bad}, {"(", 0, 0, bad}, {")", 0, 0, bad}, {"1-2e3j", 1, -2000, ""},
		{"+1+1j", 1, 1, ""}, {"-1-1j", -1, -1, ""}, {"1e5-j", 0, 0, bad}, {"nanj", 0, nan, ""}, {"(nan)", nan, 0, ""},
		{"(1e5)", 1e5, 0, ""}, {"1e5)", 0, 0, bad}, {"( 1+2j)", 1, 2, ""}, {"(1+2j\t)", 1, 2, ""}, {"(1+\u00a02j)", 0, 0, bad},
		{"1+2\u00a0j", 0, 0, bad}, {"(1.5 )", 1.5, 0, ""}, {"( 1.5)", 1.5, 0, ""}, {"1.5 j", 0, 0, bad}, {"1.5j )", 0, 0, bad},
		{"(1.5j", 0, 0, bad}, {"1é", 0, 0, bad}, {"(1é)", 0, 0, bad}, {"1+2é", 0, 0, bad}, {"1+1_0j", 0, 0, bad},
		{"infinity-infinityj", inf, -inf, ""}, {"INF+Infj", inf, inf, ""}, {"infinit+1j", 0, 0, bad}, {"1e5e5j", 0, 0, bad},
	} {
		got, err := loadFloats(LoadTxt{Delimiter: ','}, c.field+"\n", dtype.Dtype{Kind: 'c', Size: 16})
		if c.err != "" {
			if err == nil {
				t.Errorf("%q: parsed as %v, NumPy refuses it", c.field, got)
			}
			continue
		}
		same := func(a, b float64) bool { return a == b || a != a && b != b }
		if err != nil || len(got) != 2 || !same(got[0], c.re) || !same(got[1], c.im) {
			t.Errorf("%q: %v %v, want (%v, %v)", c.field, got, err, c.re, c.im)
		}
	}
}
