package ops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
)

// TestConcatSlabs: copying inputs into the slabs of a C-contiguous output
// along an axis gives, in C order, what interleaving the inputs' C-order
// copies block by block gives (the definition of concatenation); the
// same for Select and stacking.
func TestConcatSlabs(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 300; trial++ {
		nd := 1 + r.IntN(4)
		base := make([]int, nd)
		for k := range base {
			base[k] = r.IntN(4)
		}
		axis := r.IntN(nd)
		n := 1 + r.IntN(3)
		shapes := make([][]int, n)
		ins := make([]View, n)
		for i := range ins {
			s := append([]int(nil), base...)
			s[axis] = r.IntN(4)
			shapes[i] = s
			data := make([]byte, Count(s)*2)
			for k := range data {
				data[k] = byte(r.Uint32())
			}
			ins[i] = Contiguous(2, s, data).Reversed().Reversed() // a fresh view
		}
		shape, ax, err := ConcatShape(shapes, axis-nd)
		if err != nil || ax != axis {
			t.Fatalf("ConcatShape(%v, %d): %v %d", shapes, axis-nd, err, ax)
		}
		out := Contiguous(2, shape, make([]byte, Count(shape)*2))
		at := 0
		for i, in := range ins {
			if err := CopyTo(out.Slab(axis, at, shapes[i][axis]), in, Options{tune: eagerTuning()}); err != nil {
				t.Fatal(err)
			}
			at += shapes[i][axis]
		}
		// The definition: for each index of the axes before axis, each
		// input's block of its axis and the axes after it, in turn.
		outer := Count(shape[:axis])
		var want []byte
		for o := 0; o < outer; o++ {
			for i, in := range ins {
				block := Count(shapes[i][axis:]) * 2
				want = append(want, in.Data[o*block:(o+1)*block]...)
			}
		}
		if !bytes.Equal(out.Data, want) {
			t.Fatalf("concat of %v along %d differs from the definition", shapes, axis)
		}
	}
}

func TestJoinShapes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		stack  bool
		shapes [][]int
		axis   int
		want   string
	}{
		{false, [][]int{{2, 3}, {4, 3}}, 0, "[6 3]"},
		{false, [][]int{{2, 3}, {2, 4}}, -1, "[2 7]"},
		{false, [][]int{{2, 3}, {2, 4}}, 0, "along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4"},
		{false, [][]int{{2, 3}, {3}}, 0, "the array at index 0 has 2 dimension(s) and the array at index 1 has 1 dimension(s)"},
		{false, [][]int{{}, {}}, 0, "zero-dimensional arrays cannot be concatenated"},
		{false, [][]int{{2, 3}}, 2, "axis 2 is out of bounds for array of dimension 2"},
		{true, [][]int{{2, 3}, {2, 3}}, -1, "[2 3 2]"},
		{true, [][]int{{}, {}}, 0, "[2]"},
		{true, [][]int{{2, 3}, {2, 4}}, 0, "all input arrays must have the same shape"},
		{true, [][]int{{2, 3}}, 3, "axis 3 is out of bounds for array of dimension 3"},
	} {
		f := ConcatShape
		if c.stack {
			f = StackShape
		}
		shape, _, err := f(c.shapes, c.axis)
		got := fmt.Sprint(shape)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%v %v axis %d: %q, want %q", c.stack, c.shapes, c.axis, got, c.want)
		}
	}
}

// TestStackToMatchesNaive stacks random sources, contiguous or not, into
// random destinations, contiguous or strided, and compares the whole
// destination storage, gaps and guards included, with the naive odometer
// copying each source into its entry of the new axis.
func TestStackToMatchesNaive(t *testing.T) {
	t.Parallel()
	eager := eagerTuning()
	r := rand.New(rand.NewPCG(23, 24))
	for trial := 0; trial < 2000; trial++ {
		elem := []int{1, 2, 3, 4, 8, 12, 16}[r.IntN(7)]
		base := make([]int, r.IntN(5))
		for k := range base {
			base[k] = []int{0, 1, 2, 3, 5, 17}[r.IntN(6)]
		}
		k := 1 + r.IntN(5)
		shape, axis, err := StackShape(slices.Repeat([][]int{base}, k), r.IntN(len(base)+1))
		if err != nil {
			t.Fatal(err)
		}
		srcs := make([]View, k)
		for i := range srcs {
			data := make([]byte, (Count(base)+3)*elem)
			for b := range data {
				data[b] = byte(r.Uint32())
			}
			srcs[i] = Contiguous(elem, base, data)
			srcs[i].Offset = r.IntN(3)
			if r.IntN(5) == 0 && len(base) > 0 { // a strided source
				srcs[i] = reverseAxis(srcs[i], r.IntN(len(base)))
			}
		}
		want := randomDest(r, elem, shape)
		if r.IntN(3) > 0 { // mostly the C-contiguous piece a command writes
			want = Contiguous(elem, shape, bytes.Repeat([]byte{0xA5}, (Count(shape)+2)*elem))
			want.Offset = r.IntN(3)
		}
		got := want
		got.Data = bytes.Clone(want.Data)
		threads := 1 + r.IntN(3)
		for i, src := range srcs {
			if err := CopyToNaive(want.Select(axis, i), src); err != nil {
				t.Fatalf("naive: %v", err)
			}
		}
		if err := StackTo(got, srcs, axis, Options{tune: eager, Threads: threads}); err != nil {
			t.Fatalf("%d sources of %s along %d: %v", k, describe(srcs[0]), axis, err)
		}
		if !bytes.Equal(got.Data, want.Data) {
			t.Fatalf("%d sources of %s along %d into %s (t%d) differ from the naive copies", k, describe(srcs[0]), axis, describe(got), threads)
		}
	}
	out := Contiguous(4, []int{2, 3}, make([]byte, 24))
	src := Contiguous(4, []int{2}, make([]byte, 8))
	if err := StackTo(out, []View{src, src}, 1, Options{}); err == nil || !strings.Contains(err.Error(), "cannot stack 2 arrays along axis 1 of shape (2, 3)") {
		t.Errorf("two sources for three entries: %v", err)
	}
}

// TestJoinFillAndPieces joins random inputs, some strided, some of another
// dtype, by concatenation (along an axis or flat) and stacking, and checks
// that Fill and Pieces, for buffers of every size up to the output's, give
// the naive result (each input cast to C order, then copied by the
// odometer into its slab or entry), and that Done reaches the output's
// size.
func TestJoinFillAndPieces(t *testing.T) {
	t.Parallel()
	i4, _ := dtype.Parse("<i4")
	i2, _ := dtype.Parse("<i2")
	r := rand.New(rand.NewPCG(25, 26))
	for trial := 0; trial < 300; trial++ {
		stack, flat := r.IntN(2) == 0, false
		if !stack {
			flat = r.IntN(4) == 0
		}
		base := make([]int, r.IntN(3)+1)
		for k := range base {
			base[k] = r.IntN(4)
		}
		k := 1 + r.IntN(3)
		concatAxis := r.IntN(len(base))
		ins := make([]JoinInput, k)
		shapes := make([][]int, k)
		for i := range ins {
			shape := slices.Clone(base)
			if !stack {
				shape[concatAxis] = r.IntN(4)
			}
			d := []dtype.Dtype{i4, i2}[r.IntN(2)]
			data := make([]byte, (Count(shape)+2)*d.Size)
			for b := range data {
				data[b] = byte(r.Uint32())
			}
			v := Contiguous(d.Size, shape, data)
			v.Offset = r.IntN(2)
			if r.IntN(3) == 0 {
				v = reverseAxis(v, r.IntN(len(shape)))
			}
			ins[i] = JoinInput{View: v, Dtype: d, Name: fmt.Sprintf("in%d", i)}
			shapes[i] = shape
			if flat {
				shapes[i] = []int{v.Count()}
			}
		}
		var shape []int
		var axis int
		var err error
		if stack {
			shape, axis, err = StackShape(shapes, r.IntN(len(base)+1))
		} else if flat {
			shape, axis, err = ConcatShape(shapes, 0)
		} else {
			shape, axis, err = ConcatShape(shapes, concatAxis)
		}
		if err != nil {
			t.Fatal(err)
		}
		j := &Join{Inputs: ins, Shape: shape, Axis: axis, Stack: stack, Flat: flat, Dtype: i4}
		name := fmt.Sprintf("stack=%v/flat=%v/%d inputs/%v along %d", stack, flat, k, shape, axis)

		want := Contiguous(4, shape, make([]byte, Count(shape)*4))
		at := 0
		for i, in := range ins {
			c := make([]byte, in.View.Count()*4)
			if err := Cast(c, i4, in.View, in.Dtype, Options{}); err != nil {
				t.Fatal(err)
			}
			src := Contiguous(4, in.View.Shape, c)
			var dst View
			switch {
			case stack:
				dst = want.Select(axis, i)
			case flat:
				src = Contiguous(4, []int{len(c) / 4}, c)
				dst = want.Slab(0, at, src.Shape[0])
			default:
				dst = want.Slab(axis, at, src.Shape[axis])
			}
			if err := CopyToNaive(dst, src); err != nil {
				t.Fatal(err)
			}
			if !stack {
				at += dst.Shape[axis]
			}
		}

		var done atomic.Int64
		got := make([]byte, len(want.Data))
		if err := j.Fill(got, Options{Done: &done, tune: eagerTuning()}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want.Data) || done.Load() != int64(len(got)) {
			t.Fatalf("%s: Fill differs from the naive copies (done %d of %d)", name, done.Load(), len(got))
		}
		for size := 4; size <= max(len(got), 4); size += 4 {
			done.Store(0)
			var pieces []byte
			buf := make([]byte, size)
			err := j.Pieces(buf, Options{Done: &done, Threads: 2}, func(p []byte) ([]byte, error) {
				if len(p) > size && len(p) > j.Part() {
					t.Fatalf("%s: a piece of %d bytes from a buffer of %d", name, len(p), size)
				}
				pieces = append(pieces, p...)
				return buf, nil
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !bytes.Equal(pieces, want.Data) || done.Load() != int64(len(got)) {
				t.Fatalf("%s: the pieces from a buffer of %d differ from the naive copies (done %d of %d)", name, size, done.Load(), len(got))
			}
		}
	}
}
