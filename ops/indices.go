package ops

import (
	"fmt"
	"math"
	"strings"

	"strider/internal/dtype"
)

// Mode is what happens to an index outside [-n, n).
type Mode int

const (
	Raise Mode = iota // an error naming the index (negative ones count from the end)
	Wrap              // floor modulo n
	Clip              // clipped to [0, n-1]; negative indices become 0, as in NumPy
)

// ParseMode reads "raise", "wrap" or "clip".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "raise":
		return Raise, nil
	case "wrap":
		return Wrap, nil
	case "clip":
		return Clip, nil
	}
	return 0, fmt.Errorf("mode %q is not raise, wrap or clip", s)
}

// IndexError reports an index outside its axis.
type IndexError struct {
	Index    string // the value as written (it may not fit an int64)
	Position []int  // where it stands in the index array
	Axis     int
	Size     int
}

func (e *IndexError) Error() string {
	pos := ""
	if len(e.Position) > 0 {
		parts := make([]string, len(e.Position))
		for i, p := range e.Position {
			parts[i] = fmt.Sprint(p)
		}
		pos = fmt.Sprintf(" (at position (%s) of the indices)", strings.Join(parts, ", "))
	}
	return fmt.Sprintf("index %s is out of bounds for axis %d with size %d%s", e.Index, e.Axis, e.Size, pos)
}

// Indices reads an integer index view (any strides, byte order and width,
// described by f of kind 'i' or 'u') and resolves every value against an
// axis of size n with mode: the result
// holds C-order indices in [0, n). axis is only for the error message. With
// n == 0 any index is an error (NumPy: a non-empty take from an empty axis).
func Indices(idx View, f dtype.Dtype, n, axis int, mode Mode) ([]int, error) {
	if err := f.CheckElem(idx.Elem); err != nil || (f.Kind != 'i' && f.Kind != 'u') {
		return nil, fmt.Errorf("indices must be integers, not kind %q with %d-byte elements", f.Kind, idx.Elem)
	}
	count := idx.Count()
	raw := make([]byte, count*idx.Elem)
	if err := Copy(raw, idx, Options{Threads: 1}); err != nil {
		return nil, err
	}
	out := make([]int, count)
	if count == 0 {
		return out, nil
	}
	if n == 0 {
		return nil, fmt.Errorf("cannot do a non-empty take from an empty axis (axis %d has size 0)", axis)
	}
	for i := range out {
		neg, mag := f.Int(raw[i*f.Size:])
		u := mag // two's complement bits of the value: -mag when negative
		if neg {
			u = -mag
		}
		k, ok := resolve(u, neg, n, mode)
		if !ok {
			text := fmt.Sprint(u)
			if neg {
				text = fmt.Sprint(int64(u))
			}
			return nil, &IndexError{Index: text, Position: Unravel(i, idx.Shape), Axis: axis, Size: n}
		}
		out[i] = k
	}
	return out, nil
}

// resolve maps one index to [0, n). u holds the value's two's complement
// bits; neg says it is negative. Unsigned values above MaxInt64 are exact:
// they are out of bounds for raise, n-1 for clip, and reduced exactly for
// wrap.
func resolve(u uint64, neg bool, n int, mode Mode) (int, bool) {
	un := uint64(n)
	switch mode {
	case Wrap:
		if neg {
			// floor modulo of a negative value: n - (|v| mod n), folded to 0.
			r := (-u) % un // -u is |v| for any negative int64, MinInt64 included
			if r == 0 {
				return 0, true
			}
			return int(un - r), true
		}
		return int(u % un), true
	case Clip:
		if neg {
			return 0, true
		}
		if u >= un {
			return n - 1, true
		}
		return int(u), true
	default:
		if neg {
			if v := int64(u); v >= -int64(n) {
				return int(v + int64(n)), true
			}
			return 0, false
		}
		if u < un && u <= math.MaxInt64 {
			return int(u), true
		}
		return 0, false
	}
}
