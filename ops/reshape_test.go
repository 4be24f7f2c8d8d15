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
