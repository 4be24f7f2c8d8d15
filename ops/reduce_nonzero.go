package ops

import (
	"math/bits"
	"unsafe"

	"strider/internal/dtype"
)

// count_nonzero, any and all count, for each output, the elements that
// are not zero: NumPy casts them to bool (a NaN and -0.0's sign do not
// matter: bool(x) is x != 0) and sums or ors or ands the bools, all folds
// whose result does not depend on the order. Here the elements are tested
// as they lie, by their bits: an element is nonzero when a bit outside the
// sign of each float part is set. any is a count above zero, all a count
// equal to the number of elements.

// nonzeroMask is the bits of an element of dtype d (native) that make it
// nonzero, per word of its size (two words for a 16-byte complex number).
func nonzeroMask(d dtype.Dtype) uint64 {
	switch {
	case d.Kind == 'f' && d.Size == 2:
		return 0x7fff
	case d.Kind == 'f' && d.Size == 4:
		return 0x7fffffff
	case d.Kind == 'f' && d.Size == 8, d.Kind == 'c' && d.Size == 16:
		return 0x7fffffffffffffff
	case d.Kind == 'c' && d.Size == 8:
		return 0x7fffffff7fffffff
	}
	return ^uint64(0)
}

// countNonzero is the number of us with a bit of mask set, four lanes at a
// time.
func countNonzero[U uint8 | uint16 | uint32 | uint64](us []U, mask U) int64 {
	var n0, n1, n2, n3 int64
	i := 0
	for ; i+4 <= len(us); i += 4 {
		b := us[i : i+4 : i+4]
		n0 += int64(b2u(b[0]&mask != 0))
		n1 += int64(b2u(b[1]&mask != 0))
		n2 += int64(b2u(b[2]&mask != 0))
		n3 += int64(b2u(b[3]&mask != 0))
	}
	for ; i < len(us); i++ {
		n0 += int64(b2u(us[i]&mask != 0))
	}
	return n0 + n1 + n2 + n3
}

// countLanes is the number of nonzero elements of size e (1, 2, 4 or 8
// bytes) in b under the element mask mask (nonzeroMask, repeated across a
// word): the elements before the first 8-byte boundary and after the
// last one by countNonzero, the words between as lanes side by side. In
// a lane t (the element's masked bits), clearing the top bit h and adding
// all the others carries into h exactly when a lower bit is set; or-ing
// t's own top bit in makes h the lane's nonzero flag, and the flags are
// counted by popcount.
func countLanes(b []byte, e int, mask uint64) int64 {
	var n int64
	head := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 7)
	if head > len(b) || head%e != 0 {
		head = len(b) // not aligned to its elements (not seen: the loader aligns them)
	}
	n += countElements(b[:head], e, mask)
	b = b[head:]
	tail := len(b) &^ 7
	n += countElements(b[tail:], e, mask)
	words := typed[uint64](b[:tail])
	var h uint64
	for l := 0; l < 8/e; l++ {
		h |= uint64(1) << ((l+1)*8*e - 1)
	}
	mask = repeatLane(mask, e)
	low := ^h
	var n0, n1 int
	i := 0
	for ; i+2 <= len(words); i += 2 {
		w := words[i : i+2 : i+2]
		t0, t1 := w[0]&mask, w[1]&mask
		n0 += bits.OnesCount64(((t0 & low) + low | t0) & h)
		n1 += bits.OnesCount64(((t1 & low) + low | t1) & h)
	}
	for ; i < len(words); i++ {
		t := words[i] & mask
		n0 += bits.OnesCount64(((t & low) + low | t) & h)
	}
	return n + int64(n0+n1)
}

// repeatLane is the low e bytes of m repeated across a word.
func repeatLane(m uint64, e int) uint64 {
	if e == 8 {
		return m
	}
	m &= uint64(1)<<(8*e) - 1
	var r uint64
	for l := 0; l < 8/e; l++ {
		r |= m << (l * 8 * e)
	}
	return r
}

// countElements is countNonzero for elements of size e in b.
func countElements(b []byte, e int, mask uint64) int64 {
	switch e {
	case 1:
		return countNonzero(b, uint8(mask))
	case 2:
		return countNonzero(typed[uint16](b), uint16(mask))
	case 4:
		return countNonzero(typed[uint32](b), uint32(mask))
	}
	return countNonzero(typed[uint64](b), mask)
}

// countPairs is the number of pairs of us (the parts of a complex128)
// either of which has a bit of mask set.
func countPairs(us []uint64, mask uint64) int64 {
	var n int64
	for i := 0; i+2 <= len(us); i += 2 {
		n += int64(b2u((us[i]|us[i+1])&mask != 0))
	}
	return n
}

// nonzeroKernel is the count of nonzero elements of native dtype d into
// int64 results: the kernel of ufNonzero. simd is the widest vector
// kernel it may run (reduce_amd64.s); every level gives the same counts.
func nonzeroKernel(d dtype.Dtype, simd simdLevel) foldKernel {
	mask := nonzeroMask(d)
	count := func(vals []byte) int64 {
		switch d.Size {
		case 1, 2: // eight or four lanes a word beat a test each
			return countLanes(vals, d.Size, mask)
		case 16:
			return countPairs(typed[uint64](vals), mask)
		}
		return countElements(vals, d.Size, mask)
	}
	k := foldKernel{size: 8}
	k.init = func(acc []byte) { clear(acc) }
	k.call = func(acc []byte, pos int, vals []byte, _ bool, _ *fpFlags) {
		typed[int64](acc)[pos] += count(vals)
	}
	k.partial = func(vals []byte, _ int, _ *fpFlags) [2]uint64 { return [2]uint64{uint64(count(vals))} }
	k.combine = func(acc []byte, pos int, p [2]uint64, _ *fpFlags) { typed[int64](acc)[pos] += int64(p[0]) }
	k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
		a := typed[int64](acc)
		e := d.Size
		for i := 0; i < len(vals)/e; i++ {
			a[pos+i*step] += count(vals[i*e : (i+1)*e])
		}
	}
	if d.Size == 4 {
		k.row = func(acc []byte, pos, step int, vals []byte, _ *fpFlags) {
			a, us := typed[int64](acc), typed[uint32](vals)
			m := uint32(mask)
			if step == 1 {
				n := vectorCounts(a[pos:], us, m, simd)
				pos, us = pos+n, us[n:]
			}
			for i, u := range us {
				a[pos+i*step] += int64(b2u(u&m != 0))
			}
		}
	}
	return k
}

// vectorCounts adds 1 to counts[i] for each us[i] with a bit of mask set,
// for i below n, the longest prefix of us the widest column kernel simd
// allows takes whole (0: none), and returns n.
func vectorCounts(counts []int64, us []uint32, mask uint32, simd simdLevel) int {
	n, wide := vectorPrefix(len(us), 4, 1, simd)
	if n == 0 {
		return 0
	}
	counts = counts[:n:n] // bounds
	c, p := unsafe.Pointer(unsafe.SliceData(counts)), unsafe.Pointer(unsafe.SliceData(us))
	if wide {
		countCols32AVX512(c, p, n, mask)
	} else {
		countCols32AVX2(c, p, n, mask)
	}
	return n
}

// nonzeroCounts is np.count_nonzero's counts over the call's axes
// (keepdims as given) in the layout of np.sum's result.
func (r recipe) nonzeroCounts(keepdims bool) (ndarr, error) {
	return r.reduce(r.input(), ufNonzero, dtype.NativeOf(r.c.dt), keepdims, nil)
}

// logical is np.any / np.all (logical_or.reduce / logical_and.reduce of
// the elements cast to bool): a count of the nonzero elements above zero,
// or equal to the number of elements.
func (r recipe) logical(any bool) (ndarr, error) {
	cnt, err := r.nonzeroCounts(r.c.keepdims)
	if err != nil {
		return ndarr{}, err
	}
	res := cnt
	res.d = dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}
	if r.dry {
		return res, nil
	}
	res.data = alloc(cnt.count(), res.d)
	all := int64(r.c.reducedCount())
	for i, n := range typed[int64](cnt.data) {
		res.data[i] = b2u(any && n > 0 || !any && n == all)
	}
	return res, nil
}
