package ops

import (
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"strider/internal/sysmem"
)

// Long strips of 4-byte values whose output is contiguous are sorted by
// sortValuesWide, in four steps that each read and write the strip once:
//
//  1. encode: the keys (see codec) into the output, each chunk of the
//     strip counting the top 16 bits of its keys;
//  2. split: one most-significant-digit pass moves the keys by their top
//     11 to 16 bits (as few as leave every bucket small enough for a
//     core's L2 cache), each chunk's keys after the earlier chunks' keys
//     of the same digit, so it is stable. When it reads the input (a
//     contiguous strip in native byte order) it writes into the output
//     itself, else into a scratch buffer of the strip's size;
//  3. buckets: each bucket is sorted by its remaining bits, least
//     significant digit first, inside the cache, the last pass writing the
//     decoded values to the bucket's place in the output;
//  4. the runs of the zero key and the NaN key get their input bits back
//     (-0.0 and NaN payloads, in input order).
//
// The split is where the keys stream through memory in random order. Its
// stores go through a 64-byte buffer per digit value and, on amd64, each
// full buffer is written with non-temporal stores (scatterNT32): a plain
// store to a line not in the cache first reads it, and on the Xeon this was
// measured on 256 interleaved streams of stores ran at a third of the
// speed of 16 (tuning.simd = simdNone runs the pure-Go scatterKeys).
//
// Measured, 16M float32 normal values, one thread: see the commit that
// added it and docs/benchmarks.md.

// wideDigitMin is the narrowest split digit: 2048 buckets, whose line
// buffers (128 KiB) stay in L2 while the keys stream by.
const wideDigitMin = 11

// sortValuesWide is sortValues for a long strip of 4-byte elements whose
// output is contiguous; it reports false, having done nothing, for any
// other.
func (w *scalarSorter[U]) sortValuesWide(s strip, threads int) bool {
	n, c := s.n, &w.c
	var u U
	size := int(unsafe.Sizeof(u))
	if size != 4 || n < w.t.msdValuesMin || uint64(n) >= 1<<32-1 || s.valsStep != size || uintptr(s.vals)%uintptr(size) != 0 {
		return false
	}
	out := unsafe.Slice((*U)(s.vals), n)
	const top = 16
	shift := c.bits - top
	chunks := threads
	bound := func(t int) int { return t * n / chunks }

	// 1. Each chunk's counts of its keys' top bits. A contiguous strip in
	// native byte order is read again by the split, which makes the keys
	// as it moves them; any other has its keys written to the output here.
	enc := newEncoder32(c)
	fused := s.srcStep == size && !c.swap
	own := w.keys
	w.keys, w.ambRuns = out, w.ambRuns[:0]
	defer func() { w.keys = own }()
	var amb atomic.Int64
	per, total := w.countTop(s, chunks, threads, bound, &enc, !fused, &amb)
	s.progress.step()
	if slices.Max(total) == uint32(n) {
		// The top bits are the same in every key: the split would not
		// split, so sort the keys by the rest with the general radix sort.
		if fused {
			each(w, s, threads, phaseEncode)
		}
		sortWords(out, w.scratch(n), 0, size, threads, &w.sc, w.t)
		w.putSorted(s, threads, amb.Load())
		return true
	}

	// 2. The split: the narrowest digit that leaves no bucket over
	// tuning.wideBucket bytes, at least wideDigitMin bits.
	limit := uint32(max(1, w.t.wideBucket/size))
	width, shift, start := splitDigit(total, per, limit, top, shift)
	buckets := 1 << width
	tmp := w.splitTarget(out, s, fused, chunks, threads, bound)
	simd := w.t.simd
	parallel(chunks, threads, func(lo, hi int) {
		var lines []byte
		if haveScatterNT && simd >= simdSSE2 {
			lines = make([]byte, 64*buckets)
		}
		for t := lo; t < hi; t++ {
			src := asUint32s(out)[bound(t):bound(t+1)]
			var e *encoder32
			if fused {
				src, e = unsafe.Slice((*uint32)(s.src), n)[bound(t):bound(t+1)], &enc
			}
			splitKeys(asUint32s(tmp), src, per[t], shift, uint32(buckets-1), lines, e)
		}
	})
	s.progress.step()

	// 3. Each bucket by the bits below the digit, into the output.
	w.sortBuckets(asUint32s(out), asUint32s(tmp), start, shift, limit, threads)
	s.progress.step()

	// 4. The zeros and NaNs.
	if amb.Load() > 0 {
		w.restoreAmbiguous(out)
	}
	return true
}

// scratch is w's scratch buffer of n keys, 64-byte aligned, on huge
// pages: 32 page faults for a 64 MiB buffer instead of 16384 (a sixth of
// a 16M float sort's CPU went to faulting it in).
func (w *scalarSorter[U]) scratch(n int) []U {
	var u U
	w.ktmp = growAligned(w.ktmp, n)
	sysmem.AdviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w.ktmp))), n*int(unsafe.Sizeof(u))))
	return w.ktmp
}

// splitTarget is the split's destination. Fresh memory costs the more
// here: the kernel clears it a page at a time (a 64 MiB scratch buffer was
// 17% of a 16M float sort on one thread), so a split that reads the input
// (fused) writes into the output itself, which is faulted in anyway. It is
// cleared first, in order, so that its pages fault in in order: the
// split's scattered stores faulting them in (and the file system
// allocating them) at random places made the sort slower (209 -> 238
// ms). The line buffers need the output 64-byte aligned, as an .npy
// file's data is.
func (w *scalarSorter[U]) splitTarget(out []U, s strip, fused bool, chunks, threads int, bound func(int) int) []U {
	if !fused || uintptr(s.vals)%64 != 0 {
		return w.scratch(len(out))
	}
	parallel(chunks, threads, func(lo, hi int) { clear(out[bound(lo):bound(hi)]) })
	return out
}

// countTop counts the top 16 bits of the keys of each of chunks parts of
// s (bound(t) to bound(t+1)), writing the keys to w.keys as it goes when
// write, adding the ambiguous keys (zeros, NaNs) it meets to amb: the
// counts of each chunk, and their total.
func (w *scalarSorter[U]) countTop(s strip, chunks, threads int, bound func(int) int, enc *encoder32, write bool, amb *atomic.Int64) (per [][]uint32, total []uint32) {
	const top = 16
	per = make([][]uint32, chunks)
	parallel(chunks, threads, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			per[t] = make([]uint32, 1<<top)
			amb.Add(int64(w.encode32(s, bound(t), bound(t+1), (*[1 << top]uint32)(per[t]), enc, write)))
		}
	})
	total = make([]uint32, 1<<top)
	for _, h := range per {
		for v, k := range h {
			total[v] += k
		}
	}
	return per, total
}

// sortBuckets sorts each bucket of the split (start[v] to start[v+1] of
// out, with tmp beside it) by the rest bits below its digit, into out.
func (w *scalarSorter[U]) sortBuckets(out, tmp, start []uint32, rest uint, limit uint32, threads int) {
	items := bucketItems(start, threads)
	parallel(len(items)-1, threads, func(lo, hi int) {
		b := newBucketSorter(&w.c, w.t, int(limit))
		for v := items[lo]; v < items[hi]; v++ {
			l, h := start[v], start[v+1]
			b.sort(out[l:h], tmp[l:h], rest)
		}
	})
}

// splitDigit is the split's digit: the narrowest, of at least
// wideDigitMin bits, that leaves no bucket over limit keys, found by
// halving the counts of the top width bits (total, and each chunk's in
// per alike). It returns the digit's width and shift, and where each
// bucket starts; per[t][v] becomes where chunk t's keys of digit v start.
func splitDigit(total []uint32, per [][]uint32, limit uint32, width, shift uint) (uint, uint, []uint32) {
	for width > wideDigitMin && slices.Max(total) <= limit {
		wider := halveCounts(slices.Clone(total))
		if slices.Max(wider) > limit {
			break
		}
		total = wider
		for t := range per {
			per[t] = halveCounts(per[t])
		}
		width--
		shift++
	}
	buckets := 1 << width
	start := make([]uint32, buckets+1)
	sum := uint32(0)
	for v := range buckets {
		start[v] = sum
		for t := range per {
			k := per[t][v]
			per[t][v] = sum // where chunk t's keys of digit v start
			sum += k
		}
	}
	start[buckets] = sum
	return width, shift, start
}

// growAligned is grow for a buffer whose first element is 64-byte aligned
// (a cache line), as the scatter kernels' destinations must be.
func growAligned[E any](s []E, n int) []E {
	if cap(s) >= n && (cap(s) == 0 || uintptr(unsafe.Pointer(unsafe.SliceData(s)))%64 == 0) {
		return s[:n]
	}
	var e E
	size := unsafe.Sizeof(e)
	b := make([]E, n+int(64/size))
	skip := (64 - uintptr(unsafe.Pointer(unsafe.SliceData(b)))%64) % 64 / size
	return b[skip : int(skip)+n : int(skip)+n]
}

// halveCounts merges the counts of digit values 2v and 2v+1 into v: the
// counts of a digit one bit narrower.
func halveCounts(c []uint32) []uint32 {
	for v := range len(c) / 2 {
		c[v] = c[2*v] + c[2*v+1]
	}
	return c[:len(c)/2]
}

// bucketItems groups the buckets that start splits into runs of about
// equal numbers of keys, about 16 a thread, for parallel to hand out: it
// returns the first bucket of each run and, last, the number of buckets.
func bucketItems(start []uint32, threads int) []int {
	buckets := len(start) - 1
	n := int(start[buckets])
	want := max(1, n/(16*threads))
	items := []int{0}
	for v := 1; v < buckets; v++ {
		if int(start[v])-int(start[items[len(items)-1]]) >= want {
			items = append(items, v)
		}
	}
	return append(items, buckets)
}

// putSorted decodes the sorted keys in w.keys into the strip's values,
// giving the zeros and NaNs their input bits back when amb says there are
// any -0.0s or NaNs.
func (w *scalarSorter[U]) putSorted(s strip, threads int, amb int64) {
	if amb == 0 {
		each(w, s, threads, phasePutKeys)
		return
	}
	w.joinAmbiguous()
	w.z0, _ = slices.BinarySearch(w.keys, U(w.c.zeroKey))
	w.n0, _ = slices.BinarySearch(w.keys, U(w.c.nanKey))
	each(w, s, threads, phasePutKeysAmbiguous)
}

// restoreAmbiguous writes the zeros and NaNs listed by encode, in input
// order, over the runs of decoded +0.0s and NaNs in out, the sorted values
// of the strip: there every -0.0 became +0.0 and every NaN one NaN.
func (w *scalarSorter[U]) restoreAmbiguous(out []U) {
	c := &w.c
	w.joinAmbiguous()
	keyAt := func(i int) uint64 {
		k, _ := c.key(c.load(uint64(out[i])))
		return k
	}
	find := func(key uint64) int {
		lo, hi := 0, len(out)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if keyAt(mid) < key {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return lo
	}
	copy(out[find(c.zeroKey):], w.zeros)
	copy(out[find(c.nanKey):], w.nans)
}

// asUint32s is the storage of a slice of 4-byte words as []uint32.
func asUint32s[U unsigned](s []U) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// encode32 is encode for a strip of 4-byte elements that counts each
// key's top 16 bits in h, and writes the keys only when write is set: the
// same counts and lists, from a loop that knows the width. Strided strips
// take encode.
func (w *scalarSorter[U]) encode32(s strip, lo, hi int, h *[1 << 16]uint32, enc *encoder32, write bool) int {
	if s.srcStep != 4 {
		return w.encode(s, lo, hi, h[:], 16)
	}
	c, m := &w.c, 0
	src := unsafe.Slice((*uint32)(s.src), s.n)[lo:hi]
	keys := asUint32s(w.keys)[lo:hi]
	swap, float, inf := c.swap, c.float, uint32(c.inf)
	run := ambRun[U]{lo: lo}
	asm := !write && !swap && haveScatterNT && w.t.simd >= simdSSE2
	for i := 0; i < len(src); i++ {
		if asm {
			// The kernel counts up to the next ±0.0 or NaN; this loop
			// takes that one.
			i += countKeys32(unsafe.Pointer(&src[i]), len(src)-i, &h[0], enc)
			if i == len(src) {
				break
			}
		}
		stored := src[i]
		u := stored
		if swap {
			u = bits.ReverseBytes32(u)
		}
		k := enc.key(u)
		if a := u & 0x7fffffff; float && a-1 >= inf { // ±0.0 or NaN
			switch {
			case a != 0:
				m++
				run.nans = append(run.nans, U(stored))
			case u != 0:
				m++
				run.negZeros = append(run.negZeros, negZero[U]{run.zeros, U(stored)})
				run.zeros++
			default:
				run.zeros++
			}
		}
		if write {
			keys[i] = k
		}
		h[uint16(k>>16)]++
	}
	if run.zeros > 0 || m > 0 {
		w.ambMu.Lock()
		w.ambRuns = append(w.ambRuns, run)
		w.ambMu.Unlock()
	}
	return m
}

// encoder32 is codec.key for native 4-byte values, laid out for the split
// kernel (scatterEncodeNT32 reads its fields by offset).
type encoder32 struct {
	flip, neg         uint32 // the key is u ^ flip ^ (neg when u's top bit is set)
	abs, adj, special uint32 // unless (u&abs)+adj >= special: a float's ±0.0 or NaN
	zeroKey, nanKey   uint32 // whose keys these are (u&abs == 0: zero)
}

func newEncoder32(c *codec) encoder32 {
	e := encoder32{flip: uint32(c.sign ^ c.desc), neg: uint32(c.neg), special: 1,
		zeroKey: uint32(c.zeroKey), nanKey: uint32(c.nanKey)}
	if c.float {
		e.abs, e.adj, e.special = 0x7fffffff, 1<<32-1, uint32(c.inf) // a-1 >= inf: a == 0 or a NaN
	}
	return e
}

// key is the key of native value u.
func (e *encoder32) key(u uint32) uint32 {
	if a := u & e.abs; a+e.adj >= e.special {
		if a == 0 {
			return e.zeroKey
		}
		return e.nanKey
	}
	return u ^ e.flip ^ uint32(int32(u)>>31)&e.neg
}

// decoder32 is codec.decode for 4-byte keys, with its constants at hand.
type decoder32 struct {
	desc, sign, neg uint32
	swap            bool
}

func newDecoder32(c *codec) decoder32 {
	return decoder32{desc: uint32(c.desc), sign: uint32(c.sign), neg: uint32(c.neg), swap: c.swap}
}

// decode is the stored bits of the number whose key is k (not the zero or
// NaN key of a float: see codec.decode).
func (d decoder32) decode(k uint32) uint32 {
	t := k ^ d.desc
	u := t ^ d.sign ^ uint32(int32(^t)>>31)&d.neg // a negative float's key has its top bit clear
	if d.swap {
		u = bits.ReverseBytes32(u)
	}
	return u
}

// bucketSorter sorts the buckets of sortValuesWide's split with its own
// counts and scratch.
type bucketSorter struct {
	dec     decoder32
	asm     bool // the assembly kernels (native byte order only)
	t       *tuning
	limit   int // the most keys a bucket sorted in the cache should hold
	counts  [2][1 << wideDigitMin]uint32
	scratch []uint32
}

func newBucketSorter(c *codec, t *tuning, limit int) *bucketSorter {
	return &bucketSorter{dec: newDecoder32(c), t: t, limit: limit, asm: haveScatterNT && t.simd >= simdSSE2 && !c.swap}
}

// sort writes the keys of src, which agree above bit rest, sorted and
// decoded, to dst (the same length).
func (b *bucketSorter) sort(dst, src []uint32, rest uint) {
	m := len(src)
	switch {
	case m == 0:
		return
	case m < b.t.radixMin || rest == 0:
		insertionWords(src)
		b.decodeAll(dst, src)
		return
	}
	if rest > 2*wideDigitMin || m > 4*b.limit {
		// A digit wider than the two passes cover, or a bucket too large
		// for the cache: the general radix sort.
		b.scratch = grow(b.scratch, m)
		b.decodeAll(dst, sortWords(src, b.scratch, 0, int(rest+7)/8, 1, nil, b.t))
		return
	}
	lo := (rest + 1) / 2 // the low digit's bits
	hi := rest - lo
	c0, c1 := b.counts[0][:1<<lo], b.counts[1][:1<<hi]
	clear(c0)
	clear(c1)
	m0, m1 := uint32(1)<<lo-1, uint32(1)<<hi-1
	if b.asm {
		countDigits32(unsafe.Pointer(unsafe.SliceData(src)), m, &c0[0], &c1[0], lo, uint(m0), uint(m1))
	} else {
		for _, k := range src {
			c0[k&m0]++
			c1[k>>lo&m1]++
		}
	}
	vary0, vary1 := !constantCount(c0, m), !constantCount(c1, m)
	switch {
	case vary0 && vary1:
		// The last pass scatters into a second buffer in the cache, which
		// is then copied out in order: scattered stores into dst, out of
		// the cache since the split, each waited for their line (22% of
		// a 16M float sort's time on one store).
		b.scratch = grow(b.scratch, 2*m)
		s0, s1 := b.scratch[:m], b.scratch[m:]
		prefixSum(c0)
		if b.asm {
			scatter32(unsafe.Pointer(unsafe.SliceData(s0)), unsafe.Pointer(unsafe.SliceData(src)), m, &c0[0], 0, uint(m0))
		} else {
			scatterKeysGo(s0, src, c0, 0, m0)
		}
		prefixSum(c1)
		b.scatterDecode(s1, s0, c1, lo, m1)
		copy(dst, s1)
	case vary0:
		b.scratch = grow(b.scratch, m)
		prefixSum(c0)
		b.scatterDecode(b.scratch, src, c0, 0, m0)
		copy(dst, b.scratch)
	case vary1:
		b.scratch = grow(b.scratch, m)
		prefixSum(c1)
		b.scatterDecode(b.scratch, src, c1, lo, m1)
		copy(dst, b.scratch)
	default:
		b.decodeAll(dst, src)
	}
}

// decodeAll writes the values of keys to dst.
func (b *bucketSorter) decodeAll(dst, keys []uint32) {
	for i, k := range keys {
		dst[i] = b.dec.decode(k)
	}
}

// scatterDecode is scatterKeysGo writing the decoded values.
func (b *bucketSorter) scatterDecode(dst, src []uint32, off []uint32, shift uint, mask uint32) {
	dec := b.dec
	if b.asm {
		scatterDecode32(unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src)), len(src), &off[0], shift, uint(mask), dec.desc, dec.sign, dec.neg)
		return
	}
	for _, k := range src {
		d := k >> shift & mask
		dst[off[d]] = dec.decode(k)
		off[d]++
	}
}

// constantCount reports whether all m keys counted in c have one digit.
func constantCount(c []uint32, m int) bool {
	for _, k := range c {
		if k != 0 {
			return int(k) == m
		}
	}
	return true
}

// prefixSum turns counts into the offsets where each digit value starts.
func prefixSum(c []uint32) {
	sum := uint32(0)
	for v, k := range c {
		c[v] = sum
		sum += k
	}
}

// scatterKeysGo moves each key of src to dst[off[digit]] and advances that
// offset; the digit is key>>shift & mask.
func scatterKeysGo[U unsigned](dst, src []U, off []uint32, shift uint, mask uint32) {
	for _, k := range src {
		d := uint32(uint64(k)>>shift) & mask
		dst[off[d]] = k
		off[d]++
	}
}

// splitKeys is scatterKeysGo (off: where each digit value's keys start in
// dst) over src's keys, or, with enc, over the keys of src's native
// values; with lines (64 bytes per digit value; dst 64-byte aligned) it
// runs the assembly kernels, whose stores go through line buffers. Every
// key goes to the same place.
func splitKeys(dst, src []uint32, off []uint32, shift uint, mask uint32, lines []byte, enc *encoder32) {
	if lines == nil || len(src) == 0 {
		if enc == nil {
			scatterKeysGo(dst, src, off, shift, mask)
			return
		}
		for _, u := range src {
			k := enc.key(u)
			d := k >> shift & mask
			dst[off[d]] = k
			off[d]++
		}
		return
	}
	start := slices.Clone(off)
	d, sp := unsafe.Pointer(unsafe.SliceData(dst)), unsafe.Pointer(unsafe.SliceData(src))
	buf := unsafe.Pointer(unsafe.SliceData(lines))
	if enc == nil {
		scatterNT32(d, sp, len(src), unsafe.SliceData(off), unsafe.SliceData(start), buf, shift, uint(mask))
	} else {
		scatterEncodeNT32(d, sp, len(src), unsafe.SliceData(off), unsafe.SliceData(start), buf, shift, uint(mask), enc)
	}
	// The last line of each digit value is still in its buffer.
	for v, o := range off {
		line := (*[16]uint32)(unsafe.Pointer(&lines[64*v]))
		for k := max(o&^15, start[v]); k < o; k++ {
			dst[k] = line[k&15]
		}
	}
}
