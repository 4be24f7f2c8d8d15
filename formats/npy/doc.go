// Package npy reads and writes NumPy .npy files and the members of .npz
// archives.
//
// # Reading
//
// ReadHeader and OpenHeader decode only the header: the magic string, the
// version, the length field and the header text, which is parsed as a Python
// literal by internal/pylit (never evaluated, never unpickled). Header versions 1.0, 2.0 and
// 3.0 are read. Only numeric dtypes are accepted (b1, i1-i8, u1-u8, f2-f8,
// c8, c16, in either byte order), as the dtype.Dtype of package
// internal/dtype; object, string, structured and datetime dtypes are refused
// with an error that names the descr (ParseDescr).
//
// Open returns an Array whose Data is exactly Header.NBytes bytes: a
// read-only memory mapping for regular files, a heap buffer for standard
// input and .npz members. Data always starts on a 16-byte boundary, so
// callers may view it as a slice of any element type. Bytes after the data
// are ignored, as NumPy ignores them.
//
// # Writing
//
// Create and Output.Commit write a C-order array byte-identical to
// numpy.save with NumPy 1.24: format 1.0 while the header fits in 65535
// bytes (2.0 beyond), keys sorted, the growth-axis spare spaces and padding
// of the header to a multiple of 64 bytes. An output file appears only on
// Commit, by renaming a temporary file from the same folder over the target,
// so a failed or interrupted command never leaves a partial file behind.
//
// # Errors
//
// Errors are one line, start in lower case, name the offending value and do
// not name the file (callers add that context). Errors about malformed bytes
// match ErrFormat and errors about dtypes strider does not handle match
// ErrUnsupported under errors.Is; wrapped I/O errors stay visible to
// errors.Is too.
package npy
