package cmd

import (
	"math"
	"strconv"
	"strings"
)

// sliceSeeds are the slice cases FuzzCommand keeps a seed for.
var sliceSeeds = []commandSeed{
	{"slice basic", 4691, has("slice", "::-1")},
	{"slice advanced apart", 27696, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced apart (it matters)" && strings.Contains(line, "...")
	}},
	{"slice advanced apart by an empty ellipsis", 87681, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced apart by an empty ellipsis (it matters)"
	}},
	{"slice advanced together", 195, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced" && strings.Contains(line, "None")
	}},
	{"slice booleans", 243, has("slice", "True, False")},
	{"slice huge bounds", 768, has("slice", "9223372036854775807:")},
	{"slice from stdin", 611, has("slice", "-- - ")},
	{"slice of a 40000-element vector", 1185, has("slice", "shape [4000")},
}

// The kinds of an index expression's items (sitem.kind).
const (
	siInt = iota
	siSlice
	siEllipsis
	siNone
	siList
	siBoolList
	siBool
)

type sitem struct {
	kind                       int
	v                          int64
	start, stop, step          int64
	hasStart, hasStop, hasStep bool
	shape                      []int
	ints                       []int64
	bools                      []bool
}

func pyInt(s *fsrc, v int64) string {
	switch {
	case v >= 0 && s.rare(12):
		return "0x" + strconv.FormatInt(v, 16)
	case s.rare(12):
		return "(" + strconv.FormatInt(v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

func (it sitem) text(s *fsrc) string {
	switch it.kind {
	case siInt:
		return pyInt(s, it.v)
	case siSlice:
		var b strings.Builder
		if it.hasStart {
			b.WriteString(pyInt(s, it.start))
		}
		b.WriteByte(':')
		if it.hasStop {
			b.WriteString(pyInt(s, it.stop))
		}
		if it.hasStep {
			b.WriteString(":" + pyInt(s, it.step))
		} else if s.rare(4) {
			b.WriteString(":")
		}
		return b.String()
	case siEllipsis:
		return "..."
	case siNone:
		return "None"
	case siList:
		return literal(it.shape, it.ints)
	case siBool:
		if it.v != 0 {
			return "True"
		}
		return "False"
	}
	parts := make([]string, len(it.bools))
	for k, b := range it.bools {
		parts[k] = "False"
		if b {
			parts[k] = "True"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func genSliceBound(s *fsrc) int64 {
	if s.rare(10) {
		return []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 40}[s.n(4)]
	}
	return int64(s.n(15) - 7)
}

// genItems makes the items of an index expression for an array of the
// shape, mostly valid: integers and list values within the axis they
// probably index (an ellipsis makes that a guess), boolean lists as long
// as that axis.
func genItems(s *fsrc, shape []int) []sitem {
	nd := len(shape)
	items := make([]sitem, s.n(nd+3))
	ax := 0
	dim := func() int {
		if ax < nd {
			return shape[ax]
		}
		return 1 + s.n(3)
	}
	for k := range items {
		it := &items[k]
		switch v := s.n(16); {
		case v < 4:
			it.kind, it.v = siInt, genIndex(s, dim())
			ax++
		case v < 9:
			it.kind = siSlice
			if it.hasStart = s.n(2) == 1; it.hasStart {
				it.start = genSliceBound(s)
			}
			if it.hasStop = s.n(2) == 1; it.hasStop {
				it.stop = genSliceBound(s)
			}
			if it.hasStep = s.n(2) == 1; it.hasStep {
				it.step = []int64{1, 2, -1, -2, 3, -3, 1, -1}[s.n(8)]
				if s.rare(12) {
					it.step = []int64{0, math.MinInt64, math.MaxInt64, 1 << 40}[s.n(4)]
				}
			}
			ax++
		case v < 10:
			it.kind = siEllipsis
		case v < 11:
			it.kind = siNone
		case v < 14:
			it.kind = siList
			switch s.n(4) {
			case 0, 1:
				it.shape = []int{s.n(4)}
			case 2:
				it.shape = []int{1 + s.n(2), 1 + s.n(2)}
			case 3:
				it.shape = []int{1 + s.n(3), 1}
			}
			n := dim()
			for range count(it.shape) {
				it.ints = append(it.ints, genIndex(s, n))
			}
			ax++
		case v < 15:
			it.kind = siBoolList
			n := dim()
			if s.rare(8) {
				n = s.n(6)
			}
			if n == 0 {
				// "[]" is an empty integer list, as in NumPy.
				it.kind, it.shape = siList, []int{0}
				ax++
				break
			}
			it.shape = []int{n}
			for range n {
				it.bools = append(it.bools, s.n(2) == 1)
			}
			ax++
		default:
			it.kind, it.v = siBool, int64(s.n(2))
		}
	}
	return items
}

// pySlice is Python's slice.indices(n): start, step and length.
func pySlice(it sitem, n int64) (start, step, length int64, ok bool) {
	step = 1
	if it.hasStep {
		if it.step == 0 {
			return 0, 0, 0, false
		}
		step = max(it.step, -math.MaxInt64)
	}
	start, stop := int64(0), int64(math.MaxInt64)
	if step < 0 {
		start, stop = math.MaxInt64, math.MinInt64
	}
	if it.hasStart {
		start = it.start
	}
	if it.hasStop {
		stop = it.stop
	}
	adjust := func(v int64) int64 {
		if v < 0 {
			v += n
			if v < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if v >= n {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return v
	}
	start, stop = adjust(start), adjust(stop)
	if step < 0 {
		if stop < start {
			length = (start-stop-1)/(-step) + 1
		}
	} else if start < stop {
		length = (stop-start-1)/step + 1
	}
	return start, step, length, true
}

// sliceModel is a[items] by NumPy's rules, written out: it returns the
// result's shape and, for an index of the result, the index of the input.
func sliceModel(shape []int, items []sitem) (_ []int, _ func([]int) []int, note string, ok bool) {
	nd := len(shape)
	used, ells := 0, 0
	for _, it := range items {
		switch it.kind {
		case siEllipsis:
			ells++
		case siInt, siSlice, siList:
			used++
		case siBoolList:
			used += len(it.shape)
		}
	}
	if ells > 1 || used > nd {
		return nil, nil, "", false
	}
	type ent struct {
		kind       int // siInt, siSlice, siNone, siList (bool lists too), siBool, and siEllipsis for one axis it spans
		axis       int
		v          int64 // siInt: the resolved position
		start, stp int64 // siSlice
		n          int   // siSlice: length
		shape      []int // siList, siBool
		vals       []int64
		zero       bool // siEllipsis standing for no axis
	}
	var ents []ent
	ax := 0
	ellipsis := func() {
		if nd-used == 0 {
			ents = append(ents, ent{kind: siEllipsis, zero: true})
		}
		for j := 0; j < nd-used; j++ {
			ents = append(ents, ent{kind: siEllipsis, axis: ax})
			ax++
		}
	}
	for _, it := range items {
		switch it.kind {
		case siEllipsis:
			ellipsis()
		case siBoolList:
			k := len(it.shape)
			for j := 0; j < k; j++ {
				if it.shape[j] != shape[ax+j] {
					return nil, nil, "", false
				}
			}
			coords := make([][]int64, k)
			i := 0
			each(it.shape, func(idx []int) {
				if it.bools[i] {
					for j := range coords {
						coords[j] = append(coords[j], int64(idx[j]))
					}
				}
				i++
			})
			for j := 0; j < k; j++ {
				ents = append(ents, ent{kind: siList, axis: ax, shape: []int{len(coords[j])}, vals: coords[j]})
				ax++
			}
		case siList:
			ents = append(ents, ent{kind: siList, axis: ax, shape: it.shape, vals: it.ints})
			ax++
		case siInt:
			n := int64(shape[ax])
			if it.v < -n || it.v >= n {
				return nil, nil, "", false
			}
			v := it.v
			if v < 0 {
				v += n
			}
			ents = append(ents, ent{kind: siInt, axis: ax, v: v})
			ax++
		case siSlice:
			start, step, length, ok := pySlice(it, int64(shape[ax]))
			if !ok {
				return nil, nil, "", false
			}
			ents = append(ents, ent{kind: siSlice, axis: ax, start: start, stp: step, n: int(length)})
			ax++
		case siNone:
			ents = append(ents, ent{kind: siNone})
		case siBool:
			n := int(it.v)
			ents = append(ents, ent{kind: siBool, shape: []int{n}, vals: make([]int64, n)})
		}
	}
	if ells == 0 && used < nd {
		ellipsis()
	}
	advanced := false
	for _, e := range ents {
		if e.kind == siList || e.kind == siBool {
			advanced = true
		}
	}
	isAdv := func(e ent) bool {
		return e.kind == siList || e.kind == siBool || advanced && e.kind == siInt
	}
	// The advanced entries are adjacent when no other entry stands
	// between the first and the last of them. An ellipsis standing for no
	// axis still separates them (NumPy's mapiter).
	first, last := -1, -1
	for k, e := range ents {
		if isAdv(e) {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	adjacent, byEmpty := true, true
	for k := first + 1; k < last; k++ {
		if !isAdv(ents[k]) {
			adjacent = false
			byEmpty = byEmpty && ents[k].zero
		}
	}
	switch {
	case !adjacent && byEmpty:
		note = "advanced apart by an empty ellipsis"
	case !adjacent:
		note = "advanced apart"
	case advanced:
		note = "advanced"
	}
	// The basic axes of the result, in order, and how many stand before the
	// first advanced entry.
	type bdim struct {
		axis       int // -1 for None
		start, stp int64
		n          int
	}
	var basic []bdim
	pre := 0
	for k, e := range ents {
		var d bdim
		switch e.kind {
		case siSlice:
			d = bdim{e.axis, e.start, e.stp, e.n}
		case siEllipsis:
			if e.zero {
				continue
			}
			d = bdim{e.axis, 0, 1, shape[e.axis]}
		case siNone:
			d = bdim{-1, 0, 0, 1}
		default:
			continue
		}
		basic = append(basic, d)
		if first < 0 || k < first {
			pre++
		}
	}
	// Broadcast the index arrays.
	var bshape []int
	var fancy []ent
	for _, e := range ents {
		if e.kind != siList && e.kind != siBool {
			continue
		}
		fancy = append(fancy, e)
		for len(bshape) < len(e.shape) {
			bshape = append([]int{1}, bshape...)
		}
		off := len(bshape) - len(e.shape)
		for j, d := range e.shape {
			switch {
			case bshape[off+j] == d || d == 1:
			case bshape[off+j] == 1:
				bshape[off+j] = d
			default:
				return nil, nil, "", false
			}
		}
	}
	if !adjacent && pre > 0 && len(bshape) > 0 {
		// Where the block goes changes the result's shape here.
		note += " (it matters)"
	}
	if !adjacent {
		pre = 0
	}
	var out []int
	for _, d := range basic[:pre] {
		out = append(out, d.n)
	}
	out = append(out, bshape...)
	for _, d := range basic[pre:] {
		out = append(out, d.n)
	}
	if len(out) > 32 {
		return nil, nil, "", false
	}
	if count(out) > 0 {
		for _, e := range fancy {
			n := int64(1)
			if e.kind == siList {
				n = int64(shape[e.axis])
			}
			for _, v := range e.vals {
				if v < -n || v >= n {
					return nil, nil, "", false
				}
			}
		}
	}
	in := make([]int, nd)
	return out, func(o []int) []int {
		for _, e := range ents {
			if e.kind == siInt {
				in[e.axis] = int(e.v)
			}
		}
		rest := append(append([]int{}, o[:pre]...), o[pre+len(bshape):]...)
		for j, d := range basic {
			if d.axis >= 0 {
				in[d.axis] = int(d.start + int64(rest[j])*d.stp)
			}
		}
		bidx := o[pre : pre+len(bshape)]
		for _, e := range fancy {
			if e.kind != siList {
				continue
			}
			flat, step := 0, 1
			for j := len(e.shape) - 1; j >= 0; j-- {
				i := bidx[len(bshape)-len(e.shape)+j]
				if e.shape[j] == 1 {
					i = 0
				}
				flat += i * step
				step *= e.shape[j]
			}
			v := e.vals[flat]
			if v < 0 {
				v += int64(shape[e.axis])
			}
			in[e.axis] = int(v)
		}
		return in
	}, note, true
}

// slice models a[EXPR] by NumPy's indexing rules (sliceModel): the items
// written as Python (hex and parenthesised integers, lists, booleans), a
// lone list bare or as a one-item tuple.
func (c *fcase) slice(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	out, fail := c.shared(s, o, file)
	items := genItems(s, a.shape)
	parts := make([]string, len(items))
	for k, it := range items {
		parts[k] = it.text(s)
	}
	expr := strings.Join(parts, ", ")
	switch {
	case len(items) == 0:
		expr = "()"
	case s.n(3) == 1 && len(items) == 1 && (items[0].kind == siList || items[0].kind == siBoolList):
		// A lone list written bare: EXPR is exactly what stands between a[
		// and ], so "[0, 2]" is a[[0, 2]].
	case len(items) == 1 && (items[0].kind == siList || items[0].kind == siBoolList):
		expr += "," // the same list as a one-item tuple
	case s.rare(4):
		expr += ","
	}
	o.pos = []string{spec, expr}
	c.args = o.line(s, "slice")
	c.desc += "; expr " + expr
	shape, src, note, ok := sliceModel(a.shape, items)
	c.note = note
	if !ok || fail || short {
		c.fail = true
		return
	}
	c.finish(false, out, expected(a.dt, shape, func(idx []int) []byte { return a.at(src(idx)) }))
}
