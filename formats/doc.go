// Package formats opens strider's inputs: it reads an input spec, finds
// out which format the bytes are in, and hands them to the package of
// that format. The formats themselves are its sibling packages, below it:
//
//	formats/npy          .npy headers and data, .npz members; the Array,
//	                     Tensor and TensorFile every reader returns
//	formats/safetensors  .safetensors files
//	formats/torch        torch.save archives (PyTorch >= 1.6), whose
//	                     pickles it runs without code
//	formats/output       the atomic output writer (it imports formats only
//	                     to refuse the paths SplitSpec would misread)
//	formats/remote       remote files over HTTP (URLs, hf://), read by
//	                     range requests
//
// # Specs
//
// An input spec is "-" (standard input), a path, or FILE:MEMBER for a
// member of an .npz archive or a tensor of a .safetensors or torch.save
// file. SplitSpec reads it: the longest prefix that names an existing
// file is the path (on Windows a drive letter's ':' splits nothing).
//
// A URL (http://, https://, hf://) is a remote file (remote_open.go): its
// member follows the first ':' after the host. The formats read it
// through its ReaderAt as they read a file, fetching headers alone; with
// npy.AccessFetch an array's data is fetched by its reader, span by span
// (Array.Fetch), else whole; a server that ignores Range is a stream.
//
// A path whose name ends in ".index.json" is the index of a sharded
// checkpoint (index.go): INDEX:NAME is tensor NAME of the shard the index
// names, and the index is an Archive of all its shards' tensors, each
// shard opened when first needed, once, and checked against the index
// (sharded.go).
//
// # Opening
//
// Open (and OpenHeader, Inspect) look at the first bytes, not the name:
// the .npy magic, a zip signature (an .npz archive, or a torch.save
// archive when it holds FOLDER/data.pkl), a safetensors header length
// followed by '{', a legacy torch.save pickle (refused with advice).
// Regular files are mapped read-only (package sysmem) and their arrays
// are views of the mapping; Access says how the caller reads them. A pipe
// can be read once: a .npy stream is read header then data, while an
// archive on a stream is copied until it ends (copyArchive walks its
// records as they come, so bytes that are no archive are refused at once)
// into memory or a spill file, and read from there.
//
// OpenArchive indexes an archive, a tensor file, a folder of .npy files
// or a sharded checkpoint once, for commands that read every member
// (compare of two archives); ListTensors indexes a tensor file without
// reading its data, ListSharded a sharded checkpoint's tensors with their
// shards; TensorFormat names a tensor file's format; ReadStream and
// MapBytes give whole files or streams to the text reader.
//
// # Errors
//
// Errors are one line and do not name the file (callers add it); malformed
// bytes of any format match npy.ErrFormat, refused dtypes
// npy.ErrUnsupported, and work that would not fit in memory or on disk
// sysmem.ErrNoRoom, under errors.Is.
package formats
