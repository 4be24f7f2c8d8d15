package npy

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"strider/internal/dtype"
	"strider/internal/pylit"
)

// Magic is the string every .npy file starts with.
const Magic = "\x93NUMPY"

const (
	// MaxHeaderLen caps the header text strider reads. NumPy writes a few
	// hundred bytes; the cap keeps a lying length field from costing memory.
	MaxHeaderLen = 1 << 20
	// MaxDims is NumPy's limit on the number of dimensions (NPY_MAXDIMS).
	MaxDims = 32

	arrayAlign          = 64 // format.ARRAY_ALIGN
	growthAxisMaxDigits = 21 // format.GROWTH_AXIS_MAX_DIGITS
)

// Header describes the array stored in a .npy file.
type Header struct {
	Dtype        dtype.Dtype
	Shape        []int
	Fortran      bool
	Major, Minor int   // version of the file read: 1.0, 2.0 or 3.0
	DataOffset   int64 // length of magic + length field + header text: where data starts
	// RawDescr is the descr as the header writes it ('<U2', a structured
	// list): what info shows for a dtype strider refuses.
	RawDescr string
}

// Count returns the number of elements: the product of the shape, 1 for a
// 0-d array.
func (h Header) Count() int64 {
	n := int64(1)
	for _, d := range h.Shape {
		n *= int64(d)
	}
	return n
}

// NBytes returns the size of the data in bytes.
func (h Header) NBytes() int64 { return h.Count() * int64(h.Dtype.Size) }

// Strides returns the element strides (not bytes) of the stored layout: C
// order, or Fortran order when h.Fortran.
func (h Header) Strides() []int {
	s := make([]int, len(h.Shape))
	step := 1
	for i := range h.Shape {
		k := len(h.Shape) - 1 - i
		if h.Fortran {
			k = i
		}
		s[k] = step
		step *= h.Shape[k]
	}
	return s
}

// ReadHeader reads a .npy header from r: the magic string, the version, the
// length field and the header text. It reads nothing after the header, so r
// is left at the first data byte.
func ReadHeader(r io.Reader) (Header, error) {
	return readHeader(r, -1, "")
}

// readHeader is ReadHeader for a stream of size bytes (-1 when unknown),
// which lets a lying length field be refused before any allocation. where
// names the stream in that error: "file", "member".
func readHeader(r io.Reader, size int64, where string) (Header, error) {
	var pre [8]byte
	if n, err := io.ReadFull(r, pre[:]); err != nil {
		if n >= 6 && string(pre[:6]) != Magic || n > 0 && n < 6 && !strings.HasPrefix(Magic, string(pre[:n])) {
			return Header{}, badMagic(pre[:n])
		}
		return Header{}, readError("the magic string and version", 8, n, err)
	}
	if string(pre[:6]) != Magic {
		return Header{}, badMagic(pre[:])
	}
	h := Header{Major: int(pre[6]), Minor: int(pre[7])}
	var lenSize int
	switch {
	case h.Major == 1 && h.Minor == 0:
		lenSize = 2
	case (h.Major == 2 || h.Major == 3) && h.Minor == 0:
		lenSize = 4
	default:
		return Header{}, Malformed("unsupported format version %d.%d (1.0, 2.0 and 3.0 are read)", h.Major, h.Minor)
	}
	var lenField [4]byte
	if n, err := io.ReadFull(r, lenField[:lenSize]); err != nil {
		return Header{}, readError("the header length", lenSize, n, err)
	}
	hlen := int64(binary.LittleEndian.Uint32(lenField[:]))
	h.DataOffset = 8 + int64(lenSize) + hlen
	if size >= 0 && h.DataOffset > size {
		return Header{}, Malformed("header length %d runs past the end of the %s (%d bytes)", hlen, where, size)
	}
	if hlen > MaxHeaderLen {
		return Header{}, Malformed("header length %d is over the limit of %d bytes", hlen, MaxHeaderLen)
	}
	text := make([]byte, hlen)
	if n, err := io.ReadFull(r, text); err != nil {
		return Header{}, readError("the header text", int(hlen), n, err)
	}
	var err error
	h.Dtype, h.Shape, h.Fortran, h.RawDescr, err = decodeHeader(text, h.Major)
	if err != nil {
		// An unsupported dtype leaves the rest of the header readable:
		// info describes it (the callers that compute refuse it).
		return h, err
	}
	return h, nil
}

func badMagic(got []byte) error {
	hint := ""
	if strings.HasPrefix(string(got), "PK") {
		hint = " (a zip archive: name a member as file.npz:NAME)"
	}
	return Malformed("bad magic %q, not a .npy file%s", got, hint)
}

// readError describes a short read of a header part; it wraps the I/O
// error, which is io.ErrUnexpectedEOF when the stream ended early.
func readError(what string, want, got int, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return Malformed("the input ends after %d of the %d bytes of %s: %w", got, want, what, io.ErrUnexpectedEOF)
	}
	return Malformed("reading %s: %w", what, err)
}

// decodeHeader parses and checks the header text of a file of the given
// major version.
func decodeHeader(text []byte, major int) (dtype.Dtype, []int, bool, string, error) {
	if major >= 3 && !utf8.Valid(text) {
		return dtype.Dtype{}, nil, false, "", Malformed("header of a version 3.0 file is not valid UTF-8")
	}
	v, err := parseLiteral(text, major < 3)
	if err != nil {
		return dtype.Dtype{}, nil, false, "", err
	}
	descr, fortran, shape, err := headerKeys(v)
	if err != nil {
		return dtype.Dtype{}, nil, false, "", err
	}
	// A dtype strider refuses is reported after the rest of the header
	// is checked, with the shape and order, so info can describe it.
	d, raw, dtypeErr, err := headerDescr(descr)
	if err != nil {
		return dtype.Dtype{}, nil, false, "", err
	}
	if fortran.Kind != pylit.Bool {
		return dtype.Dtype{}, nil, false, "", Malformed("fortran_order %s is not True or False", fortran.Repr())
	}
	dims, err := headerShape(shape, d.Size)
	if err != nil {
		return dtype.Dtype{}, nil, false, "", err
	}
	return d, dims, fortran.Bool, raw, dtypeErr
}

// headerKeys returns the values of the header dict's three keys, which
// must all be there, and no other.
func headerKeys(v *pylit.Value) (descr, fortran, shape *pylit.Value, err error) {
	if v.Kind != pylit.Dict {
		return nil, nil, nil, Malformed("header is %s, not a dict: %s", v.Kind.Article(), v.Repr())
	}
	for i := 0; i < len(v.Items); i += 2 {
		key, val := v.Items[i], v.Items[i+1]
		var slot **pylit.Value
		if key.Kind == pylit.Str && !key.Bytes {
			switch key.Str {
			case "descr":
				slot = &descr
			case "fortran_order":
				slot = &fortran
			case "shape":
				slot = &shape
			}
		}
		if slot == nil {
			return nil, nil, nil, Malformed("header has an unexpected key %s", key.Repr())
		}
		if *slot != nil {
			return nil, nil, nil, Malformed("header has key %s twice", key.Repr())
		}
		*slot = val
	}
	for _, k := range []struct {
		name string
		v    *pylit.Value
	}{{"descr", descr}, {"fortran_order", fortran}, {"shape", shape}} {
		if k.v == nil {
			return nil, nil, nil, Malformed("header is missing key '%s'", k.name)
		}
	}
	return descr, fortran, shape, nil
}

// headerDescr reads the descr value: a dtype, the text as written, and
// dtypeErr for a well-formed dtype strider refuses.
func headerDescr(descr *pylit.Value) (d dtype.Dtype, raw string, dtypeErr, err error) {
	raw = descr.Repr()
	switch {
	case descr.Kind == pylit.Str && descr.Bytes:
		return dtype.Dtype{}, "", nil, Malformed("descr %s is bytes, not a dtype string", descr.Repr())
	case descr.Kind == pylit.Str:
		raw = descr.Str
		if d, err = ParseDescr(descr.Str); err != nil {
			if !errors.Is(err, ErrUnsupported) {
				return dtype.Dtype{}, "", nil, err
			}
			dtypeErr = err
		}
	case descr.Kind == pylit.List:
		dtypeErr = Unsupported("unsupported dtype %s (structured arrays are refused)", descr.Repr())
	default:
		return dtype.Dtype{}, "", nil, Malformed("descr %s is not a dtype string", descr.Repr())
	}
	return d, raw, dtypeErr, nil
}

// headerShape reads the shape value: a tuple of at most MaxDims
// non-negative ints whose product, times size, fits in 64 bits.
func headerShape(shape *pylit.Value, size int) ([]int, error) {
	if shape.Kind != pylit.Tuple {
		return nil, Malformed("shape %s is %s, not a tuple", shape.Repr(), shape.Kind.Article())
	}
	if len(shape.Items) > MaxDims {
		return nil, Malformed("shape %s has %d dimensions, more than %d", shape.Repr(), len(shape.Items), MaxDims)
	}
	dims := make([]int, len(shape.Items))
	for i, item := range shape.Items {
		if item.Kind != pylit.Int {
			return nil, Malformed("shape %s holds %s, not an integer", shape.Repr(), item.Repr())
		}
		if item.Int.Sign() < 0 {
			return nil, Malformed("shape %s has a negative dimension", shape.Repr())
		}
		if item.Int64() > math.MaxInt {
			return nil, Malformed("shape %s has a dimension too large for this machine", shape.Repr())
		}
		dims[i] = int(item.Int64())
	}
	if _, ok := CheckedNBytes(dims, size); !ok {
		return nil, Malformed("shape %s of %d-byte elements overflows 64 bits", shape.Repr(), size)
	}
	return dims, nil
}

// CheckedNBytes returns the byte size of an array, or false when a
// dimension is negative or the size does not fit in an int64. Like NumPy,
// it also refuses an empty array whose other dimensions overflow, so that
// strides computed from any valid shape fit in an int64.
func CheckedNBytes(shape []int, size int) (int64, bool) {
	if size < 0 {
		return 0, false
	}
	n := uint64(size)
	empty := false
	for _, d := range shape {
		if d < 0 {
			return 0, false
		}
		if d == 0 {
			empty = true
			continue
		}
		hi, lo := bits.Mul64(n, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return 0, false
		}
		n = lo
	}
	if empty {
		return 0, true
	}
	return int64(n), true
}

// EncodeHeader returns the bytes numpy.save (NumPy 1.24) writes before the
// data of a C-contiguous array of dtype d and the given shape: the magic,
// the version, the length field and the padded header text.
func EncodeHeader(d dtype.Dtype, shape []int) []byte {
	return wrapHeader(headerText(d, shape, false))
}

// EncodeFortranHeader is EncodeHeader for an array numpy.save writes in
// Fortran order (one that is F-contiguous and not C-contiguous).
func EncodeFortranHeader(d dtype.Dtype, shape []int) []byte {
	return wrapHeader(headerText(d, shape, true))
}

// headerText is format._write_array_header's dict text, with the spare
// spaces that let the growth axis (the first, the last in Fortran order)
// grow in place.
func headerText(d dtype.Dtype, shape []int, fortran bool) string {
	var b strings.Builder
	b.WriteString("{'descr': '")
	b.WriteString(d.Descr())
	if fortran {
		b.WriteString("', 'fortran_order': True, 'shape': ")
	} else {
		b.WriteString("', 'fortran_order': False, 'shape': ")
	}
	b.WriteString(pylit.ShapeString(shape))
	b.WriteString(", }")
	if len(shape) > 0 {
		grow := shape[0]
		if fortran {
			grow = shape[len(shape)-1]
		}
		b.WriteString(strings.Repeat(" ", max(0, growthAxisMaxDigits-len(strconv.Itoa(grow)))))
	}
	return b.String()
}

// wrapHeader is format._wrap_header_guess_version for ASCII text: version
// 1.0 while the padded length fits in 16 bits, else 2.0. The padding makes
// magic, version, length field and text a multiple of 64 bytes long; like
// NumPy it pads a full 64 spaces when the unpadded length is already a
// multiple.
func wrapHeader(text string) []byte {
	hlen := len(text) + 1 // the final newline
	lenSize := 2
	padlen := arrayAlign - (8+lenSize+hlen)%arrayAlign
	if hlen+padlen > math.MaxUint16 {
		lenSize = 4
		padlen = arrayAlign - (8+lenSize+hlen)%arrayAlign
	}
	out := make([]byte, 0, 8+lenSize+hlen+padlen)
	out = append(out, Magic...)
	if lenSize == 2 {
		out = append(out, 1, 0)
		out = binary.LittleEndian.AppendUint16(out, uint16(hlen+padlen))
	} else {
		out = append(out, 2, 0)
		out = binary.LittleEndian.AppendUint32(out, uint32(hlen+padlen))
	}
	out = append(out, text...)
	for range padlen {
		out = append(out, ' ')
	}
	return append(out, '\n')
}
