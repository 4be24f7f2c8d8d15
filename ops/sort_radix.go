package ops

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"
)

// unsigned is the word types the radix sort handles directly.
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// rec128 is a 64-bit key with the position it came from.
type rec128 struct {
	key uint64
	idx uint64
}

// sortWords sorts a by the 8*digits bits of each word starting at bit shift,
// stably, with tmp (same length) as scratch, and returns a. Bits above the
// digits must be zero and bits below them must increase in input order
// among words whose digits tie (a packed position, or nothing), so sorting
// whole words by value gives the same order: short inputs are sorted so by
// insertion, and sorted inputs are left as they are. It equals
//
//	sort.SliceStable(a, func(i, j int) bool { return a[i]>>shift < a[j]>>shift })
//
// Strips shorter than t.radixMin are insertion-sorted: below it the
// 256-entry histograms cost more than the quadratic moves.
func sortWords[K unsigned](a, tmp []K, shift uint, digits, threads int, sc *radixScratch, t *tuning) []K {
	if len(a) < t.radixMin {
		insertionWords(a)
		return a
	}
	if slices.IsSorted(a) { // stops at the first pair out of order
		return a
	}
	r := radix[K, wordKernels[K]]{shift: shift, t: t}
	r.sort(a, tmp, false, digits, threads, sc)
	return a
}

// sortRecs sorts a stably by key, using tmp as scratch, and returns a. It
// equals
//
//	sort.SliceStable(a, func(i, j int) bool { return a[i].key < a[j].key })
func sortRecs(a, tmp []rec128, threads int, sc *radixScratch, t *tuning) []rec128 {
	if slices.IsSortedFunc(a, func(x, y rec128) int { return cmp.Compare(x.key, y.key) }) {
		return a
	}
	r := radix[rec128, recKernels]{t: t}
	r.sort(a, tmp, false, 8, threads, sc)
	return a
}

// radixScratch is a sort's counts and offsets, kept by its caller so that
// sorting many short strips allocates nothing.
type radixScratch struct {
	c   [8][256]int
	off [256]int
}

// radix is a stable radix sort with 8-bit digits over records of type R
// whose kernels X count, move and insertion-sort them. Digit d of a record
// is the byte at bit shift+8d of its key.
type radix[R any, X kernels[R]] struct {
	shift uint
	x     X
	t     *tuning
}

// kernels are the loops a radix sort runs over records of type R.
type kernels[R any] interface {
	// count adds digits lo..hi-1 of each record's key, the first at bit
	// shift, to c.
	count(c *[8][256]int, a []R, shift uint, lo, hi int)
	// scatter moves each record of src to dst[off[digit]] and advances
	// that offset; the digit is the key's byte at bit shift.
	scatter(dst, src []R, off *[256]int, shift uint)
	// insertion sorts a short slice stably.
	insertion(a []R)
	// countWide adds the digit (key>>shift)&mask of each record to c.
	countWide(c []int, a []R, shift uint, mask uint64)
	// scatterWide is scatter for the digit (key>>shift)&mask.
	scatterWide(dst, src []R, off []int, shift uint, mask uint64)
}

type wordKernels[K unsigned] struct{}

func (wordKernels[K]) count(c *[8][256]int, a []K, shift uint, lo, hi int) {
	countWords(c, a, shift, lo, hi)
}
func (wordKernels[K]) scatter(dst, src []K, off *[256]int, shift uint) {
	scatterWords(dst, src, off, shift)
}
func (wordKernels[K]) insertion(a []K) { insertionWords(a) }
func (wordKernels[K]) countWide(c []int, a []K, shift uint, mask uint64) {
	for _, x := range a {
		c[uint64(x)>>shift&mask]++
	}
}
func (wordKernels[K]) scatterWide(dst, src []K, off []int, shift uint, mask uint64) {
	for _, x := range src {
		d := uint64(x) >> shift & mask
		dst[off[d]] = x
		off[d]++
	}
}

type recKernels struct{}

func (recKernels) count(c *[8][256]int, a []rec128, shift uint, lo, hi int) {
	countRecs(c, a, shift, lo, hi)
}
func (recKernels) scatter(dst, src []rec128, off *[256]int, shift uint) {
	scatterRecs(dst, src, off, shift)
}
func (recKernels) insertion(a []rec128) { insertionRecs(a) }
func (recKernels) countWide(c []int, a []rec128, shift uint, mask uint64) {
	for _, r := range a {
		c[r.key>>shift&mask]++
	}
}
func (recKernels) scatterWide(dst, src []rec128, off []int, shift uint, mask uint64) {
	for _, r := range src {
		d := r.key >> shift & mask
		dst[off[d]] = r
		off[d]++
	}
}

// sort sorts a by its low digits, with b (same length) as scratch; the
// result ends in b when toB is set, else in a.
//
// Short inputs are insertion-sorted. Inputs of t.msdMin records or more,
// and inputs sorted with several threads, take sortWide's
// most-significant-digit pass first, which leaves buckets small enough for
// the cache and sorts them in parallel. The rest are sorted least
// significant digit first, one stable scattering pass per digit (split
// between threads for one-digit keys). Measured at 1M keys on one thread
// (BenchmarkSort, values and argsort, f32 and i64): the LSD passes are as
// fast as the split there, and faster for float keys. One pass counts all digits (the counts do not depend
// on the order), so digits that are the same in every record cost nothing.
func (r *radix[R, X]) sort(a, b []R, toB bool, digits, threads int, sc *radixScratch) {
	n := len(a)
	if n < r.t.radixMin {
		r.x.insertion(a)
		if toB {
			copy(b, a)
		}
		return
	}
	if digits >= 2 && (n >= r.t.msdMin || threads > 1) {
		r.sortWide(a, b, toB, digits, threads) // a copy of r, as below
		return
	}
	if threads > 1 {
		r.sortParallel(a, b, toB, digits, threads) // a copy of r: its closures must not make r escape
		return
	}
	if sc == nil {
		sc = new(radixScratch)
	}
	c := &sc.c
	for d := 0; d < digits; d++ {
		c[d] = [256]int{}
	}
	r.x.count(c, a, r.shift, 0, digits)
	h := topDigit(c, digits, n)
	if h < 0 {
		if toB {
			copy(b, a)
		}
		return
	}
	src, dst := a, b
	for d := 0; d <= h; d++ {
		if constantDigit(&c[d], n) {
			continue
		}
		sc.off = offsets(&c[d])
		r.x.scatter(dst, src, &sc.off, r.shift+8*uint(d))
		src, dst = dst, src
	}
	if inB := &src[0] == &b[0]; inB != toB {
		copy(dst, src)
	}
}

// sortParallel is the least-significant-digit sort with threads: each
// thread counts and scatters a chunk of the input, its records of each
// digit value placed after the earlier chunks' records of that value, so
// every pass stays stable.
func (r radix[R, X]) sortParallel(a, b []R, toB bool, digits, threads int) {
	n := len(a)
	chunks := threads
	bound := func(t int) int { return t * n / chunks }
	per := make([][8][256]int, chunks)
	parallel(chunks, threads, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			r.x.count(&per[t], a[bound(t):bound(t+1)], r.shift, 0, digits)
		}
	})
	var total [8][256]int
	for t := range per {
		for d := 0; d < digits; d++ {
			for v, k := range per[t][d] {
				total[d][v] += k
			}
		}
	}
	h := topDigit(&total, digits, n)
	if h < 0 {
		if toB {
			parallelCopy(b, a, threads)
		}
		return
	}
	r.lsdParallel(a, b, toB, per, &total, h, threads)
}

// sortBuckets sorts each bucket a[start[v]:start[v+1]] by its low digits,
// with b as scratch, the result in b when toB is set: buckets of a
// thread's share or more one after another with every thread, the others
// spread over the threads.
func (r radix[R, X]) sortBuckets(a, b []R, toB bool, start []int, digits, threads int) {
	n := len(a)
	var small []int
	for v := range len(start) - 1 {
		lo, hi := start[v], start[v+1]
		switch {
		case hi-lo < 2:
			if hi > lo && toB {
				b[lo] = a[lo]
			}
		case hi-lo >= n/threads:
			r.sort(a[lo:hi], b[lo:hi], toB, digits, threads, nil)
		default:
			small = append(small, v)
		}
	}
	parallel(len(small), threads, func(lo, hi int) {
		sc := new(radixScratch)
		for _, v := range small[lo:hi] {
			s, e := start[v], start[v+1]
			r.sort(a[s:e], b[s:e], toB, digits, 1, sc)
		}
	})
}

// sortWide sorts large inputs by one most-significant-digit pass that
// scatters the records into buckets small enough for the cache, then sorts
// each bucket by the digits below, in parallel. The digit is the top 8 to
// 16 bits of the digits, as few as leave no bucket over wideBucket bytes:
// uniform keys need 8, while float keys of normally distributed values
// have a handful of top bytes (sign and high exponent bits) and need 16,
// or their buckets would stream through memory pass after pass as a plain
// LSD sort does. t.msdMin is the least input it takes, and t.wideBucket
// the most bytes of records it aims to leave in one bucket: with the
// scratch beside it, a bucket that size is sorted inside a core's L2 cache,
// so the remaining passes run there instead of streaming the whole input
// through memory. It needs digits >= 2; a top that is the same in every
// record is skipped without a scatter.
func (r radix[R, X]) sortWide(a, b []R, toB bool, digits, threads int) {
	n := len(a)
	top := 8 * uint(digits)
	w := min(16, top, uint(max(8, bits.Len(uint(n))))) // no more buckets than records
	shift := r.shift + top - w
	chunks := threads
	bound := func(t int) int { return t * n / chunks }
	per := make([][]int, chunks)
	parallel(chunks, threads, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			per[t] = make([]int, 1<<w)
			r.x.countWide(per[t], a[bound(t):bound(t+1)], shift, 1<<w-1)
		}
	})
	total := make([]int, 1<<w)
	for _, c := range per {
		for v, k := range c {
			total[v] += k
		}
	}
	if slices.Max(total) == n {
		// These bits are the same in every record: sort by the ones below.
		r.sortBelow(a, b, toB, int(top-w)/8, int(top-w)%8 != 0, threads)
		return
	}
	// Narrow the digit while its buckets stay small enough.
	var size R
	limit := max(1, r.t.wideBucket/int(unsafe.Sizeof(size)))
	for w > 8 && slices.Max(total) <= limit {
		narrow := func(c []int) []int {
			for v := range len(c) / 2 {
				c[v] = c[2*v] + c[2*v+1]
			}
			return c[:len(c)/2]
		}
		wider := slices.Clone(total)
		if slices.Max(narrow(wider)) > limit {
			break
		}
		total = wider
		for t := range per {
			per[t] = narrow(per[t])
		}
		w--
		shift++
	}
	// Where each bucket starts, and where each chunk's records of it go:
	// after the earlier chunks' records of that bucket, so it stays stable.
	start := make([]int, 1<<w+1)
	sum := 0
	for v := range 1 << w {
		start[v] = sum
		for t := range per {
			k := per[t][v]
			per[t][v] = sum
			sum += k
		}
	}
	start[1<<w] = n
	parallel(chunks, threads, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			r.x.scatterWide(b, a[bound(t):bound(t+1)], per[t], shift, 1<<w-1)
		}
	})
	below := int(shift-r.shift+7) / 8
	if below == 0 {
		if !toB {
			parallelCopy(a, b, threads)
		}
		return
	}
	r.sortBuckets(b, a, !toB, start, below, threads)
}

// sortBelow sorts a by its low digits once the wide top is known to be the
// same everywhere; partial says the lowest of the top's bits share a digit
// with the bits below, so that digit is sorted too.
func (r radix[R, X]) sortBelow(a, b []R, toB bool, digits int, partial bool, threads int) {
	if partial {
		digits++
	}
	if digits == 0 {
		if toB {
			parallelCopy(b, a, threads)
		}
		return
	}
	r.sort(a, b, toB, digits, threads, nil)
}

// lsdParallel sorts by every varying digit up to h, least significant
// first, each pass split into the chunks per counted; total is the sum of
// per.
func (r radix[R, X]) lsdParallel(a, b []R, toB bool, per [][8][256]int, total *[8][256]int, h, threads int) {
	n, chunks := len(a), len(per)
	bound := func(t int) int { return t * n / chunks }
	offs := make([][256]int, chunks)
	src, dst := a, b
	counted := true // per still describes the chunks of src
	for d := 0; d <= h; d++ {
		if constantDigit(&total[d], n) {
			continue
		}
		if !counted {
			parallel(chunks, threads, func(lo, hi int) {
				for t := lo; t < hi; t++ {
					per[t][d] = [256]int{}
					r.x.count(&per[t], src[bound(t):bound(t+1)], r.shift, d, d+1)
				}
			})
		}
		counted = false
		sum := 0
		for v := 0; v < 256; v++ {
			for t := range per {
				offs[t][v] = sum
				sum += per[t][d][v]
			}
		}
		s, ds := src, dst
		parallel(chunks, threads, func(lo, hi int) {
			for t := lo; t < hi; t++ {
				r.x.scatter(ds, s[bound(t):bound(t+1)], &offs[t], r.shift+8*uint(d))
			}
		})
		src, dst = dst, src
	}
	if inB := &src[0] == &b[0]; inB != toB {
		parallelCopy(dst, src, threads)
	}
}

// parallelCopy is copy(dst, src) split between threads.
func parallelCopy[R any](dst, src []R, threads int) {
	parallel(len(src), threads, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
}

// topDigit is the highest of the low digits that is not the same in all n
// records, or -1 when none varies.
func topDigit(c *[8][256]int, digits, n int) int {
	for d := digits - 1; d >= 0; d-- {
		if !constantDigit(&c[d], n) {
			return d
		}
	}
	return -1
}

// offsets is the exclusive prefix sum of one digit's counts: where each
// digit value's records start.
func offsets(c *[256]int) [256]int {
	var off [256]int
	sum := 0
	for v, k := range c {
		off[v] = sum
		sum += k
	}
	return off
}

// constantDigit reports whether all n records share the digit c counts.
func constantDigit(c *[256]int, n int) bool {
	for _, k := range c {
		if k != 0 {
			return k == n
		}
	}
	return true
}

// countWords counts digits lo..hi-1 of each word. The usual digit counts
// (one to four) are unrolled: a loop over the digits per word cost a
// quarter of a 16M float32 sort.
func countWords[K unsigned](c *[8][256]int, a []K, shift uint, lo, hi int) {
	shift += 8 * uint(lo)
	switch hi - lo {
	case 1:
		c0 := &c[lo]
		for _, x := range a {
			c0[byte(uint64(x)>>shift)]++
		}
		return
	case 2:
		c0, c1 := &c[lo], &c[lo+1]
		for _, x := range a {
			v := uint64(x) >> shift
			c0[byte(v)]++
			c1[byte(v>>8)]++
		}
		return
	case 3:
		c0, c1, c2 := &c[lo], &c[lo+1], &c[lo+2]
		for _, x := range a {
			v := uint64(x) >> shift
			c0[byte(v)]++
			c1[byte(v>>8)]++
			c2[byte(v>>16)]++
		}
		return
	case 4:
		c0, c1, c2, c3 := &c[lo], &c[lo+1], &c[lo+2], &c[lo+3]
		for _, x := range a {
			v := uint64(x) >> shift
			c0[byte(v)]++
			c1[byte(v>>8)]++
			c2[byte(v>>16)]++
			c3[byte(v>>24)]++
		}
		return
	}
	for _, x := range a {
		v := uint64(x) >> shift
		for d := lo; d < hi; d++ {
			c[d][byte(v)]++
			v >>= 8
		}
	}
}

// scatterWords moves each word of src to dst[off[digit]] and advances that
// offset.
func scatterWords[K unsigned](dst, src []K, off *[256]int, s uint) {
	for _, x := range src {
		b := byte(uint64(x) >> s)
		dst[off[b]] = x
		off[b]++
	}
}

// countRecs counts digits lo..hi-1 of each key.
func countRecs(c *[8][256]int, a []rec128, shift uint, lo, hi int) {
	shift += 8 * uint(lo)
	for _, r := range a {
		v := r.key >> shift
		for d := lo; d < hi; d++ {
			c[d][byte(v)]++
			v >>= 8
		}
	}
}

func scatterRecs(dst, src []rec128, off *[256]int, s uint) {
	for _, r := range src {
		b := byte(r.key >> s)
		dst[off[b]] = r
		off[b]++
	}
}

// insertionWords sorts a short slice by value.
func insertionWords[K unsigned](a []K) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// insertionRecs sorts a short slice stably by key.
func insertionRecs(a []rec128) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1].key > x.key; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}
