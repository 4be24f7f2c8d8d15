// Package npy is NumPy's .npy format, the .npz archives made of it, and
// the array model that every format of strider reads into.
//
// # Reading
//
// ReadHeader decodes only the header: the magic string, the version, the
// length field and the header text, which is parsed as a Python literal by
// internal/pylit (never evaluated, never unpickled). Header versions 1.0,
// 2.0 and 3.0 are read. Only numeric dtypes are accepted (b1, i1-i8,
// u1-u8, f2-f8, c8, c16, in either byte order), as the dtype.Dtype of
// package internal/dtype; object, string, structured and datetime dtypes
// are refused with an error that names the descr (ParseDescr). Describe
// reads a header for info, refused dtypes included.
//
// OpenFile opens a .npy file as an Array whose Data is exactly
// Header.NBytes bytes: a read-only memory mapping where the file system
// allows, else a heap buffer (ReadData); with AccessReadAt the data stays
// in the file for ReaderAt. Data always starts on a 16-byte boundary, so
// callers may view it as a slice of any element type. Bytes after the data
// are ignored, as NumPy ignores them. OpenMember and ReadMember read the
// members of an .npz archive into memory, finding them as np.load does.
//
// # Tensors
//
// Tensor and TensorFile are how the tensor-file formats (packages
// safetensors and torch) index a file: each tensor's Header as strider
// reads it, its stored dtype, its strides and where its bytes lie (Loc).
// Tensor.Open makes the Array, a slice of the file's bytes when it can
// (no copy), else widened to float32 or copied to be aligned.
//
// # Writing
//
// EncodeHeader and EncodeFortranHeader write the header numpy.save writes
// with NumPy 1.24: format 1.0 while the header fits in 65535 bytes (2.0
// beyond), keys sorted, the growth-axis spare spaces and padding of the
// header to a multiple of 64 bytes. WriteSavez writes an .npz archive laid
// out byte for byte as numpy.savez lays it out. Files are written by
// package output, atomically; npy writes bytes to an io.Writer only.
//
// # Errors
//
// Errors are one line, start in lower case, name the offending value and do
// not name the file (callers add that context). Errors about malformed bytes
// match ErrFormat and errors about dtypes strider does not handle match
// ErrUnsupported under errors.Is, in this package and in every format
// package (Malformed and Unsupported make them); wrapped I/O errors stay
// visible to errors.Is too.
//
// npy does not decide which format a file is in, nor read a spec
// ("FILE:MEMBER", "-"): package formats does, and calls OpenFile and
// OpenMember once it has found a .npy file or an .npz archive.
package npy
