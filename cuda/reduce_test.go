package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

// The reductions' programs run through the emulation of kernels/reduce.cu
// and are compared with ops.Reduce: bytes, warnings and errors. The views
// are random (C, Fortran, permuted, reversed, strided, broadcast), their
// values drawn from a few per case so that ties are common, with zeros of
// both signs, infinities and NaNs with payloads. Half the cases have their
// values made "clean" (one zero, one NaN): those must never need the CPU's
// redo, so the kernels' own bytes are what is compared.

var gpuReduceOps = []ops.ReduceOp{ops.ReduceMin, ops.ReduceMax, ops.ReducePtp, ops.ReduceArgmin,
	ops.ReduceArgmax, ops.ReduceAny, ops.ReduceAll, ops.ReduceCountNonzero}

// emulated runs reduceOn through the emulation.
func emulated(t *testing.T, dst []byte, op ops.ReduceOp, in ops.View, d dtype.Dtype, o ops.ReduceOptions) (reduceOutcome, error) {
	t.Helper()
	return reduceOn(func(p *program) error { return emulate(t, p) }, dst, op, in, d, o)
}

// reduceView is a random view of dtype d over values from a small pool.
// clean replaces -0.0 by 0.0 (in every part) and every NaN by one NaN (a
// complex number holding a NaN by that NaN and 0).
func reduceView(r *rand.Rand, d dtype.Dtype, maxDims int, clean bool) ops.View {
	v := randomView(r, []int{d.Size}, maxDims)
	for v.Count() > 3000 {
		v = randomView(r, []int{d.Size}, maxDims)
	}
	part, kind := d.Size, d.Kind
	if kind == 'c' {
		part, kind = d.Size/2, 'f'
	}
	pool := specialBits(kind, part)
	for range 1 + r.IntN(6) {
		pool = append(pool, r.Uint64()>>(64-8*part))
	}
	pool = pool[:3+r.IntN(len(pool)-3)]
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	if r.IntN(3) == 0 {
		pool = pool[:min(len(pool), 1+r.IntN(3))]
	}
	put := d.ByteOrder()
	for i := 0; i+d.Size <= len(v.Data); i += d.Size {
		for p := 0; p < d.Size; p += part {
			u := pool[r.IntN(len(pool))]
			if d.Kind == 'b' {
				u = uint64(r.IntN(3)) // 2 is true too
			}
			putPart(put, v.Data[i+p:], part, u)
		}
		if clean && (d.Kind == 'f' || d.Kind == 'c') {
			cleanElem(v.Data[i:i+d.Size], d, part)
		}
	}
	return v
}

func putPart(o interface {
	PutUint16([]byte, uint16)
	PutUint32([]byte, uint32)
	PutUint64([]byte, uint64)
}, b []byte, part int, u uint64) {
	switch part {
	case 1:
		b[0] = byte(u)
	case 2:
		o.PutUint16(b, uint16(u))
	case 4:
		o.PutUint32(b, uint32(u))
	default:
		o.PutUint64(b, u)
	}
}

// cleanElem makes a float or complex element's zeros positive and its NaN
// the canonical one (0x7e00, 0x7fc00000, 0x7ff8000000000000; a complex
// element holding a NaN becomes that NaN and 0).
func cleanElem(b []byte, d dtype.Dtype, part int) {
	pd, put, nan := d, d.ByteOrder(), false
	if d.Kind == 'c' {
		pd = d.Part()
	}
	for p := 0; p < d.Size; p += part {
		x := pd.Float(b[p : p+part])
		nan = nan || x != x
		if x == 0 {
			putPart(put, b[p:], part, 0)
		}
	}
	if nan {
		putPart(put, b, part, map[int]uint64{2: 0x7e00, 4: 0x7fc00000, 8: 0x7ff8000000000000}[part])
		if d.Kind == 'c' {
			putPart(put, b[part:], part, 0)
		}
	}
}

// reduceAxesFor picks NumPy axis arguments for an nd-dim input: none
// (nil), (), one axis (either sign), several, or (rarely) a bad one.
func reduceAxesFor(r *rand.Rand, nd int, single bool) []int {
	switch x := r.IntN(10); {
	case x < 3:
		return nil
	case x == 3 && !single:
		return []int{}
	case x == 4:
		return []int{nd + r.IntN(2)} // out of range: refused as ops refuses
	case x < 8 || single || nd < 2:
		if nd == 0 {
			return nil
		}
		k := r.IntN(nd)
		if r.IntN(3) == 0 {
			k -= nd
		}
		return []int{k}
	}
	perm := r.Perm(nd)[:2+r.IntN(nd-1)]
	return perm
}

func TestReduceMatchesOps(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(51, 52))
		cases, redone, cleanCases := 0, 0, 0
		for _, d := range allDtypes() {
			for rep := range 40 {
				clean := rep%2 == 0
				v := reduceView(r, d, 4, clean)
				for _, op := range gpuReduceOps {
					o := ops.ReduceOptions{Axes: reduceAxesFor(r, len(v.Shape), op.SingleAxis()), Keepdims: r.IntN(3) == 0,
						Options: ops.Options{Threads: 1}}
					name := fmt.Sprintf("%s/%s/%v/%v/axes=%v/clean=%v", op, d.Descr(), v.Shape, v.Strides, o.Axes, clean)
					out := checkReduceCase(t, name, op, v, d, o)
					cases++
					if out.open > 0 {
						redone++
						if clean {
							t.Fatalf("%s: %d outputs open on values without -0.0 and with one NaN", name, out.open)
						}
					} else if clean && isFloat(d) {
						cleanCases++
					}
				}
			}
		}
		t.Logf("%d reduce cases, %d redone on the CPU, %d float cases settled by the kernels", cases, redone, cleanCases)
		if redone > cases/5 {
			t.Fatalf("%d of %d cases redone on the CPU: the kernels settle too little", redone, cases)
		}
	})
}

func isFloat(d dtype.Dtype) bool { return d.Kind == 'f' || d.Kind == 'c' }

// checkReduceCase compares reduceOn through the emulation with ops.Reduce
// and, for min and max, the kernels' own bytes: where no output is open
// they are the answer, else only open outputs may differ.
func checkReduceCase(t *testing.T, name string, op ops.ReduceOp, v ops.View, d dtype.Dtype, o ops.ReduceOptions) reduceOutcome {
	t.Helper()
	sh, perr := ops.ReducePlan(op, v, d, o)
	size := 0
	if perr == nil {
		size = ops.Count(sh.Shape) * sh.Dtype.Size
	}
	want := make([]byte, size)
	ref := v
	if op == ops.ReduceCountNonzero && d.Kind == 'b' {
		// ops counts a bool byte by its value (2 counts 2), where NumPy
		// counts it once, as the kernel does: compared on 0/1 bytes.
		ref.Data = append([]byte(nil), v.Data...)
		for i, x := range ref.Data {
			ref.Data[i] = min(x, 1)
		}
	}
	wres, werr := ops.Reduce(want, op, ref, d, o)
	got := bytes.Repeat([]byte{0xa5}, size)
	out, err := emulated(t, got, op, v, d, o)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("%s: error %v, ops says %v", name, err, werr)
	}
	if err != nil {
		if errors.Is(werr, ops.ErrReduce) != errors.Is(err, ops.ErrReduce) {
			t.Fatalf("%s: error %v does not wrap ops.ErrReduce as ops' does", name, err)
		}
		return out
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s (open %d):\n got % x\nwant % x", name, out.open, got, want)
	}
	if !slices.Equal(out.res.Warnings, wres.Warnings) {
		t.Fatalf("%s: warnings %q, ops gives %q", name, out.res.Warnings, wres.Warnings)
	}
	if (op == ops.ReduceMin || op == ops.ReduceMax) && v.Count() > 0 {
		code := reduceCodes(op)[0]
		raw := make([]byte, size)
		p, word := planReduce(raw, code, v, d, reducedAxes(v, o.Axes))
		if err := emulate(t, p); err != nil {
			t.Fatal(err)
		}
		differ := 0
		for i := 0; i < size; i += sh.Dtype.Size {
			if !bytes.Equal(raw[i:i+sh.Dtype.Size], want[i:i+sh.Dtype.Size]) {
				differ++
			}
		}
		if uint64(differ) > word.count() || int64(word.count()) != out.open {
			t.Fatalf("%s: the kernels leave %d outputs unlike ops' and count %d open (reduceOn: %d)", name, differ, word.count(), out.open)
		}
	}
	return out
}

// TestReduceLaunches sends larger reductions down every launch shape: rows
// with several chunks per output (reduce_out), columns (a kept axis
// nearest in memory) with and without chunks, one output, many outputs.
func TestReduceLaunches(t *testing.T) {
	type tc struct {
		shape []int
		f     bool // Fortran order
		axes  []int
		cols  bool
		multi bool // several chunks an output
	}
	cases := []tc{
		{[]int{3, 9000}, false, []int{1}, false, true},
		{[]int{20000}, false, nil, false, true},
		{[]int{9000, 3}, true, []int{0}, false, true},
		{[]int{300, 7}, false, []int{0}, false, false},
		{[]int{300, 40}, false, []int{0}, true, true},
		{[]int{40, 5000}, true, []int{1}, true, true},
		{[]int{600, 50}, false, []int{0}, true, true},
		{[]int{40, 50}, false, []int{0}, true, false},
		{[]int{3000, 2}, false, []int{1}, false, false},
		{[]int{70, 80, 3}, false, []int{0, 2}, false, false},
		{[]int{50, 6, 700}, true, []int{1, 2}, true, true},
		{[]int{5, 6, 700}, true, []int{1, 2}, false, true},
		{[]int{5, 6, 700}, false, []int{1, 2}, false, true},
		{[]int{5, 6, 70}, false, []int{1, 2}, false, false},
	}
	d8, _ := dtype.Parse(">f8")
	i2, _ := dtype.Parse("<i2")
	c8, _ := dtype.Parse("<c8")
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(61, 62))
		for _, c := range cases {
			for _, d := range []dtype.Dtype{d8, i2, c8} {
				v := ops.View{Elem: d.Size, Shape: c.shape, Strides: ops.CStrides(c.shape)}
				if c.f {
					v.Strides = ops.FStrides(c.shape)
				}
				v.Data = make([]byte, v.Count()*d.Size)
				src := reduceView(r, d, 1, true)
				for i := range v.Data {
					v.Data[i] = src.Data[r.IntN(len(src.Data)/d.Size)*d.Size+i%d.Size]
				}
				red := reducedAxes(v, c.axes)
				kept := make([]bool, len(red))
				for k := range red {
					kept[k] = !red[k]
				}
				ka, ra := newReduceAxes(v, kept), newReduceAxes(v, red)
				cols := useColumns(ka, ra)
				l := reduceShape(ka.count(), ra.count(), cols)
				if cols != c.cols || (l.chunks > 1) != c.multi {
					t.Fatalf("%v F=%v axes %v: cols %v chunks %d, want cols %v multi %v", c.shape, c.f, c.axes, cols, l.chunks, c.cols, c.multi)
				}
				for _, op := range gpuReduceOps {
					o := ops.ReduceOptions{Axes: c.axes, Options: ops.Options{Threads: 1}}
					if op.SingleAxis() && len(c.axes) != 1 {
						o.Axes = nil
					}
					checkReduceCase(t, fmt.Sprintf("%s/%s/%v/F=%v/%v", op, d.Descr(), c.shape, c.f, o.Axes), op, v, d, o)
				}
			}
		}
	})
}

// TestReduceAxes: the index arithmetic's axes, length-1 ones dropped,
// ordered by decreasing input stride and merged where both operands allow.
func TestReduceAxes(t *testing.T) {
	cases := []struct {
		shape, strides []int
		pick           []bool
		want           reduceAxes
	}{
		{[]int{2, 3, 4}, []int{12, 4, 1}, []bool{true, true, true}, reduceAxes{[]int{24}, []int{1}, []int{1}}},
		{[]int{2, 3, 4}, []int{1, 2, 6}, []bool{true, true, true}, reduceAxes{[]int{4, 3, 2}, []int{6, 2, 1}, []int{1, 4, 12}}},
		{[]int{2, 3, 4}, []int{12, 4, 1}, []bool{true, false, true}, reduceAxes{[]int{2, 4}, []int{12, 1}, []int{4, 1}}},
		{[]int{2, 1, 4}, []int{-4, 9, 1}, []bool{true, true, true}, reduceAxes{[]int{2, 4}, []int{-4, 1}, []int{4, 1}}},
		{[]int{5, 6}, []int{0, 1}, []bool{true, true}, reduceAxes{[]int{6, 5}, []int{1, 0}, []int{1, 6}}},
		{[]int{3, 4}, []int{4, 1}, []bool{false, false}, reduceAxes{}},
	}
	for _, c := range cases {
		got := newReduceAxes(ops.View{Elem: 1, Shape: c.shape, Strides: c.strides}, c.pick)
		if !slices.Equal(got.shape, c.want.shape) || !slices.Equal(got.s0, c.want.s0) || !slices.Equal(got.s1, c.want.s1) {
			t.Fatalf("%v %v %v: %+v, want %+v", c.shape, c.strides, c.pick, got, c.want)
		}
	}
}

// TestReduceOpen checks which float extremes the kernels settle and which
// they leave to the CPU: the candidates' bits, and for float32 and float64
// the canonical NaN of NumPy's SIMD loops.
func TestReduceOpen(t *testing.T) {
	f4, _ := dtype.Parse("<f4")
	f2, _ := dtype.Parse("<f2")
	c16, _ := dtype.Parse("<c16")
	nz := math.Float32bits(float32(math.Copysign(0, -1)))
	cases := []struct {
		name string
		d    dtype.Dtype
		op   ops.ReduceOp
		bits []uint64
		open bool
	}{
		{"max of 0 and -0", f4, ops.ReduceMax, []uint64{0, uint64(nz), 0xbf800000}, true},
		{"min of -0, -0 and 1", f4, ops.ReduceMin, []uint64{uint64(nz), 0x3f800000, uint64(nz)}, false},
		{"max of -1 and -0", f4, ops.ReduceMax, []uint64{0xbf800000, uint64(nz)}, false},
		{"max with 0 and -0 below 1", f4, ops.ReduceMax, []uint64{0, uint64(nz), 0x3f800000}, false},
		{"canonical NaNs", f4, ops.ReduceMax, []uint64{0x7fc00000, 0x3f800000, 0x7fc00000}, false},
		{"one NaN with a payload", f4, ops.ReduceMin, []uint64{0x3f800000, 0x7fc00001}, true},
		{"negative NaN", f4, ops.ReduceMax, []uint64{0xffc00000}, true},
		{"ptp of 0 and -0", f4, ops.ReducePtp, []uint64{0, uint64(nz)}, true},
		{"ptp of -0s", f4, ops.ReducePtp, []uint64{uint64(nz), uint64(nz)}, false},
		{"argmax of 0 and -0", f4, ops.ReduceArgmax, []uint64{uint64(nz), 0}, false},
		{"argmax of NaNs", f4, ops.ReduceArgmax, []uint64{0, 0xffc00001, 0x7fc00000}, false},
		{"float16 NaNs alike", f2, ops.ReduceMax, []uint64{0x7e01, 0x3c00, 0x7e01}, false},
		{"float16 NaNs unlike", f2, ops.ReduceMax, []uint64{0x7e01, 0x3c00, 0x7e00}, true},
		{"complex ties", c16, ops.ReduceMax, []uint64{0, 1 << 63, 1 << 63, 0}, true},
		{"complex ties in the imaginary part", c16, ops.ReduceMin, []uint64{0x3ff0000000000000, 0, 0x3ff0000000000000, 1 << 63}, true},
		{"complex ties alike", c16, ops.ReduceMax, []uint64{0, 1 << 63, 0, 1 << 63}, false},
		{"complex NaNs alike", c16, ops.ReduceMin, []uint64{0x7ff8000000000000, 0, 0, 0, 0x7ff8000000000000, 0}, false},
		{"complex NaNs unlike", c16, ops.ReduceMin, []uint64{0x7ff8000000000000, 0, 0, 0x7ff8000000000000}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			part := c.d.Size
			if c.d.Kind == 'c' {
				part /= 2
			}
			v := ops.View{Elem: c.d.Size, Shape: []int{len(c.bits) * part / c.d.Size}, Strides: []int{1}}
			v.Data = make([]byte, len(c.bits)*part)
			for i, u := range c.bits {
				putPart(c.d.ByteOrder(), v.Data[i*part:], part, u)
			}
			out := checkReduceCase(t, c.name, c.op, v, c.d, ops.ReduceOptions{})
			if (out.open > 0) != c.open {
				t.Fatalf("open %d, want open: %v", out.open, c.open)
			}
		})
	}
}

// TestReduceRefused: the reductions whose float bits depend on NumPy's
// order of operations are refused, saying so, and so are those without a
// kernel; none is planned.
func TestReduceRefused(t *testing.T) {
	f4, _ := dtype.Parse("<f4")
	i4, _ := dtype.Parse(">i4")
	v := ops.View{Elem: 4, Shape: []int{3}, Strides: []int{1}, Data: make([]byte, 12)}
	cases := []struct {
		op   ops.ReduceOp
		d    dtype.Dtype
		arg  dtype.Dtype
		want string
	}{
		{ops.ReduceSum, f4, dtype.Dtype{}, "depends on the order of the additions"},
		{ops.ReduceNansum, f4, dtype.Dtype{}, "depends on the order of the additions"},
		{ops.ReduceProd, f4, dtype.Dtype{}, "order of the multiplications"},
		{ops.ReduceMean, i4, dtype.Dtype{}, "order of the additions"},
		{ops.ReduceStd, f4, dtype.Dtype{}, "order of the additions"},
		{ops.ReduceVar, i4, dtype.Dtype{}, "order of the additions"},
		{ops.ReduceNanvar, f4, dtype.Dtype{}, "order of the additions"},
		{ops.ReduceSum, i4, dtype.Float64, "order of the additions"},
		{ops.ReduceSum, i4, dtype.Dtype{}, "no GPU kernel yet"},
		{ops.ReduceProd, i4, dtype.Dtype{}, "no GPU kernel yet"},
		{ops.ReduceNanmax, f4, dtype.Dtype{}, "no GPU kernel yet"},
		{ops.ReduceNanargmin, f4, dtype.Dtype{}, "no GPU kernel yet"},
	}
	for _, c := range cases {
		o := ops.ReduceOptions{Dtype: c.arg}
		err := checkReduce(c.op, c.d, o)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "--device cuda: ") ||
			strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s of %s: %v, want one line with %q", c.op, c.d.Name(), err, c.want)
		}
		dst := make([]byte, 8)
		ran := false
		if _, err2 := reduceOn(func(*program) error { ran = true; return nil }, dst, c.op, v, c.d, o); err2 == nil || ran {
			t.Fatalf("%s of %s: reduceOn ran (%v)", c.op, c.d.Name(), err2)
		}
	}
	for _, op := range gpuReduceOps {
		if err := checkReduce(op, f4, ops.ReduceOptions{}); err != nil {
			t.Fatalf("%s refused: %v", op, err)
		}
	}
}

// TestReduceProgress: the progress counter ends at ops.ReduceWork, on the
// kernels' path and on the CPU's redo.
func TestReduceProgress(t *testing.T) {
	f8, _ := dtype.Parse("<f8")
	r := rand.New(rand.NewPCG(71, 72))
	for _, clean := range []bool{true, false} {
		for _, op := range gpuReduceOps {
			v := ops.View{Elem: 8, Shape: []int{50, 40}, Strides: []int{40, 1}, Data: make([]byte, 16000)}
			for i := 0; i < 2000; i++ {
				x := float64(r.IntN(3)) - 2
				if !clean && i%7 == 0 {
					x = math.Copysign(0, float64(i%2)-0.5)
				}
				putPart(f8.ByteOrder(), v.Data[8*i:], 8, math.Float64bits(x))
			}
			var done atomic.Int64
			sh, _ := ops.ReducePlan(op, v, f8, ops.ReduceOptions{Axes: []int{1}})
			dst := make([]byte, ops.Count(sh.Shape)*sh.Dtype.Size)
			if _, err := emulated(t, dst, op, v, f8, ops.ReduceOptions{Axes: []int{1}, Options: ops.Options{Done: &done}}); err != nil {
				t.Fatal(err)
			}
			if got, want := done.Load(), ops.ReduceWork(op, v); got != want {
				t.Fatalf("%s clean=%v: progress %d, want %d", op, clean, got, want)
			}
		}
	}
}
