package ops

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCopyTiledSmall checks the register-transposing kernels for one-,
// two- and (with AVX2) four-byte elements against copyStrided, their
// definition, on blocks of
// every size around their block step, with padded strides, and with a
// source that is not contiguous along rows (where they defer to
// copyStrided). Bytes outside the block must stay as they were.
func TestCopyTiledSmall(t *testing.T) {
	kernels := []struct {
		elem      int
		fast, ref blockFunc
	}{
		{1, copyTiled1, copyStrided[uint8]},
		{2, copyTiled2, copyStrided[uint16]},
	}
	if haveTransposeKernels && defaults.simd >= simdAVX2 {
		kernels = append(kernels, struct {
			elem      int
			fast, ref blockFunc
		}{4, copyTiled4, copyStrided[uint32]})
	} else {
		t.Log("no AVX2: copyTiled4 not tested")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, k := range kernels {
		for trial := 0; trial < 400; trial++ {
			e := k.elem
			rn, cn := 1+r.IntN(40), 1+r.IntN(40)
			rsrc := e
			if trial%5 == 4 {
				rsrc = e * (1 + r.IntN(3))
			}
			cs := rsrc*rn + e*r.IntN(9) // source bytes between columns
			rd := e * (cn + r.IntN(9))  // destination bytes between rows
			src := make([]byte, cs*cn+rsrc*rn+8)
			for i := range src {
				src[i] = byte(r.Uint32())
			}
			rows, cols := loop{n: rn, src: rsrc, dst: rd}, loop{n: cn, src: cs, dst: e}
			t.Run(fmt.Sprintf("e%d/%d/rows%+v/cols%+v", e, trial, rows, cols), func(t *testing.T) {
				want := bytes.Repeat([]byte{0xA5}, rd*rn)
				got := bytes.Clone(want)
				k.ref(unsafe.Pointer(&want[0]), unsafe.Pointer(&src[0]), rows, cols)
				k.fast(unsafe.Pointer(&got[0]), unsafe.Pointer(&src[0]), rows, cols)
				if !bytes.Equal(got, want) {
					t.Fatalf("fast kernel differs from copyStrided")
				}
			})
		}
	}
}
