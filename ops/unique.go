package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"strider/internal/dtype"
)

// UniqueConsecutive finds the runs of equal neighbours that
// torch.unique_consecutive(v, dim=axis) collapses, and returns where each
// run starts: a row index along axis, or, for axis < 0 (no dim: torch
// flattens), an element index in v's C order. Two rows are equal when
// every pair of their elements is, compared as numbers: a NaN equals
// nothing, not even itself, -0.0 equals 0.0, and bools compare by truth.
// As torch, an axis is refused when another axis is empty.
//
// It advances opt.Done by v's bytes, v.Count()*v.Elem, as it compares the
// rows: half in the pass that counts each chunk's runs, half in the pass
// that writes them (the copy of a view that is not in C order is not
// counted apart).
func UniqueConsecutive(v View, f dtype.Dtype, axis int, opt Options) ([]int, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	rows, w := v.Count(), v
	if axis >= 0 {
		for k, n := range v.Shape {
			if n == 0 && k != axis {
				return nil, fmt.Errorf("axis %d of shape %s is empty and is not the axis %d whose rows are compared", k, ShapeString(v.Shape), axis)
			}
		}
		rows, w = v.Shape[axis], v.AxisFirst(axis)
	}
	if rows == 0 {
		return []int{}, nil
	}
	copyOpt := opt
	copyOpt.Done = nil
	data, err := cContiguous(w, copyOpt)
	if err != nil {
		return nil, err
	}
	row := len(data) / rows
	find := runFinder(data, row, f)
	threads := opt.threads()
	if len(data) < opt.tuning().parallelMin {
		threads = 1
	}
	// Count each chunk's starts, then write them where they belong: no
	// slice grows (a run per element is millions of starts).
	nc := max(1, min(rows, threads*8))
	at := make([]int, nc+1)
	span := func(c int) (int, int) { return max(1, c*rows/nc), (c + 1) * rows / nc }
	// credit advances opt.Done by a share of chunk c's bytes (its rows,
	// row 0 included in the first): half in the first pass, the rest in the
	// second, so the two passes add up to len(data).
	credit := func(c int, second bool) {
		if opt.Done != nil {
			b := ((c+1)*rows/nc - c*rows/nc) * row
			if second {
				b -= b / 2
			} else {
				b /= 2
			}
			opt.Done.Add(int64(b))
		}
	}
	parallel(nc, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			a, b := span(c)
			at[c+1] = find(a, b, nil)
			credit(c, false)
		}
	})
	for c := range nc {
		at[c+1] += at[c]
	}
	starts := make([]int, 1+at[nc])
	parallel(nc, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			a, b := span(c)
			find(a, b, starts[1+at[c]:1+at[c+1]])
			credit(c, true)
		}
	})
	return starts, nil
}

// runFinder returns a function that counts the rows i in [lo, hi) that
// differ from row i-1 and, given out, writes their indices there. Rows of one element compare as typed values where
// the type's == is the rule (integers of either byte order, native floats
// and complex numbers); anything else goes through rowsEqual.
func runFinder(data []byte, row int, f dtype.Dtype) func(lo, hi int, out []int) int {
	native := !f.BigEndian()
	if row == f.Size {
		switch {
		case f.Kind == 'i' || f.Kind == 'u':
			switch f.Size {
			case 1:
				return typedRuns(data)
			case 2:
				return typedRuns(as[uint16](data))
			case 4:
				return typedRuns(as[uint32](data))
			case 8:
				return typedRuns(as[uint64](data))
			}
		case f.Kind == 'f' && native && f.Size == 4:
			return typedRuns(as[float32](data))
		case f.Kind == 'f' && native && f.Size == 8:
			return typedRuns(as[float64](data))
		case f.Kind == 'c' && native && f.Size == 8:
			return typedRuns(as[complex64](data))
		case f.Kind == 'c' && native && f.Size == 16:
			return typedRuns(as[complex128](data))
		}
	}
	equal := rowsEqual(f, row)
	return func(lo, hi int, out []int) int {
		n := 0
		for i := lo; i < hi; i++ {
			if !equal(data[(i-1)*row:i*row], data[i*row:(i+1)*row]) {
				if out != nil {
					out[n] = i
				}
				n++
			}
		}
		return n
	}
}

// typedRuns is runFinder for rows of one element of type E, compared by ==,
// without branches on the data: a run per few elements (noisy data) would
// mispredict half of them. Every i is written at out[n] and kept by
// advancing n when it starts a run; the check n < len(out) fails only
// after the last start.
func typedRuns[E comparable](x []E) func(lo, hi int, out []int) int {
	return func(lo, hi int, out []int) int {
		if out == nil {
			return countRuns(x, lo, hi)
		}
		n := 0
		for i := lo; i < hi; i++ {
			d := 0
			if x[i] != x[i-1] {
				d = 1
			}
			if n < len(out) {
				out[n] = i
			}
			n += d
		}
		return n
	}
}

// seq is 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for k := range s {
		s[k] = k
	}
	return s
}

// cContiguous is v's elements in C order: v's own bytes when it is
// C-contiguous, else a copy.
func cContiguous(v View, opt Options) ([]byte, error) {
	n := v.Count() * v.Elem
	if c, _ := v.Contiguity(); c {
		return v.Data[v.Offset*v.Elem:][:n], nil
	}
	buf := make([]byte, n)
	return buf, Copy(buf, v, opt)
}

// rowsEqual compares two rows of row bytes element by element as numbers
// of format f: integers by their bytes, bools by truth, floats and complex
// numbers by ==.
func rowsEqual(f dtype.Dtype, row int) func(a, b []byte) bool {
	switch f.Kind {
	case 'i', 'u':
		return bytes.Equal
	case 'b':
		return func(a, b []byte) bool {
			for k := range a {
				if (a[k] == 0) != (b[k] == 0) {
					return false
				}
			}
			return true
		}
	}
	size := f.Size
	return func(a, b []byte) bool {
		for k := 0; k < row; k += size {
			if f.Complex(a[k:k+size]) != f.Complex(b[k:k+size]) {
				return false
			}
		}
		return true
	}
}

// RunIndex writes into inv, 8 bytes a position as little-endian int64
// (numpy's '<i8'), the run each of len(inv)/8 positions belongs to, given
// the runs' starts (UniqueConsecutive's result): torch's inverse indices.
// It writes an output's data directly; nothing is held on the heap.
func RunIndex(inv []byte, starts []int) {
	n := len(inv) / 8
	for r, s := range starts {
		end := n
		if r+1 < len(starts) {
			end = starts[r+1]
		}
		for i := s; i < end; i++ {
			binary.LittleEndian.PutUint64(inv[8*i:], uint64(r))
		}
	}
}

// RunLengths writes into counts, 8 bytes a run as little-endian int64, each
// run's length, given its start and n positions.
func RunLengths(counts []byte, starts []int, n int) {
	for r, s := range starts {
		end := n
		if r+1 < len(starts) {
			end = starts[r+1]
		}
		binary.LittleEndian.PutUint64(counts[8*r:], uint64(end-s))
	}
}
