package ops

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
)

// uniqueNaive is UniqueConsecutive by definition: row i (the elements with
// index i along axis, in C order; element i of the C-order walk without an
// axis) starts a run unless every element equals row i-1's as a number.
func uniqueNaive(v View, f dtype.Dtype, axis int) []int {
	flat := make([]byte, v.Count()*v.Elem)
	if err := CopyNaive(flat, v); err != nil {
		panic(err)
	}
	at := func(idx []int) complex128 {
		off := 0
		for k, i := range idx {
			off = off*v.Shape[k] + i
		}
		return f.Complex(flat[off*v.Elem:][:v.Elem])
	}
	var rows [][]complex128
	if axis < 0 {
		for i := 0; i < v.Count(); i++ {
			rows = append(rows, []complex128{f.Complex(flat[i*v.Elem:][:v.Elem])})
		}
	} else {
		for i := 0; i < v.Shape[axis]; i++ {
			var row []complex128
			sub := slices.Clone(v.Shape)
			sub[axis] = 1
			idx := make([]int, len(sub))
			for n := 0; n < Count(sub); n++ {
				rem := n
				for k := len(sub) - 1; k >= 0; k-- {
					idx[k] = rem % sub[k]
					rem /= sub[k]
				}
				idx[axis] = i
				z := at(idx)
				if f.Kind == 'b' && z != 0 {
					z = 1
				}
				row = append(row, z)
			}
			rows = append(rows, row)
		}
	}
	starts := []int{}
	for i, r := range rows {
		if i == 0 || !slices.Equal(r, rows[i-1]) {
			starts = append(starts, i)
		}
	}
	return starts
}

// TestUniqueConsecutive checks the chunked, permuted search against the
// definition on random strided views of runs-heavy data (few distinct
// values, NaNs, both zeros), every kind and byte order, with and without an
// axis, on 1 to 4 threads.
func TestUniqueConsecutive(t *testing.T) {
	t.Parallel()
	formats := []dtype.Dtype{{Kind: 'b', Size: 1}, {Kind: 'i', Size: 1}, {Kind: 'u', Size: 2, Order: '>'}, {Kind: 'i', Size: 4}, {Kind: 'i', Size: 8, Order: '>'},
		{Kind: 'f', Size: 2}, {Kind: 'f', Size: 4, Order: '>'}, {Kind: 'f', Size: 8}, {Kind: 'c', Size: 8}, {Kind: 'c', Size: 16, Order: '>'}}
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 1500; i++ {
		v := randomView(r)
		f := formats[r.IntN(len(formats))]
		v = View{Elem: f.Size, Shape: v.Shape, Strides: v.Strides, Offset: v.Offset,
			Data: make([]byte, len(v.Data)/max(1, v.Elem)*f.Size+f.Size)}
		fillRuns(r, v.Data, f)
		axis := -1
		if len(v.Shape) > 0 && r.IntN(2) == 0 {
			axis = r.IntN(len(v.Shape))
		}
		t.Run(fmt.Sprintf("%d/%c%d/%s/axis%d", i, f.Kind, f.Size, describe(v), axis), func(t *testing.T) {
			var done atomic.Int64
			got, err := UniqueConsecutive(v, f, axis, Options{Threads: 1 + r.IntN(4), tune: eagerTuning(), Done: &done})
			empty := false
			for k, n := range v.Shape {
				empty = empty || n == 0 && k != axis && axis >= 0
			}
			if empty {
				if err == nil {
					t.Fatal("an empty axis that is not compared must be refused, as torch does")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := uniqueNaive(v, f, axis); !slices.Equal(got, want) {
				t.Fatalf("starts %v, want %v", got, want)
			}
			if want := int64(v.Count() * v.Elem); done.Load() != want {
				t.Fatalf("progress %d of the view's %d bytes", done.Load(), want)
			}
		})
	}
}

// fillRuns writes elements drawn from a few values (including NaN, -0.0
// and, for bools, non-canonical true bytes) so that runs are common.
func fillRuns(r *rand.Rand, data []byte, f dtype.Dtype) {
	part := f.Size
	if f.Kind == 'c' {
		part /= 2
	}
	vals := []float64{0, math.Copysign(0, -1), 1, math.NaN(), 2}
	for k := 0; k+part <= len(data); k += part {
		x := vals[r.IntN(len(vals))]
		if r.IntN(3) > 0 && k >= part {
			copy(data[k:k+part], data[k-part:k])
			continue
		}
		var u uint64
		switch {
		case f.Kind == 'b':
			u = uint64(r.IntN(3))
		case f.Kind != 'f' && f.Kind != 'c':
			u = uint64(r.IntN(3))
		case part == 2:
			u = uint64(map[bool]uint16{true: 0x7e00, false: 0}[math.IsNaN(x)])
			if !math.IsNaN(x) && x != 0 {
				u = uint64(0x3c00 + uint16(x)*0x400)
			} else if math.Signbit(x) {
				u = 0x8000
			}
		case part == 4:
			u = uint64(math.Float32bits(float32(x)))
		default:
			u = math.Float64bits(x)
		}
		for b := 0; b < part; b++ {
			shift := 8 * b
			if f.BigEndian() {
				shift = 8 * (part - 1 - b)
			}
			data[k+b] = byte(u >> shift)
		}
	}
}

// TestRunIndexAndLengths checks the inverse indices and the counts, as
// little-endian int64, against their definitions for random runs.
func TestRunIndexAndLengths(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(50)
		starts := []int{0}
		for i := 1; i < n; i++ {
			if r.IntN(3) == 0 {
				starts = append(starts, i)
			}
		}
		inv, counts := make([]byte, 8*n), make([]byte, 8*len(starts))
		RunIndex(inv, starts)
		RunLengths(counts, starts, n)
		run, length := -1, make([]int64, len(starts))
		for i := 0; i < n; i++ {
			if run+1 < len(starts) && starts[run+1] == i {
				run++
			}
			length[run]++
			if got := int64(binary.LittleEndian.Uint64(inv[8*i:])); got != int64(run) {
				t.Fatalf("starts %v: position %d in run %d, want %d", starts, i, got, run)
			}
		}
		for k, want := range length {
			if got := int64(binary.LittleEndian.Uint64(counts[8*k:])); got != want {
				t.Fatalf("starts %v: run %d has length %d, want %d", starts, k, got, want)
			}
		}
	}
}

// TestRuns checks CountRuns and Take, the values-only path of
// unique-consecutive without an axis, against the definition
// (uniqueNaive's starts, their elements taken in C order) on random strided
// views of runs-heavy data of every kind and byte order, on 1 to 4 threads,
// with every kernel level, with guard bytes around the destination.
func TestRuns(t *testing.T) {
	t.Parallel()
	formats := []dtype.Dtype{{Kind: 'b', Size: 1}, {Kind: 'i', Size: 1}, {Kind: 'u', Size: 2, Order: '>'}, {Kind: 'i', Size: 4}, {Kind: 'u', Size: 4, Order: '>'},
		{Kind: 'i', Size: 8}, {Kind: 'f', Size: 2}, {Kind: 'f', Size: 4}, {Kind: 'f', Size: 4, Order: '>'}, {Kind: 'f', Size: 8}, {Kind: 'c', Size: 8}}
	r := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 1500; i++ {
		v := randomView(r)
		f := formats[r.IntN(len(formats))]
		if i%100 == 0 {
			v = View{Shape: []int{5000 + r.IntN(3000)}, Strides: []int{1}} // long enough for the vector loops
		}
		v = View{Elem: f.Size, Shape: v.Shape, Strides: v.Strides, Offset: v.Offset,
			Data: make([]byte, (len(v.Data)/max(1, v.Elem)+v.Count())*f.Size+f.Size)}
		fillRuns(r, v.Data, f)
		tn := eagerTuning()
		tn.simd = simdLevel(r.IntN(int(defaults.simd) + 1))
		threads := 1 + r.IntN(4)
		t.Run(fmt.Sprintf("%d/%c%d%c/%s/t%d/%v", i, f.Kind, f.Size, f.Order, describe(v), threads, tn.simd), func(t *testing.T) {
			var done atomic.Int64
			opt := Options{Threads: threads, tune: tn, Done: &done}
			runs, err := CountRuns(v, f, opt)
			if err != nil {
				t.Fatal(err)
			}
			starts := uniqueNaive(v, f, -1)
			if runs.Count() != len(starts) {
				t.Fatalf("%d runs, want %d", runs.Count(), len(starts))
			}
			flat := make([]byte, v.Count()*v.Elem)
			if err := CopyNaive(flat, v); err != nil {
				t.Fatal(err)
			}
			want := make([]byte, 0, len(starts)*v.Elem)
			for _, s := range starts {
				want = append(want, flat[s*v.Elem:(s+1)*v.Elem]...)
			}
			buf, got := guarded(len(want))
			if err := runs.Take(got, opt); err != nil {
				t.Fatal(err)
			}
			checkGuards(t, buf, len(want))
			if !slices.Equal(got, want) {
				t.Fatalf("values\n%x, want\n%x", got, want)
			}
			if want := int64(v.Count() * v.Elem); done.Load() != want {
				t.Fatalf("progress %d of the view's %d bytes", done.Load(), want)
			}
		})
	}
}
