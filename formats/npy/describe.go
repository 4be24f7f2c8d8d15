package npy

import (
	"errors"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Description is what info shows of one array header, including headers
// whose dtype strider refuses and files whose data is cut short.
type Description struct {
	// Member is the member's name (without .npy) when a bare archive is
	// listed; "" otherwise.
	Member string
	Header Header
	// Refused, when set, is why strider cannot compute on the array (a
	// string, structured, object or datetime dtype); Header.Dtype is then
	// unset and Header.RawDescr names the dtype.
	Refused error
	// ItemSize is the bytes per element, for a refused dtype too when its
	// descr says (0 when it does not: structured).
	ItemSize int
	// DataBytes is how many data bytes follow the header (-1: unknown).
	DataBytes int64
}

// NBytes is the size the header promises, or -1 when it is unknown or
// overflows.
func (d Description) NBytes() int64 {
	if d.ItemSize == 0 && d.Refused != nil {
		return -1
	}
	n, ok := CheckedNBytes(d.Header.Shape, d.ItemSize)
	if !ok {
		return -1
	}
	return n
}

// Truncated reports whether fewer data bytes follow than the header promises.
func (d Description) Truncated() bool {
	n := d.NBytes()
	return d.DataBytes >= 0 && n >= 0 && d.DataBytes < n
}

// Describe reads one header from r, a stream of size bytes (-1 unknown).
func Describe(r io.Reader, size int64, where string) (Description, error) {
	h, err := readHeader(r, size, where)
	d := Description{Header: h, DataBytes: -1}
	switch {
	case err == nil:
		d.ItemSize = h.Dtype.Size
	case errors.Is(err, ErrUnsupported) && h.RawDescr != "":
		d.Refused, d.ItemSize = err, rawItemSize(h.RawDescr)
	default:
		return Description{}, err
	}
	if size >= 0 {
		d.DataBytes = max(size-h.DataOffset, 0)
	}
	return d, nil
}

// rawItemSize is the element size NumPy gives a typestr strider refuses:
// '<U2' 8, '|S5' 5, '|O' 8, '<M8[ns]' 8, '|V16' 16, '<f16' 16; 0 when it
// cannot tell (a structured list).
func rawItemSize(descr string) int {
	s := strings.TrimLeft(descr, "<>=|")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return 0
	}
	letter, digits := s[0], s[1:]
	n, err := strconv.Atoi(digits)
	if digits == "" {
		n, err = 0, nil
	}
	if err != nil || n < 0 {
		return 0
	}
	switch letter {
	case 'U', 'w':
		if hi, lo := bits.Mul64(uint64(n), 4); hi == 0 && lo <= math.MaxInt32 {
			return int(lo)
		}
		return 0
	case 'c':
		if digits == "" {
			return 1 // 'c' is S1
		}
		return n // complex256 as 'c32'
	case 'S', 'a', 'V':
		return n
	case 'O':
		return 8
	case 'M', 'm':
		return 8
	case 'g':
		return 16
	case 'G':
		return 32
	case 'b', 'i', 'u', 'f':
		return n
	}
	return 0
}
