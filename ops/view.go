package ops

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math/bits"
	"slices"
	"unsafe"

	"strider/internal/pylit"
	"strider/internal/shape"
)

// View is an n-d array inside Data. See the package documentation for the
// layout rules.
type View struct {
	Elem    int   // bytes per element
	Shape   []int // extent of each axis
	Strides []int // elements between neighbours along each axis
	Offset  int   // elements from the start of Data to element (0, ..., 0)
	Data    []byte
}

// CStrides returns the element strides of a C-contiguous array of shape.
func CStrides(dims []int) []int { return shape.CStrides(dims) }

// FStrides returns the element strides of a Fortran-contiguous array.
func FStrides(shape []int) []int {
	s := make([]int, len(shape))
	step := 1
	for k := range shape {
		s[k] = step
		step *= shape[k]
	}
	return s
}

// Contiguous is a C-order view of data.
func Contiguous(elem int, shape []int, data []byte) View {
	return View{Elem: elem, Shape: shape, Strides: CStrides(shape), Data: data}
}

// Count is the number of elements, 1 for a 0-d view.
func (v View) Count() int { return Count(v.Shape) }

// Count is the product of shape.
func Count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// ErrOutOfBounds reports a view whose elements reach outside its storage.
var ErrOutOfBounds = errors.New("view reaches outside its storage")

// Check verifies that every element of v lies inside v.Data, so kernels may
// use unchecked loads. An empty view is always valid.
func (v View) Check() error { return v.checkSize(len(v.Data)) }

// checkSize is Check for storage of size bytes, which need not be in Data.
func (v View) checkSize(size int) error {
	if len(v.Shape) != len(v.Strides) {
		return fmt.Errorf("%w: %d axes but %d strides", ErrOutOfBounds, len(v.Shape), len(v.Strides))
	}
	if v.Elem <= 0 {
		return fmt.Errorf("%w: element size %d", ErrOutOfBounds, v.Elem)
	}
	limit := size / v.Elem // elements that fit entirely in the storage
	lo, hi := v.Offset, v.Offset
	for k, n := range v.Shape {
		if n < 0 {
			return fmt.Errorf("%w: negative extent %d on axis %d", ErrOutOfBounds, n, k)
		}
		if n == 0 {
			return nil
		}
	}
	for k, n := range v.Shape {
		over, step := bits.Mul64(uint64(n-1), uint64(abs(v.Strides[k])))
		if over != 0 || step > uint64(limit) {
			return fmt.Errorf("%w: axis %d (extent %d, stride %d) spans past a %d-byte buffer", ErrOutOfBounds, k, n, v.Strides[k], size)
		}
		if v.Strides[k] > 0 {
			hi += int(step)
		} else {
			lo -= int(step)
		}
		if lo < 0 || hi >= limit {
			return fmt.Errorf("%w: elements %d..%d of a %d-byte buffer with %d-byte elements", ErrOutOfBounds, lo, hi, size, v.Elem)
		}
	}
	if lo < 0 || hi >= limit {
		return fmt.Errorf("%w: elements %d..%d of a %d-byte buffer with %d-byte elements", ErrOutOfBounds, lo, hi, size, v.Elem)
	}
	return nil
}

// Unravel returns the C-order multi-index of linear position i in shape.
func Unravel(i int, shape []int) []int {
	pos := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			pos[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return pos
}

// ElemAt returns the bytes of the element at multi-index idx, one index
// per axis, each within its axis (v.Check has passed).
func (v View) ElemAt(idx []int) []byte {
	off := v.Offset
	for k, i := range idx {
		off += i * v.Strides[k]
	}
	return v.Data[off*v.Elem : (off+1)*v.Elem]
}

// mergeAxes drops size-1 axes of shape and merges neighbours that move
// together under both stride lists sa and sd (as coalesce does for a
// copy), so a pair of C-contiguous arrays becomes one long run.
func mergeAxes(shape, sa, sd []int) (ms, ma, md []int) {
	axes := make([]loop, 0, len(shape))
	for k, n := range shape {
		if n != 1 {
			axes = append(axes, loop{n: n, src: sa[k], dst: sd[k]})
		}
	}
	for _, a := range coalesce(axes) {
		ms, ma, md = append(ms, a.n), append(ma, a.src), append(md, a.dst)
	}
	return ms, ma, md
}

// extent is the lowest and highest element offsets v reaches; v must hold
// elements.
func (v View) extent() (lo, hi int) {
	lo, hi = v.Offset, v.Offset
	for k, n := range v.Shape {
		if s := (n - 1) * v.Strides[k]; s > 0 {
			hi += s
		} else {
			lo += s
		}
	}
	return lo, hi
}

// writesOnce reports whether no two elements of v share storage, so that
// writing through v writes each place once. The test is sufficient, not
// exact: taken from the smallest step up, each axis's step must clear
// everything the axes inside it reach.
func (v View) writesOnce() bool {
	if v.Count() == 0 {
		return true
	}
	var axes []loop
	for k, n := range v.Shape {
		if n > 1 {
			axes = append(axes, loop{n: n, src: abs(v.Strides[k])})
		}
	}
	slices.SortFunc(axes, func(a, b loop) int { return cmp.Compare(a.src, b.src) })
	reach := 0 // elements past the first that the inner axes reach
	for _, a := range axes {
		if a.src <= reach {
			return false
		}
		reach += (a.n - 1) * a.src
	}
	return true
}

// overlaps reports whether the bytes a and b reach share any storage.
func overlaps(a, b View) bool {
	if a.Count() == 0 || b.Count() == 0 || len(a.Data) == 0 || len(b.Data) == 0 {
		return false
	}
	alo, ahi := a.extent()
	blo, bhi := b.extent()
	pa := uintptr(unsafe.Pointer(&a.Data[0]))
	pb := uintptr(unsafe.Pointer(&b.Data[0]))
	aStart, aEnd := pa+uintptr(alo*a.Elem), pa+uintptr((ahi+1)*a.Elem)
	bStart, bEnd := pb+uintptr(blo*b.Elem), pb+uintptr((bhi+1)*b.Elem)
	return aStart < bEnd && bStart < aEnd
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// NormalizeAxis maps a possibly negative axis into [0, ndim), as NumPy does.
func NormalizeAxis(axis, ndim int) (int, error) {
	if axis < -ndim || axis >= ndim {
		return 0, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, ndim)
	}
	if axis < 0 {
		axis += ndim
	}
	return axis, nil
}

// NormalizePerm checks a transpose permutation as numpy.transpose does and
// returns it with negative axes resolved. A nil axes reverses the axes.
func NormalizePerm(axes []int, ndim int) ([]int, error) {
	if axes == nil {
		perm := make([]int, ndim)
		for k := range perm {
			perm[k] = ndim - 1 - k
		}
		return perm, nil
	}
	if len(axes) != ndim {
		return nil, fmt.Errorf("axes don't match array: %d axes given for an array of dimension %d", len(axes), ndim)
	}
	perm := make([]int, ndim)
	seen := make([]bool, ndim)
	for k, a := range axes {
		p, err := NormalizeAxis(a, ndim)
		if err != nil {
			return nil, err
		}
		if seen[p] {
			return nil, fmt.Errorf("repeated axis %d in transpose", a)
		}
		seen[p] = true
		perm[k] = p
	}
	return perm, nil
}

// Permute returns the view with its axes reordered: axis k of the result is
// axis perm[k] of v. perm must be a valid permutation (see NormalizePerm).
func (v View) Permute(perm []int) View {
	w := v
	w.Shape = make([]int, len(perm))
	w.Strides = make([]int, len(perm))
	for k, p := range perm {
		w.Shape[k] = v.Shape[p]
		w.Strides[k] = v.Strides[p]
	}
	return w
}

// AxisFirst is v with axis moved to the front and the others in order:
// its C order visits v's rows along axis one after another.
func (v View) AxisFirst(axis int) View {
	return v.Permute(append([]int{axis}, slices.Delete(seq(len(v.Shape)), axis, axis+1)...))
}

// Contiguity is NumPy's C_CONTIGUOUS and F_CONTIGUOUS flags of v, as NumPy
// 1.24 and later compute them (_UpdateContiguousFlags): axes of length 1
// are ignored, whatever their strides, and an empty array is both, as is a
// 0-d one. numpy.save writes an array in Fortran order exactly when f is
// true and c is false.
func (v View) Contiguity() (c, f bool) {
	if Count(v.Shape) == 0 {
		return true, true
	}
	c, f = true, true
	step := 1
	for k := len(v.Shape) - 1; k >= 0; k-- {
		if d := v.Shape[k]; d != 1 {
			c = c && v.Strides[k] == step
			step *= d
		}
	}
	step = 1
	for k, d := range v.Shape {
		if d != 1 {
			f = f && v.Strides[k] == step
			step *= d
		}
	}
	return c, f
}

// Reversed returns v with its axes in reverse order: its C order is v's
// Fortran order.
func (v View) Reversed() View {
	perm := make([]int, len(v.Shape))
	for k := range perm {
		perm[k] = len(perm) - 1 - k
	}
	return v.Permute(perm)
}

// Pieces yields v in pieces of at most limit bytes whose C-order copies,
// one after the other, are v's C-order copy: a run of indices along one
// axis with every index of the axes after it, for each index of the axes
// before it. A piece is a view of the same storage, for Copy or ReadRuns,
// so a result of any size can be written through a bounded buffer. A
// single element larger than limit is still one piece; an empty or small
// v is one piece.
func (v View) Pieces(limit int) iter.Seq[View] {
	return func(yield func(View) bool) {
		n := len(v.Shape)
		if v.Count()*v.Elem <= limit || n == 0 {
			yield(v)
			return
		}
		// The innermost axes k.. fit a piece whole; axis k-1 is cut.
		k, inner := n, v.Elem
		for k > 0 && inner*v.Shape[k-1] <= limit {
			k--
			inner *= v.Shape[k]
		}
		if k == 0 {
			yield(v)
			return
		}
		run := max(limit/inner, 1)
		cut := k - 1
		shape := append([]int{0}, v.Shape[k:]...)
		strides := append([]int{v.Strides[cut]}, v.Strides[k:]...)
		idx := make([]int, cut) // the index of the axes before the cut
		for {
			base := v.Offset
			for i, x := range idx {
				base += x * v.Strides[i]
			}
			for at := 0; at < v.Shape[cut]; at += run {
				shape[0] = min(run, v.Shape[cut]-at)
				p := View{Elem: v.Elem, Data: v.Data, Offset: base + at*v.Strides[cut],
					Shape: append([]int(nil), shape...), Strides: append([]int(nil), strides...)}
				if !yield(p) {
					return
				}
			}
			i := cut - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < v.Shape[i] {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				return
			}
		}
	}
}

// ShapeString writes a shape as Python writes a tuple: (), (3,), (2, 3).
// It is pylit.ShapeString, kept for ops/compare.go and cmd/compare.go
// (reworked elsewhere); new code calls pylit.ShapeString.
func ShapeString(shape []int) string { return pylit.ShapeString(shape) }
