package ops

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"strider/internal/pylit"
)

func TestSliceIndices(t *testing.T) {
	// Python: slice(start, stop, step).indices(n) and len(range(...)).
	big := int64(math.MaxInt64)
	cases := []struct {
		start, stop, step     *int64
		n                     int
		wantStart, wantLength int
	}{
		{nil, nil, nil, 5, 0, 5},
		{nil, nil, p(-1), 5, 4, 5},
		{p(1), nil, nil, 5, 1, 4},
		{p(-2), p(0), p(-1), 5, 3, 3},
		{p(-100), p(100), p(1), 5, 0, 5},
		{p(100), p(-100), p(-1), 5, 4, 5},
		{p(3), p(1), nil, 5, 3, 0},
		{p(0), p(5), p(2), 5, 0, 3},
		{p(4), nil, p(-2), 5, 4, 3},
		{nil, nil, p(big), 5, 0, 1},
		{nil, nil, p(-big - 1), 5, 4, 1},
		{p(-big - 1), p(big), p(1), 5, 0, 5},
		{nil, nil, p(-3), 0, -1, 0},
		{p(2), p(2), nil, 5, 2, 0},
	}
	for k, c := range cases {
		it := &pylit.IndexItem{Kind: pylit.IndexSlice}
		if c.start != nil {
			it.Start, it.HasStart = *c.start, true
		}
		if c.stop != nil {
			it.Stop, it.HasStop = *c.stop, true
		}
		if c.step != nil {
			it.Step, it.HasStep = *c.step, true
		}
		start, _, length, err := sliceIndices(it, c.n)
		if err != nil || length != c.wantLength || length > 0 && start != c.wantStart {
			t.Errorf("case %d: start %d length %d err %v, want %d %d", k, start, length, err, c.wantStart, c.wantLength)
		}
	}
	if _, _, _, err := sliceIndices(&pylit.IndexItem{HasStep: true}, 3); err == nil || err.Error() != "slice step cannot be zero" {
		t.Errorf("step 0: %v", err)
	}
}

func p(v int64) *int64 { return &v }

// TestSliceNumPy checks shapes and errors against NumPy 1.24 on a
// (2, 3, 4) array.
func TestSliceNumPy(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"0", "(3, 4)"},
		{"1:, ::-1", "(1, 3, 4)"},
		{"..., None, 0", "(2, 3, 1)"},
		{"[0,1],:,[1,2]", "(2, 3)"},
		{":, [0,1], [1,2]", "(2, 2)"},
		{"[[0,1]], :, [2]", "(1, 2, 3)"},
		{"0, [0,2], 1:", "(2, 3)"},
		{":, [0], ..., [0]", "(1, 2)"},
		{"[0], ..., [0]", "(1, 3)"},
		{"[[True,False,True],[False,True,True]],", "(4, 4)"},
		{"True", "(1, 2, 3, 4)"},
		{"True, False", "(0, 2, 3, 4)"},
		{"False, ..., [1]", "(0, 2, 3)"},
		{"[0,1], None, True", "(2, 1, 3, 4)"},
		{"None, [1], None, 1", "(1, 1, 1, 4)"},
		{":, 0, [1]", "(2, 1)"},
		{"[1], :, 0", "(1, 3)"},
		{"[[5]], []", "(1, 0, 4)"},
		{"[[[]]],", "(1, 1, 0, 3, 4)"},
		{"(),", "(0, 3, 4)"},
		{"()", "(2, 3, 4)"},
		{"(0, 1)", "(4,)"},
		{"[9], 0:0", "(1, 0, 4)"},
		{"0:0, [9]", "(0, 1, 4)"},
		{"1,2,3", "()"},
		{"1,2,3,...", "()"},
		{"5", "index 5 is out of bounds for axis 0 with size 2"},
		{"-3", "index -3 is out of bounds for axis 0 with size 2"},
		{"[5],", "index 5 is out of bounds for axis 0 with size 2"},
		{"0, :, [9]", "index 9 is out of bounds for axis 2 with size 4"},
		{"[0], 5", "index 5 is out of bounds for axis 1 with size 3"},
		{"5, [7]", "index 5 is out of bounds for axis 0 with size 2"},
		{"1,2,3,4", "too many indices for array: array is 3-dimensional, but 4 were indexed"},
		{"[[[True]]], 0", "too many indices for array: array is 3-dimensional, but 4 were indexed"},
		{"..., ...", "an index can only have a single ellipsis ('...')"},
		{"::0", "slice step cannot be zero"},
		{"[True, False, True],", "boolean index did not match indexed array along dimension 0; dimension is 2 but corresponding boolean dimension is 3"},
		{"[7], [True, False]", "boolean index did not match indexed array along dimension 1; dimension is 3 but corresponding boolean dimension is 2"},
		{"[0,1],[0,1,2]", "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)"},
		{"[[0,1]], [[0],[1],[0]], [0,1,2,3]", "shapes (1,2) (3,1) (4,)"},
		{strings.Repeat("None, ", 30), "number of dimensions must be within [0, 32], indexing result would have 33"},
		// Brackets are always a list (a[[0, 1]]), and NumPy's limits on index arrays.
		{"[0, 1]", "(2, 3, 4)"},
		{"[]", "(0, 3, 4)"},
		{strings.Repeat("True, ", 32), "(1, 2, 3, 4)"},
		{strings.Repeat("True, ", 33), "too many advanced (array) indices. This probably means you are indexing with too many booleans. (more than 32 found)"},
		{strings.Repeat("True, ", 32) + "0, 0, 0", "when no subspace is given, the number of index arrays cannot be above 31, but 32 index arrays found"},
		{strings.Repeat("True, ", 31) + "[0], 0, 0", "when no subspace is given, the number of index arrays cannot be above 31, but 32 index arrays found"},
		{strings.Repeat("True, ", 30) + "[0], 0, 0", "(1,)"},
		{strings.Repeat("None, ", 64), "number of dimensions must be within [0, 32], indexing result would have 67"},
		{strings.Repeat("None, ", 65), "too many indices for array"},
	}
	v := Contiguous(4, []int{2, 3, 4}, make([]byte, 96))
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			items, err := pylit.ParseIndex(c.expr)
			if err != nil {
				t.Fatal(err)
			}
			x, err := v.Index(items)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = ShapeString(x.Shape)
			}
			if !strings.Contains(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// naiveIndex is the oracle: NumPy's indexing from its definition, written
// without views. It returns the result's shape and, for each result
// element in C order, the source multi-index. Integers become 0-d index
// arrays when any array is present (NumPy's rule), boolean arrays their
// nonzero(), a scalar boolean a new axis indexed by [0] or [].
func naiveIndex(shape []int, items []pylit.IndexItem, limit int) ([]int, [][]int, error) {
	type op struct {
		kind      byte // 's' slice, 'n' new axis, 'a' advanced array, 'i' integer, 'e' ellipsis marker
		dim       int  // source axis (-1 for new axes)
		start     int
		step, len int
		arr       int // which advanced array
	}
	nd := len(shape)
	if len(items) > 64 {
		return nil, nil, fmt.Errorf("more than 64 items")
	}
	hasArray, ell, used := false, 0, 0
	fancy := 0 // NumPy's index arrays: lists (one per axis of a boolean list) and scalar booleans
	for _, it := range items {
		switch it.Kind {
		case pylit.IndexArray, pylit.IndexBool:
			fancy++
		case pylit.IndexBoolArray:
			fancy += len(it.Shape)
		}
		switch it.Kind {
		case pylit.IndexArray, pylit.IndexBoolArray, pylit.IndexBool:
			hasArray = true
		}
		switch it.Kind {
		case pylit.IndexEllipsis:
			ell++
		case pylit.IndexInt, pylit.IndexSlice, pylit.IndexArray:
			used++
		case pylit.IndexBoolArray:
			used += len(it.Shape)
		}
	}
	if ell > 1 || used > nd {
		return nil, nil, fmt.Errorf("bad index")
	}
	var ops []op
	var arrShapes [][]int
	var arrVals [][]int64
	var arrFromBool []int // extent of the boolean dimension, -1 for integer arrays
	dim := 0
	addArr := func(sh []int, vals []int64, b int, d int) {
		ops = append(ops, op{kind: 'a', dim: d, arr: len(arrShapes)})
		arrShapes, arrVals, arrFromBool = append(arrShapes, sh), append(arrVals, vals), append(arrFromBool, b)
	}
	full := func(d int) op { return op{kind: 's', dim: d, start: 0, step: 1, len: shape[d]} }
	for _, it := range items {
		switch it.Kind {
		case pylit.IndexEllipsis:
			ops = append(ops, op{kind: 'e'})
			for k := 0; k < nd-used; k++ {
				ops = append(ops, full(dim))
				dim++
			}
		case pylit.IndexNewAxis:
			ops = append(ops, op{kind: 'n', dim: -1})
		case pylit.IndexBool:
			var vals []int64
			if it.Bool {
				vals = []int64{0}
			}
			ops = append(ops, op{kind: 'n', dim: -1})
			ops[len(ops)-1].kind = 'a'
			ops[len(ops)-1].arr = len(arrShapes)
			arrShapes, arrVals, arrFromBool = append(arrShapes, []int{len(vals)}), append(arrVals, vals), append(arrFromBool, -1)
		case pylit.IndexInt:
			if hasArray {
				addArr([]int{}, []int64{it.Int}, -1, dim)
			} else {
				ops = append(ops, op{kind: 'i', dim: dim, start: int(it.Int)})
			}
			dim++
		case pylit.IndexSlice:
			n := shape[dim]
			// Python's slice.indices, spelled out.
			step := 1
			if it.HasStep {
				if it.Step == 0 {
					return nil, nil, fmt.Errorf("step 0")
				}
				step = int(max(it.Step, -math.MaxInt64))
			}
			norm := func(v int64, has bool, def int) int {
				if !has {
					return def
				}
				x := int(v)
				if x < 0 {
					x += n
					if x < 0 {
						x = map[bool]int{true: -1, false: 0}[step < 0]
					}
				} else if x >= n {
					x = map[bool]int{true: n - 1, false: n}[step < 0]
				}
				return x
			}
			var lo, hi int
			if step > 0 {
				lo, hi = norm(it.Start, it.HasStart, 0), norm(it.Stop, it.HasStop, n)
			} else {
				lo, hi = norm(it.Start, it.HasStart, n-1), norm(it.Stop, it.HasStop, -1)
			}
			length := 0
			for i := lo; step > 0 && i < hi || step < 0 && i > hi; i += step {
				length++
				if step > n || step < -n {
					break // the next position is past either end
				}
			}
			ops = append(ops, op{kind: 's', dim: dim, start: lo, step: step, len: length})
			dim++
		case pylit.IndexArray:
			addArr(it.Shape, it.Ints, -1, dim)
			dim++
		case pylit.IndexBoolArray:
			var coords [][]int64
			for d := range it.Shape {
				_ = d
				coords = append(coords, nil)
			}
			cnt := 0
			for k, b := range it.Bools {
				if b {
					cnt++
					for d, c := range Unravel(k, it.Shape) {
						coords[d] = append(coords[d], int64(c))
					}
				}
			}
			for d := range it.Shape {
				addArr([]int{cnt}, coords[d], it.Shape[d], dim)
				dim++
			}
		}
	}
	for dim < nd {
		ops = append(ops, full(dim))
		dim++
	}
	// Result rank, then boolean extents (NumPy's order of checks).
	rank, fancyRank := 0, 0
	for _, o := range ops {
		switch o.kind {
		case 's', 'n':
			rank++
		case 'a':
			fancyRank = max(fancyRank, len(arrShapes[o.arr]))
		}
	}
	if rank+fancyRank > 32 {
		return nil, nil, fmt.Errorf("too many dims")
	}
	for _, o := range ops {
		if o.kind == 'a' && arrFromBool[o.arr] >= 0 && arrFromBool[o.arr] != shape[o.dim] {
			return nil, nil, fmt.Errorf("bool mismatch")
		}
	}
	for _, o := range ops {
		if o.kind == 'i' && (o.start < -shape[o.dim] || o.start >= shape[o.dim]) {
			return nil, nil, fmt.Errorf("int out of bounds")
		}
		if o.kind == 'a' && len(arrShapes[o.arr]) == 0 && o.dim >= 0 {
			if v := arrVals[o.arr][0]; v < -int64(shape[o.dim]) || v >= int64(shape[o.dim]) {
				return nil, nil, fmt.Errorf("int out of bounds")
			}
		}
	}
	// NumPy's limits on index arrays, except for one boolean array of the
	// array's own shape.
	if !(len(items) == 1 && items[0].Kind == pylit.IndexBoolArray && slices.Equal(items[0].Shape, shape)) {
		subspace := 1
		for _, o := range ops {
			if o.kind == 's' {
				subspace *= o.len
			}
		}
		if fancy > 32 || fancy > 31 && subspace == 1 {
			return nil, nil, fmt.Errorf("too many index arrays")
		}
	}
	// Broadcast.
	var bshape []int
	if len(arrShapes) > 0 {
		for _, s := range arrShapes {
			for len(bshape) < len(s) {
				bshape = append([]int{1}, bshape...)
			}
		}
		for _, s := range arrShapes {
			for k := range s {
				j := len(bshape) - len(s) + k
				switch {
				case s[k] == bshape[j] || s[k] == 1:
				case bshape[j] == 1:
					bshape[j] = s[k]
				default:
					return nil, nil, fmt.Errorf("broadcast")
				}
			}
		}
	}
	// Where the block goes: adjacency over the original items.
	first, lastAdv, separated := -1, -1, false
	for k, o := range ops {
		if o.kind == 'a' {
			if first < 0 {
				first = k
			} else if lastAdv != k-1 {
				separated = true
			}
			lastAdv = k
		}
	}
	var out []int
	insert := 0
	for k, o := range ops {
		if k == first && !separated {
			insert = len(out)
		}
		switch o.kind {
		case 's':
			out = append(out, o.len)
		case 'n':
			out = append(out, 1)
		}
	}
	if len(arrShapes) > 0 {
		out = append(append(append([]int{}, out[:insert]...), bshape...), out[insert:]...)
	}
	total := 1
	for _, d := range out {
		total *= d
	}
	// Array values are checked only when the result has elements.
	if total > 0 {
		for _, o := range ops {
			if o.kind == 'a' && o.dim >= 0 {
				for _, v := range arrVals[o.arr] {
					if v < -int64(shape[o.dim]) || v >= int64(shape[o.dim]) {
						return nil, nil, fmt.Errorf("array out of bounds")
					}
				}
			}
		}
	}
	if total > limit {
		return out, nil, nil // too many to list; the shape is still checked
	}
	src := make([][]int, total)
	for i := range src {
		idx := Unravel(i, out)
		var b []int
		rest := idx
		if len(arrShapes) > 0 {
			b = idx[insert : insert+len(bshape)]
			rest = append(append([]int{}, idx[:insert]...), idx[insert+len(bshape):]...)
		}
		s := make([]int, nd)
		r := 0
		for _, o := range ops {
			switch o.kind {
			case 's':
				s[o.dim] = o.start + rest[r]*o.step
				r++
			case 'n':
				r++
			case 'i':
				s[o.dim] = (o.start + shape[o.dim]) % shape[o.dim]
			case 'a':
				if o.dim < 0 {
					continue
				}
				sh := arrShapes[o.arr]
				pos := 0
				for k := range sh {
					c := 0
					if sh[k] != 1 {
						c = b[len(b)-len(sh)+k]
					}
					pos = pos*sh[k] + c
				}
				v := int(arrVals[o.arr][pos])
				if v < 0 {
					v += shape[o.dim]
				}
				s[o.dim] = v
			}
		}
		src[i] = s
	}
	return out, src, nil
}

// randomExpr writes a random index expression for shape: mostly valid,
// sometimes out of range, misshapen or malformed.
func randomExpr(r *rand.Rand, shape []int) string {
	nd := len(shape)
	n := r.Intn(nd + 3)
	var parts []string
	dim := 0
	size := func() int {
		if dim < nd {
			return shape[dim]
		}
		return 3
	}
	intIn := func(n int) int {
		if r.Intn(12) == 0 || n == 0 {
			return r.Intn(2*n+5) - n - 2 // sometimes out of range
		}
		return r.Intn(2*n) - n
	}
	idxShapes := [][]int{{2}, {1}, {3}, {2, 1}, {1, 2}, {2, 2}, {0}, {}}
	list := func(sh []int, n int) string {
		var rec func(d int) string
		rec = func(d int) string {
			if d == len(sh) {
				return fmt.Sprint(intIn(n))
			}
			el := make([]string, sh[d])
			for k := range el {
				el[k] = rec(d + 1)
			}
			return "[" + strings.Join(el, ", ") + "]"
		}
		return rec(0)
	}
	ellipses := 0
	for k := 0; k < n; k++ {
		switch c := r.Intn(20); {
		case c < 5:
			parts = append(parts, fmt.Sprint(intIn(size())))
			dim++
		case c < 10:
			b := func() string {
				switch r.Intn(4) {
				case 0:
					return ""
				case 1:
					return fmt.Sprint(r.Intn(11) - 5)
				}
				return fmt.Sprint(r.Intn(2*size()+1) - size())
			}
			s := b() + ":" + b()
			if r.Intn(2) == 0 {
				st := r.Intn(7) - 3
				if st == 0 && r.Intn(8) != 0 {
					st = -1
				}
				s += ":" + fmt.Sprint(st)
			}
			parts = append(parts, s)
			dim++
		case c < 11:
			if ellipses == 0 || r.Intn(10) == 0 {
				parts = append(parts, "...")
				ellipses++
				dim = max(dim, nd-(n-k-1))
			}
		case c < 13:
			parts = append(parts, "None")
		case c < 16:
			sh := idxShapes[r.Intn(len(idxShapes))]
			if len(sh) == 0 {
				sh = []int{1}
			}
			parts = append(parts, list(sh, size()))
			dim++
		case c < 18:
			m := size()
			if r.Intn(10) == 0 {
				m++
			}
			bs := make([]string, m)
			for j := range bs {
				bs[j] = []string{"False", "True"}[r.Intn(2)]
			}
			s := "[" + strings.Join(bs, ", ") + "]"
			if r.Intn(4) == 0 && dim+1 < nd {
				// A 2-d mask over this axis and the next.
				rows := make([]string, m)
				for j := range rows {
					bs := make([]string, shape[dim+1])
					for i := range bs {
						bs[i] = []string{"False", "True"}[r.Intn(2)]
					}
					rows[j] = "[" + strings.Join(bs, ", ") + "]"
				}
				s = "[" + strings.Join(rows, ", ") + "]"
				dim++
			}
			parts = append(parts, s)
			dim++
		case c < 19:
			parts = append(parts, []string{"True", "False"}[r.Intn(2)])
		default:
			parts = append(parts, []string{"[0, 1], [[0], [1]]", "[]", "1.5", "[1,", "::0", "0x1", "-True", "(0, 1)"}[r.Intn(8)])
			dim++
		}
	}
	s := strings.Join(parts, ", ")
	if s == "" {
		s = "..."
	}
	return s
}

// positionBytes fills element i (its logical C-order position) with bytes
// that identify it.
func positionBytes(dst []byte, pos int) {
	for j := range dst {
		dst[j] = byte(pos>>(8*(j%4))) ^ byte(j*37)
	}
}

// layoutView stores a logical array whose elements identify their own
// positions in one of several layouts: C, Fortran, reversed axes, or every
// other element of a larger buffer.
func layoutView(r *rand.Rand, shape []int, elem int) (View, string) {
	n := Count(shape)
	nd := len(shape)
	layout := []string{"c", "f", "rev", "gap"}[r.Intn(4)]
	var strides []int
	offset, span := 0, n
	switch layout {
	case "c":
		strides = CStrides(shape)
	case "f":
		strides = FStrides(shape)
	case "rev":
		strides = CStrides(shape)
		for k := range strides {
			if r.Intn(2) == 0 && shape[k] > 0 {
				offset += (shape[k] - 1) * strides[k]
				strides[k] = -strides[k]
			}
		}
	case "gap":
		strides = CStrides(shape)
		for k := range strides {
			strides[k] *= 2
		}
		span = 2*n + 1
		offset = 1
	}
	data := make([]byte, span*elem+3)
	for i := 0; i < n; i++ {
		off := offset
		for k, c := range Unravel(i, shape) {
			off += c * strides[k]
		}
		positionBytes(data[off*elem:(off+1)*elem], i)
	}
	_ = nd
	return View{Elem: elem, Shape: shape, Strides: strides, Offset: offset, Data: data}, layout
}

// checkIndex runs expr on v (whose elements identify their positions) and
// compares result and errors with the oracle.
func checkIndex(t *testing.T, v View, expr string, threads int) {
	t.Helper()
	items, perr := pylit.ParseIndex(expr)
	if perr != nil {
		return
	}
	x, err := v.Index(items)
	shape, src, oerr := naiveIndex(v.Shape, items, 1<<18)
	if (err != nil) != (oerr != nil) {
		t.Fatalf("%v %q: engine error %v, oracle error %v", v.Shape, expr, err, oerr)
	}
	if err != nil {
		return
	}
	if !slices.Equal(x.Shape, shape) {
		t.Fatalf("%v %q: shape %v, oracle %v", v.Shape, expr, x.Shape, shape)
	}
	if src == nil && Count(shape) > 0 {
		return
	}
	const guard = 16
	buf := make([]byte, len(src)*v.Elem+2*guard)
	for k := range buf {
		buf[k] = 0xA5
	}
	dst := buf[guard : guard+len(src)*v.Elem]
	if err := x.Write(dst, Options{Threads: threads}); err != nil {
		t.Fatalf("%v %q: write: %v", v.Shape, expr, err)
	}
	for k := 0; k < guard; k++ {
		if buf[k] != 0xA5 || buf[len(buf)-1-k] != 0xA5 {
			t.Fatalf("%v %q: wrote outside the destination", v.Shape, expr)
		}
	}
	want := make([]byte, v.Elem)
	for i, s := range src {
		pos := 0
		for k, c := range s {
			pos = pos*v.Shape[k] + c
		}
		positionBytes(want, pos)
		if got := dst[i*v.Elem : (i+1)*v.Elem]; !bytes.Equal(got, want) {
			t.Fatalf("%v %q: element %d (source %v) is %x, want %x", v.Shape, expr, i, s, got, want)
		}
	}
}

func TestSliceOracle(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(1))
	elems := []int{1, 2, 3, 4, 8, 16}
	cases := 4000
	if testing.Short() {
		cases = 500
	}
	for c := 0; c < cases; c++ {
		nd := r.Intn(5)
		shape := make([]int, nd)
		for k := range shape {
			shape[k] = r.Intn(5)
			if r.Intn(6) != 0 {
				shape[k]++
			}
		}
		elem := elems[r.Intn(len(elems))]
		v, layout := layoutView(r, shape, elem)
		expr := randomExpr(r, shape)
		t.Run(fmt.Sprintf("%d/%v/%s/e%d/%s", c, shape, layout, elem, expr), func(t *testing.T) {
			checkIndex(t, v, expr, 1+r.Intn(3))
		})
	}
}

// TestSliceLarge exercises the threaded paths: blocks and element gathers
// above the parallel threshold, in every layout.
func TestSliceLarge(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(2))
	exprs := []string{
		"::-1, [0, 5, -1]", "[3, 1, 2], ::2", "[[0, 1], [2, 3]], :, [1]", "..., [7, 0, 3]",
		"1:, [True" + strings.Repeat(", False, True", 14) + "], 3", "None, 5:1:-1, [[0], [2]], [1, 2, 3]",
		"[" + strings.Repeat("1, ", 300) + "0], ...", ":, :, [0, 2, 5]",
	}
	for _, shape := range [][]int{{40, 29, 33}, {64, 29, 8}} {
		for _, elem := range []int{1, 4, 16} {
			v, layout := layoutView(r, shape, elem)
			for _, e := range exprs {
				t.Run(fmt.Sprintf("%v/%s/e%d/%s", shape, layout, elem, e), func(t *testing.T) {
					checkIndex(t, v, e, 4)
				})
			}
		}
	}
}

// TestSliceBasicIsView checks that basic indexing moves nothing: the
// result is a view with the expected offset and strides.
func TestSliceBasicIsView(t *testing.T) {
	v := Contiguous(8, []int{4, 5, 6}, make([]byte, 8*120))
	items, err := pylit.ParseIndex("1, ::-2, None, 2:5")
	if err != nil {
		t.Fatal(err)
	}
	x, err := v.Index(items)
	if err != nil {
		t.Fatal(err)
	}
	w, ok := x.Basic()
	if !ok {
		t.Fatal("basic indexing is not a view")
	}
	if fmt.Sprint(w.Shape, w.Strides, w.Offset) != "[3 1 3] [-12 0 1] 56" {
		t.Fatalf("view %v %v %d", w.Shape, w.Strides, w.Offset)
	}
	if &w.Data[0] != &v.Data[0] {
		t.Fatal("the view does not share storage")
	}
}

func FuzzSliceExpr(f *testing.F) {
	seeds := []string{
		"0", "-1", "1:, ::-1, None, [0,2]", "[1:, 0]", ":", "::", "1:2:3", "-2:0:-1", "None:None:None",
		"True:False", "...", "Ellipsis, 0", "newaxis, np.newaxis", "True", "False, ..., [1]", "[[0, 2]]",
		"[0, 2],", "[[True, False]]", "[[True, 2]]", "[[]]", "(),", "()", "(0, 1)", "((1, 2),)", "-(1)",
		"- - 1", "-True", "0x1f, 0o17, 0b101, 1_000", "0:99999999999999999999999", "[[0,1],[1,0]], [[1],[2]], ::-1",
		"0, :, [[1,2],[0,0]]", "1, [2, 0], [[3],[1]]", ":, [0], ..., [0]", "[[True,False,True],[False,True,True]],",
		"[[5]], []", "1.5", "[1,", "1:2:3:4", "01", "foo", "[None]", "[[0, 1], [2]],", "(1:2)", "-[1]",
		"99999999999999999999", "..., ...", "::0", "[0,1],[0,1,2]", "None, None, None, None, None",
		"::9223372036854775807", "::-9223372036854775808", "[-9223372036854775808],", "1, 2, 3, 4",
		strings.Repeat("[", 33) + "0" + strings.Repeat("]", 33), "[1 2]", "0 ; 1", "\xff",
		"[]", "[0, 2]", "[True, False]", "[1:3]", "[0, ::-1]", strings.Repeat("True, ", 32) + "0",
		strings.Repeat("True,", 33), strings.Repeat("[0],", 31) + "True", strings.Repeat("None,", 65),
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Long inputs add nothing the parser's linear loops have not seen
		// and make the fuzzer's quadratic minimisation stall for a minute.
		if len(s) > 300 {
			s = s[:300]
		}
		checkSliceExpr(t, s)
	})
}

// fuzzArrays are the arrays every fuzzed expression indexes.
var fuzzArrays = func() []View {
	arrays := []View{
		Contiguous(2, []int{2, 3, 4}, make([]byte, 48)),
		Contiguous(1, []int{}, make([]byte, 1)),
		Contiguous(4, []int{5}, make([]byte, 20)),
		Contiguous(8, []int{0, 3}, nil),
	}
	for k := range arrays {
		for i := range arrays[k].Data {
			arrays[k].Data[i] = byte(i)
		}
	}
	return arrays
}()

// checkSliceExpr is the fuzz property: s parses or fails with a column;
// what parses indexes the fuzz arrays exactly as the oracle does.
func checkSliceExpr(t *testing.T, s string) {
	items, err := pylit.ParseIndex(s)
	if err != nil {
		if !strings.Contains(err.Error(), "column ") {
			t.Fatalf("error without a column: %v", err)
		}
		return
	}
	for _, it := range items {
		switch it.Kind {
		case pylit.IndexArray:
			if len(it.Ints) != Count(it.Shape) {
				t.Fatalf("%d values for shape %v", len(it.Ints), it.Shape)
			}
		case pylit.IndexBoolArray:
			if len(it.Bools) != Count(it.Shape) {
				t.Fatalf("%d values for shape %v", len(it.Bools), it.Shape)
			}
		}
	}
	for _, v := range fuzzArrays {
		x, err := v.Index(items)
		// Results past a few thousand elements (broadcast index lists)
		// are checked by shape only: listing them makes each run slow.
		shape, src, oerr := naiveIndex(v.Shape, items, 1<<12)
		if (err != nil) != (oerr != nil) {
			t.Fatalf("%v %q: engine error %v, oracle error %v", v.Shape, s, err, oerr)
		}
		if err != nil {
			continue
		}
		if !slices.Equal(x.Shape, shape) {
			t.Fatalf("%v %q: shape %v, oracle %v", v.Shape, s, x.Shape, shape)
		}
		if src == nil && Count(shape) > 0 {
			continue
		}
		dst := make([]byte, len(src)*v.Elem)
		if err := x.Write(dst, Options{Threads: 2}); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		for i, sidx := range src {
			off := v.Offset
			for k, c := range sidx {
				off += c * v.Strides[k]
			}
			if !bytes.Equal(dst[i*v.Elem:(i+1)*v.Elem], v.Data[off*v.Elem:(off+1)*v.Elem]) {
				t.Fatalf("%v %q: element %d differs from the oracle", v.Shape, s, i)
			}
		}
	}
}

func BenchmarkSlice(b *testing.B) {
	shape := []int{512, 256, 64}
	v := Contiguous(4, shape, make([]byte, 4*Count(shape)))
	for _, expr := range []string{"::-1, 10:200, ::2", "[3, 100, 7, 400]", ":, [5, 1, 9], ::3", "[[0, 511], [7, 8]], :, [1, 63]"} {
		items, err := pylit.ParseIndex(expr)
		if err != nil {
			b.Fatal(err)
		}
		x, err := v.Index(items)
		if err != nil {
			b.Fatal(err)
		}
		dst := make([]byte, Count(x.Shape)*4)
		b.Run(expr, func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			done := cpuTime(b)
			for i := 0; i < b.N; i++ {
				if err := x.Write(dst, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			done()
		})
	}
}
