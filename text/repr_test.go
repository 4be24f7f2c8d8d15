package text

import (
	"encoding/binary"
	"math"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

func TestFormatFloat(t *testing.T) {
	// numpy.array2string(np.array(v)) and repr(np.float64(v)) in NumPy 1.24.
	cases := []struct {
		v           float64
		bits        int
		array, repr string
	}{
		{1.0, 64, "1.", "1.0"},
		{0.25, 64, "0.25", "0.25"},
		{1.0 / 3, 64, "0.33333333", "0.3333333333333333"},
		{12345678.8999, 64, "12345678.8999", "12345678.8999"},
		{1.23456789e11, 64, "1.23456789e+11", "123456789000.0"},
		{1e-7, 64, "1.e-07", "1e-07"},
		{2.5e-5, 64, "2.5e-05", "2.5e-05"},
		{0.0001, 64, "0.0001", "0.0001"},
		{99999999.99, 64, "99999999.99", "99999999.99"},
		{1e8, 64, "1.e+08", "100000000.0"},
		{123456789.123, 64, "1.23456789e+08", "123456789.123"},
		{-0.5, 64, "-0.5", "-0.5"},
		{0, 64, "0.", "0.0"},
		{math.Copysign(0, -1), 64, "-0.", "-0.0"},
		{1e16, 64, "1.e+16", "1e+16"},
		{1.5e-10, 64, "1.5e-10", "1.5e-10"},
		{3.14159265358979, 64, "3.14159265", "3.14159265358979"},
		{100, 64, "100.", "100.0"},
		{9.900000000000001e-05, 64, "9.9e-05", "9.900000000000001e-05"},
		{float64(float32(0.1)), 32, "0.1", "0.1"},
		{float64(float32(1e-5)), 32, "1.e-05", "1e-05"},
		{float64(float32(3.4028235e38)), 32, "3.4028235e+38", "3.4028235e+38"},
		{16777216, 32, "16777216.", "16777216.0"},
		{65504, 16, "65504.", "65500.0"}, // array2string prints the exact digits of a float16 integer
		{0.0999755859375, 16, "0.1", "0.1"},
		{dtype.HalfToFloat64(1), 16, "6.e-08", "6e-08"},
		{0.015625, 16, "0.01563", "0.01563"}, // a power of two: its margins are unequal
		{-86878208, 32, "-86878208.", "-86878210.0"},
		{math.NaN(), 64, "nan", "nan"},
		{math.Inf(-1), 64, "-inf", "-inf"},
	}
	for _, c := range cases {
		if got := FormatFloatArray(c.v, c.bits); got != c.array {
			t.Errorf("array2string %v (f%d) = %q, want %q", c.v, c.bits, got, c.array)
		}
		if got := FormatFloatRepr(c.v, c.bits); got != c.repr {
			t.Errorf("repr %v (f%d) = %q, want %q", c.v, c.bits, got, c.repr)
		}
	}
	complexCases := []struct {
		z    complex128
		want string
	}{
		{1 + 2i, "(1+2j)"}, {2i, "2j"}, {1, "(1+0j)"}, {complex(math.Inf(1), 1), "(inf+1j)"},
		{complex(math.NaN(), math.NaN()), "(nan+nanj)"}, {1.5 - 2.5i, "(1.5-2.5j)"}, {-1i, "-1j"},
	}
	for _, c := range complexCases {
		b := make([]byte, 16)
		binary.LittleEndian.PutUint64(b, math.Float64bits(real(c.z)))
		binary.LittleEndian.PutUint64(b[8:], math.Float64bits(imag(c.z)))
		if got := FormatElem(b, dtype.Dtype{Kind: 'c', Size: 16}); got != c.want {
			t.Errorf("complex %v = %q, want %q", c.z, got, c.want)
		}
	}
}

// TestFormatAllCloseNumbers: the numbers of ops' TestCompareNumPy, as
// NumPy 1.24's assert_allclose message prints them.
func TestFormatAllCloseNumbers(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		abs              ops.Diff
		rel              float64
		wantAbs, wantRel string
	}{
		{ops.Diff{Float: 1}, 0.25, "1.", "0.25"},
		{ops.Diff{Exact: true, Lo: 2}, 2, "2", "2."},
		{ops.Diff{Float: 0.5}, 2.0000001110223056, "0.5", "2.00000011"},
		{ops.Diff{Float: 2}, inf, "2.", "inf"},
		{ops.Diff{Float: nan}, nan, "nan", "nan"},
		{ops.Diff{}, 0, "0.", "0."},
		{ops.Diff{Exact: true, Hi: 1}, 0x1p64, "18446744073709551616", "1.84467441e+19"},
		{ops.Diff{Exact: true, Lo: 1}, 0x1p-53, "1", "1.11022302e-16"},
		{ops.Diff{Exact: true, Hi: 1, Lo: 1<<63 - 1}, 1.5, "27670116110564327423", "1.5"},
		{ops.Diff{Float: 2.4999999999999998e-05}, 0.7142857142857143, "2.5e-05", "0.71428571"},
		{ops.Diff{Float: inf}, inf, "inf", "inf"},
		{ops.Diff{Float: 1}, 0.009900990099009901, "1.", "0.00990099"},
	} {
		if got, rel := FormatDiff(c.abs), FormatFloatArray(c.rel, 64); got != c.wantAbs || rel != c.wantRel {
			t.Errorf("%+v %v: %q %q, want %q %q", c.abs, c.rel, got, rel, c.wantAbs, c.wantRel)
		}
	}
}
