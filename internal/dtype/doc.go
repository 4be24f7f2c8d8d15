// Package dtype is strider's one description of a NumPy numeric dtype: its
// kind letter, its size in bytes and its byte order, with the names NumPy
// gives it and the decoding of one element's bytes into a number.
//
// # What a Dtype is
//
// A Dtype is a kind ('b' bool, 'i' signed integer, 'u' unsigned integer,
// 'f' float, 'c' complex), a size (b1, i1-i8, u1-u8, f2-f8, c8, c16) and a
// byte order ('<' little, '>' big, '|' for one-byte types; the zero byte
// reads as little endian, the order of every machine strider targets).
// Check is the one test that a kind and a size name a numeric dtype; every
// package that takes a Dtype from outside (npy's header codec, ops' Sort,
// Stats and compare, the GPU's sort) calls it rather than keeping a table.
//
// # Names
//
// Descr is the descriptor numpy writes (dtype.str, "<f4"), Name is NumPy's
// name ("float32"). Parse reads the spellings numpy.dtype accepts for the
// numeric dtypes ("<f4", "f", "float32", "=i8"); explaining why another
// spelling is refused (object, string, datetime) is left to package npy,
// which owns the error classes of the file format.
//
// # Decoding
//
// Bits, Int, Float and Complex read one element's bytes in the dtype's byte
// order. They dispatch on the element size, as encoding/binary does, and
// sign-extend signed integers with a shift, so no code elsewhere needs a
// function per dtype.
//
// The package imports nothing of strider's: npy, ops, cmd and cuda all
// import it, and it must stay a leaf.
package dtype
