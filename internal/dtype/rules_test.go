package dtype

import (
	"encoding/hex"
	"strings"
	"testing"
)

// parseDescr reads a descr of the tables, failing the test on another.
func parseDescr(t *testing.T, s string) Dtype {
	t.Helper()
	d, ok := Parse(s)
	if !ok {
		t.Fatalf("table dtype %q does not parse", s)
	}
	return d
}

// parseOperand reads an operand of result_type.txt: a descr (an array) or
// DESCR=HEX (a 0-d array holding those bytes).
func parseOperand(t *testing.T, s string) Operand {
	t.Helper()
	descr, elem, scalar := strings.Cut(s, "=")
	o := Operand{Dtype: parseDescr(t, descr)}
	if scalar {
		b, err := hex.DecodeString(elem)
		if err != nil || len(b) != o.Dtype.Size {
			t.Fatalf("operand %q: %d bytes, %v", s, len(b), err)
		}
		o.Scalar = b
	}
	return o
}

// TestCanCast checks every pair of the 25 numeric dtypes (both byte
// orders) under every casting rule against numpy.can_cast.
func TestCanCast(t *testing.T) {
	rows := readTable(t, "can_cast.txt")
	if len(rows) != 25*25 {
		t.Fatalf("%d pairs, want 625", len(rows))
	}
	for _, r := range rows {
		from, to := parseDescr(t, r[0]), parseDescr(t, r[1])
		for i, casting := range Castings {
			if got, want := CanCast(from, to, casting), r[2][i] == '1'; got != want {
				t.Errorf("CanCast(%s, %s, %s) = %v, NumPy %v", r[0], r[1], casting, got, want)
			}
		}
	}
	if CanCast(Dtype{'f', 4, '<'}, Dtype{'f', 4, '<'}, "sometimes") {
		t.Error("an unknown casting rule allowed a cast")
	}
}

// TestCanCastScalar checks CanCastScalar against numpy.can_cast of 0-d
// arrays holding values at the edges of min_scalar_type's steps, every
// dtype in both byte orders as the target, under every casting rule.
func TestCanCastScalar(t *testing.T) {
	rows := readTable(t, "can_cast_scalar.txt")
	if len(rows) < 25*300 {
		t.Fatalf("%d rows, want the table's thousands", len(rows))
	}
	for _, r := range rows {
		o, to := parseOperand(t, r[0]), parseDescr(t, r[1])
		for i, casting := range Castings {
			if got, want := CanCastScalar(o.Dtype, o.Scalar, to, casting), r[2][i] == '1'; got != want {
				t.Errorf("CanCastScalar(%s, %s, %s) = %v, NumPy %v", r[0], r[1], casting, got, want)
			}
		}
	}
	if CanCastScalar(Int64, make([]byte, 8), Int64, "sometimes") {
		t.Error("an unknown casting rule allowed a cast")
	}
}

// TestResultType checks ResultType against numpy.result_type of arrays
// and 0-d arrays (NumPy 1.24's value-based casting), and PromoteTypes
// where no operand is 0-d.
func TestResultType(t *testing.T) {
	scalars := 0
	for _, r := range readTable(t, "result_type.txt") {
		if len(r) < 3 || r[len(r)-2] != "->" {
			t.Fatalf("bad row %q", r)
		}
		want := r[len(r)-1]
		ops := make([]Operand, len(r)-2)
		ds := make([]Dtype, len(ops))
		any0d := false
		for i, s := range r[:len(r)-2] {
			ops[i] = parseOperand(t, s)
			ds[i] = ops[i].Dtype
			any0d = any0d || ops[i].Scalar != nil
		}
		name := strings.Join(r[:len(r)-2], ",")
		if got := ResultType(ops...); got.Descr() != want {
			t.Errorf("ResultType(%s) = %s, NumPy %s", name, got.Descr(), want)
		}
		if any0d {
			scalars++
		} else if got := PromoteTypes(ds...); got.Descr() != want {
			t.Errorf("PromoteTypes(%s) = %s, NumPy %s", name, got.Descr(), want)
		}
	}
	if scalars < 1000 {
		t.Fatalf("%d cases with 0-d operands, want the table's thousands", scalars)
	}
}

// TestMinScalarType checks MinScalarType against numpy.min_scalar_type.
func TestMinScalarType(t *testing.T) {
	for _, r := range readTable(t, "min_scalar_type.txt") {
		o := parseOperand(t, r[0])
		if got, _ := MinScalarType(o.Dtype, o.Scalar); got.Descr() != r[2] {
			t.Errorf("MinScalarType(%s) = %s, NumPy %s", r[0], got.Descr(), r[2])
		}
	}
	// The unsigned value that fits the signed type of its size.
	for _, c := range []struct {
		b    []byte
		want string
		fits bool
	}{
		{[]byte{100, 0, 0, 0, 0, 0, 0, 0}, "|u1", true},
		{[]byte{200, 0, 0, 0, 0, 0, 0, 0}, "|u1", false},
		{[]byte{0, 0x80, 0, 0, 0, 0, 0, 0}, "<u2", false},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, "|i1", false}, // -1
	} {
		got, fits := MinScalarType(Int64, c.b)
		if got.Descr() != c.want || fits != c.fits {
			t.Errorf("MinScalarType(int64 %x) = %s %v, want %s %v", c.b, got.Descr(), fits, c.want, c.fits)
		}
	}
}

func TestKindRank(t *testing.T) {
	for i, k := range []byte("buifc") {
		if KindRank(k) != i {
			t.Errorf("KindRank(%q) = %d, want %d", k, KindRank(k), i)
		}
	}
	if KindRank('V') != -1 {
		t.Error("KindRank('V') is not -1")
	}
}
