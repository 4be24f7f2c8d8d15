package formats

import (
	"encoding/binary"
	"io"
	"os"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/formats/safetensors"
	"strider/formats/torch"
	"strider/internal/sysmem"
)

// This file finds the tensor files among the inputs (.safetensors files
// and torch.save archives, by their first bytes), has package safetensors
// or torch index them, and opens a tensor as an array over the file's
// mapping (npy.Tensor.Open).

// tensorKind tells a tensor file from the first bytes of a file.
type tensorKind int

const (
	notTensorFile tensorKind = iota
	safetensorsFile
	torchZipFile
	torchLegacyFile
)

// sniffTensorFile classifies b, the whole file (or at least its first
// bytes and, for a zip, its central directory).
func sniffTensorFile(b []byte) tensorKind {
	switch {
	case len(b) >= 9 && b[8] == '{' && binary.LittleEndian.Uint64(b) >= 2:
		return safetensorsFile
	case len(b) >= 9 && isJSONSpace(b[8]) && binary.LittleEndian.Uint64(b) >= 2 && binary.LittleEndian.Uint64(b) <= safetensors.MaxHeader:
		// JSON whitespace may come before the header's object (the crate
		// reads it with serde_json). A text file's first 8 bytes read as
		// a length past 2^61, over the limit: it stays not a tensor file.
		return safetensorsFile
	case len(b) >= 2+len(torch.LegacyMagic) && b[0] == 0x80 && string(b[2:2+len(torch.LegacyMagic)]) == torch.LegacyMagic:
		return torchLegacyFile
	case isZip(b) && torch.Prefix(b) != "":
		return torchZipFile
	}
	return notTensorFile
}

// isJSONSpace reports whether c is whitespace to JSON: space, tab, LF, CR.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

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
func parseTensorFile(kind tensorKind, b []byte) (*npy.TensorFile, error) {
	switch kind {
	case safetensorsFile:
		return safetensors.Parse(b)
	case torchZipFile:
		return torch.Parse(b)
	case torchLegacyFile:
		return nil, npy.Malformed("this is a PyTorch file in the legacy torch.save format of PyTorch before 1.6, which is not read; re-save it with PyTorch >= 1.6: torch.save(torch.load(path), path)")
	}
	return nil, npy.Malformed("not a tensor file")
}

// openTensorFile opens the tensor named member (or the only one) of f when
// f is a .safetensors or torch.save file; ok is false when it is neither.
func openTensorFile(f *os.File, size int64, member string, hasMember bool, access npy.Access, headerOnly bool) (a *npy.Array, ok bool, err error) {
	var head [probeLen]byte
	n, _ := f.ReadAt(head[:], 0)
	if !looksLikeTensorFile(head[:n]) || size <= 0 {
		return nil, false, nil
	}
	// Never MAP_POPULATE: an .npz archive is mapped only to be sniffed, and
	// a tensor is usually a small part of its file (Prefetch reads just it).
	m, mapErr := sysmem.MapFile(f, size, false, access == npy.AccessSparse || access == npy.AccessReadAt)
	mapped := mapErr == nil
	if !mapped {
		// Some file systems cannot map; read the file instead.
		if m, err = npy.ReadData(io.NewSectionReader(f, 0, size), size); err != nil {
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
	a.OwnMapping(m)
	if access == npy.AccessAll && (a.Strided() || a.Fortran) {
		a.Prefetch() // read out of order in C order: see npy.AccessAll
	}
	return a, true, nil
}

// openTensorBytes is openTensorFile for a file read into memory (a pipe);
// onMapping tells whether the array's Data is a slice of b.
func openTensorBytes(b []byte, member string, hasMember bool, headerOnly bool) (a *npy.Array, onMapping, ok bool, err error) {
	kind := sniffTensorFile(b)
	if kind == notTensorFile {
		return nil, false, false, nil
	}
	a, onMapping, err = openTensor(kind, b, member, hasMember, headerOnly)
	return a, onMapping, true, err
}

// openTensor picks the tensor and makes the Array over b; onMapping tells
// whether its Data is a slice of b.
func openTensor(kind tensorKind, b []byte, member string, hasMember bool, headerOnly bool) (a *npy.Array, onMapping bool, err error) {
	tf, err := parseTensorFile(kind, b)
	if err != nil {
		return nil, false, err
	}
	t, err := tf.Pick(member, hasMember)
	if err != nil {
		return nil, false, err
	}
	return t.Open(b, headerOnly)
}

// ListTensors indexes the .safetensors or torch.save file that spec names
// ("file", or "file:name" for one tensor only); ok is false when the file
// is neither (a .npy or .npz file, standard input, a pipe).
func ListTensors(spec string) (tf *npy.TensorFile, ok bool, err error) {
	if remote.IsURL(spec) {
		return listRemoteTensors(spec) // remote_open.go
	}
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
		if m, err = npy.ReadData(io.NewSectionReader(f, 0, fi.Size()), fi.Size()); err != nil {
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
	return listed(tf, path, member, hasMember)
}

// listed is ListTensors' answer from tf, the index of the file at path,
// parsed from bytes about to be released: nothing may point into them.
func listed(tf *npy.TensorFile, path, member string, hasMember bool) (*npy.TensorFile, bool, error) {
	tf.Path = path
	for i := range tf.Tensors {
		tf.Tensors[i].Loc.Record = nil
		tf.Tensors[i].Loc.Widen = nil
	}
	if hasMember {
		t, err := tf.Pick(member, true)
		if err != nil {
			return nil, true, err
		}
		if t.Err != nil {
			return nil, true, t.Err
		}
		tf.Tensors = []npy.Tensor{*t}
	}
	return tf, true, nil
}
