package cmd

import "fmt"

// gatherElementsSeeds are the gather-elements cases FuzzCommand keeps a seed
// for.
var gatherElementsSeeds = []commandSeed{
	{"gather-elements", 106, has("gather-elements", "--axis", "shape [2 3")},
	{"gather-elements from an .npz", 106, has("gather-elements", ".npz:arr")},
	{"gather-elements wider index", 23, refused("gather-elements", "index shape [")},
}

// gatherElements models numpy.take_along_axis (torch.gather): an index file
// of the input's rank, no larger than the input off the axis, whose
// elements pick along the axis (raise mode only); a literal is refused.
func (c *fcase) gatherElements(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	ax := -1
	if s.n(3) > 0 {
		ax = genAxis(s, nd)
		o.flag(s, []string{"--axis", "--dim"}[s.n(2)], intText(s, int64(ax)))
	}
	axis := ax
	if ax < -nd || ax >= nd {
		fail = true
		axis = 0
	} else if ax < 0 {
		axis += nd
	}
	n := 3
	if axis < nd {
		n = a.shape[axis]
	}
	// The index shape: the input's rank, at most the input's extent off the
	// axis; sometimes a wrong rank or too large an extent.
	ind := nd
	if s.rare(10) {
		ind = s.n(4)
	}
	ishape := make([]int, ind)
	for k := range ishape {
		switch {
		case k == axis:
			ishape[k] = s.n(5)
		case k < nd:
			ishape[k] = s.n(a.shape[k] + 1)
			if s.rare(12) {
				ishape[k] = a.shape[k] + 1
			}
		default:
			ishape[k] = 1
		}
	}
	if ind != nd {
		fail = true
	}
	for k := range ishape {
		if k != axis && k < nd && ishape[k] > a.shape[k] {
			fail = true
		}
	}
	f := genIndexFile(s, ishape, n)
	if s.rare(16) {
		fail = true // a literal is not accepted here
		o.flag(s, "--index", "0")
	} else {
		ispec, _, ishort := c.input(s, f.arr, "idx.npy", spec != "-")
		o.flag(s, "--indices", ispec)
		fail = fail || ishort
	}
	c.args = o.line(s, "gather-elements")
	c.desc += fmt.Sprintf("; index shape %v values %v", ishape, f.vals)
	if fail || short {
		c.fail = true
		return
	}
	res := make([]int, len(f.vals))
	for k, v := range f.vals {
		i, ok := resolveIndex(v, n, "raise")
		if !ok {
			c.fail = true
			return
		}
		res[k] = i
	}
	ist := cstrides(ishape)
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, ishape, func(idx []int) []byte {
		copy(in, idx)
		in[axis] = res[dot(idx, ist)]
		return a.at(in)
	}))
}
