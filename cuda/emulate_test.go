package cuda

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// This file is a Go emulation of every kernel in kernels/*.cu, written to
// follow the CUDA code line by line (same parameter blocks, same 32- or
// 64-bit index arithmetic, same thread and block loops where the mapping
// matters), and an executor that runs a planned program through it. The
// tests compare its results with package ops, so everything but the driver
// calls and the compiler is checked without a GPU.

// emuMem is the emulated device memory: one byte slice per buffer.
type emuMem [][]byte

// emulate runs p as the driver would and returns the same errors.
func emulate(t testing.TB, p *program) error {
	t.Helper()
	checkProgram(t, p)
	mem := make(emuMem, len(p.bufs))
	for i, b := range p.bufs {
		mem[i] = make([]byte, b.size)
		copy(mem[i], b.data)
	}
	for _, s := range p.steps {
		if s.kernel == "" {
			copy(mem[s.dst][s.dstOff:], mem[s.src][s.srcOff:s.srcOff+s.bytes])
			continue
		}
		mem.launch(t, s)
	}
	if p.errBuf != noBuf {
		e := mem[p.errBuf]
		if binary.LittleEndian.Uint64(e) != 0 {
			return p.checkErr(int64(binary.LittleEndian.Uint64(e[8:])), int64(binary.LittleEndian.Uint64(e[16:])))
		}
	}
	for _, o := range p.outs {
		copy(o.dst, mem[o.buf][o.off:])
	}
	return nil
}

// dev is a resolved pointer argument: a buffer from an offset, or nil.
type dev []byte

func (m emuMem) ptr(a arg) dev {
	if a.buf == noBuf {
		if a.val != 0 {
			panic("non-null pointer without a buffer")
		}
		return nil
	}
	return dev(m[a.buf][a.off:])
}

func (d dev) i64(k int64) int64        { return int64(binary.LittleEndian.Uint64(d[8*k:])) }
func (d dev) u64(k int64) uint64       { return binary.LittleEndian.Uint64(d[8*k:]) }
func (d dev) setU64(k int64, v uint64) { binary.LittleEndian.PutUint64(d[8*k:], v) }
func (d dev) u32(k int64) uint32       { return binary.LittleEndian.Uint32(d[4*k:]) }
func (d dev) setU32(k int64, v uint32) { binary.LittleEndian.PutUint32(d[4*k:], v) }

// elem returns element k of size sz; it panics (as a fault would show) when
// outside the buffer, so a wrong offset fails the test loudly.
func (d dev) elem(k int64, sz int) []byte { return d[k*int64(sz) : (k+1)*int64(sz)] }

var kernelName = regexp.MustCompile(`^([a-z_]+?)(?:_(\d+))?(?:_(i32|i64))?$`)

func (m emuMem) launch(t testing.TB, s step) {
	g := kernelName.FindStringSubmatch(s.kernel)
	name, sz, w := g[1], 0, g[3]
	if g[2] != "" {
		sz, _ = strconv.Atoi(g[2])
	}
	if name == "tri" {
		w = ""
		sz = map[string]int{"i32": 4, "i64": 8}[g[3]]
	}
	a := s.args
	v := func(k int) int64 { return int64(a[k].val) }
	threads := int64(s.block[0] * s.block[1])
	grid := int64(s.grid)
	switch name {
	case "copy_strided":
		dst, src, p := m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2])
		base, n := v(3), v(4)
		gridStride(grid, threads, n, func(e int64) {
			o, _ := calc(p, e, w == "i32")
			copy(dst.elem(e, sz), src.elem(base+o, sz))
		})
	case "transpose":
		emuTranspose(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), sz, w == "i32", grid, s.block, v(3), v(4), v(5), v(6), v(7), v(8), v(9), v(10))
	case "gather":
		dst, src, p, q, idx, errb := m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4]), m.ptr(a[5])
		n, mul, lo, hi, base, span := v(6), v(7), v(8), v(9), v(10), v(11)
		gridStride(grid, threads, n, func(e int64) {
			t1 := div(e, q, w == "i32")
			j := t1 - div(t1, q[8*calcSlots:], w == "i32")*q.i64(calcSlots)
			ti := idx.i64(j)
			if ti < lo || ti >= hi {
				report(errb, ti, j)
				return
			}
			o, _ := calc(p, e, w == "i32")
			off := base + o + ti*mul
			if off < 0 || off >= span {
				report(errb, ti, j)
				return
			}
			copy(dst.elem(e, sz), src.elem(off, sz))
		})
	case "take_flat":
		dst, src, p, idx, errb := m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4])
		mm, count, base, span := v(5), v(6), v(7), v(8)
		gridStride(grid, threads, mm, func(j int64) {
			ti := idx.i64(j)
			if ti < 0 || ti >= count {
				report(errb, ti, j)
				return
			}
			o, _ := calc(p, ti, w == "i32")
			off := base + o
			if off < 0 || off >= span {
				report(errb, ti, j)
				return
			}
			copy(dst.elem(j, sz), src.elem(off, sz))
		})
	case "tri":
		out, p := m.ptr(a[0]), m.ptr(a[1])
		n := p.i64(7)
		gridStride(grid, threads, n, func(i int64) {
			r, c := triAt(p, i)
			put := func(k, x int64) {
				if sz == 4 {
					binary.LittleEndian.PutUint32(out[4*k:], uint32(int32(x)))
				} else {
					binary.LittleEndian.PutUint64(out[8*k:], uint64(x))
				}
			}
			put(i, r)
			put(n+i, c)
		})
	case "sort_keys":
		emuSortKeys(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4]), m.ptr(a[5]), m.ptr(a[6]), v(7), v(8), v(9), grid, threads)
	case "sort_block":
		emuSortBlock(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), v(3), v(4), v(5), grid)
	case "radix_hist":
		if threads != 32*radixWarps {
			t.Fatalf("radix_hist launched with %d threads, the kernel assumes %d", threads, 32*radixWarps)
		}
		emuRadixHist(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), v(3), v(4), v(5), v(6), grid)
	case "scan_reduce":
		emuScanReduce(m.ptr(a[0]), m.ptr(a[1]), v(2), grid, threads)
	case "scan_partials":
		emuScanPartials(m.ptr(a[0]), v(1), threads)
	case "scan_apply":
		emuScanApply(m.ptr(a[0]), m.ptr(a[1]), v(2), v(3), v(4), grid, threads)
	case "radix_scatter":
		if threads != 32*radixWarps {
			t.Fatalf("radix_scatter launched with %d threads, the kernel assumes %d", threads, 32*radixWarps)
		}
		emuRadixScatter(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4]), m.ptr(a[5]), m.ptr(a[6]), v(7), v(8), v(9), v(10), grid)
	case "sort_out":
		emuSortOut(m.ptr(a[0]), m.ptr(a[1]), m.ptr(a[2]), m.ptr(a[3]), m.ptr(a[4]), m.ptr(a[5]), sz, v(6), v(7), v(8), v(9), grid, threads)
	default:
		if !m.launchConvert(t, s, name, w) && !m.launchReduce(t, s, name, w) {
			t.Fatalf("no emulation for kernel %q", s.kernel)
		}
	}
}

// gridStride calls f for every e < n in the order-free way a grid-stride
// loop covers them: thread t of grid*threads does t, t+stride, ...
func gridStride(grid, threads, n int64, f func(e int64)) {
	stride := grid * threads
	for t := int64(0); t < stride; t++ {
		for e := t; e < n; e += stride {
			f(e)
		}
	}
}

// div is Idx<U>::div: the quotient by the extent whose slots start at a.
func div(n int64, a dev, use32 bool) int64 {
	if use32 {
		if n < 0 || n >= 1<<31 {
			panic(fmt.Sprintf("32-bit division of %d", n))
		}
		m := uint32(a.i64(2))
		hi, _ := bits.Mul32(uint32(n), m)
		return int64((hi + uint32(n)) >> uint32(a.i64(3)))
	}
	hi, _ := bits.Mul64(uint64(n), a.u64(1))
	return int64((hi + uint64(n)) >> uint(a.i64(3)))
}

// calc is calc_offsets, in int32 arithmetic (panicking where it would
// overflow) for the 32-bit kernels.
func calc(p dev, lin int64, use32 bool) (o0, o1 int64) {
	nd := p.i64(0)
	for k := int64(0); k < nd; k++ {
		ax := p[8*(1+calcSlots*k):]
		q := div(lin, ax, use32)
		r := lin - q*ax.i64(0)
		o0 += r * ax.i64(4)
		o1 += r * ax.i64(5)
		if use32 && (o0 != int64(int32(o0)) || o1 != int64(int32(o1)) || r*ax.i64(4) != int64(int32(r*ax.i64(4)))) {
			panic("32-bit offset overflow")
		}
		lin = q
	}
	return o0, o1
}

func report(err dev, value, where int64) {
	if err.u64(0) == 0 {
		err.setU64(0, 1)
		err.setU64(1, uint64(value))
		err.setU64(2, uint64(where))
	}
}

// emuTranspose runs the kernel's blocks and threads as written: each block
// fills the padded tile from the source, then writes the transposed tile.
func emuTranspose(dst, src, p dev, sz int, use32 bool, grid int64, block [2]int, base, R, C, sc, dr, tilesC, tilesPer, blocks int64) {
	var tileBuf [tile][tile + 1][]byte
	for bx := int64(0); bx < grid; bx++ {
		for b := bx; b < blocks; b += grid {
			batch := b / tilesPer
			t := b - batch*tilesPer
			tr := t / tilesC
			tc := t - tr*tilesC
			so, dso := calc(p, batch, use32)
			i0, j0 := tr*tile, tc*tile
			for ty := 0; ty < block[1]; ty++ {
				for tx := 0; tx < block[0]; tx++ {
					for k := ty; k < tile; k += block[1] {
						i, j := i0+int64(tx), j0+int64(k)
						if i < R && j < C {
							tileBuf[k][tx] = src.elem(base+so+i+j*sc, sz)
						}
					}
				}
			}
			for ty := 0; ty < block[1]; ty++ {
				for tx := 0; tx < block[0]; tx++ {
					for k := ty; k < tile; k += block[1] {
						i, j := i0+int64(k), j0+int64(tx)
						if i < R && j < C {
							copy(dst.elem(dso+i*dr+j, sz), tileBuf[tx][k])
						}
					}
				}
			}
		}
	}
}

// triAt is the body of kernels/tri.cu's tri().
func triAt(p dev, i int64) (r, c int64) {
	upper, cols, top, small := p.i64(0), p.i64(1), p.i64(2), p.i64(3)
	height, before, trap := p.i64(4), p.i64(5), p.i64(6)
	if i < before {
		return i / cols, i % cols
	}
	if i -= before; i >= trap {
		i -= trap
		return top + height + i/cols, i % cols
	}
	if upper == 0 {
		j := emuTrapRow(small, height, i)
		return top + j, i - emuRowsBefore(small, j)
	}
	e := trap - 1 - i
	j := emuTrapRow(small, height, e)
	return top + height - 1 - j, cols - 1 - (e - emuRowsBefore(small, j))
}

func emuRowsBefore(head, j int64) int64 {
	if j%2 == 0 {
		return j*head + j/2*(j-1)
	}
	return j*head + (j-1)/2*j
}

func emuTrapRow(head, height, i int64) int64 {
	b := 2*float64(head) - 1
	fi := float64(i)
	x := (4 * fi) / (b + math.Sqrt(b*b+8*fi))
	j := height - 1
	if x < float64(j) {
		j = max(0, int64(x))
	}
	for j > 0 && emuRowsBefore(head, j) > i {
		j--
	}
	for j+1 < height && emuRowsBefore(head, j+1) <= i {
		j++
	}
	return j
}

func emuBswap(u uint64, bitsN uint64) uint64 { return bits.ReverseBytes64(u) >> (64 - bitsN) }

func emuScalarKey(u uint64, k dev) uint64 {
	b := k.u64(kBits)
	if k.u64(kSwap) != 0 {
		u = emuBswap(u, b)
	}
	if k.u64(kFloat) != 0 {
		a := u & k.u64(kAbs)
		if a-1 >= k.u64(kInf) {
			if a == 0 {
				return k.u64(kZero)
			}
			return k.u64(kNaN)
		}
	}
	return u ^ k.u64(kSign) ^ k.u64(kDesc) ^ ((0 - (u >> (b - 1))) & k.u64(kNeg))
}

func emuPartKey(u, a uint64, k dev) uint64 {
	if a == 0 {
		return k.u64(kSign)
	}
	return u ^ k.u64(kSign) ^ ((0 - (u >> (k.u64(kBits) - 1))) & k.u64(kNeg))
}

func emuComplexKey(re, im uint64, k dev) (hi, lo uint64) {
	if k.u64(kSwap) != 0 {
		re, im = emuBswap(re, k.u64(kBits)), emuBswap(im, k.u64(kBits))
	}
	a, b := re&k.u64(kAbs), im&k.u64(kAbs)
	rnan, inan := a > k.u64(kInf), b > k.u64(kInf)
	switch {
	case !rnan && !inan:
		hi, lo = emuPartKey(re, a, k), emuPartKey(im, b, k)
	case !rnan:
		hi, lo = k.u64(kClassR), emuPartKey(re, a, k)
	case !inan:
		hi, lo = k.u64(kClassN), emuPartKey(im, b, k)
	default:
		hi, lo = k.u64(kClassN), k.u64(kNaNNaN)
	}
	return hi ^ k.u64(kDesc), lo ^ k.u64(kDesc)
}

func emuSortKeys(klo, khi, pos, src, p, q, k dev, total, step, base, grid, threads int64) {
	elem := int64(k.u64(kElem))
	gridStride(grid, threads, total, func(e int64) {
		r := div(e, q, false)
		j := e - r*q.i64(0)
		so, _ := calc(p, r, false)
		a := src[(base+so+j*step)*elem:]
		var hi, lo uint64
		if k.u64(kComplex) != 0 {
			if elem == 8 {
				w := binary.LittleEndian.Uint64(a)
				hi, lo = emuComplexKey(w&0xffffffff, w>>32, k)
				lo = hi<<32 | lo
				hi = 0
			} else {
				hi, lo = emuComplexKey(binary.LittleEndian.Uint64(a), binary.LittleEndian.Uint64(a[8:]), k)
			}
		} else {
			var u uint64
			switch elem {
			case 1:
				u = uint64(a[0])
			case 2:
				u = uint64(binary.LittleEndian.Uint16(a))
			case 4:
				u = uint64(binary.LittleEndian.Uint32(a))
			default:
				u = binary.LittleEndian.Uint64(a)
			}
			lo = emuScalarKey(u, k)
		}
		klo.setU64(e, lo)
		if khi != nil {
			khi.setU64(e, hi)
		}
		pos.setU32(e, uint32(j))
	})
}

// emuSortBlock runs the bitonic network: within a stage every pair is
// handled by one thread and pairs are disjoint, so running the threads one
// after another is what the barrier-separated stages compute.
func emuSortBlock(klo, khi, pos dev, rows, n, pw, grid int64) {
	if pw > blockSortMax {
		panic("bitonic size past the shared arrays")
	}
	shi, slo, sidx := make([]uint64, pw), make([]uint64, pw), make([]uint32, pw)
	for bx := int64(0); bx < grid; bx++ {
		for row := bx; row < rows; row += grid {
			at := row * n
			for t := int64(0); t < pw; t++ {
				if t < n {
					slo[t], sidx[t] = klo.u64(at+t), pos.u32(at+t)
					shi[t] = 0
					if khi != nil {
						shi[t] = khi.u64(at + t)
					}
				} else {
					slo[t], shi[t], sidx[t] = math.MaxUint64, math.MaxUint64, math.MaxUint32
				}
			}
			for size := int64(2); size <= pw; size <<= 1 {
				for half := size >> 1; half > 0; half >>= 1 {
					for t := int64(0); t < pw; t++ {
						o := t ^ half
						if o <= t {
							continue
						}
						var greater bool
						switch {
						case shi[t] != shi[o]:
							greater = shi[t] > shi[o]
						case slo[t] != slo[o]:
							greater = slo[t] > slo[o]
						default:
							greater = sidx[t] > sidx[o]
						}
						if greater == (t&size == 0) {
							shi[t], shi[o] = shi[o], shi[t]
							slo[t], slo[o] = slo[o], slo[t]
							sidx[t], sidx[o] = sidx[o], sidx[t]
						}
					}
				}
			}
			for t := int64(0); t < n; t++ {
				pos.setU32(at+t, sidx[t])
			}
		}
	}
}

func emuDigit(klo, khi dev, e, shift int64) uint32 {
	var w uint64
	if shift < 64 {
		w = klo.u64(e) >> shift
	} else {
		w = khi.u64(e) >> (shift - 64)
	}
	return uint32(w & 255)
}

func emuRadixHist(klo, khi, hist dev, rows, n, tiles, shift, grid int64) {
	warps := grid * radixWarps
	for gw := int64(0); gw < warps; gw++ {
		for w := gw; w < rows*tiles; w += warps {
			row, t := w/tiles, w%tiles
			var cnt [256]uint32
			end := min(n, (t+1)*radixTile)
			for i := t * radixTile; i < end; i++ {
				cnt[emuDigit(klo, khi, row*n+i, shift)]++
			}
			for d := int64(0); d < 256; d++ {
				hist.setU32((row*256+d)*tiles+t, cnt[d])
			}
		}
	}
}

// emuBlockScan is block_scan over one value per thread: inclusive sums by
// warps, then the warps' sums, as the kernel adds them (mod 2^32).
func emuBlockScan(v []uint32) (incl []uint32, total uint32) {
	if len(v) != scanThreads {
		panic("the scan kernels assume 1024 threads")
	}
	incl = make([]uint32, len(v))
	var warpSums [32]uint32
	for w := 0; w < 32; w++ {
		var x uint32
		for l := 0; l < 32; l++ {
			x += v[w*32+l]
			incl[w*32+l] = x
		}
		warpSums[w] = x
	}
	for w := 1; w < 32; w++ {
		warpSums[w] += warpSums[w-1]
	}
	for t := range incl {
		if w := t / 32; w > 0 {
			incl[t] += warpSums[w-1]
		}
	}
	return incl, warpSums[31]
}

func emuScanReduce(h, partials dev, length, grid, threads int64) {
	for bx := int64(0); bx < grid; bx++ {
		for b := bx; b*scanChunk < length; b += grid {
			s := make([]uint32, threads)
			for k := int64(0); k < 4; k++ {
				for tid := int64(0); tid < threads; tid++ {
					if i := b*scanChunk + k*scanThreads + tid; i < length {
						s[tid] += h.u32(i)
					}
				}
			}
			_, total := emuBlockScan(s)
			partials.setU32(b, total)
		}
	}
}

func emuScanPartials(partials dev, count, threads int64) {
	var carry uint32
	for at := int64(0); at < count; at += threads {
		v := make([]uint32, threads)
		for tid := range v {
			if i := at + int64(tid); i < count {
				v[tid] = partials.u32(i)
			}
		}
		incl, total := emuBlockScan(v)
		for tid := range v {
			if i := at + int64(tid); i < count {
				partials.setU32(i, carry+incl[tid]-v[tid])
			}
		}
		carry += total
	}
}

func emuScanApply(h, partials dev, length, rowLen, n, grid, threads int64) {
	for bx := int64(0); bx < grid; bx++ {
		for b := bx; b*scanChunk < length; b += grid {
			carry := partials.u32(b)
			for k := int64(0); k < 4; k++ {
				v := make([]uint32, threads)
				for tid := range v {
					if i := b*scanChunk + k*scanThreads + int64(tid); i < length {
						v[tid] = h.u32(i)
					}
				}
				incl, total := emuBlockScan(v)
				for tid := range v {
					if i := b*scanChunk + k*scanThreads + int64(tid); i < length {
						h.setU32(i, carry+incl[tid]-v[tid]-uint32(uint64(i/rowLen)*uint64(n)))
					}
				}
				carry += total
			}
		}
	}
}

// emuRadixScatter runs each warp's 32 lanes in lock step, ballots included.
func emuRadixScatter(klo, khi, pos, olo, ohi, opos, hist dev, rows, n, tiles, shift, grid int64) {
	warps := grid * radixWarps
	for gw := int64(0); gw < warps; gw++ {
		for w := gw; w < rows*tiles; w += warps {
			row, t, at := w/tiles, w%tiles, (w/tiles)*n
			var off [256]uint32
			for d := int64(0); d < 256; d++ {
				off[d] = hist.u32((row*256+d)*tiles + t)
			}
			end := min(n, (t+1)*radixTile)
			for c := t * radixTile; c < end; c += 32 {
				var d [32]uint32
				var valid [32]bool
				ballot := func(pred func(l int) bool) uint32 {
					var m uint32
					for l := 0; l < 32; l++ {
						if pred(l) {
							m |= 1 << l
						}
					}
					return m
				}
				for l := 0; l < 32; l++ {
					i := c + int64(l)
					valid[l] = i < end
					if valid[l] {
						d[l] = emuDigit(klo, khi, at+i, shift)
					}
				}
				var peers [32]uint32
				vb := ballot(func(l int) bool { return valid[l] })
				for l := range peers {
					peers[l] = vb
				}
				for b := 0; b < 8; b++ {
					set := ballot(func(l int) bool { return (d[l]>>b)&1 != 0 })
					for l := range peers {
						if (d[l]>>b)&1 != 0 {
							peers[l] &= set
						} else {
							peers[l] &= ^set
						}
					}
				}
				for l := 0; l < 32; l++ {
					if !valid[l] {
						continue
					}
					below := uint32(1)<<l - 1
					i := c + int64(l)
					to := at + int64(off[d[l]]) + int64(bits.OnesCount32(peers[l]&below))
					olo.setU64(to, klo.u64(at+i))
					if khi != nil {
						ohi.setU64(to, khi.u64(at+i))
					}
					opos.setU32(to, pos.u32(at+i))
				}
				for l := 0; l < 32; l++ {
					below := uint32(1)<<l - 1
					if valid[l] && peers[l]&below == 0 {
						off[d[l]] += uint32(bits.OnesCount32(peers[l]))
					}
				}
			}
		}
	}
}

func emuSortOut(vals, idx, src, pos, p, q dev, sz int, total, sstep, dstep, base, grid, threads int64) {
	gridStride(grid, threads, total, func(e int64) {
		r := div(e, q, false)
		j := e - r*q.i64(0)
		so, dso := calc(p, r, false)
		from := int64(pos.u32(e))
		to := dso + j*dstep
		if vals != nil {
			copy(vals.elem(to, sz), src.elem(base+so+from*sstep, sz))
		}
		if idx != nil {
			idx.setU64(to, uint64(from))
		}
	})
}

// ptxEntry matches a kernel's entry in the PTX with its parameter list and
// the maximum block size from its launch bounds, if any.
var ptxEntry = regexp.MustCompile(`\.entry (\w+)\(\s*([^)]*)\)\s*(?:\.maxntid (\d+), (\d+), (\d+))?`)

type ptxKernel struct {
	params   []string // each parameter's type
	maxBlock int      // 0: no launch bound
}

func ptxKernels(t testing.TB) map[string]ptxKernel {
	out := map[string]ptxKernel{}
	for _, m := range modules {
		for _, e := range ptxEntry.FindAllStringSubmatch(*m.ptx, -1) {
			var k ptxKernel
			for _, p := range strings.Split(e[2], ",") {
				if f := strings.Fields(p); len(f) >= 2 {
					k.params = append(k.params, f[1])
				}
			}
			if e[3] != "" {
				x, _ := strconv.Atoi(e[3])
				y, _ := strconv.Atoi(e[4])
				k.maxBlock = x * y
			}
			if moduleOf(e[1]) != moduleIndex(m.name) {
				t.Errorf("kernel %s is in module %s but moduleOf says %s", e[1], m.name, modules[moduleOf(e[1])].name)
			}
			out[e[1]] = k
		}
	}
	return out
}

var (
	ptxOnce   sync.Once
	ptxParsed map[string]ptxKernel
)

func moduleIndex(name string) int {
	for i, m := range modules {
		if m.name == name {
			return i
		}
	}
	return -1
}

// checkProgram checks each launch against the compiled PTX: the kernel
// exists, takes as many arguments as the program passes, each 8 bytes, and
// the block fits its launch bounds.
func checkProgram(t testing.TB, p *program) {
	t.Helper()
	ptxOnce.Do(func() { ptxParsed = ptxKernels(t) })
	ks := ptxParsed
	for _, s := range p.steps {
		if s.kernel == "" {
			continue
		}
		k, ok := ks[s.kernel]
		if !ok {
			t.Fatalf("kernel %s is not in the PTX", s.kernel)
		}
		if len(k.params) != len(s.args) {
			t.Fatalf("kernel %s takes %d arguments, the program passes %d", s.kernel, len(k.params), len(s.args))
		}
		for i, typ := range k.params {
			if typ != ".u64" && typ != ".b64" && typ != ".s64" {
				t.Fatalf("kernel %s argument %d is %s, not an 8-byte slot", s.kernel, i, typ)
			}
		}
		if b := s.block[0] * s.block[1]; b > 1024 || k.maxBlock > 0 && b > k.maxBlock {
			t.Fatalf("kernel %s launched with %d threads, its bound is %d", s.kernel, b, k.maxBlock)
		}
		if s.grid < 1 || s.grid > maxGrid {
			t.Fatalf("kernel %s launched with %d blocks", s.kernel, s.grid)
		}
	}
}
