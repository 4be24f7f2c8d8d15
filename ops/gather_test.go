package ops

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
)

// elemAt is the byte slice of v's element at multi-index i.
func elemAt(v View, i []int) []byte {
	off := v.Offset
	for k, x := range i {
		off += x * v.Strides[k]
	}
	return v.Data[off*v.Elem : (off+1)*v.Elem]
}

// forEach calls f with every multi-index of shape in C order.
func forEach(shape []int, f func(i []int)) {
	n := Count(shape)
	i := make([]int, len(shape))
	for c := 0; c < n; c++ {
		f(i)
		for k := len(i) - 1; k >= 0; k-- {
			i[k]++
			if i[k] < shape[k] {
				break
			}
			i[k] = 0
		}
	}
}

// takeNaive is numpy.take by definition, one element at a time.
func takeNaive(v View, axis int, idxShape []int, idx []int) []byte {
	out := TakeShape(v.Shape, axis, idxShape)
	var res []byte
	forEach(out, func(o []int) {
		src := append([]int{}, o[:axis]...)
		j := 0
		for k := axis; k < axis+len(idxShape); k++ {
			j = j*idxShape[k-axis] + o[k]
		}
		src = append(src, idx[j])
		src = append(src, o[axis+len(idxShape):]...)
		res = append(res, elemAt(v, src)...)
	})
	return res
}

func takeAlongNaive(v View, axis int, idxShape []int, idx []int) []byte {
	var res []byte
	j := 0
	forEach(idxShape, func(o []int) {
		src := append([]int{}, o...)
		src[axis] = idx[j]
		j++
		res = append(res, elemAt(v, src)...)
	})
	return res
}

func TestTakeMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		if len(v.Shape) == 0 {
			continue
		}
		axis := r.IntN(len(v.Shape))
		n := v.Shape[axis]
		idxShape := make([]int, r.IntN(3))
		for k := range idxShape {
			idxShape[k] = r.IntN(5)
		}
		idx := make([]int, Count(idxShape))
		if n == 0 && len(idx) > 0 {
			continue
		}
		for k := range idx {
			idx[k] = r.IntN(n)
		}
		threads := 1 + r.IntN(3)
		t.Run(fmt.Sprintf("%d/%s/axis=%d/idx=%v", i, describe(v), axis, idxShape), func(t *testing.T) {
			want := takeNaive(v, axis, idxShape, idx)
			buf, got := guarded(len(want))
			if err := Take(got, v, axis, idx, Options{tune: eager, Threads: threads}); err != nil {
				t.Fatal(err)
			}
			checkGuards(t, buf, len(want))
			if !bytes.Equal(got, want) {
				t.Fatal("take differs from the naive definition")
			}
		})
	}
}

func TestTakeAlongAxisMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		if len(v.Shape) == 0 {
			continue
		}
		axis := r.IntN(len(v.Shape))
		n := v.Shape[axis]
		idxShape := make([]int, len(v.Shape))
		for k := range idxShape {
			if k == axis {
				idxShape[k] = r.IntN(6)
			} else {
				idxShape[k] = r.IntN(v.Shape[k] + 1)
			}
		}
		idx := make([]int, Count(idxShape))
		if n == 0 && len(idx) > 0 {
			continue
		}
		for k := range idx {
			idx[k] = r.IntN(n)
		}
		t.Run(fmt.Sprintf("%d/%s/axis=%d/idx=%v", i, describe(v), axis, idxShape), func(t *testing.T) {
			want := takeAlongNaive(v, axis, idxShape, idx)
			buf, got := guarded(len(want))
			if err := TakeAlongAxis(got, v, axis, idxShape, idx, Options{tune: eager, Threads: 1 + r.IntN(3)}); err != nil {
				t.Fatal(err)
			}
			checkGuards(t, buf, len(want))
			if !bytes.Equal(got, want) {
				t.Fatal("take_along_axis differs from the naive definition")
			}
		})
	}
}

func TestDiagonal(t *testing.T) {
	// 3x4 of bytes 0..11: diagonals by hand.
	data := make([]byte, 12)
	for i := range data {
		data[i] = byte(i)
	}
	a := Contiguous(1, []int{3, 4}, data)
	cases := []struct {
		offset, a1, a2 int
		want           []byte
	}{
		{0, 0, 1, []byte{0, 5, 10}},
		{1, 0, 1, []byte{1, 6, 11}},
		{3, 0, 1, []byte{3}},
		{4, 0, 1, []byte{}},
		{-1, 0, 1, []byte{4, 9}},
		{-2, 0, 1, []byte{8}},
		{-3, 0, 1, []byte{}},
		{0, 1, 0, []byte{0, 5, 10}},
		{1, 1, 0, []byte{4, 9}},
		{0, -1, -2, []byte{0, 5, 10}},
		{math.MaxInt, 0, 1, []byte{}},
		{math.MinInt, 0, 1, []byte{}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("k=%d/%d,%d", c.offset, c.a1, c.a2), func(t *testing.T) {
			d, err := a.Diagonal(c.offset, c.a1, c.a2)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, d.Count())
			if err := Copy(got, d, Options{}); err != nil || !bytes.Equal(got, c.want) {
				t.Fatalf("got %v (%v), want %v", got, err, c.want)
			}
		})
	}
	for _, bad := range []struct {
		v      View
		a1, a2 int
		want   string
	}{
		{Contiguous(1, []int{3}, data[:3]), 0, 1, "at least two dimensions"},
		{a, 0, 0, "cannot be the same"},
		{a, 1, -1, "cannot be the same"},
		{a, 0, 2, "axis 2 is out of bounds"},
		{a, -3, 1, "axis -3 is out of bounds"},
	} {
		if _, err := bad.v.Diagonal(0, bad.a1, bad.a2); err == nil || !bytes.Contains([]byte(err.Error()), []byte(bad.want)) {
			t.Errorf("Diagonal(0, %d, %d): %v, want %q", bad.a1, bad.a2, err, bad.want)
		}
	}
}

// TestDiagonalMatchesNaive checks the view against the definition on random
// n-d arrays: out[..., i] = a[..., i (+offset), ...].
func TestDiagonalMatchesNaive(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 1000; i++ {
		v := randomView(r)
		if len(v.Shape) < 2 {
			continue
		}
		a1, a2 := r.IntN(len(v.Shape)), r.IntN(len(v.Shape))
		if a1 == a2 {
			continue
		}
		k := r.IntN(9) - 4
		d, err := v.Diagonal(k, a1, a2)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		forEach(d.Shape, func(o []int) {
			src := make([]int, len(v.Shape))
			j := 0
			for ax := range src {
				if ax != a1 && ax != a2 {
					src[ax] = o[j]
					j++
				}
			}
			p := o[len(o)-1]
			src[a1], src[a2] = p, p
			if k >= 0 {
				src[a2] += k
			} else {
				src[a1] -= k
			}
			want = append(want, elemAt(v, src)...)
		})
		got := make([]byte, len(want))
		if err := Copy(got, d, Options{}); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s k=%d axes %d,%d: %v", describe(v), k, a1, a2, err)
		}
	}
}

func TestIndices(t *testing.T) {
	le := func(vals ...int64) View {
		b := make([]byte, 8*len(vals))
		for i, x := range vals {
			for j := 0; j < 8; j++ {
				b[8*i+j] = byte(uint64(x) >> (8 * j))
			}
		}
		return Contiguous(8, []int{len(vals)}, b)
	}
	i8 := dtype.Dtype{Kind: 'i', Size: 8}
	u8 := dtype.Dtype{Kind: 'u', Size: 8}
	cases := []struct {
		name string
		v    View
		f    dtype.Dtype
		n    int
		mode Mode
		want []int
		err  string
	}{
		{"raise", le(0, 4, -1, -5), i8, 5, Raise, []int{0, 4, 4, 0}, ""},
		{"raise high", le(0, 5), i8, 5, Raise, nil, "index 5 is out of bounds for axis 0 with size 5 (at position (1) of the indices)"},
		{"raise low", le(-6), i8, 5, Raise, nil, "index -6 is out of bounds"},
		{"wrap", le(-7, 12, -5, math.MinInt64, math.MaxInt64), i8, 5, Wrap, []int{3, 2, 0, 2, 2}, ""},
		{"clip", le(-7, 12, 3), i8, 5, Clip, []int{0, 4, 3}, ""},
		{"uint64 huge raise", le(-1), u8, 5, Raise, nil, "index 18446744073709551615 is out of bounds"},
		{"uint64 huge wrap", le(-1), u8, 5, Wrap, []int{0}, ""},
		{"uint64 huge clip", le(-1), u8, 5, Clip, []int{4}, ""},
		{"empty axis", le(0), i8, 0, Clip, nil, "non-empty take from an empty axis"},
		{"empty index, empty axis", le(), i8, 0, Raise, []int{}, ""},
		{"int8 sign", Contiguous(1, []int{2}, []byte{0xff, 0x80}), dtype.Dtype{Kind: 'i', Size: 1}, 200, Raise, []int{199, 72}, ""},
		{"uint16 big endian", Contiguous(2, []int{1}, []byte{0x01, 0x02}), dtype.Dtype{Kind: 'u', Size: 2, Order: '>'}, 1000, Raise, []int{258}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Indices(c.v, c.f, c.n, 0, c.mode)
			if c.err != "" {
				if err == nil || !bytes.Contains([]byte(err.Error()), []byte(c.err)) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				var ie *IndexError
				if c.n > 0 && !errors.As(err, &ie) {
					t.Fatalf("error %T is not an IndexError", err)
				}
				return
			}
			if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got %v %v, want %v", got, err, c.want)
			}
		})
	}
}

func TestTakeFlatMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 2000; i++ {
		v := randomView(r)
		n := v.Count()
		if n == 0 {
			continue
		}
		idx := make([]int, r.IntN(3000))
		for k := range idx {
			idx[k] = r.IntN(n)
		}
		flat := make([]byte, n*v.Elem)
		if err := CopyNaive(flat, v); err != nil {
			t.Fatal(err)
		}
		var want []byte
		for _, k := range idx {
			want = append(want, flat[k*v.Elem:(k+1)*v.Elem]...)
		}
		buf, got := guarded(len(want))
		if err := TakeFlat(got, v, idx, Options{tune: eager, Threads: 1 + r.IntN(3)}); err != nil {
			t.Fatal(err)
		}
		checkGuards(t, buf, len(want))
		if !bytes.Equal(got, want) {
			t.Fatalf("%d %s: flat take differs", i, describe(v))
		}
	}
}

// TestTakeProgress checks that Take credits every byte it writes to Done,
// for blocks of one element (the gather loop, axis 1) and of a contiguous
// row (axis 0).
func TestTakeProgress(t *testing.T) {
	t.Parallel()
	v := Contiguous(4, []int{64, 300}, make([]byte, 64*300*4))
	for axis := range 2 {
		idx := make([]int, 3000)
		for k := range idx {
			idx[k] = k * 7 % v.Shape[axis]
		}
		dst := make([]byte, Count(TakeShape(v.Shape, axis, []int{len(idx)}))*4)
		opt := Options{Threads: 2, Done: new(atomic.Int64), tune: eagerTuning()}
		if err := Take(dst, v, axis, idx, opt); err != nil {
			t.Fatal(err)
		}
		if got := opt.Done.Load(); got != int64(len(dst)) {
			t.Errorf("axis %d: Done = %d, want %d", axis, got, len(dst))
		}
	}
}

// TestGatherOneBatchTakesOffsetsOnce: when the gathered positions fit one
// batch, each thread's chunk asks its cursor for them once, not once per
// outer position (take of [1, 0] along the last axis of (4M, 2) made 4M
// cursor calls and 4M divmods, 3.5 times a reversing slice's CPU).
func TestGatherOneBatchTakesOffsetsOnce(t *testing.T) {
	const rows = 5000
	v := Contiguous(4, []int{rows, 2}, nil)
	v.Data = make([]byte, rows*2*4)
	for i := range v.Data {
		v.Data[i] = byte(i * 13)
	}
	for _, threads := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			rest := View{Elem: 4, Data: v.Data, Shape: []int{rows}, Strides: []int{2}}
			var calls atomic.Int64
			at := func() blockCursor {
				return func(_ []int, start, n int) ([]int, int) {
					calls.Add(1)
					return []int{1, 0}[start : start+n], 4
				}
			}
			tn := defaultTuning()
			tn.parallelMin = 1
			dst := make([]byte, rows*2*4)
			gatherBlocks(dst, rest, 1, 2, at, Options{Threads: threads, tune: &tn})
			want := make([]byte, len(dst))
			for r := 0; r < rows; r++ {
				copy(want[8*r:], v.Data[8*r+4:8*r+8])
				copy(want[8*r+4:], v.Data[8*r:8*r+4])
			}
			if !bytes.Equal(dst, want) {
				t.Fatal("gather differs from the swapped columns")
			}
			if got, most := calls.Load(), int64(threads*8); got > most {
				t.Fatalf("cursor called %d times for %d rows, want at most %d (one per chunk)", got, rows, most)
			}
		})
	}
}
