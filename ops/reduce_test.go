package ops

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"strider/internal/dtype"
)

// TestReduceEngineMatchesReference runs the engine and the reference
// simulation (reduce_ref_test.go) on random views: every ufunc and loop
// dtype, both byte orders, any axis order, steps and reversals, every axis
// set, keepdims, a layout that differs from the source (as _var's second
// sum reads arr through x's layout), and buffer sizes from 3 to NumPy's
// 8192, so that small arrays are cut into many calls as large ones are.
func TestReduceEngineMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2))
	ufs := []ufuncKind{ufAdd, ufMultiply, ufMaximum, ufMinimum, ufFmax, ufFmin, ufOr, ufAnd}
	loops := numpyDtypes()
	n := 4000
	if testing.Short() || reduceRaceEnabled {
		n = 500
	}
	for i := 0; i < n; i++ {
		d := loops[r.IntN(len(loops))]
		nd := r.IntN(5)
		shape := make([]int, nd)
		for k := range shape {
			shape[k] = []int{1, 2, 3, 5, 8, 9, 17, 33}[r.IntN(8)]
			if r.IntN(30) == 0 {
				shape[k] = 0
			}
		}
		kind := layoutKinds[r.IntN(len(layoutKinds))]
		src := newCaseArray(r, d, shape, kind, r.IntN(5))
		red := make([]bool, nd)
		for k := range red {
			red[k] = r.IntN(2) == 0
		}
		keepdims := r.IntN(2) == 0
		uf := ufs[r.IntN(len(ufs))]
		var loop dtype.Dtype
		switch uf {
		case ufAdd, ufMultiply:
			loop = dtype.AddReduceDtype(d)
			if r.IntN(3) == 0 {
				loop = dtype.NativeOf(loops[r.IntN(len(loops))])
			}
		case ufOr, ufAnd:
			loop = dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}
		default:
			loop = dtype.NativeOf(d)
		}
		layout := src.Strides
		if r.IntN(4) == 0 {
			layout = keepOrderStrides(shape, src.Strides)
		}
		if r.IntN(8) == 0 {
			layout = CStrides(shape)
		}
		bufsize := []int{3, 8, 16, 37, 128, npyBufSize}[r.IntN(6)]
		name := fmt.Sprintf("%s/%s→%s/%v/%s/red=%v/keep=%v/buf=%d", ufuncName(uf), d.Descr(), loop.Descr(), shape, kind, red, keepdims, bufsize)

		want, shape2, strides2, werr := refReduce(uf, src, d, layout, red, keepdims, loop, bufsize, nil)
		tune := defaultTuning()
		tune.reduceBuf = bufsize
		tune.parallelMin = []int{0, 1 << 30}[r.IntN(2)]
		levels := reduceSIMDLevels()
		tune.simd = levels[r.IntN(len(levels))]
		name += "/" + tune.simd.String()
		opt := Options{Threads: 1 + r.IntN(3), tune: &tune}
		lay := newReduceLayout(shape, layout, red, keepdims)
		if werr != nil {
			if !uf.hasIdentity() {
				continue // the engine's caller refuses it before (emptyReduced)
			}
			t.Fatalf("%s: reference: %v", name, werr)
		}
		if !equalInts(lay.outShape, shape2) || !equalInts(lay.outStrides, strides2) {
			t.Fatalf("%s: layout %v %v, reference %v %v", name, lay.outShape, lay.outStrides, shape2, strides2)
		}
		got, _, err := ufReduce(uf, src, d, lay, red, loop, nil, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %s", name, firstDiff(got, want, loop))
		}
	}
}

// TestReduceEngineCallsMatchReference checks the engine's account of the
// calls (reduce_plan.go) against the simulated iterator's: for each
// reduce call, the same result and the same run of elements.
func TestReduceEngineCallsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 3))
	for i := 0; i < 2000; i++ {
		nd := 1 + r.IntN(4)
		shape := make([]int, nd)
		for k := range shape {
			shape[k] = []int{1, 2, 3, 4, 7, 9, 16}[r.IntN(7)]
		}
		src, _ := makeLayout(r, layoutKinds[r.IntN(len(layoutKinds))], shape, 4)
		red := make([]bool, nd)
		for k := range red {
			red[k] = r.IntN(2) == 0
		}
		bufsize := []int{2, 5, 8, 13, 64, npyBufSize}[r.IntN(6)]
		it := newRefIter(shape, src.Strides, red, false, bufsize, false)
		lay := newReduceLayout(shape, src.Strides, red, false)
		p := newRedPlan(src, lay, red, bufsize)
		if len(p.n) == 0 {
			continue // one element: a call of one either way
		}
		// The engine's calls: per visit, pieces of buf (k > 0).
		var engine [][]int
		if p.k > 0 {
			p.visits(0, p.outer(), func(_, s, pos int) {
				for from := 0; from < p.block; from += p.buf {
					to := min(from+p.buf, p.block)
					var offs []int
					for e := from; e < to; e++ {
						offs = append(offs, s+blockOffset(p, e))
					}
					engine = append(engine, append([]int{pos}, offs...))
				}
			})
		}
		var ref [][]int
		for _, c := range it.calls() {
			if !c.reduce {
				if p.k > 0 {
					t.Fatalf("%v red=%v buf=%d: an element-by-element call, the engine plans blocks", shape, red, bufsize)
				}
				continue
			}
			if p.k == 0 {
				t.Fatalf("%v red=%v buf=%d: a reduce call, the engine plans rows", shape, red, bufsize)
			}
			offs := []int{c.outPos[0]}
			for j, o := range c.inOff {
				if c.outPos[j] != c.outPos[0] {
					t.Fatalf("a reduce call spans two results")
				}
				offs = append(offs, o+src.Offset)
			}
			ref = append(ref, offs)
		}
		if fmt.Sprint(engine) != fmt.Sprint(ref) {
			t.Fatalf("%v strides %v red=%v buf=%d:\nengine    %v\nreference %v", shape, src.Strides, red, bufsize, engine, ref)
		}
	}
}

// blockOffset is the source offset of element e of a block.
func blockOffset(p redPlan, e int) int {
	off := 0
	for a := 0; a < p.k; a++ {
		off += e % p.n[a] * p.src[a]
		e /= p.n[a]
	}
	return off
}

// TestReduceOrderMatters shows the order is not a detail: summing the
// elements of a float32 array one after the other gives other bits than
// NumPy's pairwise blocks, which Reduce reproduces (checked against NumPy
// in reduce_numpy_test.go).
func TestReduceOrderMatters(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 4))
	differ := 0
	for trial := 0; trial < 20; trial++ {
		n := 1000 + r.IntN(20000)
		xs := make([]float32, n)
		b := make([]byte, 4*n)
		for i := range xs {
			xs[i] = float32(math.Pow(10, r.Float64()*8-4) * (r.Float64() - 0.5))
			putU32(b[4*i:], math.Float32bits(xs[i]))
		}
		var naive float32
		for _, x := range xs {
			naive += x
		}
		dst := make([]byte, 4)
		f4, _ := dtype.Parse("<f4")
		if _, err := Reduce(dst, ReduceSum, Contiguous(4, []int{n}, b), f4, ReduceOptions{}); err != nil {
			t.Fatal(err)
		}
		if math.Float32frombits(uint32(dst[0])|uint32(dst[1])<<8|uint32(dst[2])<<16|uint32(dst[3])<<24) != naive {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("the sequential sum equals the pairwise one in every trial: the data does not tell orders apart")
	}
}

// TestFloatKeyOrders checks the keys of reduce_extreme.go against the
// floats' own order on specials and random bits: equal keys for equal
// floats (+0 and -0), the order kept, NaNs beyond the infinities on their
// sign's side, and keyFloat undoing floatKey but for the zeros.
func TestFloatKeyOrders(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 9))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat32, -math.MaxFloat32, 1e-40, -1e-40}
	xs := append([]float64(nil), specials...)
	for i := 0; i < 2000; i++ {
		xs = append(xs, math.Float64frombits(r.Uint64()), float64(math.Float32frombits(r.Uint32())))
	}
	for _, a := range xs {
		for _, b := range specials {
			a32, b32 := float32(a), float32(b)
			k32a, k32b := floatKey(int32(math.Float32bits(a32))), floatKey(int32(math.Float32bits(b32)))
			k64a, k64b := floatKey(int64(math.Float64bits(a))), floatKey(int64(math.Float64bits(b)))
			if a32 == a32 && (a32 < b32) != (k32a < k32b) || a32 == a32 && (a32 == b32) != (k32a == k32b) {
				t.Errorf("float32 %v, %v: keys %d, %d", a32, b32, k32a, k32b)
			}
			if a == a && (a < b) != (k64a < k64b) || a == a && (a == b) != (k64a == k64b) {
				t.Errorf("float64 %v, %v: keys %d, %d", a, b, k64a, k64b)
			}
		}
		if a != a {
			k := floatKey(int64(math.Float64bits(a)))
			k32 := floatKey(int32(math.Float32bits(float32(a))))
			if k <= infKey[int64]() && k >= -infKey[int64]() || k32 <= infKey[int32]() && k32 >= -infKey[int32]() {
				t.Errorf("NaN %x: keys %d, %d within the infinities", math.Float64bits(a), k, k32)
			}
		}
		if b := int64(math.Float64bits(a)); a != 0 && keyFloat(floatKey(b)) != b {
			t.Errorf("keyFloat(floatKey(%x)) = %x", b, keyFloat(floatKey(b)))
		}
	}
}

// TestProductMatchesChain checks product's shortcut for a product that is
// a zero or an infinity against the plain chain of mulX: the same bits
// and the same exceptions, on factors that underflow, overflow, and hold
// zeros, infinities and NaNs at random places.
func TestProductMatchesChain(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 10))
	for i := 0; i < 3000; i++ {
		n := r.IntN(600)
		xs32 := make([]float32, n)
		xs64 := make([]float64, n)
		scale := []float64{1e-3, 0.5, 3, 1e5}[r.IntN(4)]
		for j := range xs64 {
			x := r.NormFloat64() * scale
			switch r.IntN(400) {
			case 0:
				x = 0
			case 1:
				x = math.Inf(1)
			case 2:
				x = math.Copysign(0, -1)
			case 3:
				x = math.NaN()
			case 4:
				x = math.Inf(-1)
			}
			xs64[j], xs32[j] = x, float32(x)
		}
		p0 := []float64{1, 0, math.Inf(-1), -2}[r.IntN(4)]
		checkProduct(t, float32(p0), xs32)
		checkProduct(t, p0, xs64)
		if n > 0 {
			checkProduct(t, float32(p0), xs32[1:]) // not 8-byte aligned
		}
	}
}

func checkProduct[T float](t *testing.T, p0 T, xs []T) {
	t.Helper()
	var fw, fg fpFlags
	want := p0
	for _, x := range xs {
		want = mulX(want, x, &fw)
	}
	got := product(p0, xs, &fg)
	if u64(got) != u64(want) || fg != fw {
		t.Errorf("%T product of %d from %v: %v %+v, the chain %v %+v", p0, len(xs), p0, got, fg, want, fw)
	}
}

// TestCountLanesMatchesElements checks the word-at-a-time count of nonzero
// elements against the element-by-element one, for every element size,
// mask and alignment, on bytes that are zeros, sign bits, low bits or any.
func TestCountLanesMatchesElements(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 11))
	big := make([]byte, 308)
	for i := 0; i < 2000; i++ {
		buf := big[r.IntN(8):][:300] // any alignment
		for j := range buf {
			buf[j] = []byte{0, 0, 0x80, 1, byte(r.Uint32())}[r.IntN(5)]
		}
		e := []int{1, 2, 4, 8}[r.IntN(4)]
		mask := []uint64{^uint64(0), 0x7fff, 0x7fffffff, 0x7fffffffffffffff, 0x7fffffff7fffffff}[r.IntN(5)]
		lo := r.IntN(16) * e
		hi := lo + r.IntN((len(buf)-lo)/e+1)*e
		b := buf[lo:hi]
		if got, want := countLanes(b, e, mask), countElements(b, e, mask); got != want {
			t.Fatalf("size %d mask %x, %d bytes from %d: %d, element by element %d: %x", e, mask, len(b), lo, got, want, b)
		}
	}
}

// TestArgFloatMatchesScan checks argFloat's search a block at a time
// against the element-by-element scan: ties across blocks, zeros of both
// signs, NaNs (the first wins, or counts as the fill for nanargmax), and
// infinities equal to the fill.
func TestArgFloatMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 12))
	for i := 0; i < 1500; i++ {
		n := 1 + r.IntN(3000)
		xs := make([]float64, n)
		ties := r.IntN(2) == 0
		for j := range xs {
			xs[j] = r.NormFloat64()
			if ties {
				xs[j] = float64(r.IntN(3) - 1)
			}
			switch r.IntN(1000) {
			case 0:
				xs[j] = math.NaN()
			case 1:
				xs[j] = math.Inf(1)
			case 2:
				xs[j] = math.Inf(-1)
			case 3:
				xs[j] = math.Copysign(0, -1)
			}
		}
		xs32 := make([]float32, n)
		for j, x := range xs {
			xs32[j] = float32(x)
		}
		lo := r.IntN(n)
		for _, isMax := range []bool{true, false} {
			for _, nan := range []bool{true, false} {
				fill := math.Inf(1)
				if isMax {
					fill = math.Inf(-1)
				}
				got, want := argFloat(xs, 0, 1, lo, n, isMax, nan, fill), argScan(xs, 0, 1, lo, n, isMax, nan, fill)
				got32, want32 := argFloat(xs32, 0, 1, lo, n, isMax, nan, float32(fill)), argScan(xs32, 0, 1, lo, n, isMax, nan, float32(fill))
				if got.at != want.at || got.nan != want.nan || got.sawNaN != want.sawNaN ||
					got32.at != want32.at || got32.nan != want32.nan || got32.sawNaN != want32.sawNaN {
					t.Fatalf("n %d from %d max %v nan %v: %+v %+v, scan %+v %+v", n, lo, isMax, nan, got, got32, want, want32)
				}
			}
		}
	}
}

// TestArgColumnsMatchesScan checks the side-by-side search of neighbouring
// rows against argScan of each row on its own, with NaNs, ties and
// infinities, in both NaN modes.
func TestArgColumnsMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 13))
	for i := 0; i < 300; i++ {
		n, m := 1+r.IntN(40), 1+r.IntN(60)
		xs := make([]float32, n*m)
		for j := range xs {
			xs[j] = float32(r.IntN(5) - 2)
			switch r.IntN(40) {
			case 0:
				xs[j] = float32(math.NaN())
			case 1:
				xs[j] = float32(math.Inf(1 - 2*r.IntN(2)))
			}
		}
		data := rawBytes(xs)
		for _, isMax := range []bool{true, false} {
			for _, nan := range []bool{true, false} {
				fill := math.Inf(1)
				if isMax {
					fill = math.Inf(-1)
				}
				out := make([]int64, n)
				saw := argColumns[float32](data, 0, n, n, m, argWant{isMax, nan, fill}, out)
				wantSaw := false
				for c := 0; c < n; c++ {
					p := argScan(xs, c, n, 0, m, isMax, nan, float32(fill))
					wantSaw = wantSaw || p.sawNaN
					if out[c] != int64(p.at) {
						t.Fatalf("%dx%d max %v nan %v column %d: %d, scan %d", m, n, isMax, nan, c, out[c], p.at)
					}
				}
				if saw != wantSaw {
					t.Fatalf("%dx%d max %v nan %v: saw NaN %v, scan %v", m, n, isMax, nan, saw, wantSaw)
				}
			}
		}
	}
}

// TestProductLookOverMatchesOneThread checks the product's look-over
// (lookOver: the calls after the product settles at a zero, an infinity
// or a NaN, summarized side by side) against the same reduction on one
// thread, which runs every call, and against the reference simulation:
// the same bits and the same exceptions, native and byte-swapped (cast
// into buffers), the product settling early or late and meeting zeros,
// infinities and NaNs after it has.
func TestProductLookOverMatchesOneThread(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 11))
	for i := 0; i < 600; i++ {
		ds := []string{"<f4", "<f8", ">f4", "<f2"}[r.IntN(4)]
		d, _ := dtype.Parse(ds)
		n := r.IntN(3000)
		settleAt := r.IntN(n + 1)
		rare := []int{50, 400, 1 << 30}[r.IntN(3)]
		xs := make([]float64, n)
		for j := range xs {
			x := r.NormFloat64() * []float64{0.5, 3}[r.IntN(2)]
			switch r.IntN(rare) {
			case 0:
				x = 0
			case 1:
				x = math.Inf(1)
			case 2:
				x = math.Copysign(0, -1)
			case 3:
				x = math.NaN()
			case 4:
				x = math.Inf(-1)
			}
			if j == settleAt {
				x = []float64{0, math.Copysign(0, -1), math.Inf(1), math.NaN()}[r.IntN(4)]
			}
			xs[j] = x
		}
		src := Contiguous(d.Size, []int{n}, make([]byte, n*d.Size))
		for j, x := range xs {
			putFloat(src.Data[j*d.Size:], d, x)
		}
		loop := dtype.NativeOf(d)
		bufsize := []int{3, 8, 16, 37, 128}[r.IntN(5)]
		red := []bool{true}
		lay := newReduceLayout([]int{n}, []int{1}, red, false)
		name := fmt.Sprintf("%s/n=%d/settle=%d/rare=%d/buf=%d", ds, n, settleAt, rare, bufsize)
		run := func(threads int) ([]byte, fpFlags) {
			tune := defaultTuning()
			tune.reduceBuf = bufsize
			tune.parallelMin = 0
			got, job, err := ufReduce(ufMultiply, src, d, lay, red, loop, nil, Options{Threads: threads, tune: &tune})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			f, _ := job.allFlags()
			return got, f
		}
		want, fw := run(1)
		got, fg := run(2 + r.IntN(2))
		if !bytes.Equal(got, want) || fg != fw {
			t.Errorf("%s: %s %+v, one thread %+v", name, firstDiff(got, want, loop), fg, fw)
		}
		ref, _, _, err := refReduce(ufMultiply, src, d, []int{1}, red, false, loop, bufsize, nil)
		if err != nil {
			t.Fatalf("%s: reference: %v", name, err)
		}
		if !bytes.Equal(got, ref) {
			t.Errorf("%s: %s (reference)", name, firstDiff(got, ref, loop))
		}
	}
}

// putFloat writes x as an element of float dtype d (rounded to it).
func putFloat(b []byte, d dtype.Dtype, x float64) {
	o := d.ByteOrder()
	switch d.Size {
	case 2:
		o.PutUint16(b, dtype.Float64ToHalf(x))
	case 4:
		o.PutUint32(b, math.Float32bits(float32(x)))
	default:
		o.PutUint64(b, math.Float64bits(x))
	}
}
