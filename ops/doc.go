// Package ops is strider's strided engine and the operations built on it.
//
// # Views
//
// A View describes an n-d array that lives inside a byte slice: an element
// size in bytes, a shape, one stride per axis and an offset. Strides and the
// offset count elements, not bytes, and a stride may be negative (a reversed
// axis) or zero (a broadcast axis). Element i (a multi-index) lives at byte
//
//	(Offset + sum(i[k] * Strides[k])) * Elem
//
// of Data. Views share storage: transposing, taking a diagonal or slicing
// makes a new View over the same Data and moves no element. Data may be a
// read-only memory mapping, so ops writes through no View but the
// destination a caller hands to CopyTo.
//
// # Copies
//
// CopyTo is the one way elements move: it writes each element of a source
// View into the element of a destination View at the same multi-index. The
// destination may be strided, reversed or a slice of a larger array (the
// pieces of a concatenation or a stack), as long as it writes no element
// twice and shares no storage with the source; CopyTo refuses it otherwise.
// Copy is CopyTo into a C-contiguous byte slice. dst comes first. Before
// anything moves, a planner drops size-1 axes, orders the axes by the
// destination's steps (a C-contiguous destination keeps its order), turns
// reversed destination axes around, merges axes that move together on both
// sides, widens short contiguous runs into one wider element, and picks a
// kernel: a memmove per run contiguous on both sides, a tiled 2-D transpose
// or strided loop into a destination contiguous along its last axis, or a
// strided loop on both sides. Kernels are chosen by element size (1, 2, 4,
// 8 or 16 bytes), never by dtype, so byte order is carried through untouched.
//
// CopyToNaive is the odometer the fast paths must equal: it advances the
// last index and carries into earlier ones, one element at a time, moving
// the source's and the destination's offsets together (CopyNaive is it with
// a C-contiguous destination). Every fast path is tested against it.
//
// ops does no I/O and no text. A view whose storage is a file read piece by
// piece is copied by ReadRuns: it plans the copy as Copy does and yields
// each run, the part of dst it fills and its byte offset in the file, to
// the caller's read function (cmd reads them with ReadAt). PreferReadAt
// says when that beats a mapping: only when ReadRuns' reads are no more
// than the pages the view lies on (a diagonal of a wide matrix), never
// for a view that is dense along some axis. ops writes to no
// io.Writer, parses no text and formats no number: results are numbers
// (a Comparison, a Diff, Stats), and package text turns them into NumPy's
// text; its only strings are error messages. Package text imports ops for
// View, Options and Parallel; ops never imports text.
//
// # Gathers
//
// Take (numpy.take along an axis) and advanced indexing (Indexing, a[EXPR]
// with integer or boolean arrays) are one algorithm, gatherBlocks: the
// output is outer × gathered × inner, each gathered position a byte offset
// in the source. Blocks of one element use a gather loop over batches of
// offsets; larger blocks replay one copy plan at every offset.
//
// # Reductions
//
// Reduce computes np.OP(a, axis, keepdims, dtype, ddof) for the 22
// operations of issue 31 (ReduceOp: sum, mean, var, argmax, nanmean, ...)
// bit for bit as NumPy 1.24 does. The caller asks ReducePlan first for the
// result's dtype, shape and whether numpy.save would write it in Fortran
// order (with NumPy's refusals: an axis out of range, min of an empty
// axis), allocates the result and hands it to Reduce, dst first, which
// fills it in C order and returns NumPy's warnings as values. Errors NumPy
// raises wrap ErrReduce and carry its message.
//
// The recipes (reduce_recipes.go) follow _methods.py and nanfunctions.py
// line by line; the arrays NumPy builds on the way (x = arr - arrmean, the
// NaN-free copy) are never built: stages compute their values chunk by
// chunk as the reduction reads them, so memory is the result plus a
// working block per thread. The engine (reduce_plan.go, reduce_run.go)
// reproduces NumPy's order of additions from three facts about its
// iterator: the axis order it picks for the layout (npyOrder), the block of
// leading reduced axes each output's visit covers, and the 8192-element
// buffer that cuts each visit into inner-loop calls; the kernels
// (reduce_kernels.go, reduce_fold.go) are NumPy's inner loops (the
// pairwise sum, the half and complex loops, the AVX-512 min/max lanes).
// Sums run their calls' pairwise sums on all threads and add them in
// NumPy's order on one; other folds share out the outputs. Folds whose
// value does not depend on the order (min, max and ptp by value;
// count_nonzero, any and all by counts) run in any order on every thread,
// and NumPy's order is replayed only where it could change the bits (a
// zero or a NaN met: reduce_extreme.go, reduce_nonzero.go); the nan
// functions and column folds run as if no NaN or infinity were there and
// redo a result that is not finite. The reference
// (reduce_ref_test.go) simulates NumPy's iterator call by call and is the
// oracle the engine is tested against; reduce_numpy_test.go compares both
// with NumPy itself.
//
// # Tuning
//
// The thresholds that choose between paths (when threads pay, when a sort
// takes a most-significant-digit pass, how large a block of strips may be)
// are fields of an unexported tuning struct that Options carries; the zero
// Options runs with defaultTuning. Tests set it per call to send small
// inputs down every path, so they run in parallel. Sort and SortScratch read
// one sortPlan, so the memory estimate follows the dispatch.
//
// # Assembly kernels
//
// A few loops that Go compiles poorly have amd64 assembly twins: the sort's
// split of 4-byte keys through 64-byte line buffers written with
// non-temporal stores and its in-cache bucket passes (sort_amd64.s),
// unique-consecutive's run count and compress with AVX2 or AVX-512
// (unique_amd64.s), compare's fold of float32 and float64 pairs with AVX2
// (compare_amd64.s), the tiled transpose of 4-byte elements in 8×8
// register blocks with AVX2 (transpose_amd64.s; copyStrided[uint32] is its
// loop), and, with AVX2 or AVX-512 (reduce_amd64.s), the by-value extremes
// of min, max, ptp, nanmin and nanmax over a run and into a row of results
// (pairs, or one value where one extreme is wanted) and the nonzero counts
// of count_nonzero, any and all into a row of results. Each kernel's doc
// comment is the Go loop it equals, and that loop is kept: it runs on other
// architectures, for the inputs a kernel does not take (strided,
// byte-swapped, mixed dtypes), and whenever tuning.simd is lowered. The
// level is the widest the CPU has
// (golang.org/x/sys/cpu), capped by the environment variable STRIDER_SIMD
// (none, sse2, avx2, avx512) so that each path can be measured on one
// machine; the tests set it per call and check every kernel against its
// Go loop or the oracle.
//
// # Dtypes
//
// Data movement knows only element sizes. The operations that read values
// (Sort, Stats, AllClose, Indices) take the elements' dtype.Dtype from
// package internal/dtype, check it against the view's element size with
// CheckElem, and decode elements with its methods; Sort's Order says only
// in which order (direction, where NaNs go).
//
// # Threads
//
// Work is split into chunks of the planner's outer loop. Each chunk finds its
// starting multi-index with an OffsetCalculator whose divisors are
// precomputed (division by invariant integers by multiply-high and shift),
// then walks on with the odometer, so no chunk depends on another.
//
// # Indexing
//
// View.Index resolves the items of an index expression against a view with
// NumPy's rules. ops reads no text: the items are the []pylit.IndexItem that
// internal/pylit parses from the command line.
package ops
