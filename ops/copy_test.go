package ops

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strider/internal/testkit"
	"testing"
)

const guard = 64 // poison bytes on each side of every destination

// randomView builds a view with random shape, strides (negative and zero
// included), offset and element size over random storage.
func randomView(r *rand.Rand) View {
	elems := []int{1, 2, 3, 4, 8, 16}
	elem := elems[r.IntN(len(elems))]
	ndim := r.IntN(6)
	shape := make([]int, ndim)
	for k := range shape {
		switch r.IntN(10) {
		case 0:
			shape[k] = 1
		case 1:
			shape[k] = 0
		case 2:
			shape[k] = 33 + r.IntN(70) // spans several tiles
		default:
			shape[k] = 2 + r.IntN(6)
		}
	}
	if Count(shape) > 1<<16 {
		shape, ndim = shape[:0], 0
	}
	// Start from a contiguous (C or F) parent, permute it, then maybe slice
	// with steps and reverse axes; sometimes broadcast an axis.
	var strides []int
	if r.IntN(2) == 0 {
		strides = CStrides(shape)
	} else {
		strides = FStrides(shape)
	}
	span := Count(shape)
	for k := range strides {
		if r.IntN(6) == 0 {
			step := 2 + r.IntN(2)
			strides[k] *= step
			span *= step
		}
		if r.IntN(8) == 0 {
			strides[k] = 0
		}
		if r.IntN(5) == 0 {
			strides[k] = -strides[k]
		}
	}
	perm := r.Perm(ndim)
	v := View{Elem: elem, Shape: shape, Strides: strides}
	v = v.Permute(perm)
	offset, length := testkit.Storage(r, v.Shape, v.Strides)
	v.Offset = offset
	v.Data = make([]byte, length*elem)
	for i := range v.Data {
		v.Data[i] = byte(r.Uint32())
	}
	_ = span
	return v
}

func guarded(n int) (buf, dst []byte) {
	buf = make([]byte, n+2*guard)
	for i := range buf {
		buf[i] = 0xA5
	}
	return buf, buf[guard : guard+n]
}

func checkGuards(t *testing.T, buf []byte, n int) {
	t.Helper()
	for i := 0; i < guard; i++ {
		if buf[i] != 0xA5 || buf[guard+n+i] != 0xA5 {
			t.Fatalf("guard byte overwritten at %d", i)
		}
	}
}

func describe(v View) string {
	return fmt.Sprintf("e%d/shape=%v/strides=%v/off=%d", v.Elem, v.Shape, v.Strides, v.Offset)
}

func TestCopyMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		threads := 1 + r.IntN(4)
		t.Run(fmt.Sprintf("%d/%s/t%d", i, describe(v), threads), func(t *testing.T) {
			n := v.Count() * v.Elem
			wantBuf, want := guarded(n)
			if err := CopyNaive(want, v); err != nil {
				t.Fatalf("naive: %v", err)
			}
			gotBuf, got := guarded(n)
			if err := Copy(got, v, Options{tune: eager, Threads: threads}); err != nil {
				t.Fatalf("copy: %v", err)
			}
			checkGuards(t, gotBuf, n)
			checkGuards(t, wantBuf, n)
			if !bytes.Equal(got, want) {
				t.Fatalf("copy differs from the naive odometer")
			}
		})
	}
}

// TestNaiveKnown pins the oracle itself to hand-computed answers.
func TestNaiveKnown(t *testing.T) {
	data := []byte{0, 1, 2, 3, 4, 5}
	cases := []struct {
		name string
		v    View
		want []byte
	}{
		{"2x3/c", Contiguous(1, []int{2, 3}, data), []byte{0, 1, 2, 3, 4, 5}},
		{"2x3/T", Contiguous(1, []int{2, 3}, data).Permute([]int{1, 0}), []byte{0, 3, 1, 4, 2, 5}},
		{"reverse", View{Elem: 1, Shape: []int{6}, Strides: []int{-1}, Offset: 5, Data: data}, []byte{5, 4, 3, 2, 1, 0}},
		{"broadcast", View{Elem: 2, Shape: []int{3, 1}, Strides: []int{0, 1}, Offset: 1, Data: data}, []byte{2, 3, 2, 3, 2, 3}},
		{"0-d", View{Elem: 2, Offset: 2, Data: data}, []byte{4, 5}},
		{"empty", Contiguous(4, []int{0, 3}, nil), []byte{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := make([]byte, len(c.want))
			if err := CopyNaive(got, c.v); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			if err := Copy(got, c.v, Options{}); err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("Copy: got %v (%v), want %v", got, err, c.want)
			}
		})
	}
}

func TestCheckRefusesOutOfBounds(t *testing.T) {
	data := make([]byte, 24)
	bad := []View{
		{Elem: 4, Shape: []int{7}, Strides: []int{1}, Data: data},
		{Elem: 4, Shape: []int{3}, Strides: []int{-1}, Offset: 1, Data: data},
		{Elem: 4, Shape: []int{2, 2}, Strides: []int{5, 1}, Data: data},
		{Elem: 4, Offset: 6, Data: data},
		{Elem: 4, Shape: []int{2}, Strides: []int{1 << 62}, Data: data},
		{Elem: 4, Shape: []int{2}, Strides: []int{1}, Offset: -1, Data: data},
	}
	for i, v := range bad {
		if err := v.Check(); err == nil {
			t.Errorf("case %d %s: Check accepted an out-of-bounds view", i, describe(v))
		}
		if err := Copy(make([]byte, v.Count()*v.Elem), v, Options{}); err == nil {
			t.Errorf("case %d: Copy accepted an out-of-bounds view", i)
		}
	}
	ok := View{Elem: 4, Shape: []int{3, 2}, Strides: []int{-2, 1}, Offset: 4, Data: data}
	if err := ok.Check(); err != nil {
		t.Errorf("in-bounds view refused: %v", err)
	}
}

func TestPlanShapes(t *testing.T) {
	// [1,784,1,4,12] with perm [2,0,3,1,4] is a 0-2-1-3 problem: after
	// dropping size-1 axes it is (4,784) swapped with a 12-element run.
	v := Contiguous(4, []int{1, 784, 1, 4, 12}, make([]byte, 784*4*12*4)).Permute([]int{2, 0, 3, 1, 4})
	dst := make([]byte, len(v.Data))
	p := makePlan(Contiguous(v.Elem, v.Shape, dst), v)
	if p.kernel != kernelRuns || p.cols.n != 48 || p.rows.n != 784 || len(p.outer) != 1 || p.outer[0].n != 4 {
		t.Fatalf("plan for 0-2-1-3: %+v", p)
	}
	// A 2-D transpose tiles: rows is the source-contiguous axis.
	v = Contiguous(4, []int{100, 200}, make([]byte, 100*200*4)).Permute([]int{1, 0})
	p = makePlan(Contiguous(v.Elem, v.Shape, make([]byte, 100*200*4)), v)
	if p.kernel != kernelStrided || p.rows.src != 4 || p.rb != tileEdge(4) || len(p.outer) != 0 {
		t.Fatalf("plan for 2-D transpose: %+v", p)
	}
	// A source whose row step is a multiple of 4 KiB tiles narrow.
	v = Contiguous(4, []int{100, 1024}, make([]byte, 100*1024*4)).Permute([]int{1, 0})
	p = makePlan(Contiguous(v.Elem, v.Shape, make([]byte, 100*1024*4)), v)
	if p.kernel != kernelStrided || p.rb != narrowTile[0] || p.cb != narrowTile[1] {
		t.Fatalf("plan for a 4 KiB row step: %+v", p)
	}
	// (N, M, 2) float32 with the first two axes swapped: the 8-byte pairs
	// become one element.
	v = Contiguous(4, []int{50, 60, 2}, make([]byte, 50*60*2*4)).Permute([]int{1, 0, 2})
	p = makePlan(Contiguous(v.Elem, v.Shape, make([]byte, 50*60*2*4)), v)
	if p.elem != 8 || p.kernel != kernelStrided {
		t.Fatalf("plan did not widen: %+v", p)
	}
	// A C-contiguous view is one run.
	v = Contiguous(2, []int{3, 4, 5}, make([]byte, 120))
	p = makePlan(Contiguous(v.Elem, v.Shape, make([]byte, 120)), v)
	if p.kernel != kernelRuns || p.cols.n != 120 || p.rows.n != 1 || len(p.outer) != 0 {
		t.Fatalf("plan for contiguous: %+v", p)
	}
}

func TestNormalizePerm(t *testing.T) {
	cases := []struct {
		axes []int
		ndim int
		want []int
		err  string
	}{
		{nil, 3, []int{2, 1, 0}, ""},
		{nil, 0, []int{}, ""},
		{[]int{-1, 0, 1}, 3, []int{2, 0, 1}, ""},
		{[]int{0, 0}, 2, nil, "repeated axis 0 in transpose"},
		{[]int{0, -2}, 2, nil, "repeated axis -2 in transpose"},
		{[]int{0}, 2, nil, "axes don't match array: 1 axes given for an array of dimension 2"},
		{[]int{0, 2}, 2, nil, "axis 2 is out of bounds for array of dimension 2"},
		{[]int{-3, 0}, 2, nil, "axis -3 is out of bounds for array of dimension 2"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.axes, c.ndim), func(t *testing.T) {
			got, err := NormalizePerm(c.axes, c.ndim)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// TestTiledTransposeEdges covers several full tiles plus ragged edges on
// both axes, and a batch axis, for every element size.
func TestTiledTransposeEdges(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	for _, elem := range []int{1, 2, 4, 8, 16} {
		for _, shape := range [][]int{{300, 261}, {3, 129, 257}, {257, 2, 131}} {
			n := Count(shape) * elem
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(i*31 + i>>8)
			}
			perm := make([]int, len(shape))
			for k := range perm {
				perm[k] = len(shape) - 1 - k
			}
			if len(shape) == 3 {
				perm = []int{0, 2, 1}
			}
			v := Contiguous(elem, shape, data).Permute(perm)
			t.Run(fmt.Sprintf("e%d/%v/%v", elem, shape, perm), func(t *testing.T) {
				checkTiledCopy(t, v, eager)
			})
		}
	}
}

// TestAliasedTransposeEdges: sources whose row step is a multiple of 4 KiB
// take the narrow tile (see aliasPeriod); ragged edges on both axes, a
// sliced source, and a reversed one (negative steps), for every element
// size, against the naive odometer.
func TestAliasedTransposeEdges(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	for _, elem := range []int{1, 2, 4, 8, 16, 3} {
		cols := aliasPeriod / elem
		if elem == 3 {
			cols = aliasPeriod
		}
		n := 37 * cols * elem
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*31 + i>>8)
		}
		base := Contiguous(elem, []int{37, cols}, data)
		views := map[string]View{
			"T":         base.Permute([]int{1, 0}),
			"sliced":    sliceView(base, 1, 3, cols-2).Permute([]int{1, 0}),
			"reversed":  reverseAxis(sliceView(base, 1, 0, cols-5), 0).Permute([]int{1, 0}),
			"batch021":  Contiguous(elem, []int{2, 17, cols / 2}, data[:2*17*cols/2*elem]).Permute([]int{0, 2, 1}),
			"reversed1": reverseAxis(base, 1).Permute([]int{1, 0}),
		}
		for name, v := range views {
			t.Run(fmt.Sprintf("e%d/%s", elem, name), func(t *testing.T) {
				checkTiledCopy(t, v, eager)
			})
		}
	}
}

// checkTiledCopy copies v on 3 threads with tuning tune into a guarded
// buffer and compares it with the naive odometer's copy.
func checkTiledCopy(t *testing.T, v View, tune *tuning) {
	t.Helper()
	m := v.Count() * v.Elem
	want := make([]byte, m)
	if err := CopyNaive(want, v); err != nil {
		t.Fatal(err)
	}
	buf, got := guarded(m)
	if err := Copy(got, v, Options{tune: tune, Threads: 3}); err != nil {
		t.Fatal(err)
	}
	checkGuards(t, buf, m)
	if !bytes.Equal(got, want) {
		t.Fatal("tiled copy differs from the naive odometer")
	}
}

// sliceView is v[..., lo:hi, ...] along axis.
func sliceView(v View, axis, lo, hi int) View {
	v.Shape = append([]int(nil), v.Shape...)
	v.Offset += lo * v.Strides[axis]
	v.Shape[axis] = hi - lo
	return v
}

// reverseAxis is v[..., ::-1, ...] along axis.
func reverseAxis(v View, axis int) View {
	v.Strides = append([]int(nil), v.Strides...)
	v.Offset += (v.Shape[axis] - 1) * v.Strides[axis]
	v.Strides[axis] = -v.Strides[axis]
	return v
}

// readerAt is ReadRuns reading through r, as cmd's pread path does.
func readerAt(r io.ReaderAt) func([]byte, int64) error {
	return func(part []byte, off int64) error {
		_, err := r.ReadAt(part, off)
		return err
	}
}

// TestReadRunsMatchesNaive reads random views through an io.ReaderAt, as the
// pread path for files does.
func TestReadRunsMatchesNaive(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 2000; i++ {
		v := randomView(r)
		n := v.Count() * v.Elem
		want := make([]byte, n)
		if err := CopyNaive(want, v); err != nil {
			t.Fatal(err)
		}
		buf, got := guarded(n)
		storage := bytes.NewReader(v.Data)
		size := int64(len(v.Data))
		v.Data = nil
		if err := ReadRuns(got, v, size, Options{Threads: 1 + r.IntN(3)}, readerAt(storage)); err != nil {
			t.Fatalf("%d %s: %v", i, describe(v), err)
		}
		checkGuards(t, buf, n)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d %s: ReadRuns differs from the naive odometer", i, describe(v))
		}
	}
	// A view past the storage is refused before any read.
	v := View{Elem: 4, Shape: []int{3}, Strides: []int{2}}
	if err := ReadRuns(make([]byte, 12), v, 16, Options{}, readerAt(bytes.NewReader(make([]byte, 16)))); err == nil {
		t.Fatal("ReadRuns accepted a view past its storage")
	}
	// A failed read is returned.
	v = View{Elem: 4, Shape: []int{3}, Strides: []int{1}}
	if err := ReadRuns(make([]byte, 12), v, 16, Options{}, readerAt(bytes.NewReader(make([]byte, 8)))); err == nil {
		t.Fatal("ReadRuns hid a short read")
	}
	// A diagonal of a wide matrix prefers reads; a contiguous block does not.
	m := Contiguous(4, []int{4096, 4096}, nil)
	d, err := m.Diagonal(0, 0, 1)
	if err != nil || !PreferReadAt(d) || PreferReadAt(m) {
		t.Fatalf("PreferReadAt: diagonal %v, matrix %v (%v)", PreferReadAt(d), PreferReadAt(m), err)
	}
}

// TestPreferReadAtCountsPages: the pread path is taken only where a mapping
// would fault in a page per element. A diagonal of (2, 2, 1<<22) has its
// two elements per output row 48 MiB apart, but its rows are dense: it took
// the pread path with one 4-byte pread per element (8,388,608 syscalls,
// 2.5 s where a mapped copy takes 0.05 s).
func TestPreferReadAtCountsPages(t *testing.T) {
	diag := func(shape []int, offset, a1, a2 int) View {
		d, err := Contiguous(4, shape, nil).Diagonal(offset, a1, a2)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct {
		name         string
		v            View
		reads, pages int
		prefer       bool
	}{
		{"f4/8192x8192/diagonal", diag([]int{8192, 8192}, 0, 0, 1), 8192, 8192, true},
		{"f4/4096x4096/diagonal/offset=-5", diag([]int{4096, 4096}, -5, 0, 1), 4091, 4091, true},
		{"f4/2x2x4194304/diagonal", diag([]int{2, 2, 1 << 22}, 0, 0, 1), 1 << 23, 8192, false},
		{"f4/2x2x4194304/diagonal/axes=0,2", diag([]int{2, 2, 1 << 22}, 0, 0, 2), 4, 4, true},
		{"f4/4096x4096x2/diagonal", diag([]int{4096, 4096, 2}, 0, 0, 1), 8192, 4096, false},
		{"f4/64x64x16/diagonal", diag([]int{64, 64, 16}, 0, 0, 1), 1024, 64, false},
		{"f4/4096x4096", Contiguous(4, []int{4096, 4096}, nil), 1, 16384, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := makePlan(Contiguous(tc.v.Elem, tc.v.Shape, nil), tc.v)
			if got := readCalls(p); got != tc.reads {
				t.Errorf("readCalls = %d, want %d", got, tc.reads)
			}
			if got := pagesTouched(tc.v); got != tc.pages {
				t.Errorf("pagesTouched = %d, want %d", got, tc.pages)
			}
			if got := PreferReadAt(tc.v); got != tc.prefer {
				t.Errorf("PreferReadAt = %v, want %v", got, tc.prefer)
			}
		})
	}
}

// TestContiguity: NumPy 1.24's C_CONTIGUOUS and F_CONTIGUOUS flags of
// views, as numpy printed them (arr.flags) for the same shapes and strides
// (in elements here).
func TestContiguity(t *testing.T) {
	for _, tc := range []struct {
		shape, strides []int
		c, f           bool
	}{
		{nil, nil, true, true},                         // 0-d
		{[]int{0, 3}, []int{7, -5}, true, true},        // empty: both, whatever the strides
		{[]int{5}, []int{1}, true, true},               // 1-d contiguous
		{[]int{5}, []int{-1}, false, false},            // a[::-1]
		{[]int{3, 4}, []int{4, 1}, true, false},        // C
		{[]int{4, 3}, []int{1, 4}, false, true},        // a.T
		{[]int{1, 4}, []int{99, 1}, true, true},        // length-1 axes are ignored
		{[]int{4, 1}, []int{1, 99}, true, true},        // np.ones((4,1)).T.T
		{[]int{3, 1, 4}, []int{1, 0, 3}, false, true},  // None inserted into an F array
		{[]int{2, 4}, []int{1, 3}, false, false},       // a.T[:2] of (4, 3): a gap
		{[]int{3, 2}, []int{1, 3}, false, true},        // columns of an F array: a.T[:, :2]
		{[]int{2, 3, 4}, []int{12, 4, 1}, true, false}, // C
		{[]int{2, 3, 4}, []int{1, 2, 6}, false, true},  // F
		{[]int{2, 3, 4}, []int{1, 8, 2}, false, false}, // transpose (0, 2, 1) of F
		{[]int{2, 2}, []int{0, 1}, false, false},       // broadcast
	} {
		v := View{Elem: 4, Shape: tc.shape, Strides: tc.strides}
		if c, f := v.Contiguity(); c != tc.c || f != tc.f {
			t.Errorf("shape %v strides %v: C %v F %v, want C %v F %v", tc.shape, tc.strides, c, f, tc.c, tc.f)
		}
	}
}

// eagerTuning is the default tuning with every size worth threads, so
// small test inputs exercise the chunking.
func eagerTuning() *tuning {
	t := defaultTuning()
	t.parallelMin = 0
	return &t
}

// randomDest is a destination view of shape for elem-byte elements that
// writes each element once: axes laid out in a random order, some with
// gaps, some reversed, at a random offset in storage poisoned with 0xA5.
func randomDest(r *rand.Rand, elem int, shape []int) View {
	v := View{Elem: elem, Shape: shape, Strides: make([]int, len(shape))}
	step := 1 + r.IntN(2)
	for _, k := range r.Perm(len(shape)) {
		v.Strides[k] = step
		step *= max(shape[k], 1) * []int{1, 1, 1, 2, 3}[r.IntN(5)]
	}
	lo, hi := 0, 0
	for k, n := range shape {
		if r.IntN(4) == 0 {
			v.Strides[k] = -v.Strides[k]
		}
		if n > 0 {
			if s := (n - 1) * v.Strides[k]; s > 0 {
				hi += s
			} else {
				lo += s
			}
		}
	}
	v.Offset = -lo + r.IntN(3)
	v.Data = bytes.Repeat([]byte{0xA5}, (v.Offset+hi+1+r.IntN(3))*elem)
	return v
}

// TestCopyToMatchesNaive copies random views into random strided
// destinations and compares the whole destination storage, gaps included,
// with the naive odometer's.
func TestCopyToMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		want := randomDest(r, v.Elem, v.Shape)
		got := want
		got.Data = bytes.Clone(want.Data)
		threads := 1 + r.IntN(4)
		t.Run(fmt.Sprintf("%d/%s/to=%v%+d/t%d", i, describe(v), got.Strides, got.Offset, threads), func(t *testing.T) {
			if err := CopyToNaive(want, v); err != nil {
				t.Fatalf("naive: %v", err)
			}
			if err := CopyTo(got, v, Options{tune: eager, Threads: threads}); err != nil {
				t.Fatalf("copy: %v", err)
			}
			if !bytes.Equal(got.Data, want.Data) {
				t.Fatalf("copy differs from the naive odometer")
			}
		})
	}
}

// TestCopyToRefuses checks that CopyTo names each destination it cannot
// write: wrong shape or element size, out of bounds, writing an element
// twice, sharing the source's storage.
func TestCopyToRefuses(t *testing.T) {
	t.Parallel()
	store := make([]byte, 64)
	src := Contiguous(4, []int{3, 4}, store[:48])
	buf := make([]byte, 200)
	cases := []struct {
		name string
		dst  View
	}{
		{"shape", Contiguous(4, []int{4, 3}, buf[:48])},
		{"elem", Contiguous(2, []int{3, 4}, buf[:24])},
		{"bounds", Contiguous(4, []int{3, 4}, buf[:40])},
		{"broadcast", View{Elem: 4, Shape: []int{3, 4}, Strides: []int{0, 1}, Data: buf}},
		{"interleaved", View{Elem: 4, Shape: []int{3, 4}, Strides: []int{2, 1}, Data: buf}},
		{"source", src},
		{"inside source", Contiguous(4, []int{3, 4}, store[8:56])},
	}
	for _, c := range cases {
		if err := CopyTo(c.dst, src, Options{}); err == nil {
			t.Errorf("%s: CopyTo accepted %s", c.name, describe(c.dst))
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	// Disjoint slices of one buffer are fine: the halves of a concatenation.
	out := make([]byte, 96)
	left := View{Elem: 4, Shape: []int{3, 4}, Strides: []int{8, 1}, Data: out}
	right := left
	right.Offset = 4
	if err := CopyTo(left, src, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := CopyTo(right, src, Options{}); err != nil {
		t.Fatal(err)
	}
}
