package text

import "math/bits"

// parseCInt parses an integer as NumPy's str_to_int64 does: optional
// surrounding whitespace, an optional sign, decimal digits. Magnitudes
// past 2^64-1 fail.
func parseCInt(b []byte) (neg bool, mag uint64, ok bool) {
	b = trimTextSpace(b)
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 {
		return false, 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false, 0, false
		}
		hi, lo := bits.Mul64(mag, 10)
		lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
		if hi != 0 || carry != 0 {
			return false, 0, false
		}
		mag = lo
	}
	return neg, mag, true
}
