package ops

import (
	"fmt"
	"slices"
)

// ConcatShape is the shape of numpy.concatenate of arrays of shapes along
// axis (resolved against the first array's rank), with NumPy's checks and
// messages: at least one array, no 0-d array, equal ranks, and equal
// extents off the axis. It returns the axis resolved.
func ConcatShape(shapes [][]int, axis int) ([]int, int, error) {
	if len(shapes) == 0 {
		return nil, 0, fmt.Errorf("need at least one array to concatenate")
	}
	nd := len(shapes[0])
	if nd == 0 {
		return nil, 0, fmt.Errorf("zero-dimensional arrays cannot be concatenated")
	}
	axis, err := NormalizeAxis(axis, nd)
	if err != nil {
		return nil, 0, err
	}
	out := append([]int(nil), shapes[0]...)
	for i, s := range shapes[1:] {
		if len(s) != nd {
			return nil, 0, fmt.Errorf("all the input arrays must have same number of dimensions, but the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)", nd, i+1, len(s))
		}
		for k := range s {
			if k != axis && s[k] != out[k] {
				return nil, 0, fmt.Errorf("all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d", k, out[k], i+1, s[k])
			}
		}
		out[axis] += s[axis]
	}
	return out, axis, nil
}

// StackShape is the shape of numpy.stack of arrays of shapes along a new
// axis (resolved against the result's rank), with NumPy's checks: at least
// one array, all of one shape. It returns the axis resolved.
func StackShape(shapes [][]int, axis int) ([]int, int, error) {
	if len(shapes) == 0 {
		return nil, 0, fmt.Errorf("need at least one array to stack")
	}
	for _, s := range shapes[1:] {
		if !slices.Equal(s, shapes[0]) {
			return nil, 0, fmt.Errorf("all input arrays must have the same shape")
		}
	}
	nd := len(shapes[0]) + 1
	axis, err := NormalizeAxis(axis, nd)
	if err != nil {
		return nil, 0, err
	}
	out := make([]int, 0, nd)
	out = append(append(append(out, shapes[0][:axis]...), len(shapes)), shapes[0][axis:]...)
	return out, axis, nil
}

// Slab is the part of v from index start to start+n along axis: a view
// of the same storage (where a concatenation writes one of its inputs).
func (v View) Slab(axis, start, n int) View {
	w := View{Elem: v.Elem, Data: v.Data, Offset: v.Offset + start*v.Strides[axis],
		Shape: append([]int(nil), v.Shape...), Strides: append([]int(nil), v.Strides...)}
	w.Shape[axis] = n
	return w
}

// Select is v at index i along axis, which disappears: a view of the same
// storage (where a stack writes one of its inputs).
func (v View) Select(axis, i int) View {
	w := View{Elem: v.Elem, Data: v.Data, Offset: v.Offset + i*v.Strides[axis]}
	w.Shape = append(append([]int(nil), v.Shape[:axis]...), v.Shape[axis+1:]...)
	w.Strides = append(append([]int(nil), v.Strides[:axis]...), v.Strides[axis+1:]...)
	return w
}
