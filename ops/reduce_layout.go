package ops

// NumPy 1.24's nditer, as far as a reduction's result depends on it: the
// order in which it visits the axes (npyiter_find_best_axis_ordering), the
// layout of the arrays it allocates (npyiter_new_temp_array), how it merges
// axes (npyiter_coalesce_axes) and how its buffering cuts the iteration
// into inner-loop calls (npyiter_copy_to_buffers, npyiter_checkreducesize,
// npyiter_buffered_reduce_iternext). Strides here count elements of each
// operand; NumPy's count bytes, but every rule below compares or multiplies
// the strides of one operand only, so the answers are the same.

// npyBufSize is NPY_BUFSIZE, the buffer size ufunc reductions run with.
const npyBufSize = 8192

// npyOrder is the axis order NumPy's iterator picks under NPY_KEEPORDER
// for operands whose strides along axis k are strides[op][k] (0 where the
// operand does not move along k, as for an axis of length 1, a broadcast
// axis or an output not yet allocated): the axes innermost first. It is
// npyiter_find_best_axis_ordering, a stable insertion sort from the
// smallest stride to the largest in which an axis pair on which no operand
// moves on both is no evidence either way, and C order wins conflicts.
func npyOrder(ndim int, strides [][]int) []int {
	// perm holds axisdata positions; axisdata[i] is axis ndim-1-i.
	perm := make([]int, ndim)
	for i := range perm {
		perm[i] = i
	}
	stride := func(op, ad int) int { return strides[op][ndim-1-ad] }
	for i0 := 1; i0 < ndim; i0++ {
		ipos, j0 := i0, perm[i0]
		for i1 := i0 - 1; i1 >= 0; i1-- {
			ambig, swap := true, false
			j1 := perm[i1]
			for op := range strides {
				s0, s1 := stride(op, j0), stride(op, j1)
				if s0 == 0 || s1 == 0 {
					continue
				}
				if abs(s1) <= abs(s0) {
					swap = false
				} else if ambig {
					swap = true
				}
				ambig = false
			}
			if ambig {
				continue
			}
			if !swap {
				break
			}
			ipos = i1
		}
		if ipos != i0 {
			copy(perm[ipos+1:i0+1], perm[ipos:i0])
			perm[ipos] = j0
		}
	}
	order := make([]int, ndim)
	for i, p := range perm {
		order[i] = ndim - 1 - p
	}
	return order
}

// movingStrides is strides with 0 for the axes of length 1, as the
// iterator sees an operand that has every axis.
func movingStrides(shape, strides []int) []int {
	s := make([]int, len(shape))
	for k, n := range shape {
		if n != 1 {
			s[k] = strides[k]
		}
	}
	return s
}

// reduceLayout is what NumPy's reduction iterator decides about one
// reduction of an array of shape over the axes red: the order it visits the
// axes in and the layout of the result it allocates.
type reduceLayout struct {
	order      []int // the axes, innermost first
	outShape   []int // the result's shape (length 1 on reduced axes with keepdims)
	outStrides []int // the result's element strides, as NumPy allocates it
	// pos is the result's element stride along each input axis: 0 on the
	// reduced ones.
	pos []int
}

// newReduceLayout is the layout of np.ufunc.reduce over an array of shape
// and element strides, reducing the axes where red is true
// (PyUFunc_ReduceWrapper's op_axes; the result is allocated by the
// iterator, so its strides are 0 while the order is chosen).
func newReduceLayout(shape, strides []int, red []bool, keepdims bool) reduceLayout {
	nd := len(shape)
	l := reduceLayout{order: npyOrder(nd, [][]int{make([]int, nd), movingStrides(shape, strides)})}
	outAxis := make([]int, nd) // the result axis of each input axis, -1 for none
	for k := range shape {
		switch {
		case red[k] && !keepdims:
			outAxis[k] = -1
		case red[k]:
			outAxis[k] = len(l.outShape)
			l.outShape = append(l.outShape, 1)
		default:
			outAxis[k] = len(l.outShape)
			l.outShape = append(l.outShape, shape[k])
		}
	}
	l.outStrides = make([]int, len(l.outShape))
	step := 1
	for _, k := range l.order {
		if o := outAxis[k]; o >= 0 {
			l.outStrides[o] = step
			step *= l.outShape[o]
		}
	}
	l.pos = make([]int, nd)
	for k := range shape {
		if o := outAxis[k]; o >= 0 && l.outShape[o] != 1 {
			l.pos[k] = l.outStrides[o]
		}
	}
	return l
}

// elementwiseStrides is the layout NumPy 1.24 gives the result of a ufunc
// over operands of one shape (broadcast operands have stride 0 along the
// axes they repeat on): when every operand with axes has exactly the shape
// and is contiguous in one order, C or Fortran order
// (try_trivial_single_output_loop); else the iterator's order under
// NPY_KEEPORDER, compact.
func elementwiseStrides(shape []int, operands [][]int, shapes [][]int) []int {
	trivial, fortran := true, false
	order := 0 // 1 C, 2 F, 3 both
	for i, s := range operands {
		if len(shapes[i]) == 0 {
			continue
		}
		if !equalInts(shapes[i], shape) {
			trivial = false
			break
		}
		if len(shape) == 1 {
			continue
		}
		v := View{Elem: 1, Shape: shape, Strides: s}
		c, f := v.Contiguity()
		o := 0
		if c {
			o |= 1
		}
		if f {
			o |= 2
		}
		switch {
		case o == 0:
			trivial = false
		case order == 0:
			order = o
		case order != o:
			trivial = false
		}
		if !trivial {
			break
		}
	}
	if trivial {
		fortran = order == 2
		if fortran {
			return FStrides(shape)
		}
		return CStrides(shape)
	}
	moving := make([][]int, len(operands)+1)
	for i, s := range operands {
		moving[i] = movingStrides(shape, s)
	}
	moving[len(operands)] = make([]int, len(shape))
	out := make([]int, len(shape))
	step := 1
	for _, k := range npyOrder(len(shape), moving) {
		out[k] = step
		step *= shape[k]
	}
	return out
}

// keepOrderStrides is the layout of np.array(a, copy=True) (order 'K',
// PyArray_NewLikeArray): C order when a is C-contiguous or has at most one
// axis, Fortran order when it is Fortran-contiguous, else compact with the
// axes sorted by decreasing absolute stride, ties by axis.
func keepOrderStrides(shape, strides []int) []int {
	v := View{Elem: 1, Shape: shape, Strides: strides}
	c, f := v.Contiguity()
	switch {
	case c || len(shape) <= 1:
		return CStrides(shape)
	case f:
		return FStrides(shape)
	}
	axes := seq(len(shape))
	for i := 1; i < len(axes); i++ {
		for j := i; j > 0; j-- {
			a, b := abs(strides[axes[j-1]]), abs(strides[axes[j]])
			if a > b || a == b && axes[j-1] < axes[j] {
				break
			}
			axes[j-1], axes[j] = axes[j], axes[j-1]
		}
	}
	out := make([]int, len(shape))
	step := 1
	for i := len(axes) - 1; i >= 0; i-- {
		out[axes[i]] = step
		step *= shape[axes[i]]
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
