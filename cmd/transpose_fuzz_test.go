package cmd

import (
	"strconv"
	"strings"
)

// transposeSeeds are the transpose cases FuzzCommand keeps a seed for.
var transposeSeeds = []commandSeed{
	{"transpose c16 Fortran", 775, has("transpose", "--axes", "<c16", "fortran=true")},
	{"transpose big-endian f2 to stdout", 2658, has("transpose", ">f2", "-o -")},
	{"transpose -o naming the input", 63, has("transpose", "-o @/in.npy @/in.npy")},
	{"transpose bad axes", 105, refused("transpose", "--perm")},
	{"transpose 300x130 on threads", 8370, has("transpose", "--threads", "shape [300")},
	{"short input", 105, refused("transpose", "fortran=true")},
}

// transpose models numpy.transpose(a, axes): the axes reversed unless
// --axes (--perm, --dims) gives a permutation, negative axes counted from
// the end; anything but a permutation of every axis is refused. The
// output's element at idx is the input's at idx permuted back.
func (c *fcase) transpose(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	perm := make([]int, nd)
	for k := range perm {
		perm[k] = nd - 1 - k
	}
	var given []int
	switch s.n(4) {
	case 1, 2: // a valid permutation, axes sometimes negative
		given = make([]int, nd)
		for k := range given {
			given[k] = k
		}
		for k := nd - 1; k > 0; k-- {
			j := s.n(k + 1)
			given[k], given[j] = given[j], given[k]
		}
		for k := range given {
			if s.n(3) == 1 {
				given[k] -= nd
			}
		}
	case 3: // anything
		given = make([]int, s.n(nd+2))
		for k := range given {
			given[k] = s.n(2*nd+3) - nd - 1
		}
	}
	if given != nil {
		txt := make([]string, len(given))
		for k, g := range given {
			txt[k] = strconv.Itoa(g)
		}
		list := strings.Join(txt, ",")
		switch s.n(4) {
		case 1:
			list = "(" + list + ")"
		case 2:
			list = "[" + strings.Join(txt, ", ") + "]"
		}
		o.flag(s, []string{"--axes", "--perm", "--dims"}[s.n(3)], list)
		if len(given) != nd {
			fail = true
		}
		seen := map[int]bool{}
		for k, g := range given {
			if g < -nd || g >= nd {
				fail = true
				break
			}
			if g < 0 {
				g += nd
			}
			if k < nd {
				perm[k] = g
			}
			if seen[g] {
				fail = true
			}
			seen[g] = true
		}
	}
	c.args = o.line(s, "transpose")
	if fail || short {
		c.fail = true
		return
	}
	outShape := make([]int, nd)
	for k, p := range perm {
		outShape[k] = a.shape[p]
	}
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		for k, p := range perm {
			in[p] = idx[k]
		}
		return a.at(in)
	}))
}
