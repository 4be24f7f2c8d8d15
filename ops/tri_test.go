package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
)

// triNaive is the oracle: the double loop over the matrix, keeping the
// pairs with c-r <= offset (lower) or c-r >= offset (upper), written as
// the (2, N) little-endian array of elem-byte integers.
func triNaive(upper bool, rows, cols, offset, elem int) []byte {
	var rs, cs []int
	for r := range rows {
		for c := range cols {
			d := c - r
			if !upper && d <= offset || upper && d >= offset {
				rs = append(rs, r)
				cs = append(cs, c)
			}
		}
	}
	out := make([]byte, 0, 2*len(rs)*elem)
	for _, v := range append(rs, cs...) {
		if elem == 8 {
			out = binary.LittleEndian.AppendUint64(out, uint64(v))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(v))
		}
	}
	return out
}

func triName(upper bool) string {
	if upper {
		return "triu"
	}
	return "tril"
}

// decodeTri reads a (2, n) little-endian array back into pairs.
func decodeTri(b []byte, elem int) (rows, cols []int) {
	n := len(b) / elem / 2
	v := make([]int, 2*n)
	for i := range v {
		if elem == 8 {
			v[i] = int(int64(binary.LittleEndian.Uint64(b[i*8:])))
		} else {
			v[i] = int(int32(binary.LittleEndian.Uint32(b[i*4:])))
		}
	}
	return v[:n], v[n:]
}

const poison = 0xA5

// fillGuarded fills a destination that starts skew bytes past a 64-byte
// boundary inside a poisoned buffer, and fails if anything outside it
// changed.
func fillGuarded(t *testing.T, tri Tri, elem, skew int, opt Options) []byte {
	t.Helper()
	n := 2 * tri.Len() * elem
	buf := make([]byte, n+128+64)
	for i := range buf {
		buf[i] = poison
	}
	start := 64 + skew
	dst := buf[start : start+n : start+n]
	if err := tri.Fill(dst, elem, opt); err != nil {
		t.Fatalf("Fill: %v", err)
	}
	for i, b := range buf {
		if (i < start || i >= start+n) && b != poison {
			t.Fatalf("byte %d outside the destination [%d, %d) was overwritten", i, start, start+n)
		}
	}
	return dst
}

func TestTriExamples(t *testing.T) {
	// torch.tril_indices / torch.triu_indices, printed by PyTorch.
	cases := []struct {
		upper              bool
		rows, cols, offset int
		r, c               []int
	}{
		{false, 3, 3, 0, []int{0, 1, 1, 2, 2, 2}, []int{0, 0, 1, 0, 1, 2}},
		{false, 4, 3, -1, []int{1, 2, 2, 3, 3, 3}, []int{0, 0, 1, 0, 1, 2}},
		{false, 4, 3, 1, []int{0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, []int{0, 1, 0, 1, 2, 0, 1, 2, 0, 1, 2}},
		{true, 3, 3, 0, []int{0, 0, 0, 1, 1, 2}, []int{0, 1, 2, 1, 2, 2}},
		{true, 4, 3, -1, []int{0, 0, 0, 1, 1, 1, 2, 2, 3}, []int{0, 1, 2, 0, 1, 2, 1, 2, 2}},
		{true, 4, 3, 1, []int{0, 0, 1}, []int{1, 2, 2}},
		{false, 3, 4, math.MinInt, nil, nil},
		{true, 3, 4, math.MaxInt, nil, nil},
		{false, 0, 5, 2, nil, nil},
		{true, 5, 0, -2, nil, nil},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%dx%d/k=%d", triName(c.upper), c.rows, c.cols, c.offset)
		t.Run(name, func(t *testing.T) {
			tri, err := NewTri(c.upper, c.rows, c.cols, c.offset)
			if err != nil {
				t.Fatal(err)
			}
			if tri.Len() != len(c.r) {
				t.Fatalf("Len() = %d, want %d", tri.Len(), len(c.r))
			}
			r, cc := decodeTri(fillGuarded(t, tri, 8, 0, Options{Threads: 1}), 8)
			if fmt.Sprint(r, cc) != fmt.Sprint(ints(c.r), ints(c.c)) {
				t.Fatalf("got %v %v, want %v %v", r, cc, c.r, c.c)
			}
		})
	}
}

func ints(v []int) []int {
	if v == nil {
		return []int{}
	}
	return v
}

// triOffsets are the offsets worth trying for a rows × cols matrix: every
// edge of the triangle, one past each, and far outside.
func triOffsets(rows, cols int) []int {
	return []int{
		0, 1, -1, rows, -rows, cols, -cols, rows - 1, 1 - rows, cols - 1, 1 - cols,
		rows + 1, -rows - 1, cols + 1, -cols - 1, cols - rows, rows - cols,
		1 << 40, -1 << 40, 9e18, -9e18, math.MaxInt, math.MinInt, math.MinInt + 1,
	}
}

// TestTriRandom checks every path against the oracle: thousands of random
// shapes and offsets, int64 and int32, aligned and unaligned destinations,
// one thread and several with chunking forced on.
func TestTriRandom(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	rng := rand.New(rand.NewPCG(5, 7))
	type tcase struct{ rows, cols, offset int }
	var cases []tcase
	for _, n := range []int{0, 1, 2, 3} {
		for _, m := range []int{0, 1, 2, 3, 7} {
			for _, k := range triOffsets(n, m) {
				cases = append(cases, tcase{n, m, k})
			}
		}
	}
	for range 3000 {
		rows, cols := rng.IntN(40), rng.IntN(40)
		if rng.IntN(10) == 0 {
			rows, cols = rng.IntN(200), rng.IntN(200)
		}
		var k int
		if rng.IntN(3) == 0 {
			ks := triOffsets(rows, cols)
			k = ks[rng.IntN(len(ks))]
		} else {
			k = rng.IntN(rows+cols+7) - rows - 3
		}
		cases = append(cases, tcase{rows, cols, k})
	}
	checked := 0
	for _, c := range cases {
		for _, upper := range []bool{false, true} {
			tri, err := NewTri(upper, c.rows, c.cols, c.offset)
			if err != nil {
				t.Fatalf("%s %dx%d k=%d: %v", triName(upper), c.rows, c.cols, c.offset, err)
			}
			want8 := triNaive(upper, c.rows, c.cols, c.offset, 8)
			wantR, wantC := decodeTri(want8, 8)
			if tri.Len() != len(wantR) {
				t.Fatalf("%s %dx%d k=%d: Len() = %d, want %d", triName(upper), c.rows, c.cols, c.offset, tri.Len(), len(wantR))
			}
			for i := range wantR {
				if r, cc := tri.At(i); r != wantR[i] || cc != wantC[i] {
					t.Fatalf("%s %dx%d k=%d: At(%d) = (%d, %d), want (%d, %d)", triName(upper), c.rows, c.cols, c.offset, i, r, cc, wantR[i], wantC[i])
				}
			}
			for _, elem := range []int{8, 4} {
				want := want8
				if elem == 4 {
					want = triNaive(upper, c.rows, c.cols, c.offset, 4)
				}
				threads := 1 + rng.IntN(4)
				skew := 0
				if rng.IntN(4) == 0 {
					skew = 1 + rng.IntN(7) // not aligned: the encoding path
				}
				got := fillGuarded(t, tri, elem, skew, Options{tune: eager, Threads: threads})
				if !bytes.Equal(got, want) {
					gr, gc := decodeTri(got, elem)
					t.Fatalf("%s %dx%d k=%d i%d threads=%d skew=%d:\n got %v\n     %v\nwant %v\n     %v",
						triName(upper), c.rows, c.cols, c.offset, elem*8, threads, skew, gr, gc, wantR, wantC)
				}
				checked++
			}
		}
	}
	t.Logf("%d fills checked against the double loop", checked)
}

// Exact arithmetic for huge triangles, independent of tri.go: the pairs in
// the rows above r, summed in big integers from the per-row counts
// clamp(q+k+1, 0, cols) (lower) and cols - clamp(q+k, 0, cols) (upper),
// using clamp(x, 0, C) = max(0, x) - max(0, x-C).

func bigInt(v int) *big.Int { return big.NewInt(int64(v)) }

// posTri is m(m+1)/2 for m >= 0, else 0: the sum of max(0, x) for x <= m.
func posTri(m *big.Int) *big.Int {
	if m.Sign() < 0 {
		return new(big.Int)
	}
	s := new(big.Int).Add(m, big.NewInt(1))
	s.Mul(s, m)
	return s.Rsh(s, 1)
}

// sumPos is the sum of max(0, x) for x in [s, s+r).
func sumPos(s *big.Int, r int) *big.Int {
	hi := new(big.Int).Add(s, bigInt(r-1))
	lo := new(big.Int).Sub(s, big.NewInt(1))
	return new(big.Int).Sub(posTri(hi), posTri(lo))
}

func exactBefore(upper bool, cols, offset, r int) *big.Int {
	k := bigInt(offset)
	if !upper {
		s := new(big.Int).Add(k, big.NewInt(1))
		return new(big.Int).Sub(sumPos(s, r), sumPos(new(big.Int).Sub(s, bigInt(cols)), r))
	}
	clamped := new(big.Int).Sub(sumPos(k, r), sumPos(new(big.Int).Sub(k, bigInt(cols)), r))
	return new(big.Int).Sub(new(big.Int).Mul(bigInt(r), bigInt(cols)), clamped)
}

// exactRowStart is the first column of row r.
func exactRowStart(upper bool, cols, offset, r int) int {
	if !upper {
		return 0
	}
	s := new(big.Int).Add(bigInt(r), bigInt(offset))
	if s.Sign() < 0 {
		return 0
	}
	if s.Cmp(bigInt(cols)) > 0 {
		return cols
	}
	return int(s.Int64())
}

// checkExact checks that pair i of tri is (r, c): inside the triangle, and
// preceded by exactly i pairs.
func checkExact(t *testing.T, tri Tri, i, r, c int) {
	t.Helper()
	in := r >= 0 && r < tri.Rows && c >= 0 && c < tri.Cols &&
		(!tri.Upper && c-r <= tri.Offset || tri.Upper && c-r >= tri.Offset)
	before := exactBefore(tri.Upper, tri.Cols, tri.Offset, r)
	before.Add(before, bigInt(c-exactRowStart(tri.Upper, tri.Cols, tri.Offset, r)))
	if !in || !before.IsInt64() || before.Int64() != int64(i) {
		t.Fatalf("%s %dx%d k=%d: pair %d is (%d, %d), which is pair %v (inside: %v)",
			triName(tri.Upper), tri.Rows, tri.Cols, tri.Offset, i, r, c, before, in)
	}
}

// TestTriLarge checks sizes where float64 cannot hold the trapezoid's
// quadratic exactly (rows and columns in the billions), and offsets near
// the int64 limits, at sampled indices: the row starts, where the float root
// is closest to an integer, the ends, and random ones. A window after each
// sample is filled as the threads would fill it.
func TestTriLarge(t *testing.T) {
	const g = 1_000_000_000
	cases := []struct{ rows, cols, offset int }{
		{3 * g, 3 * g, 0},
		{3 * g, 3 * g, -1},
		{4 * g, 4 * g, 7},
		{3*g + 7, 2*g + 11, 12345},
		{3*g + 7, 2*g + 11, -123456789},
		{2*g + 11, 3*g + 7, 987654321},
		{1 << 32, 1<<32 - 1, 0},
		{4_294_967_311, 4_294_967_291, -3},
		{2, 1 << 62, 1<<62 - 3},
		{1 << 62, 3, -(1 << 62) + 5},
		{5, 1e18, 1e18 - 10},
		{math.MaxInt, 1, math.MinInt},
		{1, math.MaxInt, math.MaxInt - 4},
		{3, math.MaxInt, 0},
		{math.MaxInt / 4, 2, -(math.MaxInt / 4) + 9},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, upper := range []bool{false, true} {
			name := fmt.Sprintf("%s/%dx%d/k=%d", triName(upper), c.rows, c.cols, c.offset)
			t.Run(name, func(t *testing.T) {
				tri, err := NewTri(upper, c.rows, c.cols, c.offset)
				total := exactBefore(upper, c.cols, c.offset, c.rows)
				if !total.IsInt64() {
					if err == nil {
						t.Fatalf("NewTri accepted %v pairs", total)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				n := tri.Len()
				if int64(n) != total.Int64() {
					t.Fatalf("Len() = %d, want %v", n, total)
				}
				if n == 0 {
					return
				}
				samples := []int{0, 1, n - 1, n - 2, n / 2, tri.before, tri.before - 1, tri.before + tri.trap, tri.before + tri.trap - 1}
				for range 200 {
					samples = append(samples, rng.IntN(n))
				}
				// The first pairs of random rows: the float root is an
				// integer there, so rounding down by one is a wrong row.
				for range 200 {
					r := rng.IntN(c.rows)
					b := exactBefore(upper, c.cols, c.offset, r)
					if b.IsInt64() {
						samples = append(samples, int(b.Int64()), int(b.Int64())-1)
					}
				}
				rows, cols := make([]int64, 24), make([]int64, 24)
				for _, i := range samples {
					if i < 0 || i >= n {
						continue
					}
					r, cc := tri.At(i)
					checkExact(t, tri, i, r, cc)
					m := min(len(rows), n-i)
					fillRange(&tri, rows[:m], cols[:m], i)
					for p := range m {
						checkExact(t, tri, i+p, int(rows[p]), int(cols[p]))
					}
				}
			})
		}
	}
}

func TestTriErrors(t *testing.T) {
	cases := []struct {
		upper              bool
		rows, cols, offset int
		elem               int
		want               string
	}{
		{false, -3, 4, 0, 8, "rows -3 is negative"},
		{true, 3, -1, 0, 8, "cols -1 is negative"},
		{false, 1 << 33, 1 << 33, 0, 8, "more than 9223372036854775807 index pairs"},
		{true, math.MaxInt, math.MaxInt, math.MinInt, 8, "more than 9223372036854775807 index pairs"},
		{false, 400000, 400000, 0, 8, "80000200000 index pairs: 1280003200000 bytes"},
		{false, 3e9, 3e9, 0, 8, "more than the 1099511627776-byte limit"},
		{false, 3e9, 1, -3e9 + 2, 4, "holds index 2999999999, which does not fit int32"},
		{true, 1, 3e9, 3e9 - 2, 4, "holds index 2999999999, which does not fit int32"},
		{false, 1, 1, 0, 2, "2-byte integers are not supported"},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%dx%d/k=%d/i%d", triName(c.upper), c.rows, c.cols, c.offset, 8*c.elem)
		t.Run(name, func(t *testing.T) {
			tri, err := NewTri(c.upper, c.rows, c.cols, c.offset)
			if err == nil {
				err = tri.Check(c.elem)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	// The int32 limit is exact: index MaxInt32 itself fits.
	tri, err := NewTri(false, math.MaxInt32+1, 1, -math.MaxInt32)
	if err != nil || tri.Len() != 1 || tri.Check(4) != nil {
		t.Fatalf("index MaxInt32 refused: %v %v", err, tri.Check(4))
	}
	if err := tri.Fill(make([]byte, 7), 4, Options{}); err == nil {
		t.Fatalf("Fill accepted a destination of the wrong size")
	}
}

// TestTriProgress checks that Done counts every byte.
func TestTriProgress(t *testing.T) {
	t.Parallel()
	var opt Options
	opt.tune = eagerTuning()
	tri, err := NewTri(false, 300, 200, 10)
	if err != nil {
		t.Fatal(err)
	}
	opt.Threads = 3
	opt.Done = new(atomic.Int64)
	dst := make([]byte, 2*tri.Len()*8)
	if err := tri.Fill(dst, 8, opt); err != nil {
		t.Fatal(err)
	}
	if got := opt.Done.Load(); got != int64(len(dst)) {
		t.Fatalf("Done = %d, want %d", got, len(dst))
	}
}

// TestTriRuns checks the two-at-a-time stores of fillConst and fillCount
// against their loops for every length and both word alignments, with
// guards on either side.
func TestTriRuns(t *testing.T) {
	const guard = -7
	for _, start := range []int{0, 1, 2, 3} {
		for n := range 40 {
			for _, v := range []int32{0, 5, math.MaxInt32 - 64} {
				buf := make([]int32, start+n+2)
				for i := range buf {
					buf[i] = guard
				}
				fillConst(buf[start:start+n], v)
				for i, x := range buf {
					want := int32(guard)
					if i >= start && i < start+n {
						want = v
					}
					if x != want {
						t.Fatalf("fillConst start=%d n=%d v=%d: element %d is %d, want %d", start, n, v, i, x, want)
					}
				}
				fillCount(buf[start:start+n], v)
				for i, x := range buf {
					want := int32(guard)
					if i >= start && i < start+n {
						want = v + int32(i-start)
					}
					if x != want {
						t.Fatalf("fillCount start=%d n=%d v=%d: element %d is %d, want %d", start, n, v, i, x, want)
					}
				}
			}
		}
	}
}

// TestTriFillPart: every window of the result that FillPart writes equals
// the same bytes of Fill's.
func TestTriFillPart(t *testing.T) {
	for _, tc := range []struct {
		upper              bool
		rows, cols, offset int
	}{{false, 7, 5, 0}, {true, 9, 9, -2}, {true, 3, 8, 2}, {false, 1, 1, 0}} {
		tr, err := NewTri(tc.upper, tc.rows, tc.cols, tc.offset)
		if err != nil {
			t.Fatal(err)
		}
		for _, elem := range []int{4, 8} {
			whole := make([]byte, 2*tr.Len()*elem)
			if err := tr.Fill(whole, elem, Options{Threads: 1}); err != nil {
				t.Fatal(err)
			}
			for off := 0; off <= len(whole); off += elem {
				for end := off; end <= len(whole); end += elem {
					part := make([]byte, end-off)
					if err := tr.FillPart(part, off, elem, Options{Threads: 3}); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(part, whole[off:end]) {
						t.Fatalf("%+v elem %d: bytes %d..%d differ from Fill's", tc, elem, off, end)
					}
				}
			}
			if err := tr.FillPart(make([]byte, elem), len(whole), elem, Options{}); err == nil {
				t.Fatal("a window past the end was accepted")
			}
		}
	}
}
