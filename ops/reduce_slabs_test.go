package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"strider/internal/dtype"
)

// TestVarianceSlabsMatchWhole: var, std, nanvar and nanstd of C arrays
// reduced over their last axes or their first give the same bytes and
// warnings slab by slab (slabbedVariance: byRows, slabs of a few rows;
// byColumns, blocks of a few columns) as whole (the path NumPy's
// cases check), on shapes around the buffer size and its lowered test
// values, with NaNs and infinities now and then (whose warnings send the
// call back whole). Most cases must run by slabs, or the test proves
// nothing.
func TestVarianceSlabsMatchWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 14))
	ops := []ReduceOp{ReduceVar, ReduceStd, ReduceNanvar, ReduceNanstd}
	slabbed, cases, byColumns := 0, 0, 0
	for i := 0; i < 600; i++ {
		nd := 2 + r.IntN(3)
		sh := make([]int, nd)
		for k := range sh {
			sh[k] = 1 + r.IntN(9)
		}
		sh[0] = 4 + r.IntN(40)
		if r.IntN(4) == 0 {
			sh[nd-1] = []int{127, 128, 129, 1000}[r.IntN(4)]
		}
		lead := 1 + r.IntN(nd-1)
		axes := make([]int, 0, nd)
		columns := r.IntN(2) == 0 // the first axes reduced, not the last
		for k := 0; k < nd; k++ {
			if k >= lead != columns {
				axes = append(axes, k-nd*r.IntN(2)) // negative now and then
			}
		}
		size := []int{4, 8}[r.IntN(2)]
		d := dtype.Dtype{Kind: 'f', Size: size}
		n := Count(sh)
		data := make([]byte, n*size)
		special := r.IntN(6) == 0
		for j := 0; j < n; j++ {
			x := r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
			if special && r.IntN(50) == 0 {
				x = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)]
			}
			if size == 4 {
				binary.LittleEndian.PutUint32(data[j*4:], math.Float32bits(float32(x)))
			} else {
				binary.LittleEndian.PutUint64(data[j*8:], math.Float64bits(x))
			}
		}
		v := Contiguous(size, sh, data)
		op := ops[r.IntN(len(ops))]
		o := ReduceOptions{Axes: axes, Keepdims: r.IntN(2) == 0, Ddof: r.IntN(3)}
		whole := defaultTuning()
		whole.varSlab = 0
		sliced := defaultTuning()
		if r.IntN(3) == 0 {
			whole.reduceBuf, sliced.reduceBuf = 16, 16
		}
		sliced.varSlab = size * Count(sh[1:]) * (1 + r.IntN(3))
		sliced.varColumns = size * (1 + r.IntN(3))
		label := fmt.Sprintf("%s %s%v axes %v keepdims=%v ddof=%d buf=%d slab=%d columns=%d", op, d.Name(), sh, axes, o.Keepdims, o.Ddof, whole.reduceBuf, sliced.varSlab, sliced.varColumns)
		o.Options = Options{Threads: 1, tune: &whole}
		want, wantW := reduceBytes(t, op, v, d, o)
		o.Options = Options{Threads: 1 + r.IntN(3), tune: &sliced}
		got, gotW := reduceBytes(t, op, v, d, o)
		if !bytes.Equal(got, want) || !slices.Equal(gotW, wantW) {
			t.Fatalf("%s: slab by slab\n%x %q\nwhole\n%x %q", label, got, gotW, want, wantW)
		}
		c, err := checkReduce(op, v, d, o)
		if err != nil {
			t.Fatal(err)
		}
		cases++
		if columns && c.slabbedVariance(make([]byte, len(want))) {
			byColumns++
		}
		if c.slabbedVariance(make([]byte, len(want))) {
			slabbed++
		}
	}
	if slabbed < cases/2 || byColumns < cases/5 {
		t.Fatalf("only %d of %d cases ran by slabs", slabbed, cases)
	}
	t.Logf("%d of %d cases by slabs (%d by columns)", slabbed, cases, byColumns)
}

// reduceBytes is Reduce's C-order result and warnings.
func reduceBytes(t *testing.T, op ReduceOp, v View, d dtype.Dtype, o ReduceOptions) ([]byte, []string) {
	t.Helper()
	c, err := checkReduce(op, v, d, o)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := c.plan()
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, Count(sh.Shape)*sh.Dtype.Size)
	res, err := Reduce(dst, op, v, d, o)
	if err != nil {
		t.Fatal(err)
	}
	return dst, res.Warnings
}
