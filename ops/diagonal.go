package ops

import "fmt"

// Diagonal returns the view numpy.diagonal(v, offset, axis1, axis2) takes:
// both axes removed, one axis of the diagonal's length appended last with
// stride s1+s2, and the offset moved by offset along axis2 (offset >= 0) or
// -offset along axis1. No element moves; Copy writes it out. Offsets past
// either end give an empty last axis, as NumPy does.
func (v View) Diagonal(offset, axis1, axis2 int) (View, error) {
	nd := len(v.Shape)
	if nd < 2 {
		return View{}, fmt.Errorf("diag requires an array of at least two dimensions (got %d)", nd)
	}
	a1, err := NormalizeAxis(axis1, nd)
	if err != nil {
		return View{}, fmt.Errorf("axis1: %w", err)
	}
	a2, err := NormalizeAxis(axis2, nd)
	if err != nil {
		return View{}, fmt.Errorf("axis2: %w", err)
	}
	if a1 == a2 {
		return View{}, fmt.Errorf("axis1 and axis2 cannot be the same (both are axis %d)", a1)
	}
	n1, n2 := v.Shape[a1], v.Shape[a2]
	s1, s2 := v.Strides[a1], v.Strides[a2]
	// Compare before subtracting: offset may be anywhere in the int range.
	length, start := 0, v.Offset
	switch {
	case offset >= 0 && offset < n2:
		length = min(n1, n2-offset)
		start += offset * s2
	case offset < 0 && offset > -n1:
		length = min(n1+offset, n2)
		start -= offset * s1
	}
	w := View{Elem: v.Elem, Data: v.Data, Offset: v.Offset}
	for k := 0; k < nd; k++ {
		if k != a1 && k != a2 {
			w.Shape = append(w.Shape, v.Shape[k])
			w.Strides = append(w.Strides, v.Strides[k])
		}
	}
	w.Shape = append(w.Shape, length)
	w.Strides = append(w.Strides, s1+s2)
	if length > 0 {
		w.Offset = start
	}
	return w, nil
}
