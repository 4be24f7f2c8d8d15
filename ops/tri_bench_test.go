package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"testing"
)

// BenchmarkTriFill reports GB/s of the tril/triu fill for square matrices
// next to clearing ("memclr/...") and copying ("copy/...") the same number
// of bytes on the same threads, the ceilings for a kernel that only writes.
// The destination is touched first, so no row pays for page faults.
func BenchmarkTriFill(b *testing.B) {
	threads := Options{}.threads()
	for _, n := range []int{4096, 16384} {
		for _, elem := range []int{8, 4} {
			lower, err := NewTri(false, n, n, 0)
			if err != nil {
				b.Fatal(err)
			}
			size := 2 * lower.Len() * elem
			dst := make([]byte, size)
			clear(dst)
			name := fmt.Sprintf("%dx%d/i%d", n, n, 8*elem)
			b.Run("memclr/"+name, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					parallel(size, threads, func(lo, hi int) { clear(dst[lo:hi]) })
				}
			})
			b.Run("copy/"+name, func(b *testing.B) {
				src := make([]byte, size)
				clear(src)
				b.SetBytes(int64(size))
				for b.Loop() {
					parallel(size, threads, func(lo, hi int) { copy(dst[lo:hi], src[lo:hi]) })
				}
			})
			for _, upper := range []bool{false, true} {
				tri, err := NewTri(upper, n, n, 0)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(triName(upper)+"/"+name, func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						if err := tri.Fill(dst, elem, Options{}); err != nil {
							b.Fatal(err)
						}
					}
					b.StopTimer()
					checkTriSample(b, tri, dst, elem)
				})
			}
		}
	}
}

// checkTriSample compares the whole output with the double loop when it is
// small, else every 4099th pair with At.
func checkTriSample(b *testing.B, tri Tri, dst []byte, elem int) {
	if tri.Rows <= 4096 {
		if !bytes.Equal(dst, triNaive(tri.Upper, tri.Rows, tri.Cols, tri.Offset, elem)) {
			b.Fatalf("result differs from the double loop")
		}
		return
	}
	n := tri.Len()
	get := func(i int) int {
		if elem == 8 {
			return int(binary.LittleEndian.Uint64(dst[i*8:]))
		}
		return int(binary.LittleEndian.Uint32(dst[i*4:]))
	}
	for i := 0; i < n; i += 4099 {
		if r, c := tri.At(i); get(i) != r || get(n+i) != c {
			b.Fatalf("pair %d is (%d, %d), want (%d, %d)", i, get(i), get(n+i), r, c)
		}
	}
}
