package testkit

import "math/rand/v2"

// Storage places a strided view in storage with room to spare, as the
// engine tests of ops and cuda lay out their random views: for shape and
// strides (in elements, of any sign, zero included) it returns the offset
// of element [0, ..., 0] and the storage's length in elements, with 0 to 2
// spare elements, drawn from r, below the lowest element the strides reach
// and above the highest. A shape with a zero extent reaches only the
// offset.
//
// It works on plain shapes, not ops.View: ops's own tests import testkit,
// which therefore imports no package of strider's.
func Storage(r *rand.Rand, shape, strides []int) (offset, length int) {
	lo, hi := 0, 0
	for k, n := range shape {
		if n == 0 {
			lo, hi = 0, 0
			break
		}
		if strides[k] > 0 {
			hi += (n - 1) * strides[k]
		} else {
			lo += (n - 1) * strides[k]
		}
	}
	offset = -lo + r.IntN(3)
	return offset, offset + hi + 1 + r.IntN(3)
}
