package cuda

import (
	"encoding/binary"
	"strings"
	"testing"
)

// The emulation of kernels/reduce.cu, line by line (see emulate_test.go):
// the same states, the same folds in the same order (each thread's
// elements, then the block row's tree in shared memory, then the chunks),
// and the same 32- or 64-bit index arithmetic.

type emuState struct {
	tag, lo, hi uint64
	idx         int64
}

const (
	emuTagEmpty = 0
	emuTagValue = 1
	emuTagNaN   = 2
	emuTagKind  = 0xff
	emuTagMixed = 0x100
)

func emuCfgOp(c int64) int { return int((c >> 32) & 255) }

func emuPartDouble(u uint64, psize int) float64 {
	switch psize {
	case 2:
		return emuF16ToF64(u)
	case 4:
		return emuF32ToF64(u)
	}
	return dbl(u)
}

func emuLoadState(k byte, a []byte, size int, swap bool, op int, idx int64) emuState {
	s := emuState{tag: emuTagValue, idx: idx}
	if op >= redAny {
		var nz bool
		switch k {
		case 'b':
			nz = a[0] != 0
		case 'i', 'u':
			nz = emuLoadWord(a, size) != 0
		case 'f':
			nz = emuLoadDouble(a, size, swap) != 0
		default:
			nz = emuLoadDouble(a, size/2, swap) != 0 || emuLoadDouble(a[size/2:], size/2, swap) != 0
		}
		s.lo, s.idx = 1, 0
		if nz {
			s.lo, s.idx = 0, 1
		}
		return s
	}
	switch k {
	case 'b':
		if a[0] != 0 {
			s.lo = 1
		}
	case 'i':
		sh := 64 - 8*size
		s.lo = uint64(int64(emuLoadPart(a, size, swap)<<sh) >> sh)
	case 'u':
		s.lo = emuLoadPart(a, size, swap)
	case 'f':
		s.lo = emuLoadPart(a, size, swap)
		if x := emuPartDouble(s.lo, size); x != x {
			s.tag = emuTagNaN
		}
	default:
		h := size / 2
		s.lo, s.hi = emuLoadPart(a, h, swap), emuLoadPart(a[h:], h, swap)
		re, im := emuPartDouble(s.lo, h), emuPartDouble(s.hi, h)
		if re != re || im != im {
			s.tag = emuTagNaN
		}
	}
	return s
}

func emuCompare(k byte, x, y emuState, psize int) int {
	sign := func(lt, gt bool) int {
		switch {
		case lt:
			return -1
		case gt:
			return 1
		}
		return 0
	}
	switch k {
	case 'b', 'i':
		a, b := int64(x.lo), int64(y.lo)
		return sign(a < b, a > b)
	case 'u':
		return sign(x.lo < y.lo, x.lo > y.lo)
	}
	a, b := emuPartDouble(x.lo, psize), emuPartDouble(y.lo, psize)
	if a != b {
		return sign(a < b, true)
	}
	if k == 'c' {
		a, b = emuPartDouble(x.hi, psize), emuPartDouble(y.hi, psize)
		if a != b {
			return sign(a < b, true)
		}
	}
	return 0
}

func emuFold(k byte, a *emuState, b emuState, op, psize int) {
	if b.tag == emuTagEmpty {
		return
	}
	if a.tag == emuTagEmpty {
		*a = b
		return
	}
	if op >= redAny {
		a.lo += b.lo
		a.idx += b.idx
		return
	}
	an, bn := a.tag&emuTagKind == emuTagNaN, b.tag&emuTagKind == emuTagNaN
	if op >= redArgmax {
		var take bool
		if an || bn {
			take = bn && (!an || b.idx < a.idx)
		} else {
			c := emuCompare(k, b, *a, psize)
			take = (op == redArgmax && c > 0 || op != redArgmax && c < 0) || (c == 0 && b.idx < a.idx)
		}
		if take {
			*a = b
		}
		return
	}
	if an != bn {
		if bn {
			*a = b
		}
		return
	}
	if !an {
		c := emuCompare(k, b, *a, psize)
		if op == redMax && c > 0 || op != redMax && c < 0 {
			*a = b
			return
		}
		if c != 0 {
			return
		}
	}
	a.tag |= b.tag & emuTagMixed
	if a.lo != b.lo || a.hi != b.hi {
		a.tag |= emuTagMixed
	}
}

func emuPut(k byte, dst, open dev, pos int64, s emuState, op, size int) {
	switch op {
	case redArgmax, redArgmin, redCount:
		dst.setU64(pos, uint64(s.idx))
		return
	case redAny:
		dst[pos] = 0
		if s.idx != 0 {
			dst[pos] = 1
		}
		return
	case redAll:
		dst[pos] = 0
		if s.lo == 0 {
			dst[pos] = 1
		}
		return
	}
	settled := s.tag&emuTagMixed == 0
	if k == 'f' && s.tag&emuTagKind == emuTagNaN && size >= 4 {
		canon := uint64(0x7ff8000000000000)
		if size == 4 {
			canon = 0x7fc00000
		}
		settled = settled && s.lo == canon
	}
	if !settled {
		open.setU64(0, open.u64(0)+1)
	}
	if k == 'c' {
		emuStoreWord(dst[pos*int64(size):], size/2, s.lo)
		emuStoreWord(dst[pos*int64(size)+int64(size/2):], size/2, s.hi)
	} else {
		emuStoreWord(dst[pos*int64(size):], size, s.lo)
	}
}

// emuReducePart runs reduce_part's blocks: per block row its threads'
// folds, then the tree over the row (the pairs of one level are disjoint,
// so running them one after another is what the barriers give).
func emuReducePart(k byte, use32 bool, dst, open, part, src, kept, red, q dev, base, items, chunk, total, cfg int64, grid int64, block [2]int) {
	size, swap, op := emuFmtSize(cfg, 0), emuFmtSwap(cfg, 0), emuCfgOp(cfg)
	psize := size
	if k == 'c' {
		psize = size / 2
	}
	cols := (cfg>>40)&1 != 0
	fast := q.i64(0)
	chunks := fast
	if cols {
		chunks = items / fast
	}
	tx, ty := int64(block[0]), int64(block[1])
	if tx&(tx-1) != 0 || tx*ty > 256 {
		panic("reduce_part needs a power-of-two block row of at most RED_THREADS threads")
	}
	rows := grid * ty
	sh := make([]emuState, tx*ty)
	for bx := int64(0); bx < grid; bx++ {
		for w0 := bx * ty; w0 < items; w0 += rows {
			pos, at := make([]int64, ty), make([]int64, ty)
			for y := int64(0); y < ty; y++ {
				w := w0 + y
				for x := int64(0); x < tx; x++ {
					var s emuState
					if w < items {
						slow := div(w, q, use32)
						o, c := slow, w-slow*fast
						if cols {
							o, c = w-slow*fast, slow
						}
						ko, p := calc(kept, o, use32)
						pos[y], at[y] = p, o*chunks+c
						lo := c * chunk
						hi := min(lo+chunk, total)
						for r := lo + x; r < hi; r += tx {
							ro, ri := calc(red, r, use32)
							emuFold(k, &s, emuLoadState(k, src[(base+ko+ro)*int64(size):], size, swap, op, ri), op, psize)
						}
					}
					sh[y*tx+x] = s
				}
			}
			for half := tx >> 1; half > 0; half >>= 1 {
				for y := int64(0); y < ty; y++ {
					for x := int64(0); x < half; x++ {
						t := y*tx + x
						a := sh[t]
						emuFold(k, &a, sh[t+half], op, psize)
						sh[t] = a
					}
				}
			}
			for y := int64(0); y < ty; y++ {
				if w := w0 + y; w < items {
					if part != nil {
						emuSetState(part, at[y], sh[y*tx])
					} else {
						emuPut(k, dst, open, pos[y], sh[y*tx], op, size)
					}
				}
			}
		}
	}
}

func emuReduceOut(k byte, use32 bool, dst, open, part, kept dev, outs, chunks, cfg, grid, threads int64) {
	size, op := emuFmtSize(cfg, 0), emuCfgOp(cfg)
	psize := size
	if k == 'c' {
		psize = size / 2
	}
	gridStride(grid, threads, outs, func(o int64) {
		s := emuGetState(part, o*chunks)
		for c := int64(1); c < chunks; c++ {
			emuFold(k, &s, emuGetState(part, o*chunks+c), op, psize)
		}
		_, pos := calc(kept, o, use32)
		emuPut(k, dst, open, pos, s, op, size)
	})
}

func emuGetState(part dev, w int64) emuState {
	b := part[w*stateBytes:]
	return emuState{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]),
		binary.LittleEndian.Uint64(b[16:]), int64(binary.LittleEndian.Uint64(b[24:]))}
}

func emuSetState(part dev, w int64, s emuState) {
	b := part[w*stateBytes:]
	binary.LittleEndian.PutUint64(b, s.tag)
	binary.LittleEndian.PutUint64(b[8:], s.lo)
	binary.LittleEndian.PutUint64(b[16:], s.hi)
	binary.LittleEndian.PutUint64(b[24:], uint64(s.idx))
}

// launchReduce runs the kernels of reduce.cu; false when the step is not
// one of them.
func (m emuMem) launchReduce(t testing.TB, s step, name, w string) bool {
	a := s.args
	v := func(k int) int64 { return int64(a[k].val) }
	grid := int64(s.grid)
	switch {
	case strings.HasPrefix(name, "reduce_part_") && len(name) == len("reduce_part_")+1:
		emuReducePart(name[len(name)-1], w == "i32", m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4]), m.ptr(a[5]), m.ptr(a[6]),
			v(7), v(8), v(9), v(10), v(11), grid, s.block)
	case strings.HasPrefix(name, "reduce_out_") && len(name) == len("reduce_out_")+1:
		emuReduceOut(name[len(name)-1], w == "i32", m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), v(4), v(5), v(6), grid, int64(s.block[0]*s.block[1]))
	default:
		return false
	}
	return true
}
