package ops

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"strider/internal/dtype"
)

// BenchmarkReduce times every reduction over a float32 array in memory,
// whole and along each axis, C order and Fortran order, with a
// "read/..." row that sums the same bytes as uint64 words in one pass (the
// floor: reading the bytes). Issue 31 asks for 256 MiB within 1.3x of
// reading the file; STRIDER_REDUCE_BENCH_MIB sets the size (default 64).
func BenchmarkReduce(b *testing.B) {
	mib := 64
	if s := benchEnvInt("STRIDER_REDUCE_BENCH_MIB"); s > 0 {
		mib = s
	}
	n := mib << 20 / 4
	words := make([]uint64, n/2)
	data := bytesOf(&words, 4*n)
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < n; i++ {
		putU32(data[4*i:], math.Float32bits(float32(r.NormFloat64())))
	}
	f4, _ := dtype.Parse("<f4")
	b.Run(fmt.Sprintf("read/%dMiB", mib), func(b *testing.B) {
		b.SetBytes(int64(4 * n))
		var s uint64
		for b.Loop() {
			s = 0
			for _, w := range words {
				s += w
			}
		}
		_ = s
	})
	rows := 1024
	shapes := []struct {
		name string
		v    View
		axes []int
	}{
		{"all", Contiguous(4, []int{n}, data), nil},
		{"C/axis=1", Contiguous(4, []int{rows, n / rows}, data), []int{1}},
		{"C/axis=0", Contiguous(4, []int{rows, n / rows}, data), []int{0}},
		{"F/axis=0", View{Elem: 4, Shape: []int{n / rows, rows}, Strides: FStrides([]int{n / rows, rows}), Data: data}, []int{0}},
	}
	for _, op := range ReduceOps() {
		for _, s := range shapes {
			if op.SingleAxis() && s.axes == nil && s.name != "all" {
				continue
			}
			o := ReduceOptions{Axes: s.axes}
			sh, err := ReducePlan(op, s.v, f4, o)
			if err != nil {
				b.Fatal(err)
			}
			dst := make([]byte, Count(sh.Shape)*sh.Dtype.Size)
			b.Run(fmt.Sprintf("%s/%s/%dMiB", op, s.name, mib), func(b *testing.B) {
				b.SetBytes(int64(4 * n))
				for b.Loop() {
					if _, err := Reduce(dst, op, s.v, f4, o); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchEnvInt is the integer in environment variable name, 0 if unset.
func benchEnvInt(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}
