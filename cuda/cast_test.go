package cuda

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

// allDtypes is the 14 numeric dtypes, and the big-endian twin of each of
// those wider than a byte: 25 formats.
func allDtypes() []dtype.Dtype {
	var descrs []string
	for _, body := range []string{"b1", "i1", "u1", "i2", "u2", "f2", "i4", "u4", "f4", "i8", "u8", "f8", "c8", "c16"} {
		if body[len(body)-1] == '1' {
			descrs = append(descrs, "|"+body)
		} else {
			descrs = append(descrs, "<"+body, ">"+body)
		}
	}
	out := make([]dtype.Dtype, len(descrs))
	for i, descr := range descrs {
		d, ok := dtype.Parse(descr)
		if !ok {
			panic("no dtype " + descr)
		}
		out[i] = d
	}
	return out
}

// castDoubles are the values a float cast must get right: each side of
// every integer type's range, NaNs with payloads (quiet and signaling),
// infinities, signed zeros, halves that round either way, float16's
// largest value and the point where it overflows, and its subnormals.
var castDoubles = []float64{
	0, math.Copysign(0, -1), 0.5, -0.5, 1.5, 2.5, -2.5, 0.99999, -0.99999, 1, -1, 127.9, 128, -128.5, -129,
	255.5, 256, 32767.5, 32768, -32769, 65535.9, 65536, 2147483647.9, 2147483648, -2147483648.9, -2147483649,
	4294967295.5, 4294967296, 9.2233720368547748e18, 9.223372036854775807e18, 9.2233720368547758e18,
	-9.2233720368547758e18, -9.223372036854777e18, 1.8446744073709550e19, 1.8446744073709552e19, 1e20, -1e20,
	1e300, -1e300, 65504, 65519.99, 65520, -65520, 6.103515625e-05, 6.0975551605224609e-05, 5.9604644775390625e-08,
	2.98023223876953125e-08, 2.9802322387695313e-08, 8.940696716308594e-08, 1e-40, 1e-310, 3.4028235677973366e38,
	3.4028235677973368e38, 1.401298464324817e-45, 7.006492321624085e-46, math.Inf(1), math.Inf(-1),
	math.Float64frombits(0x7ff8000000000000), math.Float64frombits(0xfff8000000000001),
	math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0x7ff4000020000000),
	math.Float64frombits(0xfff000000000abcd),
}

// fillCast overwrites v's elements with values of the dtype: random bits,
// or (for floats, each part of a complex) castDoubles converted to the
// part's width, bit patterns kept where the width allows (f4 NaNs with
// payloads, every special f2).
func fillCast(r *rand.Rand, v ops.View, d dtype.Dtype) {
	part := d.Size
	if d.Kind == 'c' {
		part /= 2
	}
	if d.Kind != 'f' && d.Kind != 'c' || r.IntN(4) == 0 {
		return // randomView's random bits
	}
	put := d.ByteOrder()
	for i := 0; i+part <= len(v.Data); i += part {
		x := castDoubles[r.IntN(len(castDoubles))]
		switch part {
		case 2:
			h := uint16(r.Uint32())
			if r.IntN(2) == 0 {
				h = uint16(specialBits('f', 2)[r.IntN(11)])
			}
			put.PutUint16(v.Data[i:], h)
		case 4:
			b := math.Float32bits(float32(x))
			if r.IntN(3) == 0 {
				b = uint32(specialBits('f', 4)[r.IntN(11)])
			}
			put.PutUint32(v.Data[i:], b)
		default:
			put.PutUint64(v.Data[i:], math.Float64bits(x))
		}
	}
}

func smallView(r *rand.Rand, elem int) ops.View {
	for {
		if v := randomView(r, []int{elem}, 4); v.Count() <= 600 {
			return v
		}
	}
}

// TestCast runs every pair of the 14 dtypes, in both byte orders on each
// side, on strided views of random bits and of the awkward values.
func TestCast(t *testing.T) {
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(31, 32))
		cases := 0
		for _, from := range allDtypes() {
			for _, to := range allDtypes() {
				for k := range 3 {
					v := smallView(r, from.Size)
					fillCast(r, v, from)
					name := fmt.Sprintf("%s->%s/%d/%v", from.Descr(), to.Descr(), k, v.Shape)
					checkCast(t, name, to, v, from)
					cases++
				}
			}
		}
		t.Logf("%d cast cases", cases)
	})
}

func checkCast(t *testing.T, name string, to dtype.Dtype, v ops.View, from dtype.Dtype) {
	t.Helper()
	want := make([]byte, v.Count()*to.Size)
	if err := ops.Cast(want, to, v, from, ops.Options{Threads: 1}); err != nil {
		t.Fatalf("%s: ops: %v", name, err)
	}
	got := bytes.Repeat([]byte{0xa5}, len(want))
	p, err := planCast(got, to, v, from)
	if err := run(t, p, err); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(got, want) {
		for i := 0; i < len(got); i += to.Size {
			if !bytes.Equal(got[i:i+to.Size], want[i:i+to.Size]) {
				t.Fatalf("%s: element %d is % x, ops writes % x", name, i/to.Size, got[i:i+to.Size], want[i:i+to.Size])
			}
		}
	}
}

// TestCastHalfExhaustive casts every float16 bit pattern to every dtype,
// and to float16 from doubles at and around every float16 and every
// midpoint between neighbours (the ties and their neighbours).
func TestCastHalfExhaustive(t *testing.T) {
	half := dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}
	all := make([]byte, 2*65536)
	for h := range 65536 {
		binary.LittleEndian.PutUint16(all[2*h:], uint16(h))
	}
	v := ops.Contiguous(2, []int{65536}, all)
	for _, to := range allDtypes() {
		checkCast(t, "f2->"+to.Descr(), to, v, half)
	}
	var ds []float64
	for h := range 0x7c00 {
		x := dtype.HalfToFloat64(uint16(h))
		next := dtype.HalfToFloat64(uint16(h + 1))
		mid := (x + next) / 2
		for _, y := range []float64{x, mid, math.Nextafter(mid, 0), math.Nextafter(mid, math.Inf(1)), math.Nextafter(x, 0)} {
			ds = append(ds, y, -y)
		}
	}
	b := make([]byte, 8*len(ds))
	for i, x := range ds {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	checkCast(t, "f8->f2", half, ops.Contiguous(8, []int{len(ds)}, b), dtype.Dtype{Kind: 'f', Size: 8, Order: '<'})
}

func TestCastChecks(t *testing.T) {
	f4 := dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}
	v := ops.Contiguous(4, []int{3}, make([]byte, 12))
	if _, err := planCast(make([]byte, 11), f4, v, f4); err == nil {
		t.Fatal("a destination of the wrong size was accepted")
	}
	if _, err := planCast(make([]byte, 12), f4, v, dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}); err == nil {
		t.Fatal("4-byte elements read as float64 were accepted")
	}
	if p, err := planCast(nil, f4, ops.Contiguous(4, []int{0, 3}, nil), f4); p != nil || err != nil {
		t.Fatalf("an empty cast planned %v, %v", p, err)
	}
}

// uniqueView is a view of the dtype whose elements come from a pool of
// few values (zeros of both signs and NaNs among them for floats), so
// equal neighbours and equal rows are common.
func uniqueView(r *rand.Rand, d dtype.Dtype, shape []int) ops.View {
	v := randomSortView(r, d.Kind, d.Size, shape)
	pool := 1 + r.IntN(3)
	part := d.Size
	if d.Kind == 'c' {
		part /= 2
	}
	if len(v.Data) == 0 {
		return v
	}
	vals := make([][]byte, pool)
	for k := range vals {
		at := r.IntN(len(v.Data)/part) * part
		vals[k] = append([]byte(nil), v.Data[at:at+part]...)
	}
	if d.Kind == 'f' || d.Kind == 'c' {
		zeros := [][]uint64{2: {0, 0x8000}, 4: {0, 0x80000000}, 8: {0, 1 << 63}}[part]
		for _, z := range zeros {
			b := make([]byte, part)
			for i := range part {
				b[i] = byte(z >> (8 * i))
			}
			if d.BigEndian() {
				for i, j := 0, part-1; i < j; i, j = i+1, j-1 {
					b[i], b[j] = b[j], b[i]
				}
			}
			vals = append(vals, b)
		}
	}
	for i := 0; i+part <= len(v.Data); i += part {
		if r.IntN(8) != 0 {
			copy(v.Data[i:], vals[r.IntN(len(vals))])
		}
	}
	return v
}

// TestUniqueConsecutive compares the run starts with ops, flattened and
// along every axis, for every dtype in both byte orders, and the inverse
// and counts the commands derive from them.
func TestUniqueConsecutive(t *testing.T) {
	shapes := [][]int{{}, {0}, {1}, {9}, {300}, {3, 5}, {40, 2}, {2, 3, 4}, {6, 1, 2}, {0, 3}, {3, 0}, {5, 4, 3, 2}}
	bothWidths(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(41, 42))
		cases := 0
		for _, d := range allDtypes() {
			for _, shape := range shapes {
				for rep := range 3 {
					v := uniqueView(r, d, shape)
					for axis := -1; axis < len(shape); axis++ {
						checkUnique(t, fmt.Sprintf("%s/%v/axis=%d/%d", d.Descr(), shape, axis, rep), v, d, axis)
						cases++
					}
				}
			}
		}
		t.Logf("%d unique-consecutive cases", cases)
	})
}

func checkUnique(t *testing.T, name string, v ops.View, d dtype.Dtype, axis int) {
	t.Helper()
	want, werr := ops.UniqueConsecutive(v, d, axis, ops.Options{Threads: 1})
	u, err := planUnique(v, d, axis)
	if err == nil {
		err = run(t, u.prog, nil)
	}
	if (err != nil) != (werr != nil) {
		t.Fatalf("%s: error %v, ops gives %v", name, err, werr)
	}
	if err != nil {
		if err.Error() != werr.Error() {
			t.Fatalf("%s: error %q, ops gives %q", name, err, werr)
		}
		return
	}
	got := u.starts()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: starts %v, ops finds %v", name, got, want)
	}
	n := v.Count()
	if axis >= 0 {
		n = v.Shape[axis]
	}
	gi, wi := make([]byte, 8*n), make([]byte, 8*n)
	gc, wc := make([]byte, 8*len(got)), make([]byte, 8*len(want))
	ops.RunIndex(gi, got)
	ops.RunIndex(wi, want)
	ops.RunLengths(gc, got, n)
	ops.RunLengths(wc, want, n)
	if !bytes.Equal(gi, wi) || !bytes.Equal(gc, wc) {
		t.Fatalf("%s: inverse or counts differ", name)
	}
}

// TestUniqueNaNs: a NaN is its own run even next to the same bits, -0.0
// joins 0.0's run, and bools compare by truth.
func TestUniqueNaNs(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}
	xs := []float64{1, 1, math.NaN(), math.NaN(), 0, math.Copysign(0, -1), 2}
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	b1 := dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}
	for _, c := range []struct {
		v    ops.View
		d    dtype.Dtype
		want string
	}{
		{ops.Contiguous(8, []int{len(xs)}, b), f8, "[0 2 3 4 6]"},
		{ops.Contiguous(1, []int{5}, []byte{1, 2, 0, 0, 7}), b1, "[0 2 4]"},
	} {
		u, err := planUnique(c.v, c.d, -1)
		if err == nil {
			err = run(t, u.prog, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(u.starts()); got != c.want {
			t.Fatalf("%s: starts %s, want %s", c.d.Descr(), got, c.want)
		}
	}
}
