package formats

import (
	"errors"
	"fmt"
	"io/fs"

	"strider/formats/npy"
	"strider/formats/remote"
)

// A sharded checkpoint is one archive: its members are the tensors its
// index lists (index.go), in the index's order, and a member is read from
// the shard the index names, a .safetensors or torch.save file beside
// the index. Shards are opened lazily, each at most once a run, and its
// header parsed once for all its tensors: a local shard as an Archive of
// its own (mapped), a remote one as one remote file (its header fetched
// alone, each tensor's bytes when it is read). Reading one tensor opens
// one shard; listing them all opens each shard once.
//
// A shard is checked against the index when it is opened: every tensor
// the index puts in it must be there, and every tensor in it must be
// listed there, so a tensor in two shards, a shard that lacks a tensor
// the index names and a tensor the index does not know are one-line
// errors, for every read from that shard.

// sharded is what an Archive of kind "sharded" holds.
type sharded struct {
	index *Index
	// shards[k] is shard k, opened; nil until a read needs it.
	shards []*shardFile
	// errs[k] is why shard k could not be opened or disagrees with the
	// index: every read from it reports it again.
	errs []error
	// listed[k] counts the tensors the index puts in shard k.
	listed []int
}

// shardFile is an open shard: its tensors, and what holds its bytes, one
// of ar, a local shard's Archive (its file mapped and indexed once); rf, a
// remote shard on a server that serves ranges (its header fetched once,
// a tensor's bytes when it is read, the whole file for torch.save); st, a
// remote shard read whole from a server that does not.
type shardFile struct {
	loc string
	ar  *Archive
	rf  *remote.File
	st  *stream
	tf  *npy.TensorFile
	at  map[string]int // name → position in tf.Tensors; -1 for a name given twice
}

// openShardedArchive reads the index at loc (a path, or a URL) and makes
// its Archive. No shard is opened yet.
func openShardedArchive(loc string) (*Archive, error) {
	idx, err := ReadIndex(loc)
	if err != nil {
		return nil, err
	}
	s := &sharded{index: idx, shards: make([]*shardFile, len(idx.Shards)), errs: make([]error, len(idx.Shards)), listed: make([]int, len(idx.Shards))}
	for _, k := range idx.Shard {
		s.listed[k]++
	}
	return &Archive{Path: loc, Kind: "sharded", Names: idx.Names, sharded: s}, nil
}

// ShardedTensor is a tensor of a sharded checkpoint, as ListSharded lists
// it: the tensor as its shard indexes it, the shard as the index names
// it, and the shard's format and __metadata__.
type ShardedTensor struct {
	npy.Tensor
	Shard    string
	Format   string            // "safetensors" or "torch"
	Metadata map[string]string // the shard's safetensors __metadata__
}

// ListSharded lists the tensors of the sharded checkpoint spec names
// ("model.safetensors.index.json", or INDEX:NAME for one tensor, which
// opens only its shard), in the index's order, reading each shard's
// header once and none of its data; ok is false when spec is not the
// index of a sharded checkpoint.
func ListSharded(spec string) (tensors []ShardedTensor, ok bool, err error) {
	path, member, hasMember := SplitSpec(spec)
	if !IsIndex(path) {
		return nil, false, nil
	}
	a, err := openShardedArchive(path)
	if err != nil {
		return nil, true, err
	}
	defer a.Close()
	names := a.Names
	if hasMember {
		names = []string{member}
	}
	for _, name := range names {
		sh, t, err := a.shardEntry(name)
		if err != nil {
			return nil, true, err
		}
		st := ShardedTensor{Tensor: *t, Shard: a.sharded.shardName(name), Format: sh.tf.Format, Metadata: sh.tf.Metadata}
		st.Loc.Record, st.Loc.Widen = nil, nil // nothing may point into the shard's mapping
		if hasMember && st.Err != nil {
			return nil, true, st.Err
		}
		tensors = append(tensors, st)
	}
	return tensors, true, nil
}

// shardTensor is shardEntry for the readers of a tensor's stored bytes
// (stored.go): the Archive of the local shard that holds it, whose
// mapping the tensor's Loc points into. A remote shard has none.
func (a *Archive) shardTensor(name string) (*Archive, *npy.Tensor, error) {
	sh, t, err := a.shardEntry(name)
	switch {
	case err != nil:
		return nil, nil, err
	case sh.ar == nil:
		return nil, nil, fmt.Errorf("shard %q is remote: its tensors are read through Open only", a.sharded.shardName(name))
	}
	return sh.ar, t, nil
}

// shardEntry finds tensor name in the shard that holds it, opening the
// shard: the shard and the tensor's index entry, which belongs to it.
func (a *Archive) shardEntry(name string) (*shardFile, *npy.Tensor, error) {
	sh, err := a.shardOf(name)
	if err != nil {
		return nil, nil, err
	}
	i := sh.at[name] // there: the shard was checked against the index
	if i < 0 {
		return nil, nil, npy.Malformed("shard %q holds two tensors named %q", a.sharded.shardName(name), name)
	}
	return sh, &sh.tf.Tensors[i], nil
}

// openSharded is Open for a sharded checkpoint: the array's Data may be
// on its shard's mapping, which the Archive owns.
func (a *Archive) openSharded(name string, access npy.Access) (*npy.Array, error) {
	sh, err := a.shardOf(name)
	if err != nil {
		return nil, err
	}
	return sh.open(name, access, false, false)
}

// open opens tensor name of the shard. With own the array takes over what
// its data lies on (the shard's mapping, its remote file), as Open's
// caller needs: the shard is closed right after (openShardedSpec);
// otherwise the data stays the shard's, valid until the Archive is closed.
func (sh *shardFile) open(name string, access npy.Access, headerOnly, own bool) (*npy.Array, error) {
	if sh.ar != nil {
		arr, onMapping, err := sh.ar.openMember(name, access, headerOnly)
		if err != nil || !own || !onMapping {
			return arr, err
		}
		mb := sh.ar.members
		arr.OwnMapping(mb.m) // Close unmaps it now, not the shard's Archive
		mb.mapped = false
		if access == npy.AccessAll {
			arr.Prefetch() // the shard is mapped for random access: read this tensor in now
		}
		return arr, nil
	}
	i := sh.at[name] // there: the shard was checked against the index
	if i < 0 {
		return nil, npy.Malformed("%s file holds two tensors named %q", sh.tf.Format, name)
	}
	t := &sh.tf.Tensors[i]
	if sh.st != nil {
		arr, onMapping, err := t.Open(sh.st.b, headerOnly)
		if err == nil && own && onMapping && sh.st.mapping != nil {
			arr.OwnMapping(sh.st.mapping) // as openStream hands a stream's spill over
			sh.st.mapping = nil
		}
		return arr, err
	}
	arr, src, later, err := openRangedTensor(sh.rf, t, own && access == npy.AccessFetch, headerOnly)
	if err == nil && own && src != nil {
		arr.OwnSource(src, later)
		sh.rf = nil
	}
	return arr, err
}

// shardOf returns the open shard that holds tensor name.
func (a *Archive) shardOf(name string) (*shardFile, error) {
	s := a.sharded
	i, ok := s.index.at[name]
	if !ok {
		_, _, err := s.index.Pick(name, true) // the error that says so
		return nil, err
	}
	return a.shard(s.index.Shard[i])
}

// shard opens shard k the first time, and checks it against the index.
func (a *Archive) shard(k int) (*shardFile, error) {
	s := a.sharded
	if s.shards[k] != nil || s.errs[k] != nil {
		return s.shards[k], s.errs[k]
	}
	name := s.index.Shards[k]
	sh, err := openShard(ShardLocation(a.Path, name))
	if err == nil {
		if err = s.check(k, sh); err != nil {
			sh.close()
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			s.errs[k] = fmt.Errorf("shard %q is missing: %w", name, err)
		} else {
			s.errs[k] = fmt.Errorf("shard %q: %w", name, err)
		}
		return nil, s.errs[k]
	}
	s.shards[k] = sh
	return sh, nil
}

// openShard opens the shard at loc, a .safetensors or torch.save file
// (anything else is refused), and indexes its tensors.
func openShard(loc string) (*shardFile, error) {
	sh := &shardFile{loc: loc}
	if remote.IsURL(loc) {
		if err := sh.openRemote(); err != nil {
			sh.close()
			return nil, err
		}
	} else {
		sh.ar = &Archive{Path: loc, Kind: "shard"}
		if err := sh.ar.index(); err != nil {
			sh.ar.Close()
			return nil, err
		}
		sh.ar.Kind = sh.ar.members.tf.Format
		sh.tf, sh.at = sh.ar.members.tf, sh.ar.members.tensors
		return sh, nil
	}
	sh.at = make(map[string]int, len(sh.tf.Tensors))
	for i, t := range sh.tf.Tensors {
		if _, dup := sh.at[t.Name]; dup {
			i = -1
		}
		sh.at[t.Name] = i
	}
	return sh, nil
}

// openRemote opens and indexes a remote shard: through ranges where the
// server serves them (a safetensors header alone), else read whole.
func (sh *shardFile) openRemote() error {
	f, err := openRemoteFile(sh.loc)
	if err != nil {
		return err
	}
	if f.Ranged() {
		sh.rf = f
		sig, err := readSig(f)
		if err != nil {
			return err
		}
		kind := remoteKind(f, sig)
		if kind == notTensorFile {
			return npy.Malformed("not a tensor file")
		}
		sh.tf, err = tensorIndex(f, kind)
		return err
	}
	defer f.Close()
	body, err := f.Stream()
	if err != nil {
		return err
	}
	defer body.Close()
	if sh.st, err = readStream(body, "the shard", true); err != nil {
		return err
	}
	sh.tf, err = parseTensorFile(sniffTensorFile(sh.st.b), sh.st.b)
	return err
}

// close releases what holds the shard's bytes.
func (sh *shardFile) close() error {
	switch {
	case sh.ar != nil:
		return sh.ar.Close()
	case sh.rf != nil:
		return sh.rf.Close()
	case sh.st != nil:
		sh.st.release()
	}
	return nil
}

// check compares shard k's tensors with the index's entries for it.
func (s *sharded) check(k int, sh *shardFile) error {
	for _, t := range sh.tf.Tensors {
		i, listed := s.index.at[t.Name]
		switch {
		case !listed:
			return npy.Malformed("it holds tensor %q, which the index does not list", t.Name)
		case s.index.Shard[i] != k:
			return npy.Malformed("it holds tensor %q, which the index puts in shard %q: one tensor, two shards", t.Name, s.index.Shards[s.index.Shard[i]])
		}
	}
	if len(sh.at) == s.listed[k] { // its names are among the index's for it: all of them
		return nil
	}
	for i, n := range s.index.Names { // which one is missing: O(tensors), once
		if _, ok := sh.at[n]; s.index.Shard[i] == k && !ok {
			return npy.Malformed("the index lists tensor %q in it, but it has no tensor of that name", n)
		}
	}
	return nil
}

// shardName is the name of the shard the index puts tensor name in.
func (s *sharded) shardName(name string) string {
	return s.index.Shards[s.index.Shard[s.index.at[name]]]
}

// close closes the shards opened.
func (s *sharded) close() error {
	var first error
	for k, sh := range s.shards {
		if sh != nil {
			if err := sh.close(); err != nil && first == nil {
				first = err
			}
			s.shards[k] = nil
		}
	}
	return first
}

// openShardedSpec is Open (or OpenHeader) of INDEX:NAME, or of a bare
// index that lists one tensor: it opens that tensor's shard only, and the
// array takes the shard's mapping over.
func openShardedSpec(path, member string, hasMember bool, access npy.Access, headerOnly bool) (*npy.Array, error) {
	a, err := openShardedArchive(path)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	member, _, err = a.sharded.index.Pick(member, hasMember)
	if err != nil {
		return nil, err
	}
	sh, err := a.shardOf(member)
	if err != nil {
		return nil, err
	}
	return sh.open(member, access, headerOnly, true)
}
