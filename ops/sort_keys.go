package ops

import (
	"math/bits"

	"strider/internal/dtype"
)

// codec maps the stored bits of a bool, integer or float element to an
// unsigned key of the same width whose unsigned order is the sort order,
// and back:
//
//   - unsigned and bool: the bits themselves;
//   - signed: the sign bit flipped, so negatives come first;
//   - float: the sign bit flipped for positives and every bit flipped for
//     negatives (larger magnitudes of negatives become smaller keys);
//     -0.0 gets +0.0's key and every NaN one key that is the greatest or
//     the least, by where NaNs go. No number's key is all zeros or all
//     ones, so the NaN key never ties with a number;
//   - descending: the key complemented, which reverses the order but keeps
//     equal keys equal, so ties keep their input order.
//
// Byte-swapped (big-endian) elements are swapped on load and back on store.
// Keys of numbers other than -0.0 decode back to the stored bits; -0.0 and
// NaNs are "ambiguous" and are restored from the input by position.
type codec struct {
	bits  uint   // key width: 8, 16, 32 or 64
	swap  bool   // elements are stored big-endian
	float bool   // NaN and -0.0 need care
	sign  uint64 // the bit flipped for every signed or float key
	neg   uint64 // the extra bits flipped when a float is negative
	desc  uint64 // all ones (in the width) when descending
	abs   uint64 // every bit but the sign
	inf   uint64 // +inf's bits: larger magnitudes are NaN
	// zeroKey and nanKey are the final (direction applied) keys of ±0.0
	// and of every NaN.
	zeroKey, nanKey uint64
}

func newCodec(d dtype.Dtype, ord Order) codec {
	c := codec{bits: uint(8 * d.Size), swap: d.BigEndian()}
	ones := ^uint64(0) >> (64 - c.bits)
	top := uint64(1) << (c.bits - 1)
	if ord.Descending {
		c.desc = ones
	}
	switch d.Kind {
	case 'i':
		c.sign = top
	case 'f':
		c.float = true
		c.sign = top
		c.neg = ones &^ top
		c.abs = ones &^ top
		c.inf = infBits(c.bits)
		c.zeroKey = top ^ c.desc
		if ord.nansFirst() {
			c.nanKey = 0
		} else {
			c.nanKey = ones
		}
	}
	return c
}

// infBits is +inf's bit pattern in an IEEE float of the width.
func infBits(width uint) uint64 {
	switch width {
	case 16:
		return 0x7c00
	case 32:
		return 0x7f800000
	}
	return 0x7ff0000000000000
}

// load returns the native value of stored bits u (zero-extended to 64 bits).
func (c *codec) load(u uint64) uint64 {
	if c.swap {
		return bits.ReverseBytes64(u) >> (64 - c.bits)
	}
	return u
}

// key returns the key of native value u and whether u is a NaN or -0.0,
// whose keys do not decode back to u.
func (c *codec) key(u uint64) (k uint64, ambiguous bool) {
	if c.float {
		if a := u & c.abs; a-1 >= c.inf { // zero or NaN
			if a == 0 {
				return c.zeroKey, u != 0
			}
			return c.nanKey, true
		}
	}
	return u ^ c.sign ^ c.desc ^ (-(u >> (c.bits - 1)) & c.neg), false
}

// decode returns the stored bits of the number whose key is k; k must not
// be an ambiguous key.
func (c *codec) decode(k uint64) uint64 {
	t := k ^ c.desc
	neg := (t >> (c.bits - 1)) ^ 1 // the number was negative
	u := t ^ c.sign ^ (-neg & c.neg)
	if c.swap {
		return bits.ReverseBytes64(u) >> (64 - c.bits)
	}
	return u
}

// special reports whether key k may stand for bits other than decode(k):
// the key of zero (which -0.0 shares) and of NaN.
func (c *codec) special(k uint64) bool {
	return c.float && (k == c.zeroKey || k == c.nanKey)
}

// complexCodec gives a complex number a key twice the width of a part: the
// high half orders by the real part and the NaN class, the low half breaks
// ties. With NaNs last (before the direction is applied):
//
//	R + Rj      (key(re), key(im))
//	R + nanj    (ones-1,  key(re))
//	nan + Rj    (ones,    key(im))
//	nan + nanj  (ones,    ones)
//
// which is NumPy's complex order (npysort's CLT). Number keys of a part
// never reach ones-1, so the classes stay apart. With NaNs first the three
// NaN classes take 0 and 1 instead, keeping their order among themselves,
// and descending complements both halves, so the NaN block moves as a whole
// and is internally reversed, as the rest is.
type complexCodec struct {
	part     codec  // ascending float codec of one part
	ones     uint64 // all ones in a part's width
	desc     uint64
	classR   uint64 // high half of R + nanj
	classN   uint64 // high half of nan + Rj and nan + nanj
	nanNan   uint64 // low half of nan + nanj
	swap     bool
	partBits uint
}

func newComplexCodec(d dtype.Dtype, ord Order) complexCodec {
	part := newCodec(dtype.Dtype{Kind: 'f', Size: d.Size / 2}, Order{})
	c := complexCodec{part: part, partBits: part.bits, swap: d.BigEndian()}
	c.ones = ^uint64(0) >> (64 - part.bits)
	if ord.Descending {
		c.desc = c.ones
	}
	c.nanNan = c.ones
	if ord.nansFirst() != ord.Descending {
		// NaNs below every number before the direction is applied.
		c.classR, c.classN = 0, 1
	} else {
		c.classR, c.classN = c.ones-1, c.ones
	}
	return c
}

// key returns the (high, low) key halves of the complex number with native
// part bits re and im, and whether either part is a NaN or -0.0.
func (c *complexCodec) key(re, im uint64) (hi, lo uint64) {
	a, b := re&c.part.abs, im&c.part.abs
	rnan, inan := a > c.part.inf, b > c.part.inf
	switch {
	case !rnan && !inan:
		hi, lo = c.partKey(re, a), c.partKey(im, b)
	case !rnan:
		hi, lo = c.classR, c.partKey(re, a)
	case !inan:
		hi, lo = c.classN, c.partKey(im, b)
	default:
		hi, lo = c.classN, c.nanNan
	}
	return hi ^ c.desc, lo ^ c.desc
}

// partKey is the ascending key of a non-NaN part u with magnitude bits a.
func (c *complexCodec) partKey(u, a uint64) uint64 {
	if a == 0 {
		return c.part.sign
	}
	k, _ := c.part.key(u)
	return k
}

// loadPart returns the native bits of a stored part.
func (c *complexCodec) loadPart(u uint64) uint64 {
	if c.swap {
		return bits.ReverseBytes64(u) >> (64 - c.partBits)
	}
	return u
}
