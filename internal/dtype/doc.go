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
// # Type rules
//
// CanCast, PromoteTypes, ResultType and MinScalarType are numpy.can_cast,
// numpy.promote_types, numpy.result_type (NumPy 1.24's value-based casting
// of 0-d arrays included) and numpy.min_scalar_type for the numeric
// dtypes; KindRank orders the kinds as same_kind casting lets them rise.
// CanCastScalar is numpy.can_cast of a 0-d array, which NumPy 1.24 judges by
// its value (min_scalar_type) under every rule but unsafe, as astype does.
// Their tests read tables of NumPy's own answers in testdata/, which
// scripts/gen_dtype_tables.py writes (TestGeneratedTables reruns it).
//
// # Reductions
//
// AddReduceDtype, MeanDtypes, VarSumDtype, TrueDivideLoop and
// ScalarDivideDtype are the dtypes NumPy 1.24's reductions accumulate in
// and return (np.sum of int32 is int64, np.mean of float16 sums in float32
// and returns float16, the count np.mean divides by is cast by value),
// tested against NumPy by TestReduceRulesMatchNumPy.
//
// # Half floats
//
// Float64ToHalf (npy_doublebits_to_halfbits: nearest, ties to even, NaN
// payloads kept), HalfToFloat64 and RoundHalf are strider's only float16
// conversions: the CPU cast, stats, from-text and the printers call them.
// The one other is cuda's emulation of kernels/convert.cuh, which follows
// the CUDA code line by line so that the kernel is tested without a GPU.
//
// # Formats
//
// Formats is the one table of element types by the names NumPy, PyTorch
// (torch.float32, BFloat16Storage, HalfTensor) and safetensors (F32) give
// them, for the types NumPy has and those it lacks; package npy reads its
// safetensors and torch.save tables from it.
//
// The package imports nothing of strider's: npy, ops, cmd and cuda all
// import it, and it must stay a leaf.
package dtype
