package ops

import (
	"encoding/binary"
	"unsafe"
)

// copyTiled1 is copyStrided[uint8] for the tiled transpose of one-byte
// elements, where rows is the source's contiguous axis (rows.src == 1). It
// moves 8×8 blocks through eight 64-bit words: eight loads (one per
// destination column, each holding eight consecutive source bytes), a
// register transpose (transpose8x8), eight stores. The edges that do not
// fill a block, and any other block, go through copyStrided.
func copyTiled1(dst, src unsafe.Pointer, rows, cols loop) {
	if rows.src != 1 || rows.n < 8 || cols.n < 8 {
		copyStrided[uint8](dst, src, rows, cols)
		return
	}
	nr, nc := rows.n&^7, cols.n&^7
	cs, rd := cols.src, rows.dst
	var w [8]uint64
	for i := 0; i < nr; i += 8 {
		for j := 0; j < nc; j += 8 {
			s := unsafe.Add(src, i+j*cs)
			for k := range w {
				w[k] = load64(unsafe.Add(s, k*cs))
			}
			transpose8x8(&w)
			d := unsafe.Add(dst, i*rd+j)
			for k := range w {
				store64(unsafe.Add(d, k*rd), w[k])
			}
		}
	}
	// The columns right of the blocks, for the rows they cover, then the
	// rows below them, all columns (only when there are any: a pointer
	// past the block would point past the storage).
	if nc < cols.n {
		copyStrided[uint8](unsafe.Add(dst, nc), unsafe.Add(src, nc*cs),
			loop{n: nr, src: 1, dst: rd}, loop{n: cols.n - nc, src: cs, dst: 1})
	}
	if nr < rows.n {
		copyStrided[uint8](unsafe.Add(dst, nr*rd), unsafe.Add(src, nr),
			loop{n: rows.n - nr, src: 1, dst: rd}, cols)
	}
}

// transpose8x8 transposes the 8×8 byte matrix whose row k is w[k], byte m
// of a row being bits 8m..8m+7: afterwards byte m of w[k] is what byte k of
// w[m] was. Three rounds swap the off-diagonal 4×4, then 2×2, then 1×1
// blocks (Hacker's Delight, 7-3).
func transpose8x8(w *[8]uint64) {
	for k := 0; k < 4; k++ {
		t := (w[k]>>32 ^ w[k+4]) & 0x00000000ffffffff
		w[k] ^= t << 32
		w[k+4] ^= t
	}
	for _, k := range [4]int{0, 1, 4, 5} {
		t := (w[k]>>16 ^ w[k+2]) & 0x0000ffff0000ffff
		w[k] ^= t << 16
		w[k+2] ^= t
	}
	for k := 0; k < 8; k += 2 {
		t := (w[k]>>8 ^ w[k+1]) & 0x00ff00ff00ff00ff
		w[k] ^= t << 8
		w[k+1] ^= t
	}
}

// copyTiled2 is copyTiled1 for two-byte elements (rows.src == 2): 4×4
// blocks through four 64-bit words.
func copyTiled2(dst, src unsafe.Pointer, rows, cols loop) {
	if rows.src != 2 || rows.n < 4 || cols.n < 4 {
		copyStrided[uint16](dst, src, rows, cols)
		return
	}
	nr, nc := rows.n&^3, cols.n&^3
	cs, rd := cols.src, rows.dst
	var w [4]uint64
	for i := 0; i < nr; i += 4 {
		for j := 0; j < nc; j += 4 {
			s := unsafe.Add(src, 2*i+j*cs)
			for k := range w {
				w[k] = load64(unsafe.Add(s, k*cs))
			}
			transpose4x4(&w)
			d := unsafe.Add(dst, i*rd+2*j)
			for k := range w {
				store64(unsafe.Add(d, k*rd), w[k])
			}
		}
	}
	if nc < cols.n {
		copyStrided[uint16](unsafe.Add(dst, 2*nc), unsafe.Add(src, nc*cs),
			loop{n: nr, src: 2, dst: rd}, loop{n: cols.n - nc, src: cs, dst: 2})
	}
	if nr < rows.n {
		copyStrided[uint16](unsafe.Add(dst, nr*rd), unsafe.Add(src, 2*nr),
			loop{n: rows.n - nr, src: 2, dst: rd}, cols)
	}
}

// transpose4x4 is transpose8x8 for a 4×4 matrix of 16-bit elements: two
// rounds, 2×2 blocks then single elements.
func transpose4x4(w *[4]uint64) {
	for k := 0; k < 2; k++ {
		t := (w[k]>>32 ^ w[k+2]) & 0x00000000ffffffff
		w[k] ^= t << 32
		w[k+2] ^= t
	}
	for k := 0; k < 4; k += 2 {
		t := (w[k]>>16 ^ w[k+1]) & 0x0000ffff0000ffff
		w[k] ^= t << 16
		w[k+1] ^= t
	}
}

// load64 and store64 move eight bytes at p in little-endian order, which
// transpose8x8's byte numbering assumes; on amd64 and arm64 each is one
// unaligned move.
func load64(p unsafe.Pointer) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(p), 8))
}

func store64(p unsafe.Pointer, v uint64) {
	binary.LittleEndian.PutUint64(unsafe.Slice((*byte)(p), 8), v)
}

// copyTiled4 is copyStrided[uint32] for the tiled transpose of four-byte
// elements (rows.src == 4) on a CPU with AVX2: whole 8×8 blocks through
// transpose32AVX2, eight 32-byte loads and eight 32-byte stores each where
// copyStrided moves one element at a time. The edges that do not fill a
// block, and any other block, go through copyStrided.
func copyTiled4(dst, src unsafe.Pointer, rows, cols loop) {
	if rows.src != 4 || rows.n < 8 || cols.n < 8 {
		copyStrided[uint32](dst, src, rows, cols)
		return
	}
	nr, nc := rows.n&^7, cols.n&^7
	transpose32AVX2(dst, src, nr, nc, cols.src, rows.dst)
	if nc < cols.n {
		copyStrided[uint32](unsafe.Add(dst, 4*nc), unsafe.Add(src, nc*cols.src),
			loop{n: nr, src: 4, dst: rows.dst}, loop{n: cols.n - nc, src: cols.src, dst: 4})
	}
	if nr < rows.n {
		copyStrided[uint32](unsafe.Add(dst, nr*rows.dst), unsafe.Add(src, 4*nr),
			loop{n: rows.n - nr, src: 4, dst: rows.dst}, cols)
	}
}
