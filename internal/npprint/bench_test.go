package npprint

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// BenchmarkStr formats arrays of normal random values as show does: the
// elements NumPy prints, for each float type, plain and summarized.
func BenchmarkStr(b *testing.B) {
	for _, size := range []int{2, 4, 8} {
		for _, shape := range [][]int{{16, 16}, {1000}, {8192, 8192}} {
			r := rand.New(rand.NewSource(1))
			o := Defaults()
			_, keep := Edges(shape, o)
			n := 1
			for _, k := range keep {
				n *= len(k)
			}
			a := Array{Kind: 'f', Size: size, Shape: shape}
			for i := 0; i < n; i++ {
				v := r.NormFloat64()
				switch size {
				case 2:
					a.Elems = append(a.Elems, uint64(nearestHalf(v)))
				case 4:
					a.Elems = append(a.Elems, uint64(math.Float32bits(float32(v))))
				default:
					a.Elems = append(a.Elems, math.Float64bits(v))
				}
			}
			b.Run(fmt.Sprintf("f%d/%v", 8*size, shape), func(b *testing.B) {
				b.SetBytes(int64(n * size))
				var s string
				for i := 0; i < b.N; i++ {
					s = Str(a, o)
				}
				b.StopTimer()
				if len(s) < n {
					b.Fatalf("%d characters for %d elements", len(s), n)
				}
			})
		}
	}
}

// BenchmarkFormat runs Dragon4 on 10k varied float64 and float32 values
// (normal values scaled by 10^-30 to 10^30, some integers) in the modes
// arrays and scalars print with, through the strconv fast path and the
// big-integer path.
func BenchmarkFormat(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	vals := make([]float64, 10000)
	for i := range vals {
		v := r.NormFloat64() * math.Pow(10, float64(r.Intn(61)-30))
		if i%7 == 0 {
			v = math.Round(r.NormFloat64() * 1000)
		}
		vals[i] = v
	}
	modes := []struct {
		name string
		o    FloatOpts
	}{
		{"pos/unique", FloatOpts{Unique: true, Precision: -1, MinDigits: -1, Trim: '.', PadLeft: -1, PadRight: -1, ExpDigits: -1}},
		{"pos/fixed8", FloatOpts{Precision: 8, MinDigits: 8, Trim: 'k', PadLeft: 3, PadRight: 8, ExpDigits: -1}},
		{"sci/unique", FloatOpts{Scientific: true, Unique: true, Precision: -1, MinDigits: -1, Trim: '.', PadLeft: -1, PadRight: -1, ExpDigits: -1}},
		{"sci/prec8", FloatOpts{Scientific: true, Unique: true, Precision: 8, MinDigits: 8, Trim: 'k', PadLeft: 2, PadRight: -1, ExpDigits: 2}},
	}
	for _, size := range []int{4, 8} {
		xs := make([]Float, len(vals))
		for i, v := range vals {
			xs[i] = Float{math.Float64bits(v), 8}
			if size == 4 {
				xs[i] = Float{uint64(math.Float32bits(float32(v))), 4}
			}
		}
		for _, m := range modes {
			for _, slow := range []bool{false, true} {
				path := "fast"
				if slow {
					path = "bigint"
				}
				b.Run(fmt.Sprintf("f%d/%s/%s", 8*size, m.name, path), func(b *testing.B) {
					n := 0
					for i := 0; i < b.N; i++ {
						for _, x := range xs {
							n += len(format(x, m.o, slow))
						}
					}
					b.StopTimer()
					if n < b.N*len(xs) {
						b.Fatalf("%d characters for %d values", n, b.N*len(xs))
					}
				})
			}
		}
	}
}
