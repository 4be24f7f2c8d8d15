package cuda

import (
	"fmt"
	"math"

	"strider/internal/dtype"
	"strider/ops"
)

// Sort limits and shapes (kernels/sort.cu): rows of at most blockSortMax
// elements are sorted in shared memory; longer ones by the radix passes,
// whose warps take radixTile elements each, radixWarps warps a block, and
// whose digit counts are scanned scanChunk at a time.
const (
	blockSortMax = 1024
	radixTile    = 2048
	radixWarps   = 8
	scanThreads  = 1024 // SCAN_THREADS: the scans' blocks
	scanChunk    = 4 * scanThreads
)

// Key parameter slots (the K_ enum of kernels/sort.cu).
const (
	kComplex = iota
	kBits
	kSwap
	kFloat
	kSign
	kNeg
	kDesc
	kAbs
	kInf
	kZero
	kNaN
	kClassR
	kClassN
	kNaNNaN
	kElem
	kSlots
)

// keyParams packs ops.SortKeysFor into the kernels' u64 block.
func keyParams(k ops.SortKeys, elem int) []int64 {
	b := func(x bool) int64 {
		if x {
			return 1
		}
		return 0
	}
	p := make([]int64, kSlots)
	p[kComplex], p[kBits], p[kSwap], p[kFloat] = b(k.Complex), int64(k.Bits), b(k.Swap), b(k.Float)
	p[kSign], p[kNeg], p[kDesc], p[kAbs], p[kInf] = int64(k.Sign), int64(k.Neg), int64(k.Desc), int64(k.Abs), int64(k.Inf)
	p[kZero], p[kNaN] = int64(k.ZeroKey), int64(k.NaNKey)
	p[kClassR], p[kClassN], p[kNaNNaN] = int64(k.ClassR), int64(k.ClassN), int64(k.NaNNaN)
	p[kElem] = int64(elem)
	return p
}

// keyBits is the width of the whole key: a part's twice for complex.
func keyBits(k ops.SortKeys) int {
	if k.Complex {
		return 2 * int(k.Bits)
	}
	return int(k.Bits)
}

// planSort is ops.Sort: keys and positions per row (the strips along axis,
// made contiguous), a stable sort of each row, then the values gathered by
// position and the positions written in C order.
func planSort(vals, idx []byte, v ops.View, axis int, dt dtype.Dtype, ord ops.Order) (*program, error) {
	keys, err := checkSort(vals, idx, v, axis, dt, ord)
	if err != nil || v.Count() == 0 || vals == nil && idx == nil {
		return nil, err
	}
	if n := v.Shape[axis]; n > math.MaxUint32 {
		return nil, errorf("sort rows of %d elements are longer than the GPU sort's limit of %d (positions are 32-bit)", n, uint64(math.MaxUint32))
	}
	s := newSortPlan(v, axis, keys)
	s.makeKeys()
	var final bufID
	if s.n <= blockSortMax {
		final = s.sortBlocks()
	} else {
		final = s.sortRadix()
	}
	s.output(vals, idx, final)
	return s.p, nil
}

// checkSort is ops.Sort's argument checks; it returns the sort keys.
func checkSort(vals, idx []byte, v ops.View, axis int, dt dtype.Dtype, ord ops.Order) (ops.SortKeys, error) {
	if err := v.Check(); err != nil {
		return ops.SortKeys{}, err
	}
	if err := dt.CheckElem(v.Elem); err != nil {
		return ops.SortKeys{}, err
	}
	keys, err := ops.SortKeysFor(dt, ord)
	if err != nil {
		return ops.SortKeys{}, err
	}
	if axis < 0 || axis >= len(v.Shape) {
		return ops.SortKeys{}, fmt.Errorf("axis %d is out of bounds for array of dimension %d", axis, len(v.Shape))
	}
	total := v.Count()
	if vals != nil && len(vals) != total*v.Elem {
		return ops.SortKeys{}, fmt.Errorf("value destination holds %d bytes, the sort writes %d", len(vals), total*v.Elem)
	}
	if idx != nil && len(idx) != total*8 {
		return ops.SortKeys{}, fmt.Errorf("index destination holds %d bytes, the sort writes %d", len(idx), total*8)
	}
	return keys, nil
}

// sortPlan is a sort program being built: the uploaded input, the rows'
// offset calculator (operand 0: the input's strides of the other axes,
// operand 1: the C-order output's), the row-length divisor and the key
// and position buffers.
type sortPlan struct {
	p              *program
	v              ops.View
	axis           int
	keys           ops.SortKeys
	n, rows, total int
	base           int
	cs             []int // C strides of the output
	in, calc, div  bufID
	klo, pos       bufID
	khi            arg // null unless 128-bit keys
	wide           bool
}

func newSortPlan(v ops.View, axis int, keys ops.SortKeys) *sortPlan {
	s := &sortPlan{p: newProgram("sort"), v: v, axis: axis, keys: keys, n: v.Shape[axis], total: v.Count()}
	s.rows = s.total / s.n
	s.cs = ops.CStrides(v.Shape)
	var rshape, rsrc, rdst []int
	for k := range v.Shape {
		if k != axis {
			rshape = append(rshape, v.Shape[k])
			rsrc = append(rsrc, v.Strides[k])
			rdst = append(rdst, s.cs[k])
		}
	}
	sp := viewSpan(v)
	s.base = v.Offset - sp.lo
	s.wide = keys.Complex && v.Elem == 16 // 128-bit keys take a second word
	s.in = s.p.alloc("in", int64(sp.count()*v.Elem), sp.bytes(v.Data))
	s.calc = s.p.params("calc", calcBlock(rshape, rsrc, rdst))
	s.div = s.p.params("div", divSlots(s.n, 0, 0))
	return s
}

// makeKeys fills the key rows and positions (sort_keys).
func (s *sortPlan) makeKeys() {
	p := s.p
	kp := p.params("keys", keyParams(s.keys, s.v.Elem))
	s.klo = p.alloc("klo", int64(8*s.total), nil)
	s.khi = null()
	if s.wide {
		s.khi = ptr(p.alloc("khi", int64(8*s.total), nil))
	}
	s.pos = p.alloc("pos", int64(4*s.total), nil)
	p.launch("sort_keys", gridFor(s.total, threads1D), [2]int{threads1D, 1}, ptr(s.klo), s.khi, ptr(s.pos), ptr(s.in),
		ptr(s.calc), ptr(s.div), ptr(kp), ival(s.total), ival(s.v.Strides[s.axis]), ival(s.base))
}

// sortBlocks sorts rows of at most blockSortMax in shared memory; it
// returns the buffer of sorted positions.
func (s *sortPlan) sortBlocks() bufID {
	pw := 1
	for pw < s.n {
		pw *= 2
	}
	s.p.launch("sort_block", min(s.rows, maxGrid), [2]int{min(512, max(32, pw/2)), 1},
		ptr(s.klo), s.khi, ptr(s.pos), ival(s.rows), ival(s.n), ival(pw))
	return s.pos
}

// sortRadix sorts longer rows by 8-bit LSD radix passes between two sets
// of key and position buffers; it returns the buffer of sorted positions.
func (s *sortPlan) sortRadix() bufID {
	p, rows, n := s.p, s.rows, s.n
	tiles := ceilDiv(n, radixTile)
	histLen := rows * 256 * tiles
	hist := p.alloc("hist", int64(4*histLen), nil)
	chunks := ceilDiv(histLen, scanChunk)
	partials := p.alloc("partials", int64(4*chunks), nil)
	chunkGrid := min(chunks, maxGrid)
	klo2 := p.alloc("klo2", int64(8*s.total), nil)
	khi2 := null()
	if s.wide {
		khi2 = ptr(p.alloc("khi2", int64(8*s.total), nil))
	}
	pos2 := p.alloc("pos2", int64(4*s.total), nil)
	src := [3]arg{ptr(s.klo), s.khi, ptr(s.pos)}
	tmp := [3]arg{ptr(klo2), khi2, ptr(pos2)}
	warpGrid := min(maxGrid, ceilDiv(rows*tiles, radixWarps))
	for shift := 0; shift < keyBits(s.keys); shift += 8 {
		p.launch("radix_hist", warpGrid, [2]int{32 * radixWarps, 1},
			src[0], src[1], ptr(hist), ival(rows), ival(n), ival(tiles), ival(shift))
		p.launch("scan_reduce", chunkGrid, [2]int{scanThreads, 1}, ptr(hist), ptr(partials), ival(histLen))
		p.launch("scan_partials", 1, [2]int{scanThreads, 1}, ptr(partials), ival(chunks))
		p.launch("scan_apply", chunkGrid, [2]int{scanThreads, 1}, ptr(hist), ptr(partials), ival(histLen), ival(256*tiles), ival(n))
		p.launch("radix_scatter", warpGrid, [2]int{32 * radixWarps, 1},
			src[0], src[1], src[2], tmp[0], tmp[1], tmp[2], ptr(hist), ival(rows), ival(n), ival(tiles), ival(shift))
		src, tmp = tmp, src
	}
	return src[2].buf
}

// output gathers the values by the sorted positions and writes the
// positions (sort_out), each only when its destination is wanted.
func (s *sortPlan) output(vals, idx []byte, final bufID) {
	p := s.p
	outVals, outIdx := null(), null()
	if vals != nil {
		vb := p.alloc("vals", int64(len(vals)), nil)
		outVals = ptr(vb)
		p.download(vb, 0, vals)
	}
	if idx != nil {
		ib := p.alloc("idx", int64(len(idx)), nil)
		outIdx = ptr(ib)
		p.download(ib, 0, idx)
	}
	p.launch(fmt.Sprintf("sort_out_%d", s.v.Elem), gridFor(s.total, threads1D), [2]int{threads1D, 1}, outVals, outIdx, ptr(s.in),
		ptr(final), ptr(s.calc), ptr(s.div), ival(s.total), ival(s.v.Strides[s.axis]), ival(s.cs[s.axis]), ival(s.base))
}
