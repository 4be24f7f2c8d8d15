package ops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomFactoring splits n into a random shape with ones sprinkled in
// (n == 0 gets a zero extent somewhere).
func randomFactoring(r *rand.Rand, n int) []int {
	var shape []int
	if n == 0 {
		shape = append(shape, 0, 1+r.IntN(3))
	}
	for n > 1 {
		f := 2
		for n%f != 0 {
			f++
		}
		if len(shape) > 0 && r.IntN(2) == 0 {
			shape[len(shape)-1] *= f
		} else {
			shape = append(shape, f)
		}
		n /= f
	}
	for r.IntN(3) == 0 {
		k := r.IntN(len(shape) + 1)
		shape = append(shape[:k], append([]int{1}, shape[k:]...)...)
	}
	r.Shuffle(len(shape), func(i, j int) { shape[i], shape[j] = shape[j], shape[i] })
	return shape
}

// TestReshapeView checks that every view Reshape returns walks v's
// elements in v's C order (the definition of a C-order reshape), on random
// strided, reversed, broadcast and empty views; and that a C-contiguous
// view always reshapes without a copy.
func TestReshapeView(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	views := 0
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		shape := randomFactoring(r, v.Count())
		t.Run(fmt.Sprintf("%d/%s/to%v", i, describe(v), shape), func(t *testing.T) {
			got, ok := v.Reshape(shape)
			if c, _ := v.Contiguity(); c && !ok {
				t.Fatal("a C-contiguous view must reshape without a copy")
			}
			if !ok {
				return
			}
			views++
			if err := got.Check(); err != nil {
				t.Fatal(err)
			}
			want := make([]byte, v.Count()*v.Elem)
			have := make([]byte, len(want))
			if err := CopyNaive(want, v); err != nil {
				t.Fatal(err)
			}
			if err := CopyNaive(have, got); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(have, want) {
				t.Fatalf("view %v/%v does not hold v's elements in C order", got.Shape, got.Strides)
			}
		})
	}
	if views < 1000 {
		t.Fatalf("only %d of 3000 reshapes were views: the test is not exercising Reshape", views)
	}
}

// TestFortranReshape checks that the view FortranReshape returns holds, in
// C order, reshape(v, shape, order='F'): element idx of the result is
// element Fflat(idx) of v in Fortran order (the naive definition).
func TestFortranReshape(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	made := 0
	for i := 0; i < 3000; i++ {
		v := randomView(r)
		shape := randomFactoring(r, v.Count())
		got, ok := v.FortranReshape(shape)
		if !ok {
			continue
		}
		made++
		if err := got.Check(); err != nil {
			t.Fatal(err)
		}
		fortran := make([]byte, v.Count()*v.Elem) // v's elements in Fortran order
		if err := CopyNaive(fortran, v.Reversed()); err != nil {
			t.Fatal(err)
		}
		want := make([]byte, len(fortran))
		idx := make([]int, len(shape))
		for c := 0; c < v.Count(); c++ { // c: the C-order position; idx its index
			f, step := 0, 1
			for k, n := range shape {
				f += idx[k] * step
				step *= n
			}
			copy(want[c*v.Elem:], fortran[f*v.Elem:(f+1)*v.Elem])
			for k := len(shape) - 1; k >= 0; k-- {
				if idx[k]++; idx[k] < shape[k] {
					break
				}
				idx[k] = 0
			}
		}
		have := make([]byte, len(want))
		if err := CopyNaive(have, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, want) {
			t.Fatalf("%d: %s reshaped to %v in Fortran order: view %v/%v holds other elements", i, describe(v), shape, got.Shape, got.Strides)
		}
	}
	if made < 1000 {
		t.Fatalf("only %d of 3000 views: the test is not exercising FortranReshape", made)
	}
	v := Contiguous(4, []int{8, 8}, make([]byte, 256))
	for _, shape := range [][]int{{4, 16}, {2, 32}, {64}, {16, 4}, {2, 2, 2, 8}} {
		if _, ok := v.FortranReshape(shape); !ok {
			t.Errorf("8x8 to %v in Fortran order: no view, want one (the axes nest)", shape)
		}
	}
	if _, ok := Contiguous(4, []int{4, 6}, make([]byte, 96)).FortranReshape([]int{6, 4}); ok {
		t.Error("4x6 to 6x4 in Fortran order: a view, but the axes do not nest")
	}
}

// TestReshapeKnown pins NumPy 1.24's decisions (np.shares_memory and
// strides of a.reshape): which reshapes of a transposed 2x3 and of a
// sliced array are views, and their strides in elements.
func TestReshapeKnown(t *testing.T) {
	tr := View{Elem: 4, Shape: []int{3, 2}, Strides: []int{1, 3}, Data: make([]byte, 24)}
	cases := []struct {
		v       View
		shape   []int
		ok      bool
		strides []int
	}{
		{tr, []int{6}, false, nil},
		{tr, []int{3, 2, 1}, true, []int{1, 3, 3}},
		{tr, []int{1, 3, 2}, true, []int{3, 1, 3}},
		{tr, []int{2, 3}, false, nil},
		// a[:, ::2] of a 4x7 uint8 C array (NumPy: shape (4, 4), strides (7, 2)).
		{View{Elem: 1, Shape: []int{4, 4}, Strides: []int{7, 2}, Data: make([]byte, 28)}, []int{2, 2, 4}, true, []int{14, 7, 2}},
		{View{Elem: 1, Shape: []int{4, 4}, Strides: []int{7, 2}, Data: make([]byte, 28)}, []int{4, 2, 2}, true, []int{7, 4, 2}},
		{View{Elem: 1, Shape: []int{4, 4}, Strides: []int{7, 2}, Data: make([]byte, 28)}, []int{16}, false, nil},
	}
	for _, c := range cases {
		got, ok := c.v.Reshape(c.shape)
		if ok != c.ok || ok && fmt.Sprint(got.Strides) != fmt.Sprint(c.strides) {
			t.Errorf("%v strides %v to %v: got %v %v, want %v %v", c.v.Shape, c.v.Strides, c.shape, ok, got.Strides, c.ok, c.strides)
		}
	}
}

func TestResolveShape(t *testing.T) {
	cases := []struct {
		shape []int
		count int
		want  string
	}{
		{[]int{3, -1}, 12, "[3 4]"},
		{[]int{-2, 6}, 12, "[2 6]"},
		{[]int{-1}, 0, "[0]"},
		{[]int{5, 0}, 0, "[5 0]"},
		{[]int{}, 1, "[]"},
		{[]int{-1}, 1, "[1]"},
		{[]int{-1, -1}, 12, "more than one unknown"},
		{[]int{5}, 12, "cannot reshape array of size 12 into shape (5,)"},
		{[]int{0, -1}, 12, "into shape (0, -1)"},
		{[]int{-1, 0}, 0, "into shape (-1, 0)"},
		{[]int{}, 12, "into shape ()"},
		{[]int{1 << 62, 1 << 62}, 12, "into shape (4611686018427387904, 4611686018427387904)"},
		{[]int{1 << 62, 4, 0}, 0, "into shape"},
	}
	for _, c := range cases {
		got, err := ResolveShape(c.shape, c.count)
		s := fmt.Sprint(got)
		if err != nil {
			s = err.Error()
		}
		if !strings.Contains(s, c.want) {
			t.Errorf("ResolveShape(%v, %d) = %q, want %q", c.shape, c.count, s, c.want)
		}
	}
}
