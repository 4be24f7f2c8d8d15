package ops

import (
	"fmt"
	"math/bits"
	"slices"
)

// ResolveShape is numpy.reshape's newshape for an array of count elements:
// one extent may be negative (any negative value, as NumPy reads it) and is
// inferred; the product must be count. The error names the shape as given.
func ResolveShape(shape []int, count int) ([]int, error) {
	out := slices.Clone(shape)
	unknown, known := -1, 1
	overflow := false
	for k, n := range shape {
		if n < 0 {
			if unknown >= 0 {
				return nil, fmt.Errorf("shape %s has more than one unknown (negative) extent", ShapeString(shape))
			}
			unknown = k
			continue
		}
		hi, lo := bits.Mul64(uint64(known), uint64(n))
		if hi != 0 || lo > uint64(maxInt) {
			overflow = true
			continue
		}
		known = int(lo)
	}
	mismatch := fmt.Errorf("cannot reshape array of size %d into shape %s", count, ShapeString(shape))
	switch {
	case overflow:
		return nil, mismatch
	case unknown >= 0:
		if known == 0 || count%known != 0 {
			return nil, mismatch
		}
		out[unknown] = count / known
	case known != count:
		return nil, mismatch
	}
	return out, nil
}

const maxInt = int(^uint(0) >> 1)

// Reshape returns the view that numpy.reshape(v, shape) (C index order)
// returns without copying, and false when NumPy would copy: v's strides
// cannot walk the new shape in v's C order. shape is resolved (no negative
// extent) and has v's element count. It follows NumPy's
// _attempt_nocopy_reshape: axes of length 1 are dropped, then runs of old
// and new axes with equal products are matched, and each run of old axes
// must be contiguous in C order to be split into the new ones.
func (v View) Reshape(shape []int) (View, bool) {
	r := View{Elem: v.Elem, Shape: slices.Clone(shape), Offset: v.Offset, Data: v.Data}
	if slices.Equal(shape, v.Shape) {
		r.Strides = slices.Clone(v.Strides)
		return r, true
	}
	if c, _ := v.Contiguity(); c {
		r.Strides = CStrides(shape)
		return r, true
	}
	var od, os []int // the old axes longer than 1
	for k, n := range v.Shape {
		if n != 1 {
			od, os = append(od, n), append(os, v.Strides[k])
		}
	}
	ns := make([]int, len(shape))
	ni, nj, oi, oj := 0, 1, 0, 1
	for ni < len(shape) && oi < len(od) {
		np, op := shape[ni], od[oi]
		for np != op {
			if np < op {
				np *= shape[nj]
				nj++
			} else {
				op *= od[oj]
				oj++
			}
		}
		for k := oi; k < oj-1; k++ {
			if os[k] != od[k+1]*os[k+1] {
				return View{}, false
			}
		}
		ns[nj-1] = os[oj-1]
		for k := nj - 1; k > ni; k-- {
			ns[k-1] = ns[k] * shape[k]
		}
		ni, nj = nj, nj+1
		oi, oj = oj, oj+1
	}
	last := 1 // trailing new axes of length 1: any stride will do
	if ni >= 1 {
		last = ns[ni-1]
	}
	for k := ni; k < len(shape); k++ {
		ns[k] = last
	}
	r.Strides = ns
	return r, true
}

// FortranReshape returns a view whose C order is the C order of
// numpy.reshape(v, shape, order='F') when Reshape finds no view of it:
// writing it out makes that copy in one pass, where copying v to Fortran
// order first takes two. Its axes refine both shapes: walking v and shape
// from the first axis (Fortran order's fastest), each pair of axes is split
// into extents that divide both, with v's strides; each result axis then
// lists its parts slowest first. false when the axes do not nest (a 4x6
// array read as 6x4 in Fortran order splits no axis evenly), or v is empty.
func (v View) FortranReshape(shape []int) (View, bool) {
	if v.Count() == 0 {
		return View{}, false
	}
	ext, str := make([][]int, len(shape)), make([][]int, len(shape)) // per result axis, fastest first
	i, j := -1, -1
	a, b, s := 1, 1, 0 // what is left of v's axis i and of shape's axis j; the stride
	for {
		for a == 1 && i+1 < len(v.Shape) {
			i++
			a, s = v.Shape[i], v.Strides[i]
		}
		for b == 1 && j+1 < len(shape) {
			j++
			b = shape[j]
		}
		if a == 1 || b == 1 {
			break // the counts are equal: both sides end together
		}
		f := min(a, b)
		if a%f != 0 || b%f != 0 {
			return View{}, false
		}
		ext[j], str[j] = append(ext[j], f), append(str[j], s)
		a, b, s = a/f, b/f, s*f
	}
	r := View{Elem: v.Elem, Offset: v.Offset, Data: v.Data}
	for j := range shape {
		for k := len(ext[j]) - 1; k >= 0; k-- {
			r.Shape, r.Strides = append(r.Shape, ext[j][k]), append(r.Strides, str[j][k])
		}
	}
	return r, true
}
