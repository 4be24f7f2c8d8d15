package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"strider/formats/npy"
)

// This file reads the index of a sharded checkpoint, the JSON file that
// transformers' save_pretrained writes beside the shards of a model too
// large for one file (model.safetensors.index.json for .safetensors
// shards, pytorch_model.bin.index.json for torch.save ones):
//
//	{"metadata": {"total_size": 328},
//	 "weight_map": {"embed.weight": "model-00001-of-00003.safetensors", ...}}
//
// sharded.go makes it an Archive whose members are the weight_map's
// tensors, each read from its shard.

const (
	// MaxIndexBytes bounds the index file read into memory. The largest
	// published indexes are a few MB (tens of thousands of tensors).
	MaxIndexBytes = 64 << 20
	// maxIndexEntries bounds the tensors an index may list, so that a
	// file of short names cannot make millions of entries.
	maxIndexEntries = 1 << 20
	// maxShardName bounds the length of a shard's file name, in bytes.
	maxShardName = 4096
)

// Index is the parsed index of a sharded checkpoint.
type Index struct {
	// Names are the tensors in the weight_map's order, as the file
	// writes them (transformers sorts them by name).
	Names []string
	// Shard[i] is the position in Shards of the file that holds Names[i].
	Shard []int
	// Shards are the shard files as the index names them (relative to the
	// index's folder, '/' between folders), in order of first mention.
	Shards []string
	at     map[string]int // tensor → its position in Names
}

// ReadIndex reads and parses the index at loc, a path or a URL.
func ReadIndex(loc string) (*Index, error) {
	b, err := readIndex(loc)
	if err != nil {
		return nil, err
	}
	return ParseIndex(b)
}

// Pick names tensor member of the index (its only tensor when
// !hasMember) and the shard that holds it, as the index names it.
func (idx *Index) Pick(member string, hasMember bool) (name, shard string, err error) {
	if !hasMember {
		if len(idx.Names) != 1 {
			return "", "", fmt.Errorf("sharded checkpoint holds %d tensors (%s): name one as FILE:NAME", len(idx.Names), npy.NameList(idx.Names))
		}
		member = idx.Names[0]
	}
	shard, ok := idx.ShardOf(member)
	if !ok {
		return "", "", fmt.Errorf("sharded checkpoint has no tensor named %q (it holds %s)", member, npy.NameList(idx.Names))
	}
	return member, shard, nil
}

// ShardOf returns the shard that the index puts tensor name in, as the
// index names it; ok is false for a tensor the index does not list.
func (idx *Index) ShardOf(name string) (shard string, ok bool) {
	i, ok := idx.at[name]
	if !ok {
		return "", false
	}
	return idx.Shards[idx.Shard[i]], true
}

// IsIndex reports whether the input at path (a file path or a URL) is the
// index of a sharded checkpoint: its name ends in ".index.json". The name
// decides, as the JSON text has no signature.
func IsIndex(path string) bool {
	if strings.Contains(path, "://") {
		if u, err := url.Parse(path); err == nil {
			path = u.Path
		}
	}
	return strings.HasSuffix(strings.ToLower(path), ".index.json")
}

// ParseIndex reads the index b. It refuses what transformers would not
// have written and what would make the archive ambiguous: a top-level
// value that is not an object, a key given twice (a tensor listed twice
// is in two shards), a weight_map that is missing or maps a name to
// something other than a file name, a shard name that leaves the index's
// folder or holds control characters, more than maxIndexEntries tensors.
// Other keys ("metadata" and its "total_size") are skipped.
func ParseIndex(b []byte) (*Index, error) {
	return parseIndex(b, maxIndexEntries)
}

// parseIndex is ParseIndex with the bound on the tensors as a parameter,
// which tests make small.
func parseIndex(b []byte, maxEntries int) (*Index, error) {
	if len(b) > MaxIndexBytes {
		return nil, npy.Malformed("the index is %d bytes, more than the %d strider reads", len(b), MaxIndexBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := expectDelim(dec, '{', "the index is not a JSON object"); err != nil {
		return nil, err
	}
	var idx *Index
	seen := map[string]bool{}
	for dec.More() {
		key, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, npy.Malformed("the index gives the key %q twice", key)
		}
		seen[key] = true
		if key != "weight_map" {
			if err := skipValue(dec); err != nil {
				return nil, err
			}
			continue
		}
		if idx, err = parseWeightMap(dec, maxEntries); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, indexSyntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, npy.Malformed("the index has text after its JSON object")
	}
	if idx == nil {
		return nil, npy.Malformed("the index has no weight_map: not the index of a sharded checkpoint")
	}
	return idx, nil
}

// parseWeightMap reads the weight_map object: tensor name → shard file.
func parseWeightMap(dec *json.Decoder, maxEntries int) (*Index, error) {
	if err := expectDelim(dec, '{', "the index's weight_map is not a JSON object"); err != nil {
		return nil, err
	}
	idx := &Index{at: map[string]int{}}
	at := idx.at                // tensor → its entry
	shardOf := map[string]int{} // shard → its position in idx.Shards
	for dec.More() {
		name, err := objectKey(dec)
		if err != nil {
			return nil, err
		}
		tok, err := dec.Token()
		if err != nil {
			return nil, indexSyntax(err)
		}
		file, ok := tok.(string)
		if !ok {
			return nil, npy.Malformed("the index maps tensor %q to %s, not to a file name", name, describeToken(tok))
		}
		if i, dup := at[name]; dup {
			return nil, npy.Malformed("the index lists tensor %q twice, in shards %q and %q", name, idx.Shards[idx.Shard[i]], file)
		}
		if len(idx.Names) == maxEntries {
			return nil, npy.Malformed("the index lists more than %d tensors", maxEntries)
		}
		k, known := shardOf[file]
		if !known {
			if err := checkShardName(file); err != nil {
				return nil, err
			}
			k = len(idx.Shards)
			shardOf[file] = k
			idx.Shards = append(idx.Shards, file)
		}
		at[name] = len(idx.Names)
		idx.Names = append(idx.Names, name)
		idx.Shard = append(idx.Shard, k)
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, indexSyntax(err)
	}
	return idx, nil
}

// checkShardName refuses a shard name that is not a plain relative path
// below the index's folder: empty, absolute ("/x", "\\x"), with a drive
// letter or an NTFS stream (any ':'), a backslash (a folder separator on
// Windows: shard names use '/'), a ".." step, or a control character.
// A hostile index must not make strider read files elsewhere.
func checkShardName(name string) error {
	switch {
	case name == "":
		return npy.Malformed("the index names a shard with an empty file name")
	case len(name) > maxShardName:
		return npy.Malformed("the index names a shard with a file name of %d bytes, more than %d", len(name), maxShardName)
	case strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return npy.Malformed("the index names shard %q, with a control character", name)
	case strings.HasPrefix(name, "/"):
		return npy.Malformed("the index names shard %q by an absolute path: shards are files beside the index", name)
	case strings.ContainsAny(name, `\:`):
		return npy.Malformed("the index names shard %q, with a '\\' or ':' (a drive letter, a stream): shards are files beside the index, named with '/'", name)
	}
	for _, step := range strings.Split(name, "/") {
		if step == ".." {
			return npy.Malformed("the index names shard %q, outside the index's folder", name)
		}
	}
	return nil
}

// ShardLocation is where the shard named shard (checked by ParseIndex)
// of the index at index lies: in the index's folder for a path, and by
// URL resolution for a URL ("https://host/m/model.safetensors.index.json?x"
// and "s.safetensors" give "https://host/m/s.safetensors"; "hf://o/r@v/m/i.index.json"
// gives "hf://o/r@v/m/s.safetensors"): the index's query and fragment
// are dropped, and an http(s) URL's path steps are escaped.
func ShardLocation(index, shard string) string {
	scheme, rest, isURL := strings.Cut(index, "://")
	if !isURL || strings.ContainsAny(scheme, `/\`) {
		return filepath.Join(filepath.Dir(index), filepath.FromSlash(shard))
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		rest = rest[:i+1] // the index's folder
	} else {
		rest += "/" // a URL that is a host alone
	}
	if s := strings.ToLower(scheme); s == "http" || s == "https" {
		steps := strings.Split(shard, "/")
		for i, step := range steps {
			steps[i] = url.PathEscape(step)
		}
		shard = strings.Join(steps, "/")
	}
	return scheme + "://" + rest + shard
}

// readIndex reads the index file at loc, refusing one over MaxIndexBytes
// before reading it. A URL is read through MapBytes, as from-text reads
// one.
func readIndex(loc string) ([]byte, error) {
	if strings.Contains(loc, "://") {
		b, release, err := MapBytes(loc)
		if err != nil {
			return nil, err
		}
		defer release()
		if len(b) > MaxIndexBytes {
			return nil, npy.Malformed("the index is %d bytes, more than the %d strider reads", len(b), MaxIndexBytes)
		}
		return bytes.Clone(b), nil
	}
	f, fi, err := openLocal(loc)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, errors.New("is a directory, not the index of a sharded checkpoint")
	}
	if fi.Mode().IsRegular() && fi.Size() > MaxIndexBytes {
		return nil, npy.Malformed("the index is %d bytes, more than the %d strider reads", fi.Size(), MaxIndexBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxIndexBytes+1)) // a pipe, or a file that grows
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	if len(b) > MaxIndexBytes {
		return nil, npy.Malformed("the index is more than the %d bytes strider reads", MaxIndexBytes)
	}
	return b, nil
}

// expectDelim reads the next token, which must be delim; else the error
// says what.
func expectDelim(dec *json.Decoder, delim json.Delim, what string) error {
	tok, err := dec.Token()
	if err != nil {
		return indexSyntax(err)
	}
	if tok != delim {
		return npy.Malformed("%s (it is %s)", what, describeToken(tok))
	}
	return nil
}

// objectKey reads the key of an object's next member.
func objectKey(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", indexSyntax(err)
	}
	key, ok := tok.(string)
	if !ok { // the decoder checks the syntax: a key is a string
		return "", npy.Malformed("the index is not valid JSON")
	}
	return key, nil
}

// skipValue reads past the next value, however deep, without recursion.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return indexSyntax(err)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// indexSyntax is the error for JSON the decoder could not read.
func indexSyntax(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return npy.Malformed("the index is not valid JSON: %v", err)
}

// describeToken names a JSON token's kind for an error message.
func describeToken(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		if tok == json.Delim('{') {
			return "an object"
		}
		return "a list"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}
