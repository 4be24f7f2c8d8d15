// Package safetensors reads the .safetensors format
// (github.com/huggingface/safetensors): an 8-byte little-endian header
// length N, N bytes of JSON that map each tensor name to its dtype, shape
// and data offsets (and an optional "__metadata__" object of strings),
// then the data.
//
// Parse indexes a whole file as an npy.TensorFile: every tensor with its
// npy.Header, the name of its stored dtype, and its Loc in the file. It
// checks what the reference Rust reader checks and more: a header of at
// most MaxHeader bytes of valid UTF-8, one JSON object with no duplicate
// keys at any level, offsets in order from 0 with no holes or overlaps to
// the end of the file, and sizes that match dtype × shape. A dtype NumPy
// lacks (BF16, F8_E4M3, F8_E5M2) is listed as widened to float32; one
// strider does not read is listed with an Err. DecodeHeader reads the JSON
// alone, for a file arriving on a stream (formats' copyArchive).
//
// # Writing
//
// Header.Encode lays a file out exactly as the safetensors library's
// save_file does (write.go names the source and the versions): tensors by
// dtype, descending in the crate's Dtype order, then by name; the header
// serde_json's compact JSON, "__metadata__" first, strings escaped as
// serde_json escapes them, padded with spaces to a multiple of 8 bytes.
// ReadFile reads a file back for rewriting, its metadata in its own order,
// so a file the library wrote is rewritten byte for byte. Code names the
// format's dtype of a NumPy dtype (complex128 has none), SwapToLittle makes
// big-endian elements little-endian.
//
// safetensors neither opens files nor maps them (package formats does),
// and does not turn a tensor into an array (npy.Tensor.Open does). Its
// errors match npy.ErrFormat or npy.ErrUnsupported under errors.Is.
package safetensors
