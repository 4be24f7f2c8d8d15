package formats

import (
	"fmt"

	"strider/formats/npy"
	"strider/internal/dtype"
)

// A conversion reads an archive's members as they are stored: a tensor
// whose dtype NumPy lacks (bfloat16, float8) is widened to float32 by
// Open, which a .safetensors output has no need for. Tensor tells what a
// member is stored as, Header what Open would make of it without reading
// its data, and OpenStored reads its elements unwidened.

// entry finds member name in the index of a .safetensors or torch.save
// file (or of the shard of a sharded checkpoint that holds it), with the
// Archive whose bytes hold its data; t is nil for a member of an .npz
// archive or of a folder, which is read as it is stored.
func (a *Archive) entry(name string) (holder *Archive, t *npy.Tensor, err error) {
	switch {
	case a.sharded != nil:
		return a.shardTensor(name)
	case a.folder, a.Kind == "npz":
		return nil, nil, nil
	}
	if err := a.index(); err != nil {
		return nil, nil, err
	}
	if a.members.tf == nil {
		return nil, nil, nil
	}
	t, err = a.indexedTensor(name)
	if err != nil {
		return nil, nil, err
	}
	return a, t, nil
}

// indexedTensor is the entry of tensor name in the index of the
// archive's tensor file (a.members.tf).
func (a *Archive) indexedTensor(name string) (*npy.Tensor, error) {
	mb := a.members
	i, ok := mb.tensors[name]
	switch {
	case !ok:
		return nil, fmt.Errorf("%s file has no tensor named %q (it holds %s)", a.Kind, name, mb.tf.NameList())
	case i < 0:
		return nil, npy.Malformed("%s file holds two tensors named %q", a.Kind, name)
	}
	return &mb.tf.Tensors[i], nil
}

// Tensor returns the index entry of member name of a .safetensors or
// torch.save file, or of a sharded checkpoint: the dtype it is stored in
// (Stored, Widened when Open widens it to float32), its shape, and Err
// when strider cannot read it. It is nil for a member of an .npz archive
// or a folder of .npy files, which Open reads as it is stored. The entry
// belongs to the Archive: read it, do not keep it past Close.
func (a *Archive) Tensor(name string) (*npy.Tensor, error) {
	_, t, err := a.entry(name)
	return t, err
}

// Header returns the header of the array Open would return for member
// name (float32 for a widened tensor), reading no data: only the member's
// header for an .npz archive or a folder.
func (a *Archive) Header(name string) (npy.Header, error) {
	_, t, err := a.entry(name)
	switch {
	case err != nil:
		return npy.Header{}, err
	case t != nil:
		if t.Err != nil {
			return npy.Header{}, t.Err
		}
		return t.Header, nil
	}
	arr, _, err := a.openMember(name, npy.AccessAll, true)
	if err != nil {
		return npy.Header{}, err
	}
	return arr.Header, nil
}

// OpenStored is Open, except that a tensor stored in a dtype NumPy lacks
// (bfloat16, float8: Tensor's Widened) is not widened: the array holds the
// elements as the file stores them, as little-endian unsigned integers of
// their size (uint16 for bfloat16, uint8 for float8), so that they can be
// copied bit for bit. Its data may be on the Archive's mapping.
func (a *Archive) OpenStored(name string, access npy.Access) (*npy.Array, error) {
	holder, t, err := a.entry(name)
	if err != nil {
		return nil, err
	}
	if t == nil || !t.Widened {
		return a.Open(name, access)
	}
	raw := *t
	raw.Loc.Widen, raw.Widened = nil, false
	raw.Dtype = dtype.Dtype{Kind: 'u', Size: t.Loc.ItemSize, Order: '<'}
	if raw.Dtype.Size == 1 {
		raw.Dtype.Order = '|'
	}
	arr, _, err := raw.Open(holder.members.m, false)
	return arr, err
}

// Files returns the paths of the .safetensors or torch.save files that
// hold the members named, in order of first use: the archive's own path,
// or the shards of a sharded checkpoint (which it opens); none for an
// archive of .npy arrays.
func (a *Archive) Files(names []string) ([]string, error) {
	var files []string
	seen := map[*Archive]bool{}
	for _, name := range names {
		holder, _, err := a.entry(name)
		if err != nil {
			return nil, err
		}
		if holder != nil && !seen[holder] {
			seen[holder] = true
			files = append(files, holder.Path)
		}
	}
	return files, nil
}
