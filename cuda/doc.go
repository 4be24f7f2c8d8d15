// Package cuda is strider's GPU path. Builds without the "cuda" tag get a
// twin with the same API whose every call reports how to get a CUDA build,
// so the default build needs no cgo and runs on any machine.
//
// # Layers
//
// Everything but the driver calls is plain Go in untagged files, so it is
// built and tested everywhere:
//
//   - copy.go, gather.go, sort.go, tri.go, cast.go, unique.go and reduce.go
//     plan each engine call as a program (program.go): device buffers with the bytes
//     to upload (only the span of storage the view reaches), kernel
//     launches whose arguments are 8-byte slots, and the buffers to copy
//     back. Planning reuses package ops' decisions (ops/export_cuda.go):
//     the copy planner's axis merging, its divisor magic numbers, the
//     triangle layout, the sort keys and the advanced-index offsets.
//   - kernels/*.cu are the CUDA C kernels; scripts/gen-ptx.sh compiles them
//     to PTX for compute_50, which is committed and embedded (ptx.go) and
//     JIT-compiled by the driver for the GPU at hand.
//   - emulate_test.go, emulate_cast_test.go and reduce_emulate_test.go are
//     a Go transcription of every kernel, and the tests run each planned program through it
//     against package ops, byte for byte, and check every launch against
//     the PTX (the kernel exists, its arguments are all 8 bytes, the block
//     fits its launch bounds).
//
// Only device.go (build tag "cuda") calls the driver, through
// gorgonia.org/cu: one primary context per process, plain allocations,
// every call's error returned as a strider error. gorgonia.org/cu calls
// cuInit when the program starts and exits without a GPU, so a cuda build
// runs only where a driver and a GPU are present; scripts/gpu-parity.sh and
// scripts/gpu-bench.sh are its tests.
//
// # Index arithmetic
//
// A kernel that maps linear positions to offsets does it with an offset
// calculator: per axis a multiply-high, an add and a shift instead of a
// division. Kernels come in two instantiations of one template, 32-bit
// when every position and offset stays below 2^31 and 64-bit otherwise,
// picked at launch (fits32).
//
// # Reductions
//
// reduce.go runs only the reductions whose result does not depend on the
// order of the elements (min, max, ptp, argmin, argmax, any, all,
// count-nonzero) and refuses the others in one line: NumPy's float sums
// follow its pairwise order, which a GPU would not reproduce bit for bit.
// Where a float extreme's bits do follow NumPy's order (+0.0 against
// -0.0, NaNs of different bits), the kernels mark the output open and
// the call is redone by ops.Reduce, so the result is ops' (except that a
// bool stored as a byte other than 0 or 1 counts once in count-nonzero, as
// NumPy counts it, where ops counts its value). These kernels have been
// compiled and emulated but not yet run on a GPU.
package cuda
