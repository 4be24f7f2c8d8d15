package npy

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// This file holds what the two tensor-file formats that are not NumPy's
// share: .safetensors (package safetensors) and torch.save zip archives
// (package torch) each index a file as a TensorFile, and a Tensor of it
// opens as an Array here. Both are parsed from the whole file's bytes, a
// read-only mapping for a regular file, so a tensor's data is a slice of
// the mapping: no copy, unless its dtype has no NumPy equivalent
// (bfloat16, float8), which is widened into a new float32 buffer.

// Tensor describes one tensor of a .safetensors or torch.save file.
type Tensor struct {
	// Name is the tensor's name: the safetensors key, or the torch.save
	// dict keys joined with '.' ("" for a file that holds a bare tensor).
	Name string
	// Header is the array as strider reads it: Dtype is float32 for a
	// widened dtype; DataOffset is 0.
	Header
	// Stored names the dtype in the file as PyTorch does: "float32",
	// "bfloat16", "float8_e4m3fn" (the format's own name for a dtype
	// strider does not read).
	Stored string
	// Widened is true when Stored has no NumPy dtype and the values are
	// converted exactly to Dtype (float32) when the tensor is opened.
	Widened bool
	// Strides are the element strides of a torch tensor (nil: C order).
	Strides []int
	// Offset is the storage offset of a torch tensor, in elements.
	Offset int
	// Err, when not nil, says why the tensor cannot be read (a dtype
	// strider refuses, a sparse tensor); listing it is still fine.
	Err error

	// Loc says where the stored elements are; the format's reader sets it.
	Loc Location
}

// Location is where the stored elements of a tensor lie, and how they are
// read.
type Location struct {
	// Begin and End are the bytes [Begin, End) of the file that hold the
	// tensor's storage, when Record is nil.
	Begin, End int64
	// ItemSize is the bytes per stored element.
	ItemSize int
	// Widen converts stored elements to float32; nil: they are read as
	// they are.
	Widen func(dst []byte, src []byte)
	// Record, when not nil, holds the storage instead: a part of the file
	// that is read into memory first (a compressed record of a torch.save
	// archive).
	Record Record
}

// Record is a tensor's storage that is read into memory when the tensor is
// opened.
type Record interface {
	// Read returns bytes [off, off+n) of the storage, in memory.
	Read(off, n int64) ([]byte, error)
}

// TensorFile is the index of a .safetensors or torch.save file.
type TensorFile struct {
	// Format is "safetensors" or "torch".
	Format string
	// Path is the file's path.
	Path string
	// Tensors in file order: by data offset for safetensors, in the
	// pickle's (the state dict's) order for torch.save.
	Tensors []Tensor
	// Metadata is the safetensors __metadata__ (nil when absent).
	Metadata map[string]string
}

// Open makes the Array of tensor t of the file b; onMapping tells whether
// its Data is a slice of b.
func (t *Tensor) Open(b []byte, headerOnly bool) (a *Array, onMapping bool, err error) {
	if t.Err != nil {
		return nil, false, t.Err
	}
	a = &Array{Header: t.Header}
	if !t.contiguous() {
		a.strides = t.Strides
	}
	if headerOnly {
		return a, false, nil
	}
	if a.Data, onMapping, err = t.data(b); err != nil {
		return nil, false, err
	}
	return a, onMapping, nil
}

// Pick returns the tensor member names, or the only tensor.
func (tf *TensorFile) Pick(member string, hasMember bool) (*Tensor, error) {
	what := map[string]string{"safetensors": ".safetensors", "torch": "torch.save"}[tf.Format]
	if !hasMember {
		if len(tf.Tensors) != 1 {
			return nil, fmt.Errorf("%s file holds %d tensors (%s): name one as FILE:NAME", what, len(tf.Tensors), tf.NameList())
		}
		return &tf.Tensors[0], nil
	}
	var found *Tensor
	for i := range tf.Tensors {
		if tf.Tensors[i].Name == member {
			if found != nil {
				return nil, Malformed("%s file holds two tensors named %q", what, member)
			}
			found = &tf.Tensors[i]
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%s file has no tensor named %q (it holds %s)", what, member, tf.NameList())
	}
	return found, nil
}

// NameList names the tensors for an error message, at most ten of them,
// with what a terminal would act on escaped.
func (tf *TensorFile) NameList() string {
	names := make([]string, len(tf.Tensors))
	for i, t := range tf.Tensors {
		names[i] = t.Name
	}
	return NameList(names)
}

// NameList names tensors for an error message: at most ten, then how many
// more, with what a terminal would act on escaped and an empty name as "".
func NameList(names []string) string {
	return nameList(names, func(n string) string {
		if n == "" {
			return `""`
		}
		return termsafe.Escape(n) // the file's, shown on a terminal
	})
}

// QuotedNameList is NameList with every name in double quotes.
func QuotedNameList(names []string) string {
	return nameList(names, func(n string) string { return `"` + termsafe.Escape(n) + `"` })
}

// nameList lists at most ten names, each as show writes it, then how
// many more.
func nameList(names []string, show func(string) string) string {
	if len(names) == 0 {
		return "no tensors"
	}
	var out []string
	for i, n := range names {
		if i == 10 {
			out = append(out, fmt.Sprintf("and %d more", len(names)-10))
			break
		}
		out = append(out, show(n))
	}
	return strings.Join(out, ", ")
}

// contiguous reports whether the tensor's strides are C order.
func (t *Tensor) contiguous() bool {
	if t.Strides == nil {
		return true
	}
	step := 1
	for k := len(t.Shape) - 1; k >= 0; k-- {
		if t.Shape[k] != 1 && t.Strides[k] != step {
			return false
		}
		step *= t.Shape[k]
	}
	return true
}

// Span returns the elements of the storage the tensor reaches, from its
// offset: 1 + sum((shape[k]-1)*stride[k]), 0 when it is empty. The strides
// were checked non-negative and in bounds when the file was parsed.
func (t *Tensor) Span() int64 {
	n := int64(1)
	strides := t.Strides
	if strides == nil {
		strides = t.Header.Strides()
	}
	for k, d := range t.Shape {
		if d == 0 {
			return 0
		}
		n += int64(d-1) * int64(strides[k])
	}
	return n
}

// data returns the tensor's bytes: from its first element to its last, a
// slice of b when the stored dtype is read as it is (onMapping), else a new
// buffer.
func (t *Tensor) data(b []byte) (data []byte, onMapping bool, err error) {
	n := t.Span()
	if n == 0 {
		return []byte{}, false, nil
	}
	var raw []byte
	if t.Loc.Record != nil {
		// Inflated into a new, aligned buffer.
		if raw, err = t.Loc.Record.Read(int64(t.Offset)*int64(t.Loc.ItemSize), n*int64(t.Loc.ItemSize)); err != nil {
			return nil, false, err
		}
	} else {
		begin := t.Loc.Begin + int64(t.Offset)*int64(t.Loc.ItemSize)
		end := begin + n*int64(t.Loc.ItemSize)
		if begin < 0 || end > int64(len(b)) {
			return nil, false, Malformed("tensor %q reaches past its data", t.Name)
		}
		raw, onMapping = b[begin:end:end], true
	}
	if t.Loc.Widen != nil {
		if err := sysmem.CheckMemory("the tensor widened to float32", n*4); err != nil {
			return nil, false, err
		}
		out := AlignedBuf(int(n * 4))
		t.Loc.Widen(out, raw)
		return out, false, nil
	}
	if onMapping && sysmem.AddrOf(raw)%uintptr(min(t.Loc.ItemSize, 8)) != 0 {
		// Misaligned for typed views: take an aligned copy.
		if err := sysmem.CheckMemory("a copy of the tensor", int64(len(raw))); err != nil {
			return nil, false, err
		}
		out := AlignedBuf(len(raw))
		copy(out, raw)
		return out, false, nil
	}
	return raw, onMapping, nil
}

// StoredNBytes is the size of the tensor's elements in the file.
func (t *Tensor) StoredNBytes() int64 { return t.Count() * int64(t.Loc.ItemSize) }

// StoredDtype describes an element type of a tensor file (a dtype.Format)
// and how strider reads it.
type StoredDtype struct {
	Size  int         // bytes per element in the file; 0: not read
	Dtype dtype.Dtype // as strider reads it
	Widen func(dst, src []byte)
	Name  string // PyTorch's dtype name
}

// ReadFormat is how strider reads elements of format f: as its NumPy
// dtype, or widened exactly to float32 by the function widenings has for
// it; a size of 0 where strider does not read them.
func ReadFormat(f dtype.Format) StoredDtype {
	switch {
	case f.NumPy():
		return StoredDtype{f.Size, f.Dtype, nil, f.Torch}
	case widenings[f.Torch] != nil:
		return StoredDtype{f.Size, dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, widenings[f.Torch], f.Torch}
	}
	return StoredDtype{Name: f.Torch}
}

// widenings convert the element types NumPy lacks that strider reads, by
// PyTorch's name, to float32.
var widenings = map[string]func(dst, src []byte){
	"bfloat16":      widenBF16,
	"float8_e4m3fn": widenF8E4M3,
	"float8_e5m2":   widenF8E5M2,
}

// widenBF16 converts little-endian bfloat16 to float32: the 16 bits are
// the top half of the float32, exactly.
func widenBF16(dst, src []byte) {
	for i := 0; i+1 < len(src); i += 2 {
		binary.LittleEndian.PutUint32(dst[2*i:], uint32(binary.LittleEndian.Uint16(src[i:]))<<16)
	}
}

// widenF8E4M3 converts float8 e4m3fn (OCP FP8: bias 7, no infinities,
// S.1111.111 is NaN) to float32 exactly.
func widenF8E4M3(dst, src []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], f8ToF32(v, 4, 3, false))
	}
}

// widenF8E5M2 converts float8 e5m2 (bias 15, IEEE infinities and NaNs:
// the top byte of a float16) to float32 exactly.
func widenF8E5M2(dst, src []byte) {
	for i, v := range src {
		binary.LittleEndian.PutUint32(dst[4*i:], f8ToF32(v, 5, 2, true))
	}
}

// f8ToF32 widens one float8 with ebits exponent and mbits mantissa bits.
// ieee: the top exponent means inf/NaN; else only all ones is NaN (fn).
// A NaN keeps its sign and its mantissa, moved to the top of float32's.
func f8ToF32(v byte, ebits, mbits uint, ieee bool) uint32 {
	sign := uint32(v>>7) << 31
	e := uint32(v>>mbits) & (1<<ebits - 1)
	m := uint32(v) & (1<<mbits - 1)
	bias := uint32(1)<<(ebits-1) - 1
	top := uint32(1)<<ebits - 1
	switch {
	case ieee && e == top && m == 0:
		return sign | 0x7f800000
	case ieee && e == top, !ieee && e == top && m == 1<<mbits-1:
		return sign | 0x7f800000 | m<<(23-mbits)
	case e == 0 && m == 0:
		return sign
	case e == 0:
		// Subnormal: m * 2^(1-bias-mbits); normalise.
		shift := uint32(bits.LeadingZeros32(m)) - (32 - uint32(mbits)) + 1
		m = (m << shift) & (1<<mbits - 1)
		e = 1 - shift
		return sign | (e+127-bias)<<23 | m<<(23-mbits)
	}
	return sign | (e+127-bias)<<23 | m<<(23-mbits)
}
