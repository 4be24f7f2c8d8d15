package ops

import (
	"fmt"

	"strider/internal/dtype"
)

// JoinInput is one input of a Join: its view, its dtype, and the name its
// errors are prefixed with ("a.npy: ...").
type JoinInput struct {
	View  View
	Dtype dtype.Dtype
	Name  string
}

// Converter writes a view into a C-contiguous buffer, copied or cast: the
// methods a Join needs of an engine. Package cuda's Device is one; a Join
// whose Engine is nil uses the CPU's Copy and Cast.
type Converter interface {
	Copy(dst []byte, v View, opt Options) error
	Cast(dst []byte, to dtype.Dtype, v View, from dtype.Dtype, opt Options) error
}

// Join is numpy.concatenate or numpy.stack of Inputs: an output of Shape
// and Dtype, the inputs joined along Axis (the output's, as ConcatShape or
// StackShape resolve it). With Flat (concatenate's axis=None) the output
// is 1-d and each input is read in C order; Axis is then 0. Inputs of
// another dtype than Dtype are cast as astype does.
//
// Fill writes the whole output; Pieces writes it a piece at a time through
// a bounded buffer. Both advance opt.Done by the output bytes written.
type Join struct {
	Inputs      []JoinInput
	Shape       []int
	Axis        int
	Stack, Flat bool
	Dtype       dtype.Dtype
	Engine      Converter // nil: the CPU
}

// Fill writes the whole output into dst, C-contiguous.
func (j *Join) Fill(dst []byte, opt Options) error {
	return j.rows(dst, 0, j.Shape[0], opt)
}

// Part is the bytes of the largest part Pieces emits whole, even past the
// buffer it is given (0: it cuts anywhere): one row of the output when the
// join is along an axis past the first, which Pieces computes a whole row
// at a time.
func (j *Join) Part() int {
	if j.Axis == 0 {
		return 0
	}
	return Count(j.Shape[1:]) * j.Dtype.Size
}

// Pieces writes the output in C order a piece at a time: it fills buf, or
// a prefix of it, and passes that to emit, which hands back the buffer of
// the same size to fill next (emit may still be writing the piece it was
// given), until the output is whole. Along the first axis (or Flat) the
// output is each input's elements in C order, one input after the other,
// so the pieces are each input's own (View.Pieces); along an axis past the
// first, a piece is as many whole rows as buf holds, at least one (a row
// larger than buf gets a buffer of its own).
func (j *Join) Pieces(buf []byte, opt Options, emit func(piece []byte) (next []byte, err error)) error {
	if j.Axis == 0 {
		return j.inputPieces(buf, opt, emit)
	}
	return PartPieces(j.Shape[0], j.Part(), buf, opt, j.rows, emit)
}

// PartPieces writes a result of n parts of size bytes each, in C order,
// piece by piece: fill computes parts lo..hi-1 into dst, as many whole
// parts per piece as buf holds (at least one: a part larger than buf gets
// a buffer of its own), and emit takes each piece and returns the buffer
// to fill next. An empty result emits nothing.
func PartPieces(n, size int, buf []byte, opt Options, fill func(dst []byte, lo, hi int, o Options) error, emit func(piece []byte) (next []byte, err error)) error {
	if n == 0 || size == 0 {
		return nil
	}
	step := max(len(buf)/size, 1)
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		var b []byte
		if need := (hi - lo) * size; need <= len(buf) {
			b = buf[:need]
		} else {
			b = make([]byte, need)
		}
		if err := fill(b, lo, hi, opt); err != nil {
			return err
		}
		var err error
		if buf, err = emit(b); err != nil {
			return err
		}
	}
	return nil
}

// inputPieces is Pieces along the first axis (or Flat).
func (j *Join) inputPieces(buf []byte, opt Options, emit func([]byte) ([]byte, error)) error {
	size := j.Dtype.Size
	for _, in := range j.Inputs {
		for p := range in.View.Pieces(max(len(buf)/size, 1) * in.View.Elem) {
			b := buf[:p.Count()*size]
			if len(b) == 0 {
				continue
			}
			if err := j.part(Contiguous(size, p.Shape, b), p, in.Dtype, true, opt); err != nil {
				return fmt.Errorf("%s: %w", in.Name, err)
			}
			var err error
			if buf, err = emit(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// rows writes rows lo..hi-1 of the output (along its first axis) into
// dst, which holds just those rows: each input's share of them.
func (j *Join) rows(dst []byte, lo, hi int, opt Options) error {
	out := Contiguous(j.Dtype.Size, append([]int{hi - lo}, j.Shape[1:]...), dst)
	if j.Stack && j.Axis > 0 {
		return j.stackRows(out, lo, hi, opt)
	}
	at := 0 // where input i starts along the joined axis
	for _, in := range j.Inputs {
		part, src, n := View{}, in.View, 1
		switch {
		case j.Flat:
			n = src.Count()
		case !j.Stack:
			n = src.Shape[j.Axis]
		}
		if j.Flat || j.Axis > 0 {
			part = out.Slab(j.Axis, at, n)
		}
		if j.Axis > 0 {
			src = src.Slab(0, lo, hi-lo)
		} else if !j.Flat {
			// The joined axis is the first: input i is output rows
			// at..at+n-1, of which lo..hi-1 take a part.
			a, b := max(at, lo), min(at+n, hi)
			if a >= b {
				at += n
				continue
			}
			if j.Stack {
				part = out.Select(0, a-lo)
			} else {
				part, src = out.Slab(0, a-lo, b-a), src.Slab(0, a-at, b-a)
			}
		}
		at += n
		if err := j.part(part, src, in.Dtype, j.Flat, opt); err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
	}
	return nil
}

// stackRows writes rows lo..hi-1 of a stack along an axis past the first
// into out, which holds just those rows: every input's rows, read together
// by StackTo.
func (j *Join) stackRows(out View, lo, hi int, opt Options) error {
	srcs := make([]View, len(j.Inputs))
	for i, in := range j.Inputs {
		var err error
		if srcs[i], err = j.onHost(in.View.Slab(0, lo, hi-lo), in.Dtype, opt); err != nil {
			return fmt.Errorf("%s: %w", in.Name, err)
		}
	}
	return StackTo(out, srcs, j.Axis, opt)
}

// part writes src, an input of dtype from, into part, a view of the
// output: copied when from is the output's dtype, cast otherwise, by the
// engine, straight into part when it is contiguous. A strided part is
// written by CopyTo, from the input itself on the CPU, else from the
// engine's contiguous result. With flat, part is 1-d and src is read in C
// order.
func (j *Join) part(part, src View, from dtype.Dtype, flat bool, opt Options) error {
	if src.Count() == 0 {
		return nil // an empty part may start past the output's end
	}
	size := j.Dtype.Size
	if contiguous, _ := part.Contiguity(); flat || contiguous {
		return j.convert(part.Data[part.Offset*size:][:part.Count()*size], src, from, opt)
	}
	src, err := j.onHost(src, from, opt)
	if err != nil {
		return err
	}
	return CopyTo(part, src, opt)
}

// onHost is src, an input of dtype from, as the CPU can copy it into a
// strided part of the output: src itself on the CPU when from is the
// output's dtype, else the engine's contiguous copy or cast of it.
func (j *Join) onHost(src View, from dtype.Dtype, opt Options) (View, error) {
	if j.Engine == nil && from == j.Dtype {
		return src, nil
	}
	buf := make([]byte, src.Count()*j.Dtype.Size)
	if len(buf) == 0 {
		return Contiguous(j.Dtype.Size, src.Shape, buf), nil
	}
	opt.Done = nil // the progress counts the copy into the output
	err := j.convert(buf, src, from, opt)
	return Contiguous(j.Dtype.Size, src.Shape, buf), err
}

// convert writes src, of dtype from, into b in C order as the output's
// dtype with the engine: a copy when from is the output's, a cast
// otherwise.
func (j *Join) convert(b []byte, src View, from dtype.Dtype, opt Options) error {
	switch {
	case j.Engine != nil && from == j.Dtype:
		return j.Engine.Copy(b, src, opt)
	case j.Engine != nil:
		return j.Engine.Cast(b, j.Dtype, src, from, opt)
	case from == j.Dtype:
		return Copy(b, src, opt)
	}
	return Cast(b, j.Dtype, src, from, opt)
}
