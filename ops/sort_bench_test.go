package ops

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"unsafe"

	"strider/internal/dtype"
)

// cpuTime reports, when the returned func is called after the timed loop,
// the process's CPU time per operation as cpu-ns/op: on a loaded machine
// it is steadier than the wall time (for one thread it is the work itself).
func cpuTime(b *testing.B) func() {
	start := processCPU()
	return func() {
		b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	}
}

// keysPerSecond reports the sort's throughput in keys per second.
func keysPerSecond(b *testing.B, keys int) {
	b.ReportMetric(float64(keys)*float64(b.N)/b.Elapsed().Seconds(), "keys/s")
}

// benchFloat32 is n random float32 values (normal, a few NaNs when nans).
func benchFloat32(n int, nans bool) []byte {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	b := make([]byte, 4*n)
	for i := 0; i < n; i++ {
		f := float32(r.NormFloat64())
		if nans && r.IntN(1000) == 0 {
			f = float32(math.NaN())
		}
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func benchInt64(n int) []byte {
	r := rand.New(rand.NewPCG(2, uint64(n)))
	b := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		binary.LittleEndian.PutUint64(b[8*i:], r.Uint64())
	}
	return b
}

func asFloat32s(b []byte) []float32 { return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4) }
func asInt64s(b []byte) []int64     { return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8) }

// floatCmp orders NaNs last, as Sort does by default.
func floatCmp(a, b float32) int {
	an, bn := a != a, b != b
	switch {
	case an || bn:
		return cmp.Compare(b2i(an), b2i(bn))
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BenchmarkSort times Sort on long strips next to the standard library's
// stable sorts of the same data in the same run ("stdlib/..." rows). MB/s
// counts the input bytes.
func BenchmarkSort(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, dt := range []struct {
			name string
			elem int
			kind byte
			data func(int) []byte
		}{
			{"f32", 4, 'f', func(n int) []byte { return benchFloat32(n, true) }},
			{"i64", 8, 'i', benchInt64},
		} {
			src := dt.data(n)
			v := Contiguous(dt.elem, []int{n}, src)
			d := dtype.Dtype{Kind: dt.kind, Size: dt.elem}
			vals, idx := make([]byte, len(src)), make([]byte, 8*n)
			name := fmt.Sprintf("%s/n=%d", dt.name, n)
			for _, threads := range []int{1, 0} {
				tn := "all"
				if threads == 1 {
					tn = "1"
				}
				b.Run("strider/values/"+name+"/threads="+tn, func(b *testing.B) {
					b.SetBytes(int64(len(src)))
					done := cpuTime(b)
					for b.Loop() {
						if err := Sort(vals, nil, v, 0, d, Order{}, Options{Threads: threads}); err != nil {
							b.Fatal(err)
						}
					}
					done()
					keysPerSecond(b, n)
				})
				b.Run("strider/argsort/"+name+"/threads="+tn, func(b *testing.B) {
					b.SetBytes(int64(len(src)))
					done := cpuTime(b)
					for b.Loop() {
						if err := Sort(nil, idx, v, 0, d, Order{}, Options{Threads: threads}); err != nil {
							b.Fatal(err)
						}
					}
					done()
					keysPerSecond(b, n)
				})
			}
			b.Run("stdlib/SortStableFunc/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				work := make([]byte, len(src))
				for b.Loop() {
					b.StopTimer()
					copy(work, src)
					b.StartTimer()
					if dt.kind == 'f' {
						slices.SortStableFunc(asFloat32s(work), floatCmp)
					} else {
						slices.SortStableFunc(asInt64s(work), cmp.Compare[int64])
					}
				}
				b.StopTimer()
				if !bytes.Equal(work, vals) {
					b.Fatal("Sort's values differ from the standard library's")
				}
			})
			b.Run("stdlib/SliceStable/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				work := make([]byte, len(src))
				for b.Loop() {
					b.StopTimer()
					copy(work, src)
					b.StartTimer()
					if dt.kind == 'f' {
						f := asFloat32s(work)
						sort.SliceStable(f, func(i, j int) bool { return floatCmp(f[i], f[j]) < 0 })
					} else {
						x := asInt64s(work)
						sort.SliceStable(x, func(i, j int) bool { return x[i] < x[j] })
					}
				}
			})
			b.Run("stdlib/argsort/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				perm := make([]int64, n)
				for b.Loop() {
					for i := range perm {
						perm[i] = int64(i)
					}
					if dt.kind == 'f' {
						f := asFloat32s(src)
						slices.SortStableFunc(perm, func(i, j int64) int { return floatCmp(f[i], f[j]) })
					} else {
						x := asInt64s(src)
						slices.SortStableFunc(perm, func(i, j int64) int { return cmp.Compare(x[i], x[j]) })
					}
				}
				b.StopTimer()
				if !slices.Equal(perm, asInt64s(idx)) {
					b.Fatal("Sort's indices differ from the standard library's")
				}
			})
		}
	}
}

// BenchmarkSortRows sorts many short rows, and a square matrix along either
// axis (axis 0 gathers strided strips), next to SortStableFunc row by row.
func BenchmarkSortRows(b *testing.B) {
	for _, c := range []struct {
		rows, cols, axis int
	}{{1 << 20, 8, 1}, {1 << 17, 100, 1}, {4096, 4096, 1}, {4096, 4096, 0}} {
		n := c.rows * c.cols
		src := benchFloat32(n, false)
		v := Contiguous(4, []int{c.rows, c.cols}, src)
		f4 := dtype.Dtype{Kind: 'f', Size: 4}
		vals := make([]byte, len(src))
		name := fmt.Sprintf("f32/%dx%d/axis=%d", c.rows, c.cols, c.axis)
		b.Run("strider/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			done := cpuTime(b)
			for b.Loop() {
				if err := Sort(vals, nil, v, c.axis, f4, Order{}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			done()
		})
		if c.axis != 1 {
			// The same without gathering blocks of strips as tiles.
			b.Run("strider-unblocked/"+name, func(b *testing.B) {
				unblocked := defaultTuning()
				unblocked.blockBytes = 0
				b.SetBytes(int64(len(src)))
				done := cpuTime(b)
				for b.Loop() {
					if err := Sort(vals, nil, v, c.axis, f4, Order{}, Options{tune: &unblocked}); err != nil {
						b.Fatal(err)
					}
				}
				done()
			})
			continue
		}
		b.Run("stdlib/SortStableFunc/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			work := make([]byte, len(src))
			for b.Loop() {
				b.StopTimer()
				copy(work, src)
				b.StartTimer()
				f := asFloat32s(work)
				for r := 0; r < c.rows; r++ {
					slices.SortStableFunc(f[r*c.cols:(r+1)*c.cols], floatCmp)
				}
			}
			b.StopTimer()
			if !bytes.Equal(work, vals) {
				b.Fatal("Sort's values differ from the standard library's")
			}
		})
	}
}

// BenchmarkSortComplex128 justifies the two-stage radix for complex128:
// it times Sort's argsort of 1e6 random complex128 against a stable merge
// sort (SortStableFunc) of (high key, low key, position) records built by
// the same codec.
func BenchmarkSortComplex128(b *testing.B) {
	for _, n := range []int{1000, 100_000, 1_000_000} {
		r := rand.New(rand.NewPCG(3, 3))
		src := make([]byte, 16*n)
		for i := 0; i < 2*n; i++ {
			binary.LittleEndian.PutUint64(src[8*i:], math.Float64bits(float64(r.IntN(1000))/7))
		}
		v := Contiguous(16, []int{n}, src)
		c16 := dtype.Dtype{Kind: 'c', Size: 16}
		idx := make([]byte, 8*n)
		b.Run(fmt.Sprintf("radix/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := Sort(nil, idx, v, 0, c16, Order{}, Options{Threads: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("mergesort/n=%d", n), func(b *testing.B) {
			type rec struct{ hi, lo, idx uint64 }
			c := newComplexCodec(c16, Order{})
			recs := make([]rec, n)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				for i := range recs {
					re := binary.LittleEndian.Uint64(src[16*i:])
					im := binary.LittleEndian.Uint64(src[16*i+8:])
					h, l := c.key(re, im)
					recs[i] = rec{h, l, uint64(i)}
				}
				slices.SortStableFunc(recs, func(x, y rec) int {
					if x.hi != y.hi {
						return cmp.Compare(x.hi, y.hi)
					}
					return cmp.Compare(x.lo, y.lo)
				})
			}
			b.StopTimer()
			for j, x := range recs {
				if int64(x.idx) != asInt64s(idx)[j] {
					b.Fatal("the merge sort and the radix sort disagree")
				}
			}
		})
	}
}

// BenchmarkRadixSplit times the radix sort of 32-bit keys with and without
// the most-significant-digit split (msdMin), on uniform keys (the split makes
// 256 cache-sized buckets) and on float32 keys of normal values (the top
// digit has few values, so the split is skipped as it would not pay), and
// on sorted keys, whose digits cycle so regularly that every pass of a plain
// LSD sort writes its 256 streams at addresses a power of two apart.
func BenchmarkRadixSplit(b *testing.B) {
	def := defaultTuning()
	for _, n := range []int{1 << 17, 1 << 20, 1 << 23} {
		floats := asFloat32s(benchFloat32(n, false))
		for _, data := range []string{"uniform", "normal-f32", "sorted"} {
			src := make([]uint32, n)
			c := newCodec(dtype.Dtype{Kind: 'f', Size: 4}, Order{})
			r := rand.New(rand.NewPCG(4, uint64(n)))
			for i := range src {
				if data == "sorted" {
					src[i] = uint32(i)
				} else if data == "uniform" {
					src[i] = r.Uint32()
				} else {
					k, _ := c.key(uint64(math.Float32bits(floats[i])))
					src[i] = uint32(k)
				}
			}
			a, tmp := make([]uint32, n), make([]uint32, n)
			for _, split := range []bool{true, false} {
				b.Run(fmt.Sprintf("%s/n=%d/msd=%v", data, n, split), func(b *testing.B) {
					tn := def
					if !split {
						tn.msdMin = math.MaxInt
					}
					b.SetBytes(int64(4 * n))
					done := cpuTime(b)
					for b.Loop() {
						copy(a, src)
						sortWords(a, tmp, 0, 4, 1, nil, &tn)
					}
					done()
					b.StopTimer()
					if !slices.IsSorted(a) {
						b.Fatal("not sorted")
					}
				})
			}
		}
	}
}
