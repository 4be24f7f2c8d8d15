package cuda

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/pylit"
	"strider/internal/testkit"
	"strider/ops"
)

// Each test plans an engine call exactly as the cuda build does, runs the
// program through the kernel emulation (emulate_test.go) and demands the
// bytes package ops writes. Every case runs with the 32-bit kernels (what
// small arrays get) and again with force64.

func bothWidths(t *testing.T, f func(t *testing.T)) {
	t.Run("i32", f)
	t.Run("i64", func(t *testing.T) {
		force64 = true
		t.Cleanup(func() { force64 = false })
		f(t)
	})
}

// run plans with plan, emulates, and returns the bytes written (nil program:
// nothing to do, as the engine returns early).
func run(t *testing.T, p *program, err error) error {
	t.Helper()
	if err != nil {
		return err
	}
	if p == nil {
		return nil
	}
	return emulate(t, p)
}

// randomView is a view with random shape, strides (negative and zero
// included), offset and element size, over random storage.
func randomView(r *rand.Rand, elems []int, maxDims int) ops.View {
	elem := elems[r.IntN(len(elems))]
	nd := r.IntN(maxDims + 1)
	shape := make([]int, nd)
	for k := range shape {
		switch r.IntN(12) {
		case 0:
			shape[k] = 1
		case 1:
			shape[k] = 0
		case 2, 3:
			shape[k] = 30 + r.IntN(50) // several transpose tiles
		default:
			shape[k] = 2 + r.IntN(6)
		}
	}
	for ops.Count(shape) > 1<<15 {
		shape[r.IntN(nd)] = 1 + r.IntN(3)
	}
	var strides []int
	if r.IntN(2) == 0 {
		strides = ops.CStrides(shape)
	} else {
		strides = ops.FStrides(shape)
	}
	for k := range strides {
		if r.IntN(6) == 0 {
			strides[k] *= 2 + r.IntN(2)
		}
		if r.IntN(10) == 0 {
			strides[k] = 0
		}
		if r.IntN(5) == 0 {
			strides[k] = -strides[k]
		}
	}
	v := ops.View{Elem: elem, Shape: shape, Strides: strides}.Permute(r.Perm(nd))
	offset, length := testkit.Storage(r, v.Shape, v.Strides)
	v.Offset = offset
	v.Data = make([]byte, length*elem)
	for i := range v.Data {
		v.Data[i] = byte(r.Uint32())
	}
	return v
}

func TestMagic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ds := []int{1, 2, 3, 7, 31, 32, 33, 1000, 1<<16 + 1, 1<<31 - 1, 1 << 31}
	for range 300 {
		ds = append(ds, 1+r.IntN(1<<31))
	}
	for _, d := range ds {
		m, s := magic64(d)
		om, os := ops.DivisorMagic(d)
		if m != om || s != os {
			t.Fatalf("magic64(%d) = %d, %d; ops has %d, %d", d, m, s, om, os)
		}
		m32 := magic32(d)
		ns := []uint32{0, 1, uint32(d - 1), uint32(min(d, 1<<31-1)), 1<<31 - 1, 1<<31 - 2}
		for range 300 {
			ns = append(ns, r.Uint32N(1<<31))
		}
		for _, n := range ns {
			hi, _ := bits.Mul32(n, m32)
			if q := (hi + n) >> s; q != n/uint32(d) {
				t.Fatalf("32-bit %d / %d = %d, want %d", n, d, q, n/uint32(d))
			}
		}
	}
	if magic32(1<<31+1) != 0 {
		t.Fatal("a divisor above 2^31 must have no 32-bit magic")
	}
}

func TestCopy(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		kernels := map[string]int{}
		for i := range 1500 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 5)
			want := make([]byte, v.Count()*v.Elem)
			if err := ops.CopyNaive(want, v); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planCopy(got, v)
			if err := run(t, p, err); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if p != nil {
				for _, s := range p.steps {
					kernels[strings.SplitN(s.kernel, "_", 2)[0]]++
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: elem %d shape %v strides %v offset %d: copy differs from CopyNaive", i, v.Elem, v.Shape, v.Strides, v.Offset)
			}
		}
		for _, k := range []string{"", "copy", "transpose"} {
			if kernels[k] < 20 {
				t.Errorf("only %d copies took kernel %q (%v)", kernels[k], k, kernels)
			}
		}
	})
}

func TestDiagonalAndSlice(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		exprs := []string{"::-1", "1:, ::2", "..., 0", "None, ::-2, 1:3", "-1", "2:0:-1, ...", "..., None", ":, :, ::3"}
		for i := range 600 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 4)
			var w ops.View
			if i%2 == 0 {
				if len(v.Shape) < 2 {
					continue
				}
				var err error
				if w, err = v.Diagonal(r.IntN(7)-3, 0, len(v.Shape)-1); err != nil {
					t.Fatal(err)
				}
			} else {
				items, err := pylit.ParseIndex(exprs[r.IntN(len(exprs))])
				if err != nil {
					t.Fatal(err)
				}
				x, err := v.Index(items)
				if err != nil {
					continue // too many indices for this view
				}
				want := make([]byte, ops.Count(x.Shape)*v.Elem)
				if err := x.Write(want, ops.Options{}); err != nil {
					t.Fatal(err)
				}
				got := make([]byte, len(want))
				p, err := planIndex(got, x)
				if err := run(t, p, err); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("case %d: slice of shape %v strides %v differs", i, v.Shape, v.Strides)
				}
				continue
			}
			want := make([]byte, w.Count()*w.Elem)
			if err := ops.Copy(want, w, ops.Options{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planCopy(got, w)
			if err := run(t, p, err); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: diagonal differs", i)
			}
		}
	})
}

func TestAdvancedIndex(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		exprs := []string{"[0, -1, 1]", ":, [1, 0]", "[[0], [1]], ..., [0, 1, 0]", "..., [-1, 0]", "[1, 0], ::-1, 0",
			"[0, 1], :, [1, 0]", "None, [1], 1:", "[True, False]", "::2, [[1, 0], [0, 1]]"}
		n := 0
		for i := range 1500 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 4)
			items, err := pylit.ParseIndex(exprs[r.IntN(len(exprs))])
			if err != nil {
				t.Fatal(err)
			}
			x, err := v.Index(items)
			if err != nil {
				continue
			}
			want := make([]byte, ops.Count(x.Shape)*v.Elem)
			if err := x.Write(want, ops.Options{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planIndex(got, x)
			if err := run(t, p, err); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: advanced index of shape %v strides %v differs", i, v.Shape, v.Strides)
			}
			if _, basic := x.Basic(); !basic && len(want) > 0 {
				n++
			}
		}
		if n < 100 {
			t.Errorf("only %d non-empty advanced cases", n)
		}
	})
}

func randomIdx(r *rand.Rand, m, n int) []int {
	idx := make([]int, m)
	for k := range idx {
		idx[k] = r.IntN(n)
	}
	return idx
}

func TestTake(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		for i := range 800 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 4)
			if len(v.Shape) == 0 {
				continue
			}
			axis := r.IntN(len(v.Shape))
			if v.Shape[axis] == 0 {
				continue
			}
			idx := randomIdx(r, r.IntN(40), v.Shape[axis])
			want := make([]byte, ops.Count(ops.TakeShape(v.Shape, axis, []int{len(idx)}))*v.Elem)
			if err := ops.Take(want, v, axis, idx, ops.Options{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planTake(got, v, axis, idx)
			if err := run(t, p, err); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: take axis %d of shape %v strides %v differs", i, axis, v.Shape, v.Strides)
			}
		}
	})
}

func TestTakeFlat(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(13, 14))
		for i := range 800 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 4)
			if v.Count() == 0 {
				continue
			}
			idx := randomIdx(r, r.IntN(100), v.Count())
			want := make([]byte, len(idx)*v.Elem)
			if err := ops.TakeFlat(want, v, idx, ops.Options{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planTakeFlat(got, v, idx)
			if err := run(t, p, err); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: flat take of shape %v strides %v differs", i, v.Shape, v.Strides)
			}
		}
	})
}

func TestTakeAlongAxis(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(15, 16))
		for i := range 800 {
			v := randomView(r, []int{1, 2, 4, 8, 16}, 4)
			if len(v.Shape) == 0 {
				continue
			}
			axis := r.IntN(len(v.Shape))
			if v.Shape[axis] == 0 {
				continue
			}
			ishape := make([]int, len(v.Shape))
			for k, n := range v.Shape {
				ishape[k] = r.IntN(n + 1)
				if k == axis {
					ishape[k] = r.IntN(6)
				}
			}
			idx := randomIdx(r, ops.Count(ishape), v.Shape[axis])
			want := make([]byte, len(idx)*v.Elem)
			if err := ops.TakeAlongAxis(want, v, axis, ishape, idx, ops.Options{}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(want))
			p, err := planTakeAlong(got, v, axis, ishape, idx)
			if err := run(t, p, err); err != nil {
				t.Fatalf("case %d: %v", i, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("case %d: take_along_axis %d of shape %v differs", i, axis, v.Shape)
			}
		}
	})
}

// TestDeviceIndexCheck bypasses the host checks: a bad index must come
// back as an error from the device flag, not as a read out of bounds.
func TestDeviceIndexCheck(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		v := ops.Contiguous(4, []int{3, 5}, make([]byte, 60))
		dst := make([]byte, 3*2*4)
		g := gatherPlan{shape: []int{3, 2}, strides: []int{5, 0}, inner: 1, m: 2, idx: []int{1, 7}, mul: 1,
			lo: 0, hi: 5, what: outOfBounds(1, 5)}
		err := emulate(t, g.program("gather", dst, v, viewSpan(v)))
		if err == nil || !strings.Contains(err.Error(), "index 7 is out of bounds for axis 1 with size 5") {
			t.Fatalf("got %v", err)
		}
		// A valid index whose final offset leaves the storage is caught too.
		g.idx, g.hi = []int{1, 4}, 100
		g.strides = []int{6, 0}
		err = emulate(t, g.program("gather", dst, v, span{lo: 0, hi: 14, elem: 4}))
		if err == nil {
			t.Fatal("an offset past the span was not reported")
		}
		p, err := planTakeFlat(make([]byte, 8), v, []int{0, 14})
		if err != nil {
			t.Fatal(err)
		}
		binary.LittleEndian.PutUint64(p.bufs[2].data[8:], 15)
		if err := emulate(t, p); err == nil || !strings.Contains(err.Error(), "index 15 is out of bounds for size 15") {
			t.Fatalf("flat: got %v", err)
		}
	})
}

func TestTri(t *testing.T) {
	n := 0
	for _, upper := range []bool{false, true} {
		for rows := 0; rows <= 13; rows++ {
			for cols := 0; cols <= 13; cols += 1 + rows%3 {
				for off := -15; off <= 15; off += 2 {
					tr, err := ops.NewTri(upper, rows, cols, off)
					if err != nil {
						t.Fatal(err)
					}
					for _, elem := range []int{4, 8} {
						want := make([]byte, 2*tr.Len()*elem)
						if err := tr.Fill(want, elem, ops.Options{}); err != nil {
							t.Fatal(err)
						}
						got := make([]byte, len(want))
						p, err := planTri(got, tr, elem)
						if err := run(t, p, err); err != nil {
							t.Fatal(err)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("upper=%v %dx%d offset %d elem %d differs", upper, rows, cols, off, elem)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d triangles", n)
}

// TestTriAtLarge checks the closed form where the float root is least
// exact: random pairs of huge triangles, against Tri.At.
func TestTriAtLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	sizes := [][3]int{{1 << 31, 1 << 31, 0}, {3_000_000_000, 5, 2}, {5, 3_000_000_000, -3}, {1 << 30, 1<<32 - 7, 1 << 20}, {123456789, 987654321, -1000}}
	for _, upper := range []bool{false, true} {
		for _, sz := range sizes {
			tr, err := ops.NewTri(upper, sz[0], sz[1], sz[2])
			if err != nil {
				t.Fatal(err)
			}
			l := tr.Layout()
			u := int64(0)
			if upper {
				u = 1
			}
			prm := dev(make([]byte, 64))
			for k, x := range []int64{u, int64(tr.Cols), int64(l.Top), int64(l.Small), int64(l.Height), int64(l.Before), int64(l.Trap), int64(l.N)} {
				prm.setU64(int64(k), uint64(x))
			}
			for range 3000 {
				i := r.Int64N(int64(tr.Len()))
				if r.IntN(4) == 0 { // row boundaries
					j := r.Int64N(int64(l.Height))
					i = min(int64(tr.Len())-1, int64(l.Before)+emuRowsBefore(int64(l.Small), j)+r.Int64N(3)-1)
					i = max(0, i)
				}
				gr, gc := triAt(prm, i)
				wr, wc := tr.At(int(i))
				if gr != int64(wr) || gc != int64(wc) {
					t.Fatalf("upper=%v %v pair %d: (%d, %d), want (%d, %d)", upper, sz, i, gr, gc, wr, wc)
				}
			}
		}
	}
}

// Special values for the sort: zeros of both signs, infinities, NaNs with
// payloads, and the extremes of each width.
func specialBits(kind byte, size int) []uint64 {
	switch {
	case kind == 'f' && size == 2:
		return []uint64{0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7c01, 0x3c00, 0xbc00, 0x0001, 0x8001}
	case kind == 'f' && size == 4:
		return []uint64{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x3f800000, 0xbf800000, 1, 0x80000001}
	case kind == 'f' && size == 8:
		return []uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001,
			0x7ff0000000000001, math.Float64bits(1), math.Float64bits(-1), 1, 1<<63 | 1}
	}
	m := uint64(1)<<(8*size-1) - 1
	return []uint64{0, 1, m, m + 1, 2*m + 1, 2}
}

// randomSortView fills a view of the dtype with random and special values,
// few distinct ones so ties are common.
func randomSortView(r *rand.Rand, kind byte, elem int, shape []int) ops.View {
	v := ops.View{Elem: elem, Shape: shape, Strides: ops.CStrides(shape)}
	if r.IntN(2) == 0 {
		v.Strides = ops.FStrides(shape)
	}
	if len(shape) > 0 && r.IntN(3) == 0 {
		k := r.IntN(len(shape))
		v.Strides[k] = -v.Strides[k]
		v.Offset = -(shape[k] - 1) * v.Strides[k]
		if shape[k] == 0 {
			v.Offset = 0
		}
	}
	n := ops.Count(shape)
	v.Data = make([]byte, n*elem)
	part := elem
	if kind == 'c' {
		part = elem / 2
	}
	pkind := kind
	if kind == 'c' {
		pkind = 'f'
	}
	spec := specialBits(pkind, part)
	pool := make([]uint64, 0, 24)
	pool = append(pool, spec...)
	for range 12 {
		pool = append(pool, r.Uint64()>>(64-8*part))
	}
	for i := 0; i < len(v.Data); i += part {
		u := pool[r.IntN(len(pool))]
		if kind == 'b' {
			u = uint64(r.IntN(3))
		}
		for b := 0; b < part; b++ {
			v.Data[i+b] = byte(u >> (8 * b))
		}
	}
	return v
}

func TestSort(t *testing.T) {
	type kindSize struct {
		kind byte
		size int
	}
	dtypes := []kindSize{{'b', 1}, {'i', 1}, {'u', 1}, {'i', 2}, {'u', 2}, {'f', 2}, {'i', 4}, {'u', 4}, {'f', 4},
		{'i', 8}, {'u', 8}, {'f', 8}, {'c', 8}, {'c', 16}}
	shapes := [][]int{{}, {0}, {1}, {7}, {33}, {1024}, {1025}, {3, 5}, {17, 64}, {4, 1}, {2, 3, 4}, {3, 2100}, {2, 4100}, {9, 2100}}
	r := rand.New(rand.NewPCG(19, 20))
	cases := 0
	for _, dt := range dtypes {
		for si, shape := range shapes {
			d := dtype.Dtype{Kind: dt.kind, Size: dt.size, Order: '<'}
			if r.IntN(2) == 0 {
				d.Order = '>'
			}
			ord := ops.Order{Descending: r.IntN(2) == 0, NaNs: ops.NaNs(r.IntN(3))}
			if si > 10 && dt.size == 1 && dt.kind != 'b' {
				continue // the long rows: a few dtypes are enough
			}
			v := randomSortView(r, dt.kind, dt.size, shape)
			for axis := 0; axis < max(1, len(shape)); axis++ {
				if len(shape) == 0 {
					break // 0-d: Sort needs an axis; cmd ravels first
				}
				name := fmt.Sprintf("%s/%v/axis=%d/%+v", d.Descr(), shape, axis, ord)
				wantV, wantI := make([]byte, v.Count()*v.Elem), make([]byte, v.Count()*8)
				if err := ops.Sort(wantV, wantI, v, axis, d, ord, ops.Options{}); err != nil {
					t.Fatal(err)
				}
				for _, which := range []int{0, 1, 2} {
					var gv, gi []byte
					if which != 1 {
						gv = make([]byte, len(wantV))
					}
					if which != 2 {
						gi = make([]byte, len(wantI))
					}
					p, err := planSort(gv, gi, v, axis, d, ord)
					if err := run(t, p, err); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if gv != nil && !bytes.Equal(gv, wantV) {
						t.Fatalf("%s: values differ", name)
					}
					if gi != nil && !bytes.Equal(gi, wantI) {
						t.Fatalf("%s: indices differ", name)
					}
					cases++
				}
			}
		}
	}
	t.Logf("%d sort cases", cases)
}

// TestScanKernels runs the three scan kernels on counts large enough that
// the chunk sums themselves take several blocks of scan_partials, with a
// small grid so every block loops: each row's result must be its own
// exclusive prefix sum.
func TestScanKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	rows, tiles := 3, 6000
	rowLen := 256 * tiles
	length := rows * rowLen
	n := 0
	counts := make([]uint32, length)
	for row := 0; row < rows; row++ {
		sum := 0
		for i := 0; i < rowLen; i++ {
			c := r.IntN(5)
			counts[row*rowLen+i] = uint32(c)
			sum += c
		}
		if row == 0 {
			n = sum
		}
		// Every row must hold n elements: move the difference to its last count.
		last := &counts[row*rowLen+rowLen-1]
		*last = uint32(int(*last) + n - sum)
		if int(*last) < 0 {
			t.Skip("unlucky counts")
		}
	}
	p := newProgram("scan")
	data := make([]byte, 4*length)
	for i, c := range counts {
		binary.LittleEndian.PutUint32(data[4*i:], c)
	}
	hist := p.alloc("hist", int64(len(data)), data)
	chunks := ceilDiv(length, scanChunk)
	if chunks <= scanThreads {
		t.Fatalf("only %d chunks: scan_partials would not loop", chunks)
	}
	partials := p.alloc("partials", int64(4*chunks), nil)
	p.launch("scan_reduce", 7, [2]int{scanThreads, 1}, ptr(hist), ptr(partials), ival(length))
	p.launch("scan_partials", 1, [2]int{scanThreads, 1}, ptr(partials), ival(chunks))
	p.launch("scan_apply", 5, [2]int{scanThreads, 1}, ptr(hist), ptr(partials), ival(length), ival(rowLen), ival(n))
	got := make([]byte, len(data))
	p.download(hist, 0, got)
	if err := emulate(t, p); err != nil {
		t.Fatal(err)
	}
	for row := 0; row < rows; row++ {
		var sum uint32
		for i := 0; i < rowLen; i++ {
			k := row*rowLen + i
			if g := binary.LittleEndian.Uint32(got[4*k:]); g != sum {
				t.Fatalf("row %d position %d: %d, want %d", row, i, g, sum)
			}
			sum += counts[k]
		}
	}
}
