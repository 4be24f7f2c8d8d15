package dtype

import (
	"math"
	"testing"
)

// TestRoundTrip checks that every dtype Check accepts is read back by Parse
// from its descr and its name, and that Check refuses the sizes between.
func TestRoundTrip(t *testing.T) {
	valid := 0
	for _, kind := range []byte("biufc") {
		for size := 0; size <= 17; size++ {
			for _, order := range []byte("<>") {
				d := Dtype{Kind: kind, Size: size, Order: order}
				if d.Check() != nil {
					if _, ok := Parse(d.Descr()); ok {
						t.Errorf("%s: Parse accepts what Check refuses", d.Descr())
					}
					continue
				}
				valid++
				got, ok := Parse(d.Descr())
				if !ok || got.Descr() != d.Descr() || got.BigEndian() != d.BigEndian() {
					t.Errorf("Parse(%q) = %+v %v", d.Descr(), got, ok)
				}
				if n, ok := Parse(d.Name()); !ok || n.Kind != kind || n.Size != size || !n.Native() {
					t.Errorf("Parse(%q) = %+v %v", d.Name(), n, ok)
				}
			}
		}
	}
	if valid != 2*14 {
		t.Fatalf("%d valid dtypes, want 14 in two byte orders", valid)
	}
}

func TestCheckElem(t *testing.T) {
	f4 := Dtype{Kind: 'f', Size: 4}
	if err := f4.CheckElem(4); err != nil {
		t.Fatal(err)
	}
	if err := f4.CheckElem(8); err == nil || err.Error() != "a 4-byte float32 dtype for 8-byte elements" {
		t.Fatalf("CheckElem(8) = %v", err)
	}
	if err := (Dtype{Kind: 'c', Size: 4}).CheckElem(4); err == nil {
		t.Fatal("c4 accepted")
	}
}

// TestDecode checks the size dispatch and the sign-extending shift in both
// byte orders.
func TestDecode(t *testing.T) {
	for _, c := range []struct {
		d    Dtype
		b    []byte
		bits uint64
		f    float64
	}{
		{Dtype{Kind: 'i', Size: 1}, []byte{0xff}, math.MaxUint64, -1},
		{Dtype{Kind: 'i', Size: 2, Order: '>'}, []byte{0xff, 0xfe}, math.MaxUint64 - 1, -2},
		{Dtype{Kind: 'u', Size: 2, Order: '>'}, []byte{0xff, 0xfe}, 0xfffe, 0xfffe},
		{Dtype{Kind: 'i', Size: 4}, []byte{0, 0, 0, 0x80}, 0xffffffff80000000, math.MinInt32},
		{Dtype{Kind: 'f', Size: 2}, []byte{0x00, 0x3c}, 0x3c00, 1},
		{Dtype{Kind: 'f', Size: 4, Order: '>'}, []byte{0xbf, 0x80, 0, 0}, 0xbf800000, -1},
		{Dtype{Kind: 'b', Size: 1}, []byte{2}, 2, 1},
	} {
		if got := c.d.Bits(c.b); got != c.bits {
			t.Errorf("%s Bits(%x) = %#x, want %#x", c.d.Descr(), c.b, got, c.bits)
		}
		if got := c.d.Float(c.b); got != c.f {
			t.Errorf("%s Float(%x) = %v, want %v", c.d.Descr(), c.b, got, c.f)
		}
	}
	neg, mag := Dtype{Kind: 'i', Size: 8}.Int([]byte{0, 0, 0, 0, 0, 0, 0, 0x80})
	if !neg || mag != 1<<63 {
		t.Fatalf("MinInt64 = %v %d", neg, mag)
	}
}
