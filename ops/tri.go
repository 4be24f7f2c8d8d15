package ops

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"
)

// MaxTriBytes bounds the output of tril/triu indices: a request for more is
// almost certainly a typo, and refusing it beats reserving a terabyte.
const MaxTriBytes = 1 << 40

// Tri is the set of index pairs of a triangle of a rows × cols matrix, in
// row-major order: torch.tril_indices(rows, cols, offset) when Upper is
// false, torch.triu_indices when it is true. Pair (r, c) belongs to the
// lower triangle when c - r <= offset and to the upper one when
// c - r >= offset.
//
// Counted by rows, a lower triangle is some empty rows, then a trapezoid
// whose rows grow by one pair each, then full rows (a rectangle). An upper
// triangle is the mirror image: full rows, then a trapezoid whose rows
// shrink by one, then empty rows. Both have a closed-form size, and the pair
// at any linear index follows from it (the trapezoid's row by the root of a
// quadratic, corrected in integers), so threads fill disjoint ranges with no
// shared walk.
type Tri struct {
	Upper      bool
	Rows, Cols int
	Offset     int // as asked

	k      int // Offset clamped to the nearest one that selects the same pairs
	top    int // the trapezoid's first row
	small  int // pairs in the trapezoid's shortest row (lower: first, upper: last)
	height int // rows in the trapezoid
	before int // pairs above the trapezoid (upper: top full rows; lower: none)
	trap   int // pairs in the trapezoid
	n      int // pairs in all
}

// NewTri sizes the triangle. Offsets far outside [-rows, cols] are clamped
// to the nearest one that selects the same pairs, so every later sum fits.
// It fails for negative sizes and for triangles of more than MaxInt pairs.
func NewTri(upper bool, rows, cols, offset int) (Tri, error) {
	if rows < 0 {
		return Tri{}, fmt.Errorf("rows %d is negative", rows)
	}
	if cols < 0 {
		return Tri{}, fmt.Errorf("cols %d is negative", cols)
	}
	t := Tri{Upper: upper, Rows: rows, Cols: cols, Offset: offset}
	if rows == 0 || cols == 0 {
		return t, nil
	}
	var below int // pairs in the full rows under a lower trapezoid
	ok := true
	if !upper {
		// Row r holds columns [0, clamp(r+k+1, 0, cols)): empty rows while
		// r+k < 0, then one more pair a row until a row is full.
		t.k = min(max(offset, -rows), cols-1)
		t.top = max(0, -t.k)
		if t.top == rows {
			return t, nil
		}
		t.small = max(1, t.k+1)
		t.height = min(rows-t.top, cols-t.small+1)
		below, ok = mulNonNeg(rows-t.top-t.height, cols)
	} else {
		// Row r holds columns [clamp(r+k, 0, cols), cols): full rows while
		// r+k < 0, then one pair fewer a row until the rows or pairs run out.
		t.k = min(max(offset, 1-rows), cols)
		t.top = max(0, -t.k)
		first := cols - (t.top + t.k)
		t.height = min(rows-t.top, first)
		if t.height == 0 {
			return t, nil
		}
		t.small = first - t.height + 1
		t.before, ok = mulNonNeg(t.top, cols)
	}
	trap, ok1 := trapezoid(t.small, t.height)
	n, ok2 := addNonNeg(trap, t.before+below)
	if !ok || !ok1 || !ok2 {
		return Tri{}, t.tooLarge()
	}
	t.trap, t.n = trap, n
	return t, nil
}

func (t Tri) name() string {
	if t.Upper {
		return "triu"
	}
	return "tril"
}

func (t Tri) tooLarge() error {
	return fmt.Errorf("the %s of a %d x %d matrix with offset %d has more than %d index pairs", t.name(), t.Rows, t.Cols, t.Offset, math.MaxInt)
}

// Len is the number of index pairs: the output has shape (2, Len()).
func (t Tri) Len() int { return t.n }

// Check refuses outputs of elem-byte integers that would exceed MaxTriBytes,
// and int32 outputs (elem 4) holding an index above MaxInt32, which torch
// would wrap silently.
func (t Tri) Check(elem int) error {
	if elem != 4 && elem != 8 {
		return fmt.Errorf("indices of %d-byte integers are not supported (4 or 8)", elem)
	}
	if t.n > MaxTriBytes/(2*elem) {
		return fmt.Errorf("the %s of a %d x %d matrix with offset %d has %d index pairs: %s bytes as (2, %d) %d-byte integers, more than the %d-byte limit",
			t.name(), t.Rows, t.Cols, t.Offset, t.n, mulString(t.n, 2*elem), t.n, elem, MaxTriBytes)
	}
	if elem == 4 && t.n > 0 {
		// The last pair holds the largest row and the largest column.
		r, c := t.At(t.n - 1)
		if r > math.MaxInt32 || c > math.MaxInt32 {
			return fmt.Errorf("the %s of a %d x %d matrix with offset %d holds index %d, which does not fit int32; use --dtype int64", t.name(), t.Rows, t.Cols, t.Offset, max(r, c))
		}
	}
	return nil
}

// mulString prints a*b exactly, even past MaxInt.
func mulString(a, b int) string {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi == 0 && lo <= math.MaxInt {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("more than %d", math.MaxInt)
}

// At returns the pair at linear index i, 0 <= i < Len().
func (t Tri) At(i int) (r, c int) {
	if i < t.before {
		return i / t.Cols, i % t.Cols
	}
	i -= t.before
	if i >= t.trap { // the full rows under a lower trapezoid
		i -= t.trap
		return t.top + t.height + i/t.Cols, i % t.Cols
	}
	if !t.Upper {
		j := trapRow(t.small, t.height, i)
		return t.top + j, i - rowsBefore(t.small, j)
	}
	// An upper trapezoid read backwards, from its last pair, is a growing
	// one whose rows are read from their last column.
	e := t.trap - 1 - i
	j := trapRow(t.small, t.height, e)
	return t.top + t.height - 1 - j, t.Cols - 1 - (e - rowsBefore(t.small, j))
}

// rowStart and rowEnd bound the columns of row r, which must not lie below
// the triangle's last pair. The comparisons avoid r+k, which could overflow
// for offsets near ±MaxInt that still select a few pairs.
func (t *Tri) rowStart(r int) int {
	if !t.Upper || t.k <= -r {
		return 0
	}
	if t.k >= t.Cols-r {
		return t.Cols
	}
	return r + t.k
}

func (t *Tri) rowEnd(r int) int {
	if t.Upper || t.k >= t.Cols-1-r {
		return t.Cols
	}
	return max(0, r+t.k+1)
}

// rowsBefore is the number of pairs in the first j rows of a trapezoid whose
// rows hold head, head+1, ... pairs: j*head + j(j-1)/2. The caller knows the
// sum fits; halving the even factor first keeps j(j-1) from overflowing.
func rowsBefore(head, j int) int {
	if j%2 == 0 {
		return j*head + j/2*(j-1)
	}
	return j*head + (j-1)/2*j
}

// trapRow returns the row j in [0, height) of a trapezoid with rows of
// head, head+1, ... pairs that holds linear index i: the largest j with
// rowsBefore(head, j) <= i. The float64 root of j² + (2·head-1)j - 2i = 0,
// in the form 4i / (b + sqrt(b² + 8i)) that does not cancel, is off by at
// most a few millionths even for billions of rows, but that is enough to
// land on the wrong side of an integer; the integer loops make it exact.
func trapRow(head, height, i int) int {
	b := 2*float64(head) - 1
	x := 4 * float64(i) / (b + math.Sqrt(b*b+8*float64(i)))
	j := height - 1
	if x < float64(j) {
		j = max(0, int(x))
	}
	for j > 0 && rowsBefore(head, j) > i {
		j--
	}
	for j+1 < height && rowsBefore(head, j+1) <= i {
		j++
	}
	return j
}

// trapezoid is rowsBefore(small, height), the pairs in a trapezoid, or
// false when that exceeds MaxInt.
func trapezoid(small, height int) (int, bool) {
	a, b := height, height-1
	if a%2 == 0 {
		a /= 2
	} else {
		b /= 2
	}
	tri, ok := mulNonNeg(a, b)
	if !ok {
		return 0, false
	}
	base, ok := mulNonNeg(small, height)
	if !ok {
		return 0, false
	}
	return addNonNeg(base, tri)
}

func mulNonNeg(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int(lo), hi == 0 && lo <= math.MaxInt
}

func addNonNeg(a, b int) (int, bool) {
	s := a + b
	return s, s >= a
}

// Fill writes the (2, Len()) array of pairs into dst as little-endian
// integers of elem (4 or 8) bytes: the rows of all pairs, then their
// columns. dst must hold exactly 2*Len()*elem bytes; Fill runs Check first.
// It is equal to the double loop
//
//	for r := range t.Rows { for c := range t.Cols { if in(r, c) { rows = append(rows, r); cols = append(cols, c) } } }
//
// with in(r, c) = c-r <= Offset (lower) or c-r >= Offset (upper).
func (t Tri) Fill(dst []byte, elem int, opt Options) error {
	if err := t.Check(elem); err != nil {
		return err
	}
	if want := 2 * t.n * elem; len(dst) != want {
		return fmt.Errorf("destination holds %d bytes, the %s indices take %d", len(dst), t.name(), want)
	}
	if t.n == 0 {
		return nil
	}
	threads := opt.threads()
	if len(dst) < opt.tuning().parallelMin {
		threads = 1
	}
	if elem == 8 {
		fillTri[int64](dst, t, threads, opt)
	} else {
		fillTri[int32](dst, t, threads, opt)
	}
	return nil
}

// littleEndian is whether this machine stores integers as the .npy '<'
// descrs do, so the fill can write them in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// fillTri splits the pairs across threads. Each range writes straight into
// dst when dst is aligned for E and the machine is little-endian, else
// through a small buffer encoded with encoding/binary.
func fillTri[E int32 | int64](dst []byte, t Tri, threads int, opt Options) {
	size := int(unsafe.Sizeof(E(0)))
	direct := littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(dst)))%uintptr(size) == 0
	parallel(t.n, threads, func(lo, hi int) {
		if direct {
			all := unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(dst))), 2*t.n)
			fillRange(&t, all[lo:hi], all[t.n+lo:t.n+hi], lo)
		} else {
			fillBlocks(&t, lo, hi, func(at int, rows, cols []E) {
				for p := range rows {
					putLE(dst[(at+p)*size:], rows[p])
					putLE(dst[(t.n+at+p)*size:], cols[p])
				}
			})
		}
		if opt.Done != nil {
			opt.Done.Add(int64(2 * (hi - lo) * size))
		}
	})
}

// fillBlocks fills pairs lo..hi-1 a block at a time into a small buffer
// and hands each block, starting at pair at, to put.
func fillBlocks[E int32 | int64](t *Tri, lo, hi int, put func(at int, rows, cols []E)) {
	const block = 4096
	buf := make([]E, 2*block)
	for at := lo; at < hi; at += block {
		m := min(block, hi-at)
		rows, cols := buf[:m], buf[block:block+m]
		fillRange(t, rows, cols, at)
		put(at, rows, cols)
	}
}

// FillPart writes bytes [off, off+len(dst)) of Fill's result, so that a
// result of any size can be written through a bounded buffer. off and
// len(dst) are multiples of elem.
func (t Tri) FillPart(dst []byte, off, elem int, opt Options) error {
	if err := t.Check(elem); err != nil {
		return err
	}
	if off%elem != 0 || len(dst)%elem != 0 || off < 0 || off+len(dst) > 2*t.n*elem {
		return fmt.Errorf("bytes %d..%d are not whole elements of the %s indices' %d", off, off+len(dst), t.name(), 2*t.n*elem)
	}
	if elem == 8 {
		fillPart[int64](dst, off/elem, t, opt)
	} else {
		fillPart[int32](dst, off/elem, t, opt)
	}
	return nil
}

// fillPart writes elements first.. of the (2, n) result into dst, the row
// indices' part and the column indices' part each a range of pairs.
func fillPart[E int32 | int64](dst []byte, first int, t Tri, opt Options) {
	size := int(unsafe.Sizeof(E(0)))
	count := len(dst) / size
	threads := opt.threads()
	if len(dst) < opt.tuning().parallelMin {
		threads = 1
	}
	parallel(count, threads, func(lo, hi int) {
		// Elements first+lo..first+hi-1: pairs of the rows half (below n)
		// and of the columns half.
		for at := lo; at < hi; {
			e := first + at
			half, pair := e/t.n, e%t.n
			end := min(hi, at+t.n-pair)
			fillBlocks(&t, pair, pair+end-at, func(p int, rows, cols []E) {
				src := rows
				if half == 1 {
					src = cols
				}
				for q, v := range src {
					putLE(dst[(at+p-pair+q)*size:], v)
				}
			})
			at = end
		}
		if opt.Done != nil {
			opt.Done.Add(int64((hi - lo) * size))
		}
	})
}

func putLE[E int32 | int64](b []byte, v E) {
	if unsafe.Sizeof(v) == 8 {
		binary.LittleEndian.PutUint64(b, uint64(v))
	} else {
		binary.LittleEndian.PutUint32(b, uint32(v))
	}
}

// fillRange writes pairs lo, lo+1, ... into rows and cols (equal lengths):
// it finds pair lo with At and then goes along the rows, a constant run and
// a counting run per matrix row.
func fillRange[E int32 | int64](t *Tri, rows, cols []E, lo int) {
	if len(rows) == 0 {
		return
	}
	r, c := t.At(lo)
	for p := 0; ; {
		run := min(t.rowEnd(r)-c, len(rows)-p)
		fillConst(rows[p:p+run], E(r))
		fillCount(cols[p:p+run], E(c))
		if p += run; p == len(rows) {
			return
		}
		r++
		c = t.rowStart(r)
	}
}

// fillConst equals
//
//	for q := range s { s[q] = v }
//
// Four-byte elements go two to a 64-bit store: one store per element is
// what bounds this loop, not memory, on a busy core.
func fillConst[E int32 | int64](s []E, v E) {
	if unsafe.Sizeof(v) == 4 && littleEndian && len(s) >= 8 {
		w, head, tail := words(s)
		for q := range head {
			head[q] = v
		}
		x := uint64(uint32(v)) * (1<<32 | 1)
		for q := range w {
			w[q] = x
		}
		s = tail
	}
	for q := range s {
		s[q] = v
	}
}

// fillCount equals
//
//	for q := range s { s[q] = v + E(q) }
//
// with four-byte elements two to a store, as in fillConst. Both halves of a
// word grow by 2 and stay below 2^31, so no carry crosses between them.
func fillCount[E int32 | int64](s []E, v E) {
	if unsafe.Sizeof(v) == 4 && littleEndian && len(s) >= 8 {
		w, head, tail := words(s)
		for q := range head {
			head[q] = v
			v++
		}
		x := uint64(uint32(v)) | uint64(uint32(v+1))<<32
		for q := range w {
			w[q] = x
			x += 2<<32 | 2
		}
		v += E(2 * len(w))
		s = tail
	}
	for q := range s {
		s[q] = v + E(q)
	}
}

// words splits a slice of 4-byte elements into a head of at most one
// element, 8-byte aligned words over the middle, and a tail of at most one.
func words[E int32 | int64](s []E) (w []uint64, head, tail []E) {
	if uintptr(unsafe.Pointer(unsafe.SliceData(s)))%8 != 0 {
		head, s = s[:1], s[1:]
	}
	m := len(s) / 2
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), m), head, s[2*m:]
}
