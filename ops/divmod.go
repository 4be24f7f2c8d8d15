package ops

import "math/bits"

// divisor divides non-negative integers below 2^63 by a fixed d > 0 with a
// multiply-high, an add and a shift instead of a hardware divide: "division
// by invariant integers using multiplication" (Granlund and Montgomery), the
// trick behind ONNX Runtime's fast_divmod and PyTorch's IntDivider.
//
// With l = ceil(log2 d) and m = floor(2^64 * (2^l - d) / d) + 1, the quotient
// of n is (mulhi(n, m) + n) >> l. mulhi(n, m) <= n, so the sum cannot
// overflow while n < 2^63.
type divisor struct {
	d     uint64
	magic uint64
	shift uint
}

func newDivisor(d int) divisor {
	if d <= 0 {
		panic("ops: divisor must be positive")
	}
	ud := uint64(d)
	l := uint(bits.Len64(ud - 1)) // ceil(log2 d); 0 for d == 1
	// (2^l - d) < d, so the 128-by-64 division cannot overflow.
	q, _ := bits.Div64(uint64(1)<<l-ud, 0, ud)
	return divisor{d: ud, magic: q + 1, shift: l}
}

// divmod returns n / d and n % d for 0 <= n < 2^63.
func (v divisor) divmod(n int) (q, r int) {
	un := uint64(n)
	hi, _ := bits.Mul64(un, v.magic)
	uq := (hi + un) >> v.shift
	return int(uq), int(un - uq*v.d)
}

// OffsetCalculator turns a linear index over a shape (C order) into a byte
// offset for each of several operands with their own strides, using one
// precomputed divisor per axis.
type OffsetCalculator struct {
	divs    []divisor // innermost axis first
	strides [][]int   // strides[operand][axis], innermost axis first
}

// NewOffsetCalculator prepares the calculator for shape, with one stride list
// per operand (same length as shape, outermost axis first, any unit).
func NewOffsetCalculator(shape []int, strides ...[]int) OffsetCalculator {
	n := len(shape)
	c := OffsetCalculator{divs: make([]divisor, n), strides: make([][]int, len(strides))}
	for k := 0; k < n; k++ {
		d := shape[n-1-k]
		if d <= 0 {
			d = 1
		}
		c.divs[k] = newDivisor(d)
	}
	for o, s := range strides {
		c.strides[o] = make([]int, n)
		for k := 0; k < n; k++ {
			c.strides[o][k] = s[n-1-k]
		}
	}
	return c
}

// Index writes the multi-index of linear position i into idx (outermost
// first) and returns the offset of operand 0 and 1 (0 where absent).
func (c OffsetCalculator) Index(i int, idx []int) (off0, off1 int) {
	n := len(c.divs)
	for k := 0; k < n; k++ {
		q, r := c.divs[k].divmod(i)
		idx[n-1-k] = r
		if len(c.strides) > 0 {
			off0 += r * c.strides[0][k]
		}
		if len(c.strides) > 1 {
			off1 += r * c.strides[1][k]
		}
		i = q
	}
	return off0, off1
}
