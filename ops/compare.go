package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
	"slices"
	"unsafe"

	"strider/internal/dtype"
)

// Tolerance is numpy.testing.assert_allclose's: elements are close when
// |actual - desired| <= ATol + RTol*|desired|.
type Tolerance struct {
	RTol, ATol float64
	// EqualNaN makes NaN equal to NaN; NaN anywhere else is a mismatch.
	EqualNaN bool
	// Show is how many mismatched elements Comparison.First lists.
	Show int
}

// Diff is an absolute difference: exact for two integer (or bool) arrays,
// where it may need 65 bits, a float64 otherwise.
type Diff struct {
	Exact  bool
	Hi, Lo uint64 // Exact: the value is Hi*2^64 + Lo, Hi is 0 or 1
	Float  float64
}

// Float64 is d rounded to a float64.
func (d Diff) Float64() float64 {
	if d.Exact {
		return float64(d.Hi)*0x1p64 + float64(d.Lo)
	}
	return d.Float
}

// less orders differences, NaN above everything (it is the worst).
func (d Diff) less(e Diff) bool {
	if d.Exact {
		return d.Hi < e.Hi || d.Hi == e.Hi && d.Lo < e.Lo
	}
	if math.IsNaN(d.Float) {
		return false
	}
	return math.IsNaN(e.Float) || d.Float < e.Float
}

// Comparison is the outcome of AllClose.
type Comparison struct {
	Total      int // elements compared
	Mismatched int // elements not close, location mismatches included
	// NumPy refuses before counting when NaN (with EqualNaN), +inf or -inf
	// stand at different places in the two arrays; these record that.
	NaNLocation, PosInfLocation, NegInfLocation bool
	// Over the elements that were compared (those where both arrays hold
	// NaN, or the same infinity, are left out, as NumPy does): the largest
	// absolute difference and the largest relative difference
	// |actual-desired|/|desired| over nonzero desired values (+Inf when
	// there is none). NaN in any difference makes the maximum NaN.
	// HasDiff is false when no element was compared.
	MaxAbs  Diff
	MaxRel  float64
	HasDiff bool
	// Worst is the C-order position of the mismatched element with the
	// largest absolute difference (the first of equals), -1 when none.
	Worst int
	// First is the C-order positions of the first Tolerance.Show
	// mismatched elements.
	First []int
	// Of the mismatched elements: those with a NaN on either side, and
	// those with an infinity on either side and no NaN.
	NaNMismatched, InfMismatched int
}

// compareKind is the arithmetic both arrays are compared in.
type compareKind int

const (
	compareInt     compareKind = iota // exact integers
	compareFloat                      // float64
	compareComplex                    // complex128
)

func compareKindOf(a, d dtype.Dtype) compareKind {
	isInt := func(k byte) bool { return k == 'b' || k == 'i' || k == 'u' }
	switch {
	case isInt(a.Kind) && isInt(d.Kind):
		return compareInt
	case a.Kind == 'c' || d.Kind == 'c':
		return compareComplex
	}
	return compareFloat
}

// compareChunk holds one thread's running statistics.
type compareChunk struct {
	mismatched                int
	nanLoc, posInfLoc, negInf bool
	maxAbs                    Diff
	maxRel                    float64
	hasDiff, hasNonzero       bool
	worst                     int
	worstDiff                 Diff
	show                      int   // Tolerance.Show
	first                     []int // the chunk's first show mismatches
	nanMis, infMis            int
}

// BroadcastTo returns v with a 0-d view stretched to shape (zero strides),
// as NumPy broadcasts a scalar; v itself when it already has the shape.
func BroadcastTo(v View, shape []int) (View, error) {
	if slices.Equal(v.Shape, shape) {
		return v, nil
	}
	if len(v.Shape) != 0 {
		return View{}, fmt.Errorf("cannot broadcast shape %s to %s", ShapeString(v.Shape), ShapeString(shape))
	}
	w := v
	w.Shape = append([]int{}, shape...)
	w.Strides = make([]int, len(shape))
	return w, nil
}

// AllClose compares actual with desired element by element as
// numpy.testing.assert_allclose does, both of the same shape (see
// BroadcastTo). Integers (and bools) of any width and sign are compared
// exactly with each other; any float or complex makes the comparison
// float64 or complex128 (complex by the magnitude of the difference).
// Infinities equal only the same infinity. The work is split among threads
// in chunks of the C-order index. Pairs of native float32 and float64
// arrays are folded a batch at a time by foldFinite, which does without a
// branch per pair while the batch holds no infinity or NaN; the pair by
// pair fold (floatPair) is its reference and takes the other batches.
//
// AllClose is ClosePieces with one piece: the whole arrays.
func AllClose(actual View, fa dtype.Dtype, desired View, fd dtype.Dtype, tol Tolerance, opt Options) (Comparison, error) {
	if err := checkComparable(actual, fa, desired, fd); err != nil {
		return Comparison{}, err
	}
	p := NewClosePieces(actual.Count(), fa, fd, tol)
	if err := p.Add(0, actual, desired, opt); err != nil {
		return Comparison{}, err
	}
	return p.Result(), nil
}

// PieceAlign is what the first C-order position of a piece that
// ClosePieces.Add folds must be a multiple of: AllClose's chunk, whose
// statistics are kept apart until Result merges them.
const PieceAlign = compareChunkLen

// compareChunkLen is how many elements AllClose folds into one
// compareChunk, the unit of its threads' work and of its merge.
const compareChunkLen = 1 << 14

// ClosePieces is AllClose over two arrays of n elements that arrive piece
// by piece (a remote input, compared as its ranges come in): Add folds
// the elements at some C-order positions, Result merges every piece's
// statistics. The pieces are folded in AllClose's chunks, by its code, and
// merged in chunk order as AllClose merges them, so the Comparison is
// AllClose's on the whole arrays, whatever the pieces and their order.
type ClosePieces struct {
	n       int
	fa, fd  dtype.Dtype
	tol     Tolerance
	results []compareChunk // by chunk of C-order positions
}

// NewClosePieces starts the comparison of two arrays of n elements, of
// dtypes fa and fd.
func NewClosePieces(n int, fa, fd dtype.Dtype, tol Tolerance) *ClosePieces {
	return &ClosePieces{n: n, fa: fa, fd: fd, tol: tol, results: make([]compareChunk, ceilDiv(n, compareChunkLen))}
}

// Add folds the elements at C-order positions [lo, lo+k) of both arrays,
// given as views of those k elements in C order (views of the same shape,
// of any shape). lo must be a multiple of PieceAlign, and lo+k one too or
// the end of the arrays. Each position must be added once, the pieces in
// any order, one Add at a time.
func (p *ClosePieces) Add(lo int, actual, desired View, opt Options) error {
	if err := checkComparable(actual, p.fa, desired, p.fd); err != nil {
		return err
	}
	k := actual.Count()
	if k == 0 {
		return nil
	}
	if hi := lo + k; lo < 0 || lo%compareChunkLen != 0 || hi > p.n || hi%compareChunkLen != 0 && hi != p.n {
		return fmt.Errorf("positions %d..%d are not a piece of %d elements in chunks of %d", lo, hi, p.n, compareChunkLen)
	}
	fa, fd, tol := p.fa, p.fd, p.tol
	kind := compareKindOf(fa, fd)
	shape, stA, stD := mergeAxes(actual.Shape, byteStrides(actual), byteStrides(desired))
	calc := NewOffsetCalculator(shape, stA, stD)
	baseA := actual.Offset * actual.Elem
	baseD := desired.Offset * desired.Elem
	inner, stepA, stepD := 1, 0, 0
	if nd := len(shape); nd > 0 {
		inner, stepA, stepD = shape[nd-1], stA[nd-1], stD[nd-1]
	}
	threads := opt.threads()
	if k*(fa.Size+fd.Size) < parallelMin {
		threads = 1
	}
	const chunk = compareChunkLen
	results := p.results[lo/chunk:]
	parallel(ceilDiv(k, chunk), threads, func(clo, chi int) {
		// Each run along the innermost axis is decoded into buffers of
		// the comparison's type first, so the format is looked at once
		// per run, not per element.
		idx := make([]int, len(shape))
		b := newCompareBuffers(kind, fa, fd)
		fast := floatBatchFor(fa, fd, opt.tuning())
		if opt.tuning().pairwiseCompare {
			fast = nil
		}
		// A piece's chunks come in order, so once it holds Show first
		// mismatches its later chunks need keep none: what memory the list
		// takes is bounded by Show per piece.
		kept := 0
		for c := clo; c < chi; c++ {
			last := min(k, (c+1)*chunk)
			st := compareChunk{worst: -1, show: tol.Show - kept}
			// i counts the piece's elements; lo+i is the position.
			for i := c * chunk; i < last; {
				oa, od := calc.Index(i, idx)
				m := min(inner-i%inner, last-i, compareBatch)
				if fast != nil && fast(&st, unsafe.Pointer(&actual.Data[baseA+oa]), stepA, unsafe.Pointer(&desired.Data[baseD+od]), stepD, m, tol, lo+i) {
					i += m
					continue
				}
				b.load(actual.Data, baseA+oa, stepA, desired.Data, baseD+od, stepD, m)
				b.compare(&st, tol, lo+i, m)
				i += m
			}
			results[c] = st
			kept += len(st.first)
			if opt.Done != nil {
				opt.Done.Add(int64((last - c*chunk) * (fa.Size + fd.Size)))
			}
		}
	})
	return nil
}

// Result is the Comparison of the pieces added: AllClose's on the whole
// arrays once every position is added.
func (p *ClosePieces) Result() Comparison {
	return mergeChunks(p.n, p.results, p.tol.Show)
}

// checkComparable checks that both views are valid for their dtypes and
// have the same shape.
func checkComparable(actual View, fa dtype.Dtype, desired View, fd dtype.Dtype) error {
	for _, c := range []struct {
		v View
		f dtype.Dtype
	}{{actual, fa}, {desired, fd}} {
		if err := c.f.CheckElem(c.v.Elem); err != nil {
			return err
		}
		if err := c.v.Check(); err != nil {
			return err
		}
	}
	if !slices.Equal(actual.Shape, desired.Shape) {
		return fmt.Errorf("shapes %s and %s differ", ShapeString(actual.Shape), ShapeString(desired.Shape))
	}
	return nil
}

// mergeChunks folds the statistics of the chunks of total elements into
// one Comparison. It goes in chunk order, so ties keep the first element,
// and keeps the first show mismatches.
func mergeChunks(total int, results []compareChunk, show int) Comparison {
	res := Comparison{Total: total, Worst: -1}
	hasNonzero := false
	var worstDiff Diff
	for _, st := range results {
		res.Mismatched += st.mismatched
		res.NaNMismatched += st.nanMis
		res.InfMismatched += st.infMis
		res.First = append(res.First, st.first[:min(len(st.first), show-len(res.First))]...)
		res.NaNLocation = res.NaNLocation || st.nanLoc
		res.PosInfLocation = res.PosInfLocation || st.posInfLoc
		res.NegInfLocation = res.NegInfLocation || st.negInf
		if st.hasDiff {
			if !res.HasDiff || res.MaxAbs.less(st.maxAbs) {
				res.MaxAbs = st.maxAbs
			}
			res.HasDiff = true
		}
		if st.hasNonzero {
			if hasNonzero {
				res.MaxRel = maxNaN(res.MaxRel, st.maxRel)
			} else {
				res.MaxRel = st.maxRel
			}
			hasNonzero = true
		}
		if st.worst >= 0 && (res.Worst < 0 || worstDiff.less(st.worstDiff)) {
			res.Worst, worstDiff = st.worst, st.worstDiff
		}
	}
	if res.HasDiff && !hasNonzero {
		res.MaxRel = math.Inf(1)
	}
	return res
}

// maxNaN is max with NaN winning, as numpy.max.
func maxNaN(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return max(a, b)
}

// compareBatch is how many elements are decoded at a time.
const compareBatch = 512

// compareBuffers holds decoded runs of both arrays and the dtypes they are
// decoded from.
type compareBuffers struct {
	fa, fd dtype.Dtype
	fx, fy []float64 // compareFloat
	ix, iy []int64   // compareInt, when both formats fit an int64
	zx, zy []complex128
	raw    rawRun // compareInt with a uint64 side
}

func newCompareBuffers(kind compareKind, fa, fd dtype.Dtype) *compareBuffers {
	b := &compareBuffers{fa: fa, fd: fd}
	switch kind {
	case compareFloat:
		b.fx, b.fy = make([]float64, compareBatch), make([]float64, compareBatch)
	case compareInt:
		if fitsInt64(fa) && fitsInt64(fd) {
			b.ix, b.iy = make([]int64, compareBatch), make([]int64, compareBatch)
		}
	case compareComplex:
		b.zx, b.zy = make([]complex128, compareBatch), make([]complex128, compareBatch)
	}
	return b
}

// rawRun is where the next run starts in both arrays, for the formats
// that are decoded element by element.
type rawRun struct {
	a, d         []byte
	offA, offD   int
	stepA, stepD int
}

// load decodes m elements of each array starting at the byte offsets.
func (b *compareBuffers) load(a []byte, offA, stepA int, d []byte, offD, stepD, m int) {
	switch {
	case b.fx != nil:
		decodeFloats(b.fx[:m], a, offA, stepA, b.fa)
		decodeFloats(b.fy[:m], d, offD, stepD, b.fd)
	case b.ix != nil:
		decodeInts(b.ix[:m], a, offA, stepA, b.fa)
		decodeInts(b.iy[:m], d, offD, stepD, b.fd)
	case b.zx != nil:
		for k := 0; k < m; k++ {
			b.zx[k] = b.fa.Complex(a[offA+k*stepA:])
			b.zy[k] = b.fd.Complex(d[offD+k*stepD:])
		}
	default:
		// Integers beyond int64 (uint64): sign and magnitude, one by one.
		b.raw = rawRun{a, d, offA, offD, stepA, stepD}
	}
}

// compare folds the m loaded elements, at positions i..i+m-1, into st.
func (b *compareBuffers) compare(st *compareChunk, tol Tolerance, i, m int) {
	switch {
	case b.fx != nil:
		for k, x := range b.fx[:m] {
			st.floatPair(x, b.fy[k], tol, i+k)
		}
	case b.ix != nil:
		for k, x := range b.ix[:m] {
			st.int64Pair(x, b.iy[k], tol, i+k)
		}
	case b.zx != nil:
		for k, x := range b.zx[:m] {
			st.complexPair(x, b.zy[k], tol, i+k)
		}
	default:
		r := b.raw
		for k := 0; k < m; k++ {
			an, am := b.fa.Int(r.a[r.offA+k*r.stepA:])
			dn, dm := b.fd.Int(r.d[r.offD+k*r.stepD:])
			st.intPair(an, am, dn, dm, tol, i+k)
		}
	}
}

// fitsInt64 reports whether every value of an integer format is an int64.
func fitsInt64(f dtype.Dtype) bool { return !(f.Kind == 'u' && f.Size == 8) }

// decodeBits writes the elements at b[off], b[off+step], ... (one per dst
// item, at most 8 bytes each) as dtype.Bits reads them: byte order
// resolved, a signed integer sign-extended by a shift, a float as its IEEE
// bits. As in encoding/binary, the loop is chosen by element size; the
// dtype only decides the byte swap and the shift.
func decodeBits(dst []uint64, b []byte, off, step int, f dtype.Dtype) {
	// A shift of 0 leaves unsigned and 8-byte elements as they are.
	be, shift := f.BigEndian(), uint(0)
	if f.Kind == 'i' {
		shift = 64 - 8*uint(f.Size)
	}
	switch f.Size {
	case 1:
		for k := range dst {
			dst[k] = extendSign(uint64(b[off+k*step]), shift)
		}
	case 2:
		for k := range dst {
			u := binary.LittleEndian.Uint16(b[off+k*step:])
			if be {
				u = bits.ReverseBytes16(u)
			}
			dst[k] = extendSign(uint64(u), shift)
		}
	case 4:
		for k := range dst {
			u := binary.LittleEndian.Uint32(b[off+k*step:])
			if be {
				u = bits.ReverseBytes32(u)
			}
			dst[k] = extendSign(uint64(u), shift)
		}
	default:
		for k := range dst {
			u := binary.LittleEndian.Uint64(b[off+k*step:])
			if be {
				u = bits.ReverseBytes64(u)
			}
			dst[k] = u
		}
	}
}

// extendSign sign-extends the low 64-shift bits of u: shifted up and back
// down as an int64 (the mask spares the compiler's check of a shift >= 64).
func extendSign(u uint64, shift uint) uint64 {
	return uint64(int64(u<<(shift&63)) >> (shift & 63))
}

// asUint64s is the storage of a []int64 or []float64 as a []uint64, for
// decoding bits in place.
func asUint64s[T int64 | float64](s []T) []uint64 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&s[0])), len(s))
}

// decodeInts decodes len(dst) bool or integer elements, of a dtype whose
// values all fit an int64 (see fitsInt64), at b[off], b[off+step], ...
func decodeInts(dst []int64, b []byte, off, step int, f dtype.Dtype) {
	decodeBits(asUint64s(dst), b, off, step, f)
	if f.Kind == 'b' {
		for k, x := range dst {
			dst[k] = min(x, 1)
		}
	}
}

// decodeFloats decodes len(dst) bool, integer or float elements at
// b[off], b[off+step], ... as float64s (Dtype.Float of each). The bits are
// loaded into dst's own storage and converted in place.
func decodeFloats(dst []float64, b []byte, off, step int, f dtype.Dtype) {
	u := asUint64s(dst)
	if f.Kind == 'c' {
		for k := range dst {
			dst[k] = f.Float(b[off+k*step:])
		}
		return
	}
	decodeBits(u, b, off, step, f)
	switch {
	case f.Kind == 'f' && f.Size == 8:
		// The bits in place are the float64s.
	case f.Kind == 'f' && f.Size == 4:
		for k, x := range u {
			dst[k] = float64(math.Float32frombits(uint32(x)))
		}
	case f.Kind == 'f':
		for k, x := range u {
			dst[k] = dtype.HalfToFloat64(uint16(x))
		}
	case f.Kind == 'i':
		for k, x := range u {
			dst[k] = float64(int64(x))
		}
	case f.Kind == 'b':
		for k, x := range u {
			dst[k] = float64(min(x, 1))
		}
	default:
		for k, x := range u {
			dst[k] = float64(x)
		}
	}
}

// floatPair folds one float64 pair, at position i, into the statistics.
// Close finite pairs, by far the most common, take the first branch. The
// float64 conversions keep atol + rtol*|y| two roundings, as NumPy
// computes it, where a compiler could fuse them into one multiply-add.
func (st *compareChunk) floatPair(x, y float64, tol Tolerance, i int) {
	d, ay := math.Abs(x-y), math.Abs(y)
	if ay <= math.MaxFloat64 && d <= math.MaxFloat64 && d <= tol.ATol+float64(tol.RTol*ay) {
		// Both finite (an infinite or NaN x makes d fail the test) and
		// close: record's work, inline. A NaN maximum stays NaN.
		if d > st.maxAbs.Float || !st.hasDiff {
			st.maxAbs.Float = d
		}
		st.hasDiff = true
		if ay != 0 {
			if r := d / ay; r > st.maxRel || !st.hasNonzero {
				st.maxRel = r
			}
			st.hasNonzero = true
		}
		return
	}
	flagged, mismatch := st.locations(math.IsNaN(x), math.IsNaN(y), math.IsInf(x, 1), math.IsInf(y, 1), math.IsInf(x, -1), math.IsInf(y, -1), tol)
	if flagged {
		return
	}
	close := false
	if !mismatch {
		if isFinite(x) && isFinite(y) {
			close = d <= tol.ATol+float64(tol.RTol*ay)
		} else {
			close = x == y
		}
	}
	if !close {
		st.classify(math.IsNaN(x) || math.IsNaN(y), math.IsInf(x, 0) || math.IsInf(y, 0))
	}
	st.record(Diff{Float: d}, d/ay, y != 0, close, i)
}

// int64Pair folds one pair of integers that fit an int64.
func (st *compareChunk) int64Pair(x, y int64, tol Tolerance, i int) {
	var d uint64
	if x >= y {
		d = uint64(x) - uint64(y) // the difference is below 2^64: wrapping is exact
	} else {
		d = uint64(y) - uint64(x)
	}
	ay := uint64(y)
	if y < 0 {
		ay = -ay
	}
	diff := Diff{Exact: true, Lo: d}
	st.record(diff, float64(d)/float64(ay), ay != 0, diffWithin(diff, tol.ATol+float64(tol.RTol*float64(ay))), i)
}

// intPair folds one pair of sign-magnitude integers.
func (st *compareChunk) intPair(an bool, am uint64, dn bool, dm uint64, tol Tolerance, i int) {
	diff := intDiff(an, am, dn, dm)
	st.record(diff, diff.Float64()/float64(dm), dm != 0, diffWithin(diff, tol.ATol+float64(tol.RTol*float64(dm))), i)
}

// complexPair folds one complex128 pair.
func (st *compareChunk) complexPair(x, y complex128, tol Tolerance, i int) {
	pinf := func(z complex128) bool { return math.IsInf(real(z), 1) && imag(z) == 0 }
	ninf := func(z complex128) bool { return math.IsInf(real(z), -1) && imag(z) == 0 }
	flagged, mismatch := st.locations(isNaNParts(x), isNaNParts(y), pinf(x), pinf(y), ninf(x), ninf(y), tol)
	if flagged {
		return
	}
	d := cmplx.Abs(x - y) // hypot, as NumPy's abs: +Inf beats NaN
	ay := cmplx.Abs(y)
	close := false
	if !mismatch {
		if isFinite(real(x)) && isFinite(imag(x)) && isFinite(real(y)) && isFinite(imag(y)) {
			close = d <= tol.ATol+float64(tol.RTol*ay)
		} else {
			close = x == y
		}
	}
	if !close {
		isInf := func(z complex128) bool { return math.IsInf(real(z), 0) || math.IsInf(imag(z), 0) }
		st.classify(isNaNParts(x) || isNaNParts(y), isInf(x) || isInf(y))
	}
	st.record(Diff{Float: d}, d/ay, y != 0, close, i)
}

// record folds a compared element's difference into the statistics; rel
// counts only when nonzero (the desired value is not zero).
func (st *compareChunk) record(diff Diff, rel float64, nonzero, close bool, i int) {
	if !st.hasDiff || st.maxAbs.less(diff) {
		st.maxAbs = diff
	}
	st.hasDiff = true
	if nonzero {
		if !st.hasNonzero {
			st.maxRel = rel
		} else {
			st.maxRel = maxNaN(st.maxRel, rel)
		}
		st.hasNonzero = true
	}
	if !close {
		st.mismatched++
		if st.worst < 0 || st.worstDiff.less(diff) {
			st.worst, st.worstDiff = i, diff
		}
		if len(st.first) < st.show {
			st.first = append(st.first, i)
		}
	}
}

// classify counts a mismatched element with a NaN, or else an infinity,
// on either side.
func (st *compareChunk) classify(nan, inf bool) {
	switch {
	case nan:
		st.nanMis++
	case inf:
		st.infMis++
	}
}

// ElemDiff is the absolute difference |actual - desired| of one pair of
// elements, computed as AllClose computes it (exactly for integers, in
// float64 or complex128 otherwise), and the relative difference
// |actual - desired| / |desired| (+Inf, or NaN, when desired is zero).
func ElemDiff(a []byte, fa dtype.Dtype, d []byte, fd dtype.Dtype) (Diff, float64) {
	switch compareKindOf(fa, fd) {
	case compareInt:
		an, am := fa.Int(a)
		dn, dm := fd.Int(d)
		diff := intDiff(an, am, dn, dm)
		return diff, diff.Float64() / float64(dm)
	case compareComplex:
		x, y := fa.Complex(a), fd.Complex(d)
		diff := cmplx.Abs(x - y)
		return Diff{Float: diff}, diff / cmplx.Abs(y)
	}
	x, y := fa.Float(a), fd.Float(d)
	diff := math.Abs(x - y)
	return Diff{Float: diff}, diff / math.Abs(y)
}

// locations applies assert_array_compare's NaN and infinity rules to one
// element: flagged when both hold NaN (with EqualNaN) or the same
// infinity, which takes it out of the comparison; mismatch when only one
// does, which NumPy reports as a location mismatch.
func (st *compareChunk) locations(xn, yn, xp, yp, xm, ym bool, tol Tolerance) (flagged, mismatch bool) {
	if tol.EqualNaN {
		if xn != yn {
			st.nanLoc, mismatch = true, true
		} else if xn {
			flagged = true
		}
	}
	if xp != yp {
		st.posInfLoc, mismatch = true, true
	} else if xp {
		flagged = true
	}
	if xm != ym {
		st.negInf, mismatch = true, true
	} else if xm {
		flagged = true
	}
	return flagged && !mismatch, mismatch
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func isNaNParts(z complex128) bool { return math.IsNaN(real(z)) || math.IsNaN(imag(z)) }

// intDiff is |a - d| for sign-magnitude integers, exactly.
func intDiff(an bool, am uint64, dn bool, dm uint64) Diff {
	if an == dn {
		if am >= dm {
			return Diff{Exact: true, Lo: am - dm}
		}
		return Diff{Exact: true, Lo: dm - am}
	}
	lo, carry := bits.Add64(am, dm, 0)
	return Diff{Exact: true, Hi: carry, Lo: lo}
}

// diffWithin reports exactly whether the integer diff is <= t.
func diffWithin(d Diff, t float64) bool {
	switch {
	case math.IsNaN(t) || t < 0:
		return false
	case t >= 0x1p65:
		return true
	case t >= 0x1p64:
		return d.Hi == 0 || uint64(t-0x1p64) >= d.Lo
	}
	return d.Hi == 0 && uint64(t) >= d.Lo // uint64(t) is floor(t) for 0 <= t < 2^64
}

// ExactDiff counts the elements whose bytes differ between a and b, which
// must have the same shape and element size, and returns the C-order
// position of the first of them (-1 when none). When both have the same
// dense layout the storage is compared as raw bytes, in parallel chunks at
// memory speed; otherwise logical elements are compared (a C-order array
// against a Fortran-order one, say).
func ExactDiff(a, b View, opt Options) (count, first int, err error) {
	if err := a.Check(); err != nil {
		return 0, -1, err
	}
	if err := b.Check(); err != nil {
		return 0, -1, err
	}
	if !slices.Equal(a.Shape, b.Shape) || a.Elem != b.Elem {
		return 0, -1, fmt.Errorf("shapes %s and %s (%d- and %d-byte elements) cannot be compared byte for byte", ShapeString(a.Shape), ShapeString(b.Shape), a.Elem, b.Elem)
	}
	n := a.Count()
	if n == 0 {
		return 0, -1, nil
	}
	threads := opt.threads()
	if n*a.Elem < parallelMin {
		threads = 1
	}
	if perm, ok := denseOrder(a); ok && slices.Equal(a.Strides, b.Strides) {
		return exactDense(a, b, perm, threads, opt)
	}
	return exactStrided(a, b, threads, opt)
}

// denseOrder reports whether v's elements fill one contiguous run with
// positive strides, and returns its axes from the slowest to the fastest.
func denseOrder(v View) ([]int, bool) {
	perm := make([]int, len(v.Shape))
	for k := range perm {
		perm[k] = k
	}
	// Insertion sort by decreasing stride; size-1 axes sort anywhere.
	for i := 1; i < len(perm); i++ {
		for j := i; j > 0 && v.Strides[perm[j]] > v.Strides[perm[j-1]]; j-- {
			perm[j], perm[j-1] = perm[j-1], perm[j]
		}
	}
	step := 1
	for k := len(perm) - 1; k >= 0; k-- {
		ax := perm[k]
		if v.Shape[ax] != 1 && v.Strides[ax] != step {
			return nil, false
		}
		step *= v.Shape[ax]
	}
	return perm, true
}

// exactDense compares two identically laid out dense views as byte runs.
func exactDense(a, b View, perm []int, threads int, opt Options) (int, int, error) {
	n, elem := a.Count(), a.Elem
	ra := a.Data[a.Offset*elem : (a.Offset+n)*elem]
	rb := b.Data[b.Offset*elem : (b.Offset+n)*elem]
	const chunk = 1 << 20 // bytes, a multiple of every element size
	chunks := ceilDiv(len(ra), chunk)
	counts := make([]int, chunks)
	firsts := make([]int, chunks)
	// Memory position k (in elements) to C-order position.
	memShape := make([]int, len(perm))
	for k, ax := range perm {
		memShape[k] = a.Shape[ax]
	}
	cstr := CStrides(a.Shape)
	parallel(chunks, threads, func(lo, hi int) {
		pos := make([]int, len(perm))
		for c := lo; c < hi; c++ {
			l, h := c*chunk, min(len(ra), (c+1)*chunk)
			firsts[c] = -1
			if !bytes.Equal(ra[l:h], rb[l:h]) {
				for off := l; off < h; off += elem {
					if bytes.Equal(ra[off:off+elem], rb[off:off+elem]) {
						continue
					}
					counts[c]++
					k := off / elem
					for d := len(memShape) - 1; d >= 0; d-- {
						pos[d] = k % memShape[d]
						k /= memShape[d]
					}
					ci := 0
					for d, ax := range perm {
						ci += pos[d] * cstr[ax]
					}
					if firsts[c] < 0 || ci < firsts[c] {
						firsts[c] = ci
					}
				}
			}
			if opt.Done != nil {
				opt.Done.Add(int64(2 * (h - l)))
			}
		}
	})
	count, first := 0, -1
	for c := range counts {
		count += counts[c]
		if firsts[c] >= 0 && (first < 0 || firsts[c] < first) {
			first = firsts[c]
		}
	}
	return count, first, nil
}

// exactBlock is the bytes of each array a block of exactStrided covers.
const exactBlock = 1 << 20

// exactStrided compares two arrays laid out differently (C against
// Fortran order, say) by logical element: block by block in C order, each
// block brought into C order by Copy, whose tiled transpose keeps the reads
// of the transposed side cache-friendly, then compared as bytes.
func exactStrided(a, b View, threads int, opt Options) (int, int, error) {
	nd, elem := len(a.Shape), a.Elem
	// Split at the outermost axis k below which a block fits.
	k := nd - 1
	innerElems := 1
	for k > 0 && innerElems*a.Shape[k]*elem <= exactBlock {
		innerElems *= a.Shape[k]
		k--
	}
	per := max(1, exactBlock/(innerElems*elem))
	steps := ceilDiv(a.Shape[k], per)
	outerShape := a.Shape[:k]
	calc := NewOffsetCalculator(outerShape, a.Strides[:k], b.Strides[:k])
	items := Count(outerShape) * steps
	counts := make([]int, items)
	firsts := make([]int, items)
	parallel(items, threads, func(lo, hi int) {
		idx := make([]int, len(outerShape))
		bufA := make([]byte, per*innerElems*elem)
		bufB := make([]byte, per*innerElems*elem)
		for it := lo; it < hi; it++ {
			o, s := it/steps, it%steps
			offA, offB := calc.Index(o, idx)
			rows := min(per, a.Shape[k]-s*per)
			block := func(v View, off int, buf []byte) []byte {
				w := View{Elem: elem, Data: v.Data, Offset: v.Offset + off + s*per*v.Strides[k],
					Shape: append([]int{rows}, v.Shape[k+1:]...), Strides: v.Strides[k:]}
				if raw, ok := contiguousBytes(w); ok {
					return raw
				}
				buf = buf[:rows*innerElems*elem]
				if err := Copy(buf, w, Options{Threads: 1}); err != nil {
					panic(err) // unreachable: both views were checked
				}
				return buf
			}
			ra, rb := block(a, offA, bufA), block(b, offB, bufB)
			firsts[it] = -1
			if !bytes.Equal(ra, rb) {
				start := (o*a.Shape[k] + s*per) * innerElems
				for e := 0; e < len(ra); e += elem {
					if !bytes.Equal(ra[e:e+elem], rb[e:e+elem]) {
						if counts[it] == 0 {
							firsts[it] = start + e/elem
						}
						counts[it]++
					}
				}
			}
			if opt.Done != nil {
				opt.Done.Add(int64(2 * len(ra)))
			}
		}
	})
	count, first := 0, -1
	for it := range counts {
		count += counts[it]
		if first < 0 && firsts[it] >= 0 {
			first = firsts[it] // items run in C order
		}
	}
	return count, first, nil
}

// contiguousBytes is v's storage when v is C-contiguous.
func contiguousBytes(v View) ([]byte, bool) {
	step := 1
	for k := len(v.Shape) - 1; k >= 0; k-- {
		if v.Shape[k] != 1 && v.Strides[k] != step {
			return nil, false
		}
		step *= v.Shape[k]
	}
	n := v.Count()
	return v.Data[v.Offset*v.Elem : (v.Offset+n)*v.Elem], true
}
