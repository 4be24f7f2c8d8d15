package ops

import (
	"math"
	"testing"

	"strider/internal/dtype"
)

func TestFloatToInt(t *testing.T) {
	// What NumPy 1.24's loadtxt gives on x86-64 for these fallbacks.
	for _, c := range []struct {
		x      float64
		size   int
		signed bool
		want   uint64
	}{
		{1e19, 8, false, 10000000000000000000}, {-1e19, 8, false, 1 << 63}, {math.NaN(), 8, false, 1 << 63},
		{1e10, 4, false, 1410065408}, {math.NaN(), 4, false, 0}, {-3e9, 4, false, 1294967296},
		{1e10, 2, true, 0}, {70000.5, 2, true, 4464}, {300, 1, true, 44}, {-1, 1, false, 255},
		{1e10, 4, true, 1 << 31}, {-1, 8, false, math.MaxUint64},
	} {
		to := dtype.Dtype{Kind: 'u', Size: c.size}
		if c.signed {
			to.Kind = 'i'
		}
		if got := FloatToInt(c.x, to); got != c.want {
			t.Errorf("cast(%v, %d, %v) = %d, want %d", c.x, c.size, c.signed, got, c.want)
		}
	}
}
