package cmd

// diagonalSeeds are the diagonal cases FuzzCommand keeps a seed for.
var diagonalSeeds = []commandSeed{
	{"diagonal offset", 1555, has("diagonal", "--offset", "shape [3 4")},
	{"diagonal huge offset", 9, has("diagonal", "--offset 9223372036854775807")},
	{"diagonal negative axes", 769, has("diagonal", "--axis1 -1", "--axis2")},
	{"diagonal of a 1-d array", 1264, refused("diagonal", "shape [4]")},
}

// diagonal models numpy.diagonal(a, offset, axis1, axis2): both axes
// removed and the diagonal, as long as the offset leaves it, appended as
// the last axis; a 0-d or 1-d input, an axis out of range or twice the
// same axis is refused.
func (c *fcase) diagonal(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	k, ax1, ax2 := int64(0), 0, 1
	if s.n(3) > 0 {
		k = genOffset(s)
		o.flag(s, "--offset", intText(s, k))
	}
	if s.n(3) > 0 {
		ax1 = genAxis(s, nd)
		o.flag(s, []string{"--axis1", "--dim1"}[s.n(2)], intText(s, int64(ax1)))
	}
	if s.n(3) > 0 {
		ax2 = genAxis(s, nd)
		o.flag(s, []string{"--axis2", "--dim2"}[s.n(2)], intText(s, int64(ax2)))
	}
	c.args = o.line(s, "diagonal")
	norm := func(ax int) (int, bool) {
		if ax < -nd || ax >= nd {
			return 0, false
		}
		if ax < 0 {
			ax += nd
		}
		return ax, true
	}
	a1, ok1 := norm(ax1)
	a2, ok2 := norm(ax2)
	if fail || short || nd < 2 || !ok1 || !ok2 || a1 == a2 {
		c.fail = true
		return
	}
	n1, n2 := int64(a.shape[a1]), int64(a.shape[a2])
	length := int64(0)
	if k >= 0 && k < n2 {
		length = min(n1, n2-k)
	} else if k < 0 && k > -n1 {
		length = min(n1+k, n2)
	}
	var outShape, others []int
	for d := 0; d < nd; d++ {
		if d != a1 && d != a2 {
			outShape = append(outShape, a.shape[d])
			others = append(others, d)
		}
	}
	outShape = append(outShape, int(length))
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		for j, d := range others {
			in[d] = idx[j]
		}
		i := int64(idx[len(idx)-1])
		in[a1], in[a2] = int(i+max(0, -k)), int(i+max(0, k))
		return a.at(in)
	}))
}
