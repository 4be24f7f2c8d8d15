package cmd

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// sortSeeds are the sort cases FuzzCommand keeps a seed for.
var sortSeeds = []commandSeed{
	{"sort f4 NaNs", 1368, has("sort", "<f4", "0000c07f")},
	{"sort descending complex", 359, has("sort", "--descending", "c16")},
	{"sort nans first", 6245, has("sort", "--nans first", ">f8")},
	{"sort argsort", 1699, has("sort", "--argsort", "i8")},
	{"sort indices to a file", 412, has("sort", "--indices @/idx.npy", "--axis")},
	{"sort indices to stdout", 6337, has("sort", "--indices -", "-o @/out.npy")},
	{"sort f2", 3373, has("sort", "<f2", "--nans last")},
	{"sort bools", 27518, has("sort", "|b1", "shape [3 4")},
	{"sort 0-d", 244, refused("sort", "shape []")},
	{"sort a long strip (radix)", 2305, has("sort", "f8", "shape [1000")},
	{"sort descending long strip", 4477, has("sort", "--descending", " 257]")},
}

type sortKey struct {
	kind byte
	nan  bool
	cls  int // complex: 2*isnan(re) + isnan(im)
	b    byte
	i    *big.Int
	f    [2]float64
}

func sortKeyOf(b []byte, dt dtype.Dtype) sortKey {
	k := sortKey{kind: dt.Kind}
	switch dt.Kind {
	case 'b':
		k.b = b[0]
	case 'i', 'u':
		k.i = bigInt(b, dt)
	case 'f':
		k.f[0] = dt.Float(b)
		k.nan = math.IsNaN(k.f[0])
	case 'c':
		z := dt.Complex(b)
		k.f = [2]float64{real(z), imag(z)}
		if math.IsNaN(real(z)) {
			k.cls += 2
		}
		if math.IsNaN(imag(z)) {
			k.cls++
		}
		k.nan = k.cls > 0
	}
	return k
}

// numpyLess is NumPy's ascending order: NaN greatest, -0 == +0, complex by
// (real, imag) with R+Rj < R+nanj < nan+Rj < nan+nanj, bools by byte.
func numpyLess(a, b sortKey) bool {
	switch a.kind {
	case 'b':
		return a.b < b.b
	case 'i', 'u':
		return a.i.Cmp(b.i) < 0
	case 'f':
		if a.nan || b.nan {
			return !a.nan && b.nan
		}
		return a.f[0] < b.f[0]
	}
	if a.cls != b.cls {
		return a.cls < b.cls
	}
	for p := 0; p < 2; p++ {
		if math.IsNaN(a.f[p]) { // both NaN in this part
			continue
		}
		if a.f[p] != b.f[p] {
			return a.f[p] < b.f[p]
		}
	}
	return false
}

// sortCmd models numpy.sort and numpy.argsort (kind="stable") along an
// axis: every strip sorted by numpyLess with sort.SliceStable, NaNs last
// (first with --nans first, or descending without --nans), with the values,
// the int64 indices or both written in C order.
func (c *fcase) sortCmd(s *fsrc, a *farray) {
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
	desc := s.n(2) == 1
	if desc {
		o.flags = append(o.flags, "--descending")
	}
	if s.n(4) == 1 {
		o.flags = append(o.flags, "--stable")
	}
	nans := ""
	switch s.n(6) {
	case 1, 2:
		nans = "first"
	case 3, 4:
		nans = "last"
	case 5:
		if s.rare(3) {
			fail = true
			v := []string{"none", "nan", "First", ""}[s.n(4)]
			o.flag(s, "--nans", v)
		}
	}
	if nans != "" {
		o.flag(s, "--nans", nans)
	}
	// Outputs: values, indices, or both.
	wantVals, idxOut := true, ""
	switch s.n(8) {
	case 1, 2:
		wantVals = false
		idxOut = out
		o.flags = append(o.flags, "--argsort")
	case 3, 4:
		idxOut = "idx.npy"
		o.flag(s, "--indices", "@/idx.npy")
	case 5:
		// The indices on standard output and the values in a file, when
		// the values do not go there too.
		idxOut = "-"
		o.flag(s, "--indices", "-")
	case 6:
		fail = true
		switch s.n(3) {
		case 0:
			o.flag(s, "--indices", "@/idx.npy")
			o.flags = append(o.flags, "--argsort")
		case 1:
			o.flag(s, "--indices", "")
		case 2:
			o.flag(s, "--indices", "@/"+out) // the output itself ("@/-" is "-")
		}
	}
	if wantVals && idxOut == "-" && out == "-" {
		fail = true
	}
	c.args = fixAt(o.line(s, "sort"))
	if ax < -nd || ax >= nd || fail || short {
		c.fail = true
		return
	}
	if ax < 0 {
		ax += nd
	}
	nanFirst := nans == "first" || nans == "" && desc
	n := a.shape[ax]
	vals := testkit.SaveHeader(a.dt.Descr(), false, a.shape)
	idxs := testkit.SaveHeader(dtype.Int64.Descr(), false, a.shape)
	// Sort every strip, then write both outputs in C order.
	sortedPos := map[string][]int{}
	strip := make([]int, nd)
	each(a.shape, func(idx []int) {
		if idx[ax] != 0 {
			return
		}
		keys := make([]sortKey, n)
		pos := make([]int, n)
		copy(strip, idx)
		for i := range pos {
			pos[i] = i
			strip[ax] = i
			keys[i] = sortKeyOf(a.at(strip), a.dt)
		}
		sort.SliceStable(pos, func(x, y int) bool {
			kx, ky := keys[pos[x]], keys[pos[y]]
			if kx.nan != ky.nan {
				if nanFirst {
					return kx.nan
				}
				return ky.nan
			}
			if desc {
				return numpyLess(ky, kx)
			}
			return numpyLess(kx, ky)
		})
		sortedPos[fmt.Sprint(idx)] = pos
	})
	each(a.shape, func(idx []int) {
		j := idx[ax]
		copy(strip, idx)
		strip[ax] = 0
		p := sortedPos[fmt.Sprint(strip)][j]
		strip[ax] = p
		vals = append(vals, a.at(strip)...)
		idxs = binary.LittleEndian.AppendUint64(idxs, uint64(p))
	})
	if wantVals {
		c.want[out] = vals
	}
	if idxOut != "" {
		c.want[idxOut] = idxs
	}
}

// fixAt turns "@/-" (standard output named through "@/"+out) back into "-".
func fixAt(args []string) []string {
	for k, a := range args {
		args[k] = strings.ReplaceAll(a, "@/-", "-")
	}
	return args
}
