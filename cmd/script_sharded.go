package cmd

import (
	"fmt"

	"strider/formats"
)

// loadSharded adds the lines that read tensor member (or the only one) of
// the sharded checkpoint whose index is path: the index is read here (once
// a script), and the script reads the shard that holds the tensor as it
// reads a tensor file (loadTensorFile), with a comment that names the
// shard. An index strider refuses makes a script that raises its error.
func (s *script) loadSharded(name, path, member string, hasMember bool) {
	member, shard, err := s.shardOf(path, member, hasMember)
	if err != nil {
		s.add("raise ValueError(%s)", pyStr(fmt.Sprintf("%s: %v", path, err)))
		return
	}
	s.add("# %s puts %s in its shard %s", pyStr(path), pyStr(member), pyStr(shard))
	s.loadTensorFile(name, formats.ShardLocation(path, shard), member, true)
}

// shardOf names tensor member of the index at path (its only tensor when
// !hasMember) and the shard that holds it.
func (s *script) shardOf(path, member string, hasMember bool) (string, string, error) {
	idx, ok := s.indexes[path]
	if !ok {
		var err error
		if idx, err = formats.ReadIndex(path); err != nil {
			return "", "", err
		}
		if s.indexes == nil {
			s.indexes = map[string]*formats.Index{}
		}
		s.indexes[path] = idx
	}
	return idx.Pick(member, hasMember)
}
