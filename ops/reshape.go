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
