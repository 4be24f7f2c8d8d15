package ops

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"strider/internal/pylit"
)

// maxResultDims is NumPy's NPY_MAXDIMS: no result may have more axes.
const maxResultDims = 32

// Indexing is a[EXPR] resolved against one array: a view for basic indexing
// (integers, slices, ..., None), or a view followed by a gather for
// advanced indexing (integer and boolean arrays).
type Indexing struct {
	// Shape is the result's shape.
	Shape []int

	// view is the result itself for basic indexing. For advanced indexing
	// it holds the result's non-advanced axes (those before the broadcast
	// index block, then those after it) over the same storage.
	view View
	pre  int        // advanced: result axes before the broadcast index block
	gen  *offsetGen // advanced: byte offsets for the broadcast index block; nil for basic
}

// Basic returns the result view when the indexing is basic (no data moves
// until the view is copied), and false for advanced indexing.
func (x *Indexing) Basic() (View, bool) {
	if x.gen == nil {
		return x.view, true
	}
	return View{}, false
}

// Write writes the result, in C order, into dst, which must hold exactly
// Count(x.Shape) elements of the source's size.
func (x *Indexing) Write(dst []byte, opt Options) error {
	if x.gen == nil {
		return Copy(dst, x.view, opt)
	}
	return x.gather(dst, opt)
}

// entry is one index item after the ellipsis is expanded and boolean
// arrays are turned into their nonzero() integer arrays.
type entry struct {
	kind  pylit.IndexKind // pylit.IndexInt, pylit.IndexSlice, pylit.IndexEllipsis, pylit.IndexNewAxis, pylit.IndexArray, pylit.IndexBool
	item  *pylit.IndexItem
	dims  int     // pylit.IndexEllipsis: the axes it stands for
	shape []int   // pylit.IndexArray: the index array's shape
	vals  []int64 // pylit.IndexArray: its values in C order
	// pylit.IndexArray from a boolean array: the boolean array's extent along
	// this axis (-1 for integer arrays), checked against the axis.
	boolDim int
}

// Index resolves items (see pylit.ParseIndex) against v with NumPy's rules:
// integers and slices as Python's (negative values count from the end;
// slice bounds clamp), at most one ellipsis, None adds an axis of length
// one. Integer and boolean arrays are advanced indices: boolean arrays act
// as their nonzero(), and all advanced indices broadcast together; the
// broadcast axes replace the indexed ones where the first advanced index
// stood when the advanced indices (integers among them) are adjacent, and
// go first when a slice, ellipsis or None separates them. Errors carry
// NumPy's messages, in the order NumPy checks: the items, the result's
// rank, boolean extents, the basic items' values, the index arrays'
// broadcast, and last the index arrays' values.
func (v View) Index(items []pylit.IndexItem) (*Indexing, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	used, ellipsis, err := countIndexItems(items, len(v.Shape))
	if err != nil {
		return nil, err
	}
	entries := expandEntries(items, len(v.Shape), used, ellipsis)
	advanced, err := checkEntries(v, entries)
	if err != nil {
		return nil, err
	}
	b := basicIndexer{v: v, w: View{Elem: v.Elem, Data: v.Data, Offset: v.Offset}, advanced: advanced}
	for _, e := range entries {
		if err := b.apply(e); err != nil {
			return nil, err
		}
	}
	if !advanced {
		return &Indexing{Shape: b.w.Shape, view: b.w}, nil
	}
	// A single boolean array of the array's own shape is one index to
	// NumPy (its HAS_BOOL case), not one index array per axis, so the
	// limits on index arrays do not apply to it.
	wholeMask := len(items) == 1 && items[0].Kind == pylit.IndexBoolArray && slices.Equal(items[0].Shape, v.Shape)
	return b.advancedIndexing(wholeMask)
}

// countIndexItems checks the number of items and of ellipses, and returns
// how many axes the items use and where the ellipsis is (-1: none).
func countIndexItems(items []pylit.IndexItem, nd int) (used, ellipsis int, err error) {
	// NumPy unpacks at most 2*NPY_MAXDIMS items of an index tuple.
	if len(items) > 2*maxResultDims {
		return 0, 0, fmt.Errorf("too many indices for array: %d items, NumPy takes at most %d", len(items), 2*maxResultDims)
	}
	ellipsis = -1
	for k := range items {
		switch it := &items[k]; it.Kind {
		case pylit.IndexEllipsis:
			if ellipsis >= 0 {
				return 0, 0, fmt.Errorf("an index can only have a single ellipsis ('...')")
			}
			ellipsis = k
		case pylit.IndexInt, pylit.IndexSlice, pylit.IndexArray:
			used++
		case pylit.IndexBoolArray:
			used += len(it.Shape)
		}
	}
	if used > nd {
		return 0, 0, fmt.Errorf("too many indices for array: array is %d-dimensional, but %d were indexed", nd, used)
	}
	return used, ellipsis, nil
}

// expandEntries turns items into entries: an ellipsis (explicit, or
// implied at the end) stands for the axes no item uses; boolean arrays
// become one integer array per axis.
func expandEntries(items []pylit.IndexItem, nd, used, ellipsis int) []entry {
	var entries []entry
	for k := range items {
		it := &items[k]
		switch it.Kind {
		case pylit.IndexEllipsis:
			entries = append(entries, entry{kind: pylit.IndexEllipsis, item: it, dims: nd - used})
		case pylit.IndexBoolArray:
			entries = append(entries, nonzeroEntries(it)...)
		case pylit.IndexArray:
			entries = append(entries, entry{kind: pylit.IndexArray, item: it, shape: it.Shape, vals: it.Ints, boolDim: -1})
		default:
			entries = append(entries, entry{kind: it.Kind, item: it})
		}
	}
	if ellipsis < 0 && used < nd {
		entries = append(entries, entry{kind: pylit.IndexEllipsis, dims: nd - used})
	}
	return entries
}

// checkEntries checks, as NumPy does before any value, the result's rank
// and then boolean extents, and reports whether any entry is advanced.
func checkEntries(v View, entries []entry) (advanced bool, err error) {
	fancyDims, newDims := 0, 0
	for _, e := range entries {
		switch e.kind {
		case pylit.IndexArray:
			advanced = true
			fancyDims = max(fancyDims, len(e.shape))
		case pylit.IndexBool:
			advanced = true
			fancyDims = max(fancyDims, 1)
		case pylit.IndexSlice, pylit.IndexNewAxis:
			newDims++
		case pylit.IndexEllipsis:
			newDims += e.dims
		}
	}
	if newDims+fancyDims > maxResultDims {
		return false, fmt.Errorf("number of dimensions must be within [0, %d], indexing result would have %d", maxResultDims, newDims+fancyDims)
	}
	axis := 0
	for _, e := range entries {
		switch e.kind {
		case pylit.IndexArray:
			if e.boolDim >= 0 && e.boolDim != v.Shape[axis] {
				return false, fmt.Errorf("boolean index did not match indexed array along dimension %d; dimension is %d but corresponding boolean dimension is %d", axis, v.Shape[axis], e.boolDim)
			}
			axis++
		case pylit.IndexInt, pylit.IndexSlice:
			axis++
		case pylit.IndexEllipsis:
			axis += e.dims
		}
	}
	return advanced, nil
}

// fancy is one advanced index noted while the basic part is applied.
type fancy struct {
	dim   int // axis of the basic view
	axis  int // axis of the array, for messages; -1 for a 0-d boolean
	shape []int
	vals  []int64
}

// blockPlace is where the broadcast block of advanced indices goes in the
// result (NumPy's mapiter consec): where the first advanced index stood
// while they are adjacent, first once a slice, ellipsis or None separates
// two runs of them.
type blockPlace struct {
	at    int
	state int // 0 before any advanced index, 1 inside the first run, 2 after it, 3 separated
}

// see moves past one entry, advanced or not, that stands at result axis at.
func (p *blockPlace) see(advanced bool, at int) {
	switch {
	case advanced && p.state == 0:
		p.at, p.state = at, 1
	case advanced && p.state == 2:
		p.at, p.state = 0, 3
	case !advanced && p.state == 1:
		p.state = 2
	}
}

// basicIndexer applies the basic part of an index as a view, w, over v's
// storage. Advanced axes stay in w at full length (a 0-d boolean adds an
// axis of length one) and are noted in fancies.
type basicIndexer struct {
	v, w     View
	axis     int // the next axis of v
	advanced bool
	fancies  []fancy
	place    blockPlace
}

// apply applies one entry.
func (b *basicIndexer) apply(e entry) error {
	isAdvanced := e.kind == pylit.IndexArray || e.kind == pylit.IndexBool || e.kind == pylit.IndexInt
	b.place.see(isAdvanced && b.advanced, len(b.w.Shape)-len(b.fancies))
	v, w := b.v, &b.w
	switch e.kind {
	case pylit.IndexInt:
		n := v.Shape[b.axis]
		i := e.item.Int
		if i < -int64(n) || i >= int64(n) {
			return fmt.Errorf("index %d is out of bounds for axis %d with size %d", i, b.axis, n)
		}
		if i < 0 {
			i += int64(n)
		}
		w.Offset += int(i) * v.Strides[b.axis]
		b.axis++
	case pylit.IndexSlice:
		return b.applySlice(e.item)
	case pylit.IndexEllipsis:
		w.Shape = append(w.Shape, v.Shape[b.axis:b.axis+e.dims]...)
		w.Strides = append(w.Strides, v.Strides[b.axis:b.axis+e.dims]...)
		b.axis += e.dims
	case pylit.IndexNewAxis:
		w.Shape = append(w.Shape, 1)
		w.Strides = append(w.Strides, 0)
	case pylit.IndexArray:
		b.fancies = append(b.fancies, fancy{dim: len(w.Shape), axis: b.axis, shape: e.shape, vals: e.vals})
		w.Shape = append(w.Shape, v.Shape[b.axis])
		w.Strides = append(w.Strides, v.Strides[b.axis])
		b.axis++
	case pylit.IndexBool:
		// NumPy: a new axis of length one, indexed by zeros of shape
		// (1,) for True and (0,) for False.
		n := 0
		if e.item.Bool {
			n = 1
		}
		b.fancies = append(b.fancies, fancy{dim: len(w.Shape), axis: -1, shape: []int{n}, vals: make([]int64, n)})
		w.Shape = append(w.Shape, 1)
		w.Strides = append(w.Strides, 0)
	}
	return nil
}

// applySlice applies a slice to the next axis.
func (b *basicIndexer) applySlice(it *pylit.IndexItem) error {
	start, step, length, err := sliceIndices(it, b.v.Shape[b.axis])
	if err != nil {
		return err
	}
	if length > 0 {
		b.w.Offset += start * b.v.Strides[b.axis]
	}
	stride := step * b.v.Strides[b.axis]
	if length <= 1 {
		stride = 0 // unused, and step may be near the int range's end
	}
	b.w.Shape = append(b.w.Shape, length)
	b.w.Strides = append(b.w.Strides, stride)
	b.axis++
	return nil
}

// advancedIndexing finishes an advanced index once the basic part is
// applied: the index arrays broadcast together, the non-advanced axes with
// the broadcast block at its place, and the arrays' values as offsets.
func (b *basicIndexer) advancedIndexing(wholeMask bool) (*Indexing, error) {
	bshape, err := broadcastIndexArrays(b.fancies, wholeMask)
	if err != nil {
		return nil, err
	}
	// The non-advanced axes, and the result: the broadcast block at its place.
	w := b.w
	rest := View{Elem: w.Elem, Data: w.Data, Offset: w.Offset}
	isFancy := make([]bool, len(w.Shape))
	for _, f := range b.fancies {
		isFancy[f.dim] = true
	}
	for d := range w.Shape {
		if !isFancy[d] {
			rest.Shape = append(rest.Shape, w.Shape[d])
			rest.Strides = append(rest.Strides, w.Strides[d])
		}
	}
	// NumPy's iterator takes the result as one more operand when the
	// non-advanced axes hold exactly one element (no "subspace"), which
	// leaves room for 31 index arrays.
	if len(b.fancies) > maxResultDims-1 && Count(rest.Shape) == 1 && !wholeMask {
		return nil, fmt.Errorf("when no subspace is given, the number of index arrays cannot be above %d, but %d index arrays found", maxResultDims-1, len(b.fancies))
	}
	consec := b.place.at
	shape := append(append(append([]int{}, rest.Shape[:consec]...), bshape...), rest.Shape[consec:]...)
	count, ok := checkedCount(shape)
	if !ok || count > math.MaxInt/max(1, w.Elem) {
		return nil, fmt.Errorf("the result of shape %s is too large", ShapeString(shape))
	}
	gen := &offsetGen{shape: bshape, count: Count(bshape)}
	// NumPy 1.24 checks the values only when the result has elements (it
	// merely warns about out-of-range values in an empty result).
	if count > 0 {
		if err := b.addOffsets(gen); err != nil {
			return nil, err
		}
	}
	return &Indexing{Shape: shape, view: rest, pre: consec, gen: gen}, nil
}

// broadcastIndexArrays broadcasts the index arrays together, one at a time
// as NumPy's mapiter_fill_info does: its first error (too many arrays, or
// one that does not broadcast) is the one reported.
func broadcastIndexArrays(fancies []fancy, wholeMask bool) ([]int, error) {
	shapes := make([][]int, len(fancies))
	for k, f := range fancies {
		shapes[k] = f.shape
	}
	var bshape []int
	for k := range shapes {
		if k >= maxResultDims && !wholeMask {
			return nil, fmt.Errorf("too many advanced (array) indices. This probably means you are indexing with too many booleans. (more than %d found)", maxResultDims)
		}
		var ok bool
		if bshape, ok = broadcastShapes(shapes[:k+1]); !ok {
			parts := make([]string, len(shapes))
			for k, s := range shapes {
				parts[k] = strings.ReplaceAll(ShapeString(s), " ", "")
			}
			return nil, fmt.Errorf("shape mismatch: indexing arrays could not be broadcast together with shapes %s", strings.Join(parts, " "))
		}
	}
	return bshape, nil
}

// addOffsets turns each index array into byte offsets along its axis of
// the basic view, checking each value against the axis.
func (b *basicIndexer) addOffsets(gen *offsetGen) error {
	w := b.w
	if err := w.Check(); err != nil {
		return err
	}
	for _, f := range b.fancies {
		n := w.Shape[f.dim]
		step := w.Strides[f.dim] * w.Elem
		offs := make([]int, len(f.vals))
		for k, i := range f.vals {
			if i < -int64(n) || i >= int64(n) {
				return fmt.Errorf("index %d is out of bounds for axis %d with size %d", i, f.axis, n)
			}
			if i < 0 {
				i += int64(n)
			}
			offs[k] = int(i) * step
		}
		gen.add(f.shape, offs)
	}
	return nil
}

// nonzeroEntries is numpy.nonzero of a boolean index array: one integer
// array per axis, each holding the coordinates of the True elements.
func nonzeroEntries(it *pylit.IndexItem) []entry {
	nd := len(it.Shape)
	count := 0
	for _, b := range it.Bools {
		if b {
			count++
		}
	}
	coords := make([][]int64, nd)
	for d := range coords {
		coords[d] = make([]int64, 0, count)
	}
	for k, b := range it.Bools {
		if !b {
			continue
		}
		for d, c := range Unravel(k, it.Shape) {
			coords[d] = append(coords[d], int64(c))
		}
	}
	out := make([]entry, nd)
	for d := range out {
		out[d] = entry{kind: pylit.IndexArray, item: it, shape: []int{count}, vals: coords[d], boolDim: it.Shape[d]}
	}
	return out
}

// sliceIndices is Python's slice.indices(n) for the item's bounds: the
// first position, the step and the number of positions. A zero step is
// Python's error.
func sliceIndices(it *pylit.IndexItem, n int) (start, step, length int, err error) {
	step = 1
	if it.HasStep {
		if it.Step == 0 {
			return 0, 0, 0, fmt.Errorf("slice step cannot be zero")
		}
		step = int(max(it.Step, -math.MaxInt64)) // Python keeps -step representable
	}
	var lo, hi int
	switch {
	case it.HasStart:
		lo = int(it.Start)
	case step < 0:
		lo = math.MaxInt64
	default:
		lo = 0
	}
	switch {
	case it.HasStop:
		hi = int(it.Stop)
	case step < 0:
		hi = math.MinInt64
	default:
		hi = math.MaxInt64
	}
	adjust := func(i int) int {
		if i < 0 {
			if i += n; i < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if i >= n {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return i
	}
	lo, hi = adjust(lo), adjust(hi)
	switch {
	case step < 0 && hi < lo:
		length = (lo-hi-1)/(-step) + 1
	case step > 0 && lo < hi:
		length = (hi-lo-1)/step + 1
	}
	return lo, step, length, nil
}

// broadcastShapes is NumPy's broadcast of shapes, aligned at the right.
func broadcastShapes(shapes [][]int) ([]int, bool) {
	nd := 0
	for _, s := range shapes {
		nd = max(nd, len(s))
	}
	out := make([]int, nd)
	for k := range out {
		out[k] = 1
	}
	for _, s := range shapes {
		for k, d := range s {
			o := &out[nd-len(s)+k]
			switch {
			case d == *o || d == 1:
			case *o == 1:
				*o = d
			default:
				return nil, false
			}
		}
	}
	return out, true
}

// checkedCount is the product of shape, or false when it overflows.
func checkedCount(shape []int) (int, bool) {
	n := 1
	for _, d := range shape {
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range shape {
		if n > math.MaxInt/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// offsetGen yields, for each position of the broadcast index shape in C
// order, the byte offset that all index arrays together select: the sum of
// each array's value (at that position, broadcast) times its axis's byte
// stride. Arrays of the same shape broadcast alike and are summed into one,
// so a boolean mask's nonzero() arrays or a[[...], [...]] cost one lookup.
type offsetGen struct {
	shape   []int   // the broadcast shape
	count   int     // its element count
	offs    [][]int // per array: byte offsets in the array's C order
	shapes  [][]int // per array: its shape
	strides [][]int // per array: element strides over shape, 0 where broadcast
}

// add adds one index array's byte offsets.
func (g *offsetGen) add(shape []int, offs []int) {
	for k, s := range g.shapes {
		if slices.Equal(s, shape) {
			for j := range offs {
				g.offs[k][j] += offs[j]
			}
			return
		}
	}
	st := make([]int, len(g.shape))
	cs := CStrides(shape)
	for k := range shape {
		if shape[k] != 1 {
			st[len(g.shape)-len(shape)+k] = cs[k]
		}
	}
	g.offs = append(g.offs, offs)
	g.shapes = append(g.shapes, shape)
	g.strides = append(g.strides, st)
}

// fill writes the offsets of positions start, start+1, ... into dst. idx
// and pos are scratch of len(g.shape) and len(g.offs).
func (g *offsetGen) fill(dst []int, start int, idx, pos []int) {
	if len(g.offs) == 1 && len(g.offs[0]) == g.count {
		copy(dst, g.offs[0][start:]) // the one array has the broadcast shape
		return
	}
	rem := start
	for k := len(g.shape) - 1; k >= 0; k-- {
		idx[k] = rem % g.shape[k]
		rem /= g.shape[k]
	}
	for f, st := range g.strides {
		pos[f] = 0
		for k, s := range st {
			pos[f] += idx[k] * s
		}
	}
	for j := range dst {
		o := 0
		for f, offs := range g.offs {
			o += offs[pos[f]]
		}
		dst[j] = o
		for k := len(g.shape) - 1; k >= 0; k-- {
			idx[k]++
			for f, st := range g.strides {
				pos[f] += st[k]
			}
			if idx[k] < g.shape[k] {
				break
			}
			for f, st := range g.strides {
				pos[f] -= idx[k] * st[k]
			}
			idx[k] = 0
		}
	}
}

// gather writes the advanced result: out[o, j, i] is the element at
// outer(o) + offset(j) + inner(i), where outer and inner are the non-advanced
// axes before and after the broadcast block and offset(j) comes from the
// index arrays (see gatherBlocks).
func (x *Indexing) gather(dst []byte, opt Options) error {
	v, g := x.view, x.gen
	if want := v.Count() * g.count * v.Elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the indexing writes %d", len(dst), want)
	}
	at := func() blockCursor {
		idx, pos := make([]int, len(g.shape)), make([]int, len(g.offs))
		return func(buf []int, start, n int) ([]int, int) {
			g.fill(buf[:n], start, idx, pos)
			return buf[:n], 1
		}
	}
	gatherBlocks(dst, v, x.pre, g.count, at, opt)
	return nil
}
