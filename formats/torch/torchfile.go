package torch

import (
	"archive/zip"
	"bytes"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/sysmem"
)

// torch.save files of PyTorch >= 1.6: a zip archive (members stored, not
// compressed, each aligned to 64 bytes) holding FOLDER/data.pkl, a pickle
// of the saved object in which each storage is a persistent id
// ('storage', StorageType, key, location, numel) whose bytes are the
// member FOLDER/data/key, and each tensor is
// torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride,
// requires_grad, backward_hooks[, metadata]). pickle.go runs the pickle;
// this file finds the members and turns tensors into strided views.

// LegacyMagic is the start of a torch.save file of PyTorch < 1.6:
// protocol-2 pickle of torch.serialization.MAGIC_NUMBER (a LONG1).
const LegacyMagic = "\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19"

// torchStorageTypes are the storage classes torch.load admits, by name:
// those of dtype.Formats, and the untyped and typed storages, which have
// no element type and are refused by name.
var torchStorageTypes = func() map[string]npy.StoredDtype {
	m := map[string]npy.StoredDtype{
		"UntypedStorage": {Name: "untyped storage"},
		"TypedStorage":   {Name: "typed storage"},
	}
	for _, f := range dtype.Formats {
		if f.Storage != "" {
			m[f.Storage] = npy.ReadFormat(f)
		}
	}
	return m
}()

// torchStorage is a storage a persistent id names.
type torchStorage struct {
	key        string
	class      string
	dt         npy.StoredDtype
	numel      int64
	begin, end int64          // the record's bytes in the file, when stored plainly
	member     *storageMember // else the record, to read when needed
}

// torchTensor is a tensor the pickle rebuilds.
type torchTensor struct {
	storage *torchStorage
	offset  int
	shape   []int
	strides []int
	err     error // why it cannot be read (sparse, meta)
}

// storageMember is a storage record that is compressed in the archive.
// Opening a tensor inflates the record only up to the tensor's last byte
// and keeps only the tensor's bytes: a file of megabytes may inflate to
// gigabytes (deflate shrinks a run of zeros a thousandfold), of which a
// tensor of one element needs four bytes. The CRC-32 covers the whole
// record, so it is checked when the tensor reaches the record's end.
type storageMember struct {
	zf   *zip.File
	size int64
}

// Read returns bytes [off, off+n) of the inflated record, in memory.
func (s *storageMember) Read(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off > s.size-n {
		return nil, npy.Malformed("a tensor reaches bytes %d to %d of %q, which holds %d", off, off+n, s.zf.Name, s.size)
	}
	if err := sysmem.CheckMemory("the tensor's bytes, inflated from a compressed storage record", n); err != nil {
		return nil, err
	}
	rc, err := s.zf.Open()
	if err != nil {
		return nil, npy.Malformed("cannot read %q: %v", s.zf.Name, err)
	}
	defer rc.Close()
	if _, err := io.CopyN(io.Discard, rc, off); err != nil {
		return nil, npy.Malformed("%q is corrupt: %v", s.zf.Name, err)
	}
	b, err := npy.ReadData(rc, n)
	if err != nil {
		return nil, npy.Malformed("%q is corrupt: %w", s.zf.Name, err)
	}
	if off+n == s.size {
		if _, err := io.Copy(io.Discard, rc); err != nil { // checks the CRC-32
			return nil, npy.Malformed("%q is corrupt: %v", s.zf.Name, err)
		}
	}
	return b, nil
}

// Prefix returns the folder of a torch.save zip archive whose bytes
// are b: "archive" for "archive/data.pkl", "" when b is not one.
func Prefix(b []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return ""
	}
	return Folder(zr)
}

// Folder finds the one FOLDER/data.pkl member of zr.
func Folder(zr *zip.Reader) string {
	prefix := ""
	for _, f := range zr.File {
		dir, ok := strings.CutSuffix(f.Name, "/data.pkl")
		if !ok || dir == "" || strings.Contains(dir, "/") {
			continue
		}
		if prefix != "" {
			return "" // two pickles: not an archive torch.save writes
		}
		prefix = dir
	}
	return prefix
}

// Parse indexes a whole torch.save archive.
func Parse(b []byte) (*npy.TensorFile, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, npy.Malformed("not a valid torch.save archive: %v", err)
	}
	prefix := Folder(zr)
	if prefix == "" {
		return nil, npy.Malformed("not a torch.save archive: no FOLDER/data.pkl member")
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	if f := files[prefix+"/byteorder"]; f != nil {
		order, err := readSmallMember(f, 16)
		if err != nil {
			return nil, err
		}
		switch string(order) {
		case "little":
		case "big":
			return nil, npy.Unsupported("a torch.save archive of big-endian storages is not read; re-save it on a little-endian machine")
		default:
			return nil, npy.Malformed("%q says %q, not little or big", prefix+"/byteorder", order)
		}
	}
	pf := files[prefix+"/data.pkl"]
	if pf.UncompressedSize64 > maxPickleBytes {
		return nil, npy.Malformed("data.pkl is %d bytes, over the limit of %d", pf.UncompressedSize64, maxPickleBytes)
	}
	pkl, err := readSmallMember(pf, maxPickleBytes)
	if err != nil {
		return nil, err
	}
	storages := map[string]*torchStorage{}
	persistent := func(pid any) (any, error) {
		return torchPersistent(pid, storages, files, prefix, b)
	}
	root, err := unpickle(pkl, persistent)
	if err != nil {
		return nil, err
	}
	tf := &npy.TensorFile{Format: "torch"}
	if err := newWalker(tf).walk(root, 0); err != nil {
		return nil, err
	}
	return tf, nil
}

// readSmallMember reads a member of at most limit bytes whole.
func readSmallMember(f *zip.File, limit int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, npy.Malformed("cannot read %q: %v", f.Name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, npy.Malformed("cannot read %q: %v", f.Name, err)
	}
	if int64(len(b)) > limit {
		return nil, npy.Malformed("%q is over the limit of %d bytes", f.Name, limit)
	}
	return b, nil
}

// torchPersistent resolves a persistent id to its storage.
func torchPersistent(pid any, storages map[string]*torchStorage, files map[string]*zip.File, prefix string, b []byte) (any, error) {
	t, ok := pid.(pkTuple)
	if !ok || len(t) != 5 {
		return nil, npy.Malformed("data.pkl has a persistent id that is a %s, not ('storage', type, key, location, numel)", pkTypeName(pid))
	}
	if tag, _ := t[0].(string); tag != "storage" {
		return nil, npy.Malformed("data.pkl has a persistent id of %s, not 'storage'", pkTypeName(t[0]))
	}
	g, ok := t[1].(pkGlobal)
	dt, known := torchStorageTypes[g.name]
	if !ok || !known || g.module != "torch" && g.module != "torch.cuda" {
		return nil, npy.Malformed("data.pkl has a storage of type %s", pkTypeName(t[1]))
	}
	key, ok1 := t[2].(string)
	numel, ok2 := t[4].(int64)
	if !ok1 || !ok2 || numel < 0 {
		return nil, npy.Malformed("data.pkl has a storage id with a %s key and a %s numel", pkTypeName(t[2]), pkTypeName(t[4]))
	}
	if s := storages[key]; s != nil {
		if s.class != g.name || s.numel != numel {
			return nil, npy.Malformed("storage %q is both %s of %d elements and %s of %d", key, s.class, s.numel, g.name, numel)
		}
		return s, nil
	}
	s := &torchStorage{key: key, class: g.name, dt: dt, numel: numel}
	name := prefix + "/data/" + key
	f := files[name]
	if f == nil {
		return nil, npy.Malformed("storage record %q is missing", name)
	}
	if dt.Size > 0 {
		want, ok := npy.CheckedNBytes([]int{int(min(numel, math.MaxInt))}, dt.Size)
		if !ok || f.UncompressedSize64 != uint64(want) {
			return nil, npy.Malformed("storage record %q is %d bytes, but its numel %d of %s needs %d", name, f.UncompressedSize64, numel, dt.Name, want)
		}
		if f.Method == zip.Store && f.CompressedSize64 == f.UncompressedSize64 {
			off, err := f.DataOffset()
			if err != nil || off < 0 || off > int64(len(b)) || int64(len(b))-off < want {
				return nil, npy.Malformed("storage record %q lies outside the file", name)
			}
			s.begin, s.end = off, off+want
		} else {
			s.member = &storageMember{zf: f, size: want}
		}
	}
	storages[key] = s
	return s, nil
}

// rebuildTensor checks the arguments of _rebuild_tensor(_v2): storage,
// storage_offset, size, stride, ...
func rebuildTensor(args pkTuple) (any, error) {
	if len(args) < 4 {
		return nil, npy.Malformed("data.pkl rebuilds a tensor from %d arguments", len(args))
	}
	s, ok := args[0].(*torchStorage)
	if !ok {
		return nil, npy.Malformed("data.pkl rebuilds a tensor from a %s, not a storage", pkTypeName(args[0]))
	}
	off, ok := args[1].(int64)
	if !ok || off < 0 || off > math.MaxInt32*int64(1<<16) {
		return nil, npy.Malformed("data.pkl rebuilds a tensor at storage offset %s", pkRepr(args[1]))
	}
	shape, err1 := pkInts(args[2], "size")
	strides, err2 := pkInts(args[3], "stride")
	switch {
	case err1 != nil:
		return nil, err1
	case err2 != nil:
		return nil, err2
	case len(shape) != len(strides):
		return nil, npy.Malformed("data.pkl rebuilds a tensor of size %v with strides %v", shape, strides)
	case len(shape) > npy.MaxDims:
		return nil, npy.Malformed("a tensor has %d dimensions; NumPy allows at most %d", len(shape), npy.MaxDims)
	}
	t := &torchTensor{storage: s, offset: int(off), shape: shape, strides: strides}
	if s.dt.Size == 0 {
		t.err = npy.Unsupported("a tensor of %s (torch.%s) is not read", s.dt.Name, s.class)
		return t, nil
	}
	if _, ok := npy.CheckedNBytes(shape, 16); !ok {
		return nil, npy.Malformed("a tensor of size %v overflows", shape)
	}
	// The last element must lie inside the storage.
	last := uint64(off)
	empty := false
	for k, n := range shape {
		if strides[k] < 0 {
			return nil, npy.Malformed("a tensor has the negative stride %d", strides[k])
		}
		if n == 0 {
			empty = true
		}
		hi, lo := bits.Mul64(uint64(max(n-1, 0)), uint64(strides[k]))
		if hi != 0 || lo > math.MaxInt64-last {
			return nil, npy.Malformed("a tensor's strides %v overflow", strides)
		}
		last += lo
	}
	if !empty && last >= uint64(s.numel) {
		return nil, npy.Malformed("a tensor of size %v, stride %v at offset %d reaches element %d of a storage of %d", shape, strides, off, last, s.numel)
	}
	return t, nil
}

// pkInts reads a tuple of non-negative-or-not ints (a size or a stride).
func pkInts(v any, what string) ([]int, error) {
	t, ok := v.(pkTuple)
	if !ok {
		return nil, npy.Malformed("data.pkl rebuilds a tensor with a %s %s", pkTypeName(v), what)
	}
	out := make([]int, len(t))
	for i, x := range t {
		n, ok := x.(int64)
		if !ok || n > math.MaxInt32*int64(1<<16) || n < -math.MaxInt32*int64(1<<16) || what == "size" && n < 0 {
			return nil, npy.Malformed("data.pkl rebuilds a tensor with %s %s", what, pkRepr(x))
		}
		out[i] = int(n)
	}
	return out, nil
}

// Bounds on the names of a torch.save file's tensors. A name joins the
// keys on the path to its tensor, and a pickle may share one dict under
// many keys or nest a long key many levels deep, so names could come to
// gigabytes from a file of megabytes. Real names are short (under 200
// bytes) and a checkpoint holds at most a few hundred thousand tensors.
const (
	// maxTensorName bounds one name's bytes.
	maxTensorName = 64 << 10
	// maxTensorNames bounds the bytes of all names together.
	maxTensorNames = 256 << 20
	// maxTensors bounds the tensors of one file.
	maxTensors = 1 << 20
)

// walker collects the tensors of the unpickled object, naming them by
// their dict keys and list indices joined with '.'. It keeps the keys on
// the path to what it walks and builds a name only for a tensor, after
// checking it against the bounds, so a key is never copied into names that
// are not kept.
type walker struct {
	tf     *npy.TensorFile
	visits int
	// path holds the keys from the root to the container walked; pathLen
	// is the length of the name they make, strings.Join(path, ".").
	path    []string
	pathLen int64
	// named is the bytes of the names built so far.
	named int64
	// the bounds, maxTensorName, maxTensorNames and maxTensors unless a
	// test sets others.
	maxName, maxNames int64
	maxTensors        int
}

func newWalker(tf *npy.TensorFile) *walker {
	return &walker{tf: tf, maxName: maxTensorName, maxNames: maxTensorNames, maxTensors: maxTensors}
}

func (w *walker) walk(v any, depth int) error {
	if depth > maxPickleDepth {
		return npy.Malformed("data.pkl holds containers nested deeper than %d (or one that holds itself)", maxPickleDepth)
	}
	switch v.(type) {
	case *torchTensor, *pkDict, *pkList, pkTuple:
		if w.visits++; w.visits > maxWalkVisits {
			return npy.Malformed("data.pkl holds more than %d containers and tensors when walked (a container shared too often?)", maxWalkVisits)
		}
	}
	switch v := v.(type) {
	case *torchTensor:
		name, err := w.name()
		if err != nil {
			return err
		}
		w.tf.Tensors = append(w.tf.Tensors, v.describe(name))
	case *pkDict:
		for i, k := range v.keys {
			var ks string
			switch k := k.(type) {
			case string:
				ks = k
			case int64:
				ks = strconv.FormatInt(k, 10)
			case bool:
				ks = map[bool]string{true: "True", false: "False"}[k]
			default:
				continue // a tensor under a key of another type has no name
			}
			if err := w.child(ks, v.vals[i], depth); err != nil {
				return err
			}
		}
	case *pkList:
		for i, x := range v.items {
			if err := w.child(strconv.Itoa(i), x, depth); err != nil {
				return err
			}
		}
	case pkTuple:
		for i, x := range v {
			if err := w.child(strconv.Itoa(i), x, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// child walks v, held under the key k of the container at depth.
func (w *walker) child(k string, v any, depth int) error {
	switch v.(type) {
	case *torchTensor, *pkDict, *pkList, pkTuple:
	default:
		return nil // holds no tensor
	}
	grown := int64(len(k))
	if len(w.path) > 0 {
		grown++ // the '.'
	}
	w.path = append(w.path, k)
	w.pathLen += grown
	err := w.walk(v, depth+1)
	w.path = w.path[:len(w.path)-1]
	w.pathLen -= grown
	return err
}

// name builds the name of a tensor at the end of the path, or refuses it
// when it would pass a bound.
func (w *walker) name() (string, error) {
	switch {
	case len(w.tf.Tensors) >= w.maxTensors:
		return "", npy.Malformed("data.pkl holds more than %d tensors", w.maxTensors)
	case w.pathLen > w.maxName:
		return "", npy.Malformed("data.pkl names a tensor with %d keys joined into %d bytes, over the limit of %d bytes for a name", len(w.path), w.pathLen, w.maxName)
	case w.named+w.pathLen > w.maxNames:
		return "", npy.Malformed("the names of data.pkl's first %d tensors come to %d bytes, over the limit of %d bytes for all names (a dict shared by many tensors?)", len(w.tf.Tensors)+1, w.named+w.pathLen, w.maxNames)
	}
	w.named += w.pathLen
	var b strings.Builder
	b.Grow(int(w.pathLen))
	for i, k := range w.path {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String(), nil
}

// describe makes the Tensor entry of a rebuilt tensor.
func (t *torchTensor) describe(name string) npy.Tensor {
	e := npy.Tensor{Name: name, Err: t.err}
	if t.storage == nil {
		e.Stored = "unknown"
		return e
	}
	s := t.storage
	e.Header = npy.Header{Dtype: s.dt.Dtype, Shape: t.shape, Major: 1}
	e.Stored, e.Widened = s.dt.Name, s.dt.Widen != nil
	e.Strides, e.Offset = t.strides, t.offset
	e.Loc = npy.Location{Begin: s.begin, End: s.end, ItemSize: s.dt.Size, Widen: s.dt.Widen}
	if s.member != nil { // a nil *storageMember would make a npy.Record that is not nil
		e.Loc.Record = s.member
	}
	return e
}

// pkRepr writes an int as itself and any other value as its type.
func pkRepr(v any) string {
	if n, ok := v.(int64); ok {
		return strconv.FormatInt(n, 10)
	}
	return "a " + pkTypeName(v)
}
