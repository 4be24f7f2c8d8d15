package formats

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"strings"

	"strider/formats/npy"
	"strider/internal/sysmem"
)

// members is what an Archive keeps open to read its members one after the
// other: the archive is read and indexed once, not once a member, so that
// reading all n members of an archive costs O(n), not O(n²) (compare of
// two archives of 20,000 members took minutes).
type members struct {
	file *os.File
	// npz
	zr    *zip.Reader
	index map[string]*zip.File // np.load's name → member (see npy.OpenMember)
	// .safetensors and torch.save
	m       []byte // the whole file, mapped (or read, where it cannot be)
	mapped  bool
	tf      *npy.TensorFile
	tensors map[string]int // name → index in tf.Tensors; -1 for a name given twice
}

// Open opens member name of the archive, as Open(a.Spec(name)) would,
// reading the archive's index only the first time. Arrays on a mapping of
// the archive stay valid until the Archive is closed.
func (a *Archive) Open(name string, access npy.Access) (*npy.Array, error) {
	if a.sharded != nil {
		return a.openSharded(name, access)
	}
	arr, _, err := a.openMember(name, access, false)
	return arr, err // its Data may be on the mapping, which the Archive owns
}

// openMember is Open, or its header only; onMapping tells whether the
// array's Data is on the Archive's mapping.
func (a *Archive) openMember(name string, access npy.Access, headerOnly bool) (arr *npy.Array, onMapping bool, err error) {
	if a.folder || a.remote {
		arr, err = open(a.Spec(name), nil, access, headerOnly)
		return arr, false, err
	}
	if err := a.index(); err != nil {
		return nil, false, err
	}
	mb := a.members
	if mb.zr != nil {
		zf := mb.index[name]
		if zf == nil {
			return nil, false, fmt.Errorf("archive has no array named %q (it holds %s)", name, npy.MemberList(mb.zr))
		}
		arr, err = npy.ReadMember(zf, headerOnly)
		return arr, false, err
	}
	t, err := a.indexedTensor(name)
	if err != nil {
		return nil, false, err
	}
	arr, onMapping, err = t.Open(mb.m, headerOnly)
	return arr, onMapping && mb.mapped, err
}

// index opens and indexes the archive's file, once.
func (a *Archive) index() error {
	if a.members != nil {
		return nil
	}
	f, fi, err := openLocal(a.Path)
	if err != nil {
		return err
	}
	mb := &members{file: f}
	if a.Kind == "npz" {
		if mb.zr, err = openNpzReader(f, fi.Size()); err != nil {
			f.Close()
			return err
		}
		mb.index = make(map[string]*zip.File, 2*len(mb.zr.File))
		// npy.OpenMember's order: the exact name before name.npy, and of
		// several members with one name the last.
		for _, zf := range mb.zr.File {
			if n, ok := strings.CutSuffix(zf.Name, ".npy"); ok {
				mb.index[n] = zf
			}
		}
		for _, zf := range mb.zr.File {
			mb.index[zf.Name] = zf
		}
		a.members = mb
		return nil
	}
	if mb.m, err = sysmem.MapFile(f, fi.Size(), false, true); err == nil {
		mb.mapped = true
		sysmem.Register(mb.m, a.Path, false)
	} else if mb.m, err = npy.ReadData(io.NewSectionReader(f, 0, fi.Size()), fi.Size()); err != nil {
		f.Close()
		return err
	}
	a.members = mb // from here Close releases it
	kind := sniffTensorFile(mb.m)
	if mb.tf, err = parseTensorFile(kind, mb.m); err != nil {
		return err
	}
	mb.tensors = make(map[string]int, len(mb.tf.Tensors))
	for i, t := range mb.tf.Tensors {
		if _, dup := mb.tensors[t.Name]; dup {
			i = -1
		}
		mb.tensors[t.Name] = i
	}
	return nil
}

// Close releases what Open kept open. Arrays opened from the archive must
// not be used after it.
func (a *Archive) Close() error {
	if a.sharded != nil {
		return a.sharded.close()
	}
	mb := a.members
	if mb == nil {
		return nil
	}
	a.members = nil
	if mb.mapped {
		sysmem.Unregister(mb.m)
		sysmem.Unmap(mb.m)
	}
	return mb.file.Close()
}
