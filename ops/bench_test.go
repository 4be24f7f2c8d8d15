package ops

import (
	"bytes"
	"fmt"
	"testing"
)

// benchCases are the transposes the issue sets targets for, plus a
// non-contiguous and a Fortran-order source.
var benchCases = []struct {
	name  string
	elem  int
	shape []int
	perm  []int
}{
	{"2d/8192x8192/f32/T", 4, []int{8192, 8192}, []int{1, 0}},
	{"4d/64x64x64x64/f32/3210", 4, []int{64, 64, 64, 64}, []int{3, 2, 1, 0}},
	{"3d/512x512x256/f32/021", 4, []int{512, 512, 256}, []int{0, 2, 1}},
	{"2d/4096x4096/f64/T", 8, []int{4096, 4096}, []int{1, 0}},
	{"2d/8192x8192/u8/T", 1, []int{8192, 8192}, []int{1, 0}},
	{"2d/4096x2048/c16/T", 16, []int{4096, 2048}, []int{1, 0}},
	{"0213/64x256x64x16/f32", 4, []int{64, 256, 64, 16}, []int{0, 2, 1, 3}},
}

// BenchmarkTranspose reports GB/s of each transpose next to Go's copy() of
// the same number of bytes ("copy/..." rows) in the same run.
func BenchmarkTranspose(b *testing.B) {
	for _, c := range benchCases {
		n := Count(c.shape) * c.elem
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(i * 7)
		}
		dst := make([]byte, n)
		v := Contiguous(c.elem, c.shape, src).Permute(c.perm)
		b.Run("copy/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				copy(dst, src)
			}
		})
		b.Run("strider/"+c.name, func(b *testing.B) {
			b.SetBytes(int64(n))
			done := cpuTime(b)
			for b.Loop() {
				if err := Copy(dst, v, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			done()
			b.StopTimer()
			if n <= 64<<20 {
				want := make([]byte, n)
				if err := CopyNaive(want, v); err != nil || !bytes.Equal(dst, want) {
					b.Fatalf("result differs from the naive copy")
				}
			}
		})
	}
}

// BenchmarkFortran copies a Fortran-order array into C order, which is the
// transpose of a contiguous array under another name.
func BenchmarkFortran(b *testing.B) {
	for _, shape := range [][]int{{2048, 2048}, {256, 256, 64}} {
		n := Count(shape) * 8
		src, dst := make([]byte, n), make([]byte, n)
		v := View{Elem: 8, Shape: shape, Strides: FStrides(shape), Data: src}
		b.Run(fmt.Sprintf("f64/%v", shape), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if err := Copy(dst, v, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGather reports numpy.take's kernel (4096x4096 float32, 4096
// random indices) along each axis, next to copy() of the output's bytes, and
// take_along_axis with a full-size index along the last axis.
func BenchmarkGather(b *testing.B) {
	const n = 4096
	src := make([]byte, n*n*4)
	for i := range src {
		src[i] = byte(i * 13)
	}
	v := Contiguous(4, []int{n, n}, src)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = (i*2654435761 + 12345) % n
	}
	out := make([]byte, n*n*4)
	b.Run("copy/64MiB", func(b *testing.B) {
		b.SetBytes(int64(len(out)))
		for b.Loop() {
			copy(out, src)
		}
	})
	for _, axis := range []int{0, 1} {
		b.Run(fmt.Sprintf("take/axis=%d", axis), func(b *testing.B) {
			b.SetBytes(int64(len(out)))
			done := cpuTime(b)
			for b.Loop() {
				if err := Take(out, v, axis, idx, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			done()
			b.StopTimer()
			if want := takeNaive(v, axis, []int{n}, idx); !bytes.Equal(out, want) {
				b.Fatal("take differs from the naive definition")
			}
		})
	}
	along := make([]int, n*n)
	for i := range along {
		along[i] = (i*40503 + 7) % n
	}
	b.Run("take_along_axis/axis=1", func(b *testing.B) {
		b.SetBytes(int64(len(out)))
		done := cpuTime(b)
		for b.Loop() {
			if err := TakeAlongAxis(out, v, 1, []int{n, n}, along, Options{}); err != nil {
				b.Fatal(err)
			}
		}
		done()
	})
}

// BenchmarkStack stacks two 4096x4096 float32 arrays along a new last axis
// (a 128 MiB output) with StackTo, and with one CopyTo per source into
// every other element (what a stack was before StackTo), next to copy() of
// the output's bytes.
func BenchmarkStack(b *testing.B) {
	const n = 4096
	srcs := make([]View, 2)
	for i := range srcs {
		data := make([]byte, n*n*4)
		for k := range data {
			data[k] = byte(k*7 + i)
		}
		srcs[i] = Contiguous(4, []int{n, n}, data)
	}
	out := Contiguous(4, []int{n, n, 2}, make([]byte, 2*n*n*4))
	b.Run("copy/128MiB", func(b *testing.B) {
		src := make([]byte, len(out.Data))
		b.SetBytes(int64(len(out.Data)))
		for b.Loop() {
			copy(out.Data, src)
		}
	})
	b.Run("stack/StackTo", func(b *testing.B) {
		b.SetBytes(int64(len(out.Data)))
		for b.Loop() {
			if err := StackTo(out, srcs, 2, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stack/CopyTo-each", func(b *testing.B) {
		b.SetBytes(int64(len(out.Data)))
		for b.Loop() {
			for i, src := range srcs {
				if err := CopyTo(out.Select(2, i), src, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
