package ops

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"strider/internal/dtype"
)

var castFormats = []dtype.Dtype{{Kind: 'b', Size: 1}, {Kind: 'i', Size: 1}, {Kind: 'u', Size: 1},
	{Kind: 'i', Size: 2}, {Kind: 'i', Size: 4, Order: '>'}, {Kind: 'i', Size: 8}, {Kind: 'u', Size: 2, Order: '>'}, {Kind: 'u', Size: 4}, {Kind: 'u', Size: 8, Order: '>'},
	{Kind: 'f', Size: 2}, {Kind: 'f', Size: 2, Order: '>'}, {Kind: 'f', Size: 4}, {Kind: 'f', Size: 8, Order: '>'}, {Kind: 'c', Size: 8, Order: '>'}, {Kind: 'c', Size: 16}}

// TestCastPlumbing checks what the parity suite cannot see: a strided,
// offset, reversed or broadcast source, big pieces cut over threads and
// either byte order give what the contiguous little-endian cast of the
// same elements gives. (The conversions themselves are checked against
// NumPy by scripts/parity_cast.py.)
func TestCastPlumbing(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 1500; i++ {
		from := castFormats[r.IntN(len(castFormats))]
		to := castFormats[r.IntN(len(castFormats))]
		v := randomView(r)
		v = View{Elem: from.Size, Shape: v.Shape, Strides: v.Strides, Offset: v.Offset,
			Data: make([]byte, (len(v.Data)/max(1, v.Elem)+1)*from.Size)}
		for k := range v.Data {
			v.Data[k] = byte(r.Uint32())
		}
		t.Run(fmt.Sprintf("%d/%c%d%v-to-%c%d%v/%s", i, from.Kind, from.Size, from.BigEndian(), to.Kind, to.Size, to.BigEndian(), describe(v)), func(t *testing.T) {
			n := v.Count()
			got := make([]byte, n*to.Size)
			if err := Cast(got, to, v, from, Options{Threads: 1 + r.IntN(4), tune: eagerTuning()}); err != nil {
				t.Fatal(err)
			}
			// The reference: the elements in C order, little endian, cast
			// in one piece, then put in to's byte order.
			flat := make([]byte, n*from.Size)
			if err := CopyNaive(flat, v); err != nil {
				t.Fatal(err)
			}
			le, leTo := from, to
			le.Order, leTo.Order = '<', '<'
			if from.BigEndian() {
				swapParts(flat, from)
			}
			want := make([]byte, n*to.Size)
			var c caster
			if n > 0 {
				if err := c.piece(want, leTo, Contiguous(from.Size, []int{n}, flat), le); err != nil {
					t.Fatal(err)
				}
			}
			if to.BigEndian() {
				swapParts(want, to)
			}
			if !bytes.Equal(got, want) {
				t.Fatal("cast differs from the contiguous little-endian cast of the same elements")
			}
		})
	}
}

// TestCastKnown pins a few conversions NumPy 1.24 makes on x86-64 (from
// scripts/parity_cast.py's corners): float to int out of range, float16
// rounding, complex to real.
func TestCastKnown(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	cases := []struct {
		x    float64
		to   dtype.Dtype
		want string
	}{
		{300.7, dtype.Dtype{Kind: 'i', Size: 1}, "2c"},
		{-1, dtype.Dtype{Kind: 'u', Size: 2}, "ffff"},
		{5e9, dtype.Dtype{Kind: 'u', Size: 4}, "00f2052a"},
		{2.0 * (1 << 62), dtype.Dtype{Kind: 'i', Size: 4}, "00000080"},
		{-1, dtype.Dtype{Kind: 'u', Size: 8}, "ffffffffffffffff"},
		{1e20, dtype.Dtype{Kind: 'u', Size: 8}, "0000000000000000"},
		{65519.99, dtype.Dtype{Kind: 'f', Size: 2}, "ff7b"},
		{65520, dtype.Dtype{Kind: 'f', Size: 2}, "007c"},
		{2.98e-8, dtype.Dtype{Kind: 'f', Size: 2}, "0000"},
		{5.96e-8, dtype.Dtype{Kind: 'f', Size: 2}, "0100"},
	}
	for _, c := range cases {
		src := Contiguous(8, []int{1}, make([]byte, 8))
		binary.LittleEndian.PutUint64(src.Data, math.Float64bits(c.x))
		got := make([]byte, c.to.Size)
		if err := Cast(got, c.to, src, f8, Options{}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%x", got) != c.want {
			t.Errorf("%v to %c%d: %x, want %s", c.x, c.to.Kind, c.to.Size, got, c.want)
		}
	}
}

// TestCastDirect checks the kernels of directCast against the widened
// path (widen then narrow, the oracle every pair goes through otherwise),
// on random bits and on the floats' corners (NaN payloads, infinities,
// -0.0, integers near 2^63 and 2^64, halfway cases of float64 to float32).
// Between float32 parts the oracle is the bits themselves: NumPy moves
// them (a signaling NaN stays signaling), where the widened path, through
// float64, quiets it.
func TestCastDirect(t *testing.T) {
	var formats []dtype.Dtype
	for _, k := range "iu" {
		for _, n := range []int{1, 2, 4, 8} {
			formats = append(formats, dtype.Dtype{Kind: byte(k), Size: n})
		}
	}
	formats = append(formats, dtype.Dtype{Kind: 'f', Size: 4}, dtype.Dtype{Kind: 'f', Size: 8},
		dtype.Dtype{Kind: 'c', Size: 8}, dtype.Dtype{Kind: 'c', Size: 16})
	r := rand.New(rand.NewPCG(13, 14))
	corners := []float64{math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000abcdef),
		math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0x1p63, 0x1p64, -0x1p63, 1 + 0x1p-24, 1 + 0x1p-23 + 0x1p-24, math.MaxFloat64, 5e-324}
	pairs := 0
	for _, from := range formats {
		for _, to := range formats {
			conv := directCast(from, to)
			if conv == nil {
				if from.Kind != 'f' && from.Kind != 'c' || to.Kind == 'f' || to.Kind == 'c' {
					t.Errorf("%c%d to %c%d: no direct kernel", from.Kind, from.Size, to.Kind, to.Size)
				}
				continue
			}
			pairs++
			const n = 4096
			raw := make([]byte, n*from.Size)
			for k := range raw {
				raw[k] = byte(r.Uint32())
			}
			part := from.Size
			if from.Kind == 'c' {
				part /= 2
			}
			if from.Kind == 'f' || from.Kind == 'c' {
				for k, x := range corners {
					if part == 8 {
						binary.LittleEndian.PutUint64(raw[8*k:], math.Float64bits(x))
					} else {
						binary.LittleEndian.PutUint32(raw[4*k:], math.Float32bits(float32(x)))
					}
				}
				if part == 4 { // signaling NaNs
					binary.LittleEndian.PutUint32(raw[4*len(corners):], 0x7f800001)
					binary.LittleEndian.PutUint32(raw[4*len(corners)+4:], 0xff800123)
				}
			}
			got := make([]byte, n*to.Size)
			conv(got, raw)
			want := make([]byte, n*to.Size)
			if k1, c1 := partKey(from); k1 == 'f'<<4|4 {
				if k2, c2 := partKey(to); k2 == k1 {
					for i := range n { // float32 parts move as bits
						switch {
						case c1 == c2:
							copy(want[i*to.Size:], raw[i*from.Size:(i+1)*from.Size])
						case c2:
							copy(want[8*i:8*i+4], raw[4*i:4*i+4])
						default:
							copy(want[4*i:4*i+4], raw[8*i:8*i+4])
						}
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%c%d to %c%d: the float32 parts' bits changed", from.Kind, from.Size, to.Kind, to.Size)
					}
					continue
				}
			}
			w := make([]complex128, n)
			widen(w, raw, from)
			narrow(want, w, from, to)
			if !bytes.Equal(got, want) {
				t.Errorf("%c%d to %c%d: the direct kernel differs from the widened path", from.Kind, from.Size, to.Kind, to.Size)
			}
		}
	}
	if pairs != 12*12-4*8 {
		t.Errorf("%d pairs have a direct kernel, want 112", pairs)
	}
}
