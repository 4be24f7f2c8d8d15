package cmd

import (
	"fmt"
	"math/big"
	"slices"

	"strider/internal/dtype"
)

// gatherSeeds are the gather cases FuzzCommand keeps a seed for.
var gatherSeeds = []commandSeed{
	{"gather literal", 3, has("gather", "--index [", "--axis")},
	{"gather flat", 20, has("gather", "--index [[")},
	{"gather wrap", 1613, has("gather", "--mode wrap", "--indices", ">i")},
	{"gather clip", 36845, has("gather", "--mode clip", "-9223372036854775808")},
	{"gather uint64 index", 85470, has("gather", "--indices", "<u8", "18446744073709551615")},
	{"gather 0-d", 10, has("gather", "--axis", "shape []")},
	{"gather out of range", 56, refused("gather", "--mode raise")},
	{"gather of 7x5000", 864, has("gather", "--axis", "shape [7")},
}

// gather models numpy.take(a, indices, axis, mode): the indices from an
// --index literal or an --indices file of any integer dtype, over the
// flattened input without --axis, resolved by raise, wrap or clip.
func (c *fcase) gather(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	shape := a.shape
	hasAxis := s.n(3) > 0
	axis, n := 0, count(a.shape)
	if hasAxis {
		if nd == 0 {
			shape = []int{1} // numpy.take ravels a 0-d array
		}
		ax := genAxis(s, len(shape))
		o.flag(s, "--axis", intText(s, int64(ax)))
		if ax < -len(shape) || ax >= len(shape) {
			fail = true
			n = 3
		} else {
			if ax < 0 {
				ax += len(shape)
			}
			axis, n = ax, shape[ax]
		}
	}
	mode := "raise"
	switch s.n(6) {
	case 1:
		o.flag(s, "--mode", "raise")
	case 2, 3:
		mode = "wrap"
		o.flag(s, "--mode", mode)
	case 4:
		mode = "clip"
		o.flag(s, "--mode", mode)
	case 5:
		if s.rare(4) {
			o.flag(s, "--mode", []string{"Raise", "", "wrapp"}[s.n(3)])
			fail = true
		}
	}
	// The index array: a literal or a file.
	var ishape []int
	var vals []*big.Int
	switch s.n(8) {
	default:
		switch s.n(5) {
		case 0:
			ishape = []int{}
		case 1, 2:
			ishape = []int{s.n(5)}
		case 3:
			ishape = []int{1 + s.n(2), s.n(3)}
		case 4:
			ishape = []int{0}
		}
		raw := make([]int64, count(ishape))
		for k := range raw {
			raw[k] = genIndex(s, n)
			vals = append(vals, big.NewInt(raw[k]))
		}
		o.flag(s, "--index", literal(ishape, raw))
	case 5, 6:
		ishape = genShape(s, 2)
		f := genIndexFile(s, ishape, n)
		vals = f.vals
		ispec, _, ishort := c.input(s, f.arr, "idx.npy", spec != "-")
		o.flag(s, "--indices", ispec)
		fail = fail || ishort
	case 7:
		// Both sources, an index file that does not hold integers, or
		// neither: refused.
		switch s.n(3) {
		case 0:
			o.flag(s, "--index", "0")
			c.files["idx.npy"] = (&farray{dt: intDtypes[0], shape: []int{}, data: make([]byte, intDtypes[0].Size)}).file()
			o.flag(s, "--indices", "@/idx.npy")
		case 1:
			dt := fuzzDtypes[s.n(4)] // f4, b1 or (as f8) i1, u1
			if dt.Kind == 'i' || dt.Kind == 'u' {
				dt = dtype.Dtype{Kind: 'f', Size: 8, Order: '>'}
			}
			c.files["idx.npy"] = genArray(s, dt, []int{2}).file()
			o.flag(s, "--indices", "@/idx.npy")
		}
		fail = true
	}
	c.args = o.line(s, "gather")
	c.desc += fmt.Sprintf("; index shape %v values %v mode %s", ishape, vals, mode)
	if fail || short {
		c.fail = true
		return
	}
	res := make([]int, len(vals))
	for k, v := range vals {
		i, ok := resolveIndex(v, n, mode)
		if !ok {
			c.fail = true
			return
		}
		res[k] = i
	}
	istr := cstrides(ishape)
	if !hasAxis {
		flat := make([][]int, 0, count(a.shape))
		each(a.shape, func(idx []int) { flat = append(flat, slices.Clone(idx)) })
		c.finish(false, out, expected(a.dt, ishape, func(idx []int) []byte {
			return a.at(flat[res[dot(idx, istr)]])
		}))
		return
	}
	outShape := append(append(append([]int{}, shape[:axis]...), ishape...), shape[axis+1:]...)
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		if nd == 0 {
			return a.at(nil)
		}
		copy(in, idx[:axis])
		copy(in[axis+1:], idx[axis+len(ishape):])
		in[axis] = res[dot(idx[axis:axis+len(ishape)], istr)]
		return a.at(in)
	}))
}
