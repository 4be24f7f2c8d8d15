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
// read-only memory mapping, so ops never writes through a View.
//
// # Copies
//
// Copy is the one way elements move: it writes the elements of a View into a
// C-contiguous destination. dst comes first and must not overlap the source
// storage. Before anything moves, a planner drops size-1 axes, merges axes
// that move together, widens short contiguous runs into one wider element,
// and picks a kernel: one memmove, a memmove per contiguous run, a tiled 2-D
// transpose, or a strided loop. Kernels are chosen by element size (1, 2, 4,
// 8 or 16 bytes), never by dtype, so byte order is carried through untouched.
//
// CopyNaive is the odometer the fast paths must equal: it advances the last
// index and carries into earlier ones, one element at a time. Every fast path
// is tested against it.
//
// # Dtypes
//
// Data movement knows only element sizes. The operations that read values
// (Sort, Stats, AllClose, Indices, the text readers and writers) take the
// elements' dtype.Dtype from package internal/dtype, check it against the
// view's element size with CheckElem, and decode elements with its methods;
// Sort's Order says only in which order (direction, where NaNs go).
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
