package formats

import (
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"strider/formats/npy"
	"strider/formats/remote"
)

// Archive is a file or folder of named arrays: an .npz archive, a
// .safetensors or torch.save file, a folder of .npy files, or a sharded
// checkpoint (its *.index.json).
type Archive struct {
	Path   string
	Kind   string   // "npz", "safetensors", "torch", "folder" or "sharded"
	Names  []string // member names, in the archive's order (sorted for a folder)
	folder bool
	remote bool // a remote file, whose members are opened one by one as URL:NAME
	// members is the open, indexed file once Open has read a member; Close
	// releases it.
	members *members
	// sharded is the index and the shards of a sharded checkpoint (Kind
	// "sharded"; see sharded.go).
	sharded *sharded
}

// Spec returns the input spec that opens member name.
func (a *Archive) Spec(name string) string {
	if a.folder {
		return filepath.Join(a.Path, name+".npy")
	}
	return a.Path + ":" + name
}

// OpenArchive lists the archive that spec names; ok is false when spec
// names one array instead (a .npy file, FILE:NAME, standard input).
func OpenArchive(spec string) (a *Archive, ok bool, err error) {
	if spec == "-" {
		return nil, false, nil
	}
	if _, _, hasMember := SplitSpec(spec); !hasMember && IsIndex(spec) { // local or remote (sharded.go)
		a, err := openShardedArchive(spec)
		return a, true, err
	}
	if remote.IsURL(spec) {
		return openRemoteArchive(spec) // remote_open.go
	}
	fi, statErr := os.Stat(spec)
	if statErr != nil {
		return nil, false, nil // FILE:NAME, or missing: Open says which
	}
	if fi.IsDir() {
		a, err := folderArchive(spec)
		return a, true, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, nil // a pipe is read once, by Open: never opened here
	}
	if tf, ok, err := ListTensors(spec); ok {
		if err != nil {
			return nil, true, err
		}
		return tensorArchive(spec, tf, false), true, nil
	}
	f, err := os.Open(spec)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	var sig [4]byte
	if n, _ := f.ReadAt(sig[:], 0); !isZip(sig[:n]) {
		return nil, false, nil
	}
	a, err = npzArchive(spec, f, fi.Size(), false)
	return a, true, err
}

// folderArchive lists the .npy files of the folder dir, by name.
func folderArchive(dir string) (*Archive, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, openError(err)
	}
	a := &Archive{Path: dir, Kind: "folder", folder: true, Names: []string{}}
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".npy"); ok && !e.IsDir() {
			a.Names = append(a.Names, name)
		}
	}
	sort.Strings(a.Names)
	return a, nil
}

// tensorArchive is the archive of the tensor file spec, listed as tf (a
// remote file's members are opened one by one as URL:NAME).
func tensorArchive(spec string, tf *npy.TensorFile, isRemote bool) *Archive {
	a := &Archive{Path: spec, Kind: tf.Format, remote: isRemote}
	for _, t := range tf.Tensors {
		a.Names = append(a.Names, t.Name)
	}
	return a
}

// npzArchive lists the .npz archive spec, whose file r is size bytes.
func npzArchive(spec string, r io.ReaderAt, size int64, isRemote bool) (*Archive, error) {
	zr, err := openNpzReader(r, size)
	if err != nil {
		return nil, err
	}
	a := &Archive{Path: spec, Kind: "npz", remote: isRemote}
	for _, zf := range zr.File {
		a.Names = append(a.Names, strings.TrimSuffix(zf.Name, ".npy"))
	}
	return a, nil
}
