package ops

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func unsafePtr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func TestDivisor(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	divisors := []int{1, 2, 3, 5, 7, 10, 64, 100, 784, 1000, 4095, 4096, 4097, 1<<31 - 1, 1 << 31, 1<<32 + 1, 1<<62 + 3, math.MaxInt64}
	for i := 0; i < 200; i++ {
		divisors = append(divisors, 1+r.IntN(1<<20), 1+int(r.Int64N(math.MaxInt64)))
	}
	for _, d := range divisors {
		dv := newDivisor(d)
		ns := []int{0, 1, d - 1, d, d + 1, math.MaxInt64, math.MaxInt64 - 1, 2*d - 1}
		for i := 0; i < 200; i++ {
			ns = append(ns, r.IntN(1<<24), int(r.Int64N(math.MaxInt64)))
		}
		for _, n := range ns {
			if n < 0 {
				continue
			}
			q, rem := dv.divmod(n)
			if q != n/d || rem != n%d {
				t.Fatalf("%d divmod %d = (%d, %d), want (%d, %d)", n, d, q, rem, n/d, n%d)
			}
		}
	}
}

func FuzzDivisor(f *testing.F) {
	f.Add(uint64(12345), uint64(7))
	f.Add(uint64(math.MaxInt64), uint64(3))
	f.Fuzz(func(t *testing.T, n, d uint64) {
		n &= math.MaxInt64
		d &= math.MaxInt64
		if d == 0 {
			return
		}
		q, r := newDivisor(int(d)).divmod(int(n))
		if uint64(q) != n/d || uint64(r) != n%d {
			t.Fatalf("%d divmod %d = (%d, %d)", n, d, q, r)
		}
	})
}

func TestOffsetCalculator(t *testing.T) {
	shape := []int{3, 4, 5}
	c := NewOffsetCalculator(shape, []int{20, 5, 1}, []int{1, 3, 12})
	idx := make([]int, 3)
	for i := 0; i < 60; i++ {
		a, b := c.Index(i, idx)
		want := []int{i / 20, i / 5 % 4, i % 5}
		for k := range want {
			if idx[k] != want[k] {
				t.Fatalf("index %d: got %v want %v", i, idx, want)
			}
		}
		if a != i || b != want[0]+3*want[1]+12*want[2] {
			t.Fatalf("offsets of %d: %d %d", i, a, b)
		}
	}
}
