package npy

import (
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strings"

	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// This file holds what the two tensor-file formats that are not NumPy's
// share: .safetensors (safetensors.go) and torch.save zip archives
// (torchfile.go, pickle.go). Both are parsed from the whole file's bytes,
// a read-only mapping for a regular file, so a tensor's data is a slice of
// the mapping: no copy, unless its dtype has no NumPy equivalent (bfloat16,
// float8), which is widened into a new float32 buffer.

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

	// where the bytes are: [begin, end) of the file, or of a storage
	// member that must be read into memory first (member != nil).
	begin, end int64
	srcSize    int // bytes per stored element
	widen      func(dst []byte, src []byte)
	member     *storageMember
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

// tensorKind tells a tensor file from the first bytes of a file.
type tensorKind int

const (
	notTensorFile tensorKind = iota
	safetensorsFile
	torchZipFile
	torchLegacyFile
)

// legacyTorchMagic is the start of a torch.save file of PyTorch < 1.6:
// protocol-2 pickle of torch.serialization.MAGIC_NUMBER (a LONG1).
const legacyTorchMagic = "\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19"

// sniffTensorFile classifies b, the whole file (or at least its first
// bytes and, for a zip, its central directory).
func sniffTensorFile(b []byte) tensorKind {
	switch {
	case len(b) >= 9 && b[8] == '{' && binary.LittleEndian.Uint64(b) >= 2:
		return safetensorsFile
	case len(b) >= 2+len(legacyTorchMagic) && b[0] == 0x80 && string(b[2:2+len(legacyTorchMagic)]) == legacyTorchMagic:
		return torchLegacyFile
	case isZip(b) && torchPrefix(b) != "":
		return torchZipFile
	}
	return notTensorFile
}

// probeLen is how many bytes sniffTensorFile needs before a zip's
// directory: enough for the safetensors and legacy pickle signatures.
const probeLen = 16

// looksLikeTensorFile reports whether the first bytes of a file may start a
// tensor file, so that the whole file is worth mapping to find out.
func looksLikeTensorFile(head []byte) bool {
	k := sniffTensorFile(head)
	return k == safetensorsFile || k == torchLegacyFile || isZip(head)
}

// parseTensorFile indexes b, a whole file of the given kind.
func parseTensorFile(kind tensorKind, b []byte) (*TensorFile, error) {
	switch kind {
	case safetensorsFile:
		return parseSafetensors(b)
	case torchZipFile:
		return parseTorchZip(b)
	case torchLegacyFile:
		return nil, Malformed("this is a PyTorch file in the legacy torch.save format of PyTorch before 1.6, which is not read; re-save it with PyTorch >= 1.6: torch.save(torch.load(path), path)")
	}
	return nil, Malformed("not a tensor file")
}

// openTensorFile opens the tensor named member (or the only one) of f when
// f is a .safetensors or torch.save file; ok is false when it is neither.
func openTensorFile(f *os.File, size int64, member string, hasMember bool, access Access, headerOnly bool) (a *Array, ok bool, err error) {
	var head [probeLen]byte
	n, _ := f.ReadAt(head[:], 0)
	if !looksLikeTensorFile(head[:n]) || size <= 0 {
		return nil, false, nil
	}
	// Never MAP_POPULATE: an .npz archive is mapped only to be sniffed, and
	// a tensor is usually a small part of its file (Prefetch reads just it).
	m, mapErr := sysmem.MapFile(f, size, false, access == AccessSparse || access == AccessReadAt)
	mapped := mapErr == nil
	if !mapped {
		// Some file systems cannot map; read the file instead.
		if m, err = readData(io.NewSectionReader(f, 0, size), size); err != nil {
			return nil, true, err
		}
	}
	release := func() {
		if mapped {
			sysmem.Unregister(m)
			sysmem.Unmap(m)
		}
	}
	kind := sniffTensorFile(m)
	if kind == notTensorFile {
		release()
		return nil, false, nil
	}
	if mapped {
		name := f.Name()
		if name == "/dev/stdin" {
			name = "standard input"
		}
		sysmem.Register(m, name, false)
	}
	a, onMapping, err := openTensor(kind, m, member, hasMember, headerOnly)
	if err != nil || headerOnly || !mapped || !onMapping {
		release()
		if err != nil {
			return nil, true, err
		}
		return a, true, nil
	}
	a.mapping = m
	if access == AccessAll && (a.strides != nil || a.Fortran) {
		a.Prefetch() // read out of order in C order: see AccessAll
	}
	return a, true, nil
}

// dataPages returns the pages of the mapping m that hold data, a slice of
// m: what Prefetch reads in.
func dataPages(m, data []byte) []byte {
	if len(data) == 0 {
		return nil
	}
	off := int(sysmem.AddrOf(data) - sysmem.AddrOf(m))
	if off < 0 || off+len(data) > len(m) {
		return m
	}
	page := os.Getpagesize()
	start := off / page * page
	return m[start : off+len(data)]
}

// openTensorBytes is openTensorFile for a file read into memory (a pipe);
// onMapping tells whether the array's Data is a slice of b.
func openTensorBytes(b []byte, member string, hasMember bool, headerOnly bool) (a *Array, onMapping, ok bool, err error) {
	kind := sniffTensorFile(b)
	if kind == notTensorFile {
		return nil, false, false, nil
	}
	a, onMapping, err = openTensor(kind, b, member, hasMember, headerOnly)
	return a, onMapping, true, err
}

// openTensor picks the tensor and makes the Array over b; onMapping tells
// whether its Data is a slice of b.
func openTensor(kind tensorKind, b []byte, member string, hasMember bool, headerOnly bool) (a *Array, onMapping bool, err error) {
	tf, err := parseTensorFile(kind, b)
	if err != nil {
		return nil, false, err
	}
	t, err := tf.pick(member, hasMember)
	if err != nil {
		return nil, false, err
	}
	return t.array(b, headerOnly)
}

// array makes the Array of tensor t of the file b; onMapping tells whether
// its Data is a slice of b.
func (t *Tensor) array(b []byte, headerOnly bool) (a *Array, onMapping bool, err error) {
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

// pick returns the tensor member names, or the only tensor.
func (tf *TensorFile) pick(member string, hasMember bool) (*Tensor, error) {
	what := map[string]string{"safetensors": ".safetensors", "torch": "torch.save"}[tf.Format]
	if !hasMember {
		if len(tf.Tensors) != 1 {
			return nil, fmt.Errorf("%s file holds %d tensors (%s): name one as FILE:NAME", what, len(tf.Tensors), tf.nameList())
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
		return nil, fmt.Errorf("%s file has no tensor named %q (it holds %s)", what, member, tf.nameList())
	}
	return found, nil
}

// nameList names the tensors for an error message, at most ten of them,
// with what a terminal would act on escaped.
func (tf *TensorFile) nameList() string {
	if len(tf.Tensors) == 0 {
		return "no tensors"
	}
	var names []string
	for i, t := range tf.Tensors {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(tf.Tensors)-10))
			break
		}
		if t.Name == "" {
			names = append(names, `""`)
		} else {
			names = append(names, termsafe.Escape(t.Name)) // the file's, shown on a terminal
		}
	}
	return strings.Join(names, ", ")
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

// span returns the elements of the storage the tensor reaches, from its
// offset: 1 + sum((shape[k]-1)*stride[k]), 0 when it is empty. The strides
// were checked non-negative and in bounds when the file was parsed.
func (t *Tensor) span() int64 {
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
	n := t.span()
	if n == 0 {
		return []byte{}, false, nil
	}
	var raw []byte
	if t.member != nil {
		// Inflated into a new, aligned buffer.
		if raw, err = t.member.read(int64(t.Offset)*int64(t.srcSize), n*int64(t.srcSize)); err != nil {
			return nil, false, err
		}
	} else {
		begin := t.begin + int64(t.Offset)*int64(t.srcSize)
		end := begin + n*int64(t.srcSize)
		if begin < 0 || end > int64(len(b)) {
			return nil, false, Malformed("tensor %q reaches past its data", t.Name)
		}
		raw, onMapping = b[begin:end:end], true
	}
	if t.widen != nil {
		if err := sysmem.CheckMemory("the tensor widened to float32", n*4); err != nil {
			return nil, false, err
		}
		out := AlignedBuf(int(n * 4))
		t.widen(out, raw)
		return out, false, nil
	}
	if onMapping && sysmem.AddrOf(raw)%uintptr(min(t.srcSize, 8)) != 0 {
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

// ListTensors indexes the .safetensors or torch.save file that spec names
// ("file", or "file:name" for one tensor only); ok is false when the file
// is neither (a .npy or .npz file, standard input, a pipe).
func ListTensors(spec string) (tf *TensorFile, ok bool, err error) {
	path, member, hasMember := SplitSpec(spec)
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, false, nil // a pipe is read once, by Open: never opened here
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 {
		return nil, false, nil
	}
	var head [probeLen]byte
	n, _ := f.ReadAt(head[:], 0)
	if !looksLikeTensorFile(head[:n]) {
		return nil, false, nil
	}
	m, err := sysmem.MapFile(f, fi.Size(), false, true)
	if err != nil {
		if m, err = readData(io.NewSectionReader(f, 0, fi.Size()), fi.Size()); err != nil {
			return nil, true, err
		}
	} else {
		sysmem.Register(m, path, false)
		defer func() {
			sysmem.Unregister(m)
			sysmem.Unmap(m)
		}()
	}
	kind := sniffTensorFile(m)
	if kind == notTensorFile {
		return nil, false, nil
	}
	if tf, err = parseTensorFile(kind, m); err != nil {
		return nil, true, err
	}
	tf.Path = path
	for i := range tf.Tensors { // nothing may point into the mapping
		tf.Tensors[i].member = nil
		tf.Tensors[i].widen = nil
	}
	if hasMember {
		t, err := tf.pick(member, true)
		if err != nil {
			return nil, true, err
		}
		if t.Err != nil {
			return nil, true, t.Err
		}
		tf.Tensors = []Tensor{*t}
	}
	return tf, true, nil
}

// StoredNBytes is the size of the tensor's elements in the file.
func (t *Tensor) StoredNBytes() int64 { return t.Count() * int64(t.srcSize) }

// Strides returns the element strides of a: its own when it is a strided
// view over a torch storage, else those of its header's layout.
func (a *Array) Strides() []int {
	if a.strides != nil {
		return a.strides
	}
	return a.Header.Strides()
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
