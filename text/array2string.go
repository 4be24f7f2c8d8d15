package text

import (
	"math/big"
	"strconv"

	"strider/internal/npprint"
	"strider/ops"
)

// FormatFloatArray writes v, rounded to a float of bitSize bits, as
// numpy.array2string prints a 0-d float array with the default print
// options (precision 8, "maxprec"): positional for 1e-4 <= |v| < 1e8 with
// at most 8 decimals ("1.", "0.33333333"), else scientific with at most 8
// ("1.e-07", "1.23456789e+11").
func FormatFloatArray(v float64, bitSize int) string {
	x := floatBits(v, bitSize)
	a := npprint.Array{Kind: 'f', Size: x.Size, Elems: []uint64{x.Bits}}
	return npprint.Array2String(a, npprint.Defaults())
}

// FormatDiff writes an absolute difference as numpy.testing prints it
// (array2string of a 0-d array): an exact one as its integer, of up to 65
// bits, a float64 one as FormatFloatArray.
func FormatDiff(d ops.Diff) string {
	if !d.Exact {
		return FormatFloatArray(d.Float, 64)
	}
	if d.Hi == 0 {
		return strconv.FormatUint(d.Lo, 10)
	}
	v := new(big.Int).Lsh(big.NewInt(int64(d.Hi)), 64)
	return v.Add(v, new(big.Int).SetUint64(d.Lo)).String()
}
