package cmd

import (
	"fmt"
	"math"
	"strconv"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// trilSeeds are the tril-indices cases FuzzCommand keeps a seed for.
var trilSeeds = []commandSeed{
	{"tril", 3363, has("tril-indices", "--offset", "--dtype int32")},
	{"tri negative size", 387, refused("tril-indices", " -2")},
}

// triuSeeds are the triu-indices cases FuzzCommand keeps a seed for.
var triuSeeds = []commandSeed{
	{"triu", 104, has("triu-indices", "-k")},
	{"triu huge rows", 840, has("triu-indices", "1099511627776")},
}

// tril and triu model tril-indices and triu-indices (tri).
func (c *fcase) tril(s *fsrc, _ *farray) { c.tri(s, false) }
func (c *fcase) triu(s *fsrc, _ *farray) { c.tri(s, true) }

// tri models numpy.tril_indices(rows, k, cols) (numpy.triu_indices when
// upper): the (2, N) array of the rows then the columns of the pairs kept,
// in int64 or, with --dtype int32, int32.
func (c *fcase) tri(s *fsrc, upper bool) {
	o := &opts{}
	name := "tril-indices"
	if upper {
		name = "triu-indices"
	}
	out, fail := c.shared(s, o, "")
	size := func() (int64, string) {
		switch s.n(16) {
		case 13:
			return -1, "-" + strconv.Itoa(1+s.n(3))
		case 14:
			return -1, []string{"x", "1.5", "", "0x3"}[s.n(4)]
		case 15:
			return 1 << 40, "1099511627776"
		}
		v := int64(s.n(8))
		return v, intText(s, v)
	}
	rows, rtxt := size()
	cols := rows
	o.pos = []string{rtxt}
	if s.n(2) == 1 {
		var ctxt string
		cols, ctxt = size()
		o.pos = append(o.pos, ctxt)
	}
	if s.rare(16) {
		for len(o.pos) < 3 {
			o.pos = append(o.pos, "3") // too many arguments
		}
		fail = true
	}
	k := int64(0)
	if s.n(2) == 1 {
		k = genOffset(s)
		o.flag(s, []string{"--offset", "-k"}[s.n(2)], intText(s, k))
	}
	dt := dtype.Int64
	switch s.n(8) {
	case 1:
		name := []string{"int64", "i8", "<i8", "q", "long"}[s.n(5)]
		o.flag(s, "--dtype", name)
	case 2, 3:
		dt.Size = 4
		o.flag(s, "--dtype", []string{"int32", "i4", "<i4", "intc"}[s.n(4)])
	case 4:
		o.flag(s, "--dtype", []string{"int16", "float64", ">i8", "uint32", "", "bool"}[s.n(6)])
		fail = true
	}
	c.args = o.line(s, name)
	c.desc = fmt.Sprintf("rows %d cols %d offset %d", rows, cols, k)
	if fail || rows < 0 || cols < 0 {
		c.fail = true
		return
	}
	var rs, cs []int64
	if rows >= 1<<40 || cols >= 1<<40 {
		// Too large to loop over every pair: row r holds the columns
		// [0, r+k] (tril) or [r+k, cols) (triu), and only rows that hold a
		// pair are visited; a case with more than a million pairs must be
		// refused, as no such output fits MaxTriBytes here.
		kk := min(max(k, -rows-1), cols+1) // selects the same pairs
		r0, r1 := int64(0), rows
		if upper {
			r1 = min(rows, max(0, cols-kk))
		} else {
			r0 = min(rows, max(0, -kk))
		}
		if cols == 0 {
			r1 = r0 // no row holds a pair
		}
		if r1-r0 > 1<<20 {
			c.fail = true
			return
		}
		for r := r0; r < r1; r++ {
			lo, hi := int64(0), min(cols, r+kk+1)
			if upper {
				lo, hi = max(0, r+kk), cols
			}
			if hi-lo > 1<<20 || int64(len(rs)) > 1<<20 {
				c.fail = true
				return
			}
			for q := lo; q < hi; q++ {
				rs, cs = append(rs, r), append(cs, q)
			}
		}
		c.triOut(dt, out, rs, cs)
		return
	}
	for r := int64(0); r < rows; r++ {
		for q := int64(0); q < cols; q++ {
			in := q-r <= k
			if upper {
				in = q-r >= k
			}
			if in {
				rs, cs = append(rs, r), append(cs, q)
			}
		}
	}
	c.triOut(dt, out, rs, cs)
}

// triOut expects the (2, N) array of rows rs over columns cs, refused when
// an int32 cannot hold an index.
func (c *fcase) triOut(dt dtype.Dtype, out string, rs, cs []int64) {
	want := testkit.SaveHeader(dt.Descr(), false, []int{2, len(rs)})
	for _, v := range append(rs, cs...) {
		if dt.Size == 4 && v > math.MaxInt32 {
			c.fail = true
			return
		}
		b := make([]byte, dt.Size)
		putBits(b, uint64(v), dt.Size, false)
		want = append(want, b...)
	}
	c.finish(false, out, want)
}
