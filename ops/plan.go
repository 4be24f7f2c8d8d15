package ops

import "unsafe"

// loop is one axis of a copy: n steps, each moving src bytes in the source
// and dst bytes in the destination.
type loop struct {
	n        int
	src, dst int
}

// advance steps the odometer idx over loops by one item and returns the
// source and destination offsets so and do moved with it.
func advance(loops []loop, idx []int, so, do int) (int, int) {
	for k := len(loops) - 1; k >= 0; k-- {
		idx[k]++
		so += loops[k].src
		do += loops[k].dst
		if idx[k] < loops[k].n {
			break
		}
		so -= loops[k].n * loops[k].src
		do -= loops[k].n * loops[k].dst
		idx[k] = 0
	}
	return so, do
}

// kernel names the inner 2-D loop a plan runs for each of its work items.
type kernel int

const (
	// kernelRuns copies rows of cols.n contiguous bytes (a memmove each).
	kernelRuns kernel = iota
	// kernelStrided copies rows × cols elements with arbitrary source steps;
	// the destination is contiguous along cols. With rows being the axis
	// that is contiguous in the source and both blocked to a small tile, it
	// is the cache-tiled transpose.
	kernelStrided
	// kernelScatter copies rows × cols elements with arbitrary steps on both
	// sides: a strided destination whose innermost axis has gaps.
	kernelScatter
)

// plan is a copy rewritten to the fewest axes: the odometer walks outer and
// then the blocks of rows and cols; each step runs the kernel on one block.
type plan struct {
	kernel kernel
	elem   int    // bytes per (possibly widened) element
	base   int    // byte offset of the source's first element
	dbase  int    // byte offset of the destination's first element
	outer  []loop // outermost first
	rows   loop   // the kernel's outer axis
	cols   loop   // the kernel's inner axis (runs: 1 byte)
	// Block sizes along rows and cols: the kernel sees at most rb × cb.
	rb, cb int
	bytes  int // total bytes written

	work  []loop           // the work items: outer, then blocks of rows and cols
	items int              // how many
	calc  OffsetCalculator // each item's offsets on both sides
}

// Tile edge, in elements, for the blocked transpose.
//
// Measured on the 2-core VM (alternating runs in one process, 2-D 8192²
// f32, 4096² f64, 512x512x256 (0,2,1), 64⁴ reversed, c16 and u16): 128 beat
// 32 by 15-35% for 2- to 16-byte elements and 192 or 256 was worse again;
// bytes do best at 64. The tile then lives in L2, and the longer runs per
// source line help the prefetcher more than L1 residency does.
func tileEdge(elem int) int {
	if elem == 1 {
		return 64
	}
	return 128
}

// A source whose step along the tile's columns is a multiple of
// aliasPeriod puts every line of a column walk in one set of the L1 data
// cache (64 sets of 64-byte lines, on current x86 and Arm cores alike),
// which holds 8 of them: a square tile's column of 128 lines is evicted
// before the walk comes back for the next element of each line, and the L2
// (a 64 KiB period) does no better for steps of 32 KiB or more. Such a
// transpose runs in narrowTile blocks instead: 8 columns, so that the 8
// source lines stay in their set while 256 rows sweep along them.
//
// Measured on the 2-core VM (Zen 3, go test -bench, medians of alternating
// runs): 2-D 8192² f32 1.4 to 2.1 GB/s, 64⁴ reversed 1.2 to 1.9 GB/s, 4096²
// f32 1.6 to 2.2 GB/s; sources with other steps (8000², 512x512x256 (0,2,1))
// keep the square tile, which is 10-30% faster for them.
const aliasPeriod = 4096

var narrowTile = [2]int{256, 8}

// Bytes per block when a long contiguous run or strided row is split so that
// a single row can still be shared between threads.
const (
	runBlock     = 1 << 20
	stridedBlock = 1 << 14
)

// makePlan plans the copy of src into dst, a view of the same shape and
// element size (see checkCopyTo). dst.Data may be empty when the plan is
// only inspected or the destination is filled by reads.
func makePlan(dst, src View) plan {
	p := plan{elem: src.Elem, base: src.Offset * src.Elem, dbase: dst.Offset * dst.Elem, bytes: src.Count() * src.Elem}
	if p.bytes == 0 {
		return p
	}
	axes := planAxes(&p, dst, src)
	axes = p.widen(axes, src, dst)
	m := len(axes)
	switch {
	case m == 0 || axes[m-1].src == p.elem && axes[m-1].dst == p.elem:
		// One element, or contiguous runs on both sides.
		p.kernel = kernelRuns
		p.cols = loop{n: p.elem, src: 1, dst: 1}
		if m > 0 {
			p.cols.n = axes[m-1].n * p.elem
			axes = axes[:m-1]
			m--
		}
		p.rows = loop{n: 1}
		if m > 0 {
			p.rows = axes[m-1]
			axes = axes[:m-1]
		}
		p.rb, p.cb = p.rows.n, min(p.cols.n, runBlock)
	case axes[m-1].dst == p.elem:
		axes = p.pickStrided(axes)
	default:
		// The destination has gaps along its innermost axis: no run is
		// contiguous on both sides, so a strided loop does the rest.
		p.kernel = kernelScatter
		p.cols = axes[m-1]
		axes = axes[:m-1]
		p.rows = loop{n: 1}
		if len(axes) > 0 {
			p.rows = axes[len(axes)-1]
			axes = axes[:len(axes)-1]
		}
		p.rb, p.cb = 1, max(1, stridedBlock/p.elem)
	}
	p.rb = max(1, min(p.rb, p.rows.n))
	p.cb = max(1, min(p.cb, p.cols.n))
	p.outer = axes
	p.prepare()
	return p
}

// planAxes is the copy's axes with byte steps, size-1 axes dropped, ordered
// so that the destination's innermost axis comes last (a C-contiguous
// destination keeps its order), with negative destination steps turned
// around, and merged where they move together on both sides.
func planAxes(p *plan, dst, src View) []loop {
	axes := make([]loop, 0, len(src.Shape))
	for k, n := range src.Shape {
		if n == 1 {
			continue
		}
		a := loop{n: n, src: src.Strides[k] * src.Elem, dst: dst.Strides[k] * src.Elem}
		if a.dst < 0 {
			// Walk the axis the other way: the same pairs of elements.
			p.base += (n - 1) * a.src
			p.dbase += (n - 1) * a.dst
			a.src, a.dst = -a.src, -a.dst
		}
		axes = append(axes, a)
	}
	// Insertion sort, stable, by decreasing destination step.
	for i := 1; i < len(axes); i++ {
		for j := i; j > 0 && axes[j-1].dst < axes[j].dst; j-- {
			axes[j-1], axes[j] = axes[j], axes[j-1]
		}
	}
	return coalesce(axes)
}

// widen turns a contiguous innermost axis whose run is 2, 4, 8 or 16 bytes
// into one wider element, so 0-2-1-3 problems with tiny runs use the element
// kernels. The wider loads must stay aligned for the narrower pointer
// rules: both bases and every step must be a multiple of the width.
func (p *plan) widen(axes []loop, src, dst View) []loop {
	m := len(axes)
	if m < 2 || axes[m-1].src != p.elem || axes[m-1].dst != p.elem {
		return axes
	}
	w := axes[m-1].n * p.elem
	if (w == 2 || w == 4 || w == 8 || w == 16) && aligned(src.Data, dst.Data, p.base, p.dbase, axes[:m-1], min(w, 8)) {
		p.elem = w
		return axes[:m-1]
	}
	return axes
}

// pickStrided plans a destination that is contiguous along the last axis
// and a source that is not. The axis that is contiguous in the source, if
// any, pairs with the last axis as a tiled 2-D transpose: reads run along
// it, writes along the last axis. It returns the outer axes.
func (p *plan) pickStrided(axes []loop) []loop {
	m := len(axes)
	p.kernel = kernelStrided
	p.cols = axes[m-1]
	axes = axes[:m-1]
	r := -1
	for k := len(axes) - 1; k >= 0; k-- {
		if axes[k].src == p.elem {
			r = k
			break
		}
	}
	if r >= 0 {
		p.rows = axes[r]
		axes = append(axes[:r:r], axes[r+1:]...)
		t := tileEdge(p.elem)
		p.rb, p.cb = t, t
		if p.elem <= 8 && abs(p.cols.src)%aliasPeriod == 0 {
			p.rb, p.cb = narrowTile[0], narrowTile[1]
		}
		return axes
	}
	p.rows = loop{n: 1}
	if len(axes) > 0 {
		p.rows = axes[len(axes)-1]
		axes = axes[:len(axes)-1]
	}
	p.rb, p.cb = 1, max(1, stridedBlock/p.elem)
	return axes
}

// coalesce merges each axis into the next inner one when the pair moves
// together in the source and in the destination: [n0 s0][n1 s1] with
// s0 == n1*s1 on both sides is one axis [n0*n1 s1].
func coalesce(axes []loop) []loop {
	if len(axes) == 0 {
		return axes
	}
	out := []loop{axes[len(axes)-1]}
	for k := len(axes) - 2; k >= 0; k-- {
		in := &out[len(out)-1]
		a := axes[k]
		if a.src == in.n*in.src && a.dst == in.n*in.dst {
			in.n *= a.n
			continue
		}
		out = append(out, a)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// aligned reports whether widening to width-byte elements keeps every
// source and destination address a multiple of align.
// A destination without storage (a plan only inspected, or filled by
// reads) counts as aligned at address 0.
func aligned(src, dst []byte, base, dbase int, axes []loop, align int) bool {
	if len(src) == 0 {
		return false
	}
	if (uintptr(unsafe.Pointer(&src[0]))+uintptr(base))%uintptr(align) != 0 ||
		(uintptr(unsafe.Pointer(unsafe.SliceData(dst)))+uintptr(dbase))%uintptr(align) != 0 {
		return false
	}
	for _, a := range axes {
		if a.src%align != 0 || a.dst%align != 0 {
			return false
		}
	}
	return true
}
