package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"strider/formats/npy"
	"strider/formats/safetensors"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// An output path "file.safetensors:NAME" writes or replaces tensor NAME of
// a .safetensors file as "file.npz:NAME" does a member of an archive: the
// result is computed in memory, and Commit rewrites the file under the
// same lock (lockBeside), keeping the other tensors' bytes and the
// __metadata__ as they are, laid out as the safetensors library's
// save_file lays them out (package safetensors, Header.Encode), into the
// temporary file renamed over it.

// tensorMember is what a safetensors member output writes besides its data.
type tensorMember struct {
	code  string // the safetensors dtype code
	dtype dtype.Dtype
	shape []int
}

// isSafetensorsPath reports a path named as a .safetensors file.
func isSafetensorsPath(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".safetensors")
}

// archiveWhat names the kind of file a member output rewrites, for
// errors: a .safetensors file, or an .npz archive.
func archiveWhat(safetensors bool) string {
	if safetensors {
		return "a .safetensors file"
	}
	return "an .npz archive"
}

// checkArchive checks that the file at path, whose other members a member
// output keeps, is an archive of the kind it rewrites.
func checkArchive(path string, isSafetensors bool) error {
	if isSafetensors {
		_, _, release, err := readSafetensors(path)
		if err == nil {
			release()
		}
		return err
	}
	_, f, err := readArchive(path)
	if err == nil {
		f.Close()
	}
	return err
}

// checkTensorName refuses a tensor name given on the command line that an
// output must not write: besides what safetensors.CheckName refuses (not
// UTF-8, "__metadata__", too long), an empty name, one a terminal would
// act on (control characters) and one holding a ':' (see
// splitMemberOutput). A '/' or a '\' is a name's own: no unzip ever
// extracts a tensor.
func checkTensorName(name string) error {
	if err := checkNameText("tensor", "FILE.safetensors:NAME", name); err != nil {
		return err
	}
	if strings.ContainsRune(name, ':') {
		return badName("tensor", name, "holds a ':', which would leave unclear where the file's name ends")
	}
	return safetensors.CheckName(name)
}

// safetensorsMember prepares the tensor of dtype d and shape an output
// "file.safetensors:NAME" writes: refused for complex128, which the format
// has no dtype for, and for Fortran order, which it cannot say.
func safetensorsMember(path string, d dtype.Dtype, shape []int, fortran bool) (*tensorMember, error) {
	code, ok := safetensors.Code(d)
	if !ok {
		return nil, npy.Unsupported("cannot create %s: safetensors has no dtype for %s (cast it first: strider cast --dtype complex64)", termsafe.Escape(path), d.Name())
	}
	if fortran {
		return nil, fmt.Errorf("cannot create %s: a safetensors tensor is in C order; --order keep asks for Fortran order", termsafe.Escape(path))
	}
	return &tensorMember{code: code, dtype: d, shape: shape}, nil
}

// readSafetensors maps (or reads) the .safetensors file at path and reads
// its header for rewriting; release frees the bytes.
func readSafetensors(path string) (f *safetensors.File, b []byte, release func(), err error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer fd.Close()
	fi, err := fd.Stat()
	if err != nil {
		return nil, nil, nil, err
	}
	release = func() {}
	if b, err = sysmem.MapFile(fd, fi.Size(), false, false); err == nil {
		sysmem.Register(b, path, false)
		m := b
		release = func() {
			sysmem.Unregister(m)
			sysmem.Unmap(m)
		}
	} else if b, err = npy.ReadData(io.NewSectionReader(fd, 0, fi.Size()), fi.Size()); err != nil {
		return nil, nil, nil, err
	}
	if f, err = safetensors.ReadFile(b); err != nil {
		release()
		return nil, nil, nil, npy.Malformed("it is not a .safetensors file whose tensors can be kept (%w)", err)
	}
	return f, b, release, nil
}

// writeSafetensors writes into the temporary file the .safetensors file of
// a member output: the previous file's tensors and metadata, with this one
// replaced or added.
func (o *Output) writeSafetensors() error {
	t := o.tensor
	data := o.Data
	o.Data = nil
	safetensors.SwapToLittle(data, t.dtype)
	h := safetensors.Header{Tensors: []safetensors.Entry{{Name: o.member, Dtype: t.code, Shape: t.shape, Size: int64(len(data))}}}
	bodies := [][]byte{data}
	if o.prev != nil {
		old, b, release, err := readSafetensors(o.target)
		if err != nil {
			return err
		}
		defer release()
		h.Metadata, h.HasMetadata = old.Metadata, old.HasMetadata
		for _, s := range old.Tensors {
			if s.Name != o.member {
				h.Tensors = append(h.Tensors, s.Entry)
				bodies = append(bodies, b[s.Begin:s.End])
			}
		}
	}
	prefix, order, _, err := h.Encode()
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(o.f, 1<<20)
	if _, err := w.Write(prefix); err != nil {
		return err
	}
	for _, i := range order {
		if _, err := w.Write(bodies[i]); err != nil {
			return err
		}
	}
	return w.Flush()
}

// CreateWhole prepares an output of nbytes raw bytes that is a whole
// archive, a .npz or .safetensors file a conversion writes (strider
// convert), which Create refuses without a member name; a path with a
// member ("x.npz:NAME") is a file of that name here. It is atomic as
// Create's outputs are; with nbytes 0 the bytes are appended with Write.
func CreateWhole(path string, nbytes int64) (*Output, error) {
	if nbytes < 0 || nbytes > int64(maxInt-npy.DataAlign) {
		return nil, fmt.Errorf("cannot create %s: %d bytes is negative or too large", path, nbytes)
	}
	if path == "-" {
		return nil, errors.New("cannot create -: a whole archive is written to a file")
	}
	return createBytes(path, nil, []byte{}, nbytes, false, false, true)
}

// CheckMemberName refuses a member name an .npz output does not write
// (see "file.npz:NAME"): a conversion's names come from its input.
func CheckMemberName(name string) error { return checkMemberName(name) }
