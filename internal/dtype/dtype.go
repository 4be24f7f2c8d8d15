package dtype

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

// Dtype is a NumPy numeric dtype.
type Dtype struct {
	Kind  byte // 'b' bool, 'i' signed int, 'u' unsigned int, 'f' float, 'c' complex
	Size  int  // bytes per element: b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 c8 c16
	Order byte // '<' little, '>' big, '|' for one-byte types; 0 reads as '<'
}

// Int64 is the dtype of the indices strider writes: int64 in the machine's
// (little endian) byte order, as numpy.argsort returns them.
var Int64 = Dtype{Kind: 'i', Size: 8, Order: '<'}

// Check reports a kind and size that are not one of NumPy's numeric dtypes.
func (d Dtype) Check() error {
	ok := false
	switch d.Kind {
	case 'b':
		ok = d.Size == 1
	case 'i', 'u':
		ok = d.Size == 1 || d.Size == 2 || d.Size == 4 || d.Size == 8
	case 'f':
		ok = d.Size == 2 || d.Size == 4 || d.Size == 8
	case 'c':
		ok = d.Size == 8 || d.Size == 16
	}
	if !ok {
		return fmt.Errorf("no numeric dtype has kind %q and %d-byte elements", d.Kind, d.Size)
	}
	return nil
}

// CheckElem reports a dtype that Check refuses or whose elements are not
// elem bytes long: the test every operation makes of the dtype it is given
// for a view's elements.
func (d Dtype) CheckElem(elem int) error {
	if err := d.Check(); err != nil {
		return err
	}
	if d.Size != elem {
		return fmt.Errorf("a %d-byte %s dtype for %d-byte elements", d.Size, d.Name(), elem)
	}
	return nil
}

// Descr returns the descriptor numpy writes for the dtype (dtype.str):
// "|b1", "|u1", "<f4", ">c16".
func (d Dtype) Descr() string {
	order := byte('<')
	switch {
	case d.Size == 1:
		order = '|'
	case d.Order == '>':
		order = '>'
	}
	return string(order) + string(d.Kind) + strconv.Itoa(d.Size)
}

// Name returns NumPy's name for the dtype: "bool", "int8", "float32",
// "complex128". The name does not depend on the byte order.
func (d Dtype) Name() string {
	bits := strconv.Itoa(8 * d.Size)
	switch d.Kind {
	case 'b':
		return "bool"
	case 'i':
		return "int" + bits
	case 'u':
		return "uint" + bits
	case 'f':
		return "float" + bits
	case 'c':
		return "complex" + bits
	}
	return "unknown" + bits
}

// BigEndian reports whether the elements are stored most significant byte
// first: a '>' descr of more than one byte.
func (d Dtype) BigEndian() bool {
	return d.Size > 1 && d.Order == '>'
}

// Native reports whether the elements are stored in the machine's byte
// order: little endian, or a single byte.
func (d Dtype) Native() bool {
	return !d.BigEndian()
}

// ByteOrder returns the binary.ByteOrder the elements are stored in.
func (d Dtype) ByteOrder() binary.ByteOrder {
	if d.BigEndian() {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// Part returns the dtype of one part of a complex dtype: float32 for
// complex64, float64 for complex128, in the same byte order.
func (d Dtype) Part() Dtype {
	return Dtype{Kind: 'f', Size: d.Size / 2, Order: d.Order}
}
