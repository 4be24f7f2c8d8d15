package dtype

import (
	"math"
	"strings"
)

// Castings are the rules of numpy.can_cast, from the strictest.
var Castings = []string{"no", "equiv", "safe", "same_kind", "unsafe"}

// CanCast is numpy.can_cast(from, to, casting) for the numeric dtypes, one
// of Castings: no (the same dtype, byte order included), equiv (the byte
// order may change), safe (every value of from is exactly a value of to),
// same_kind (safe, or a kind that KindRank does not lower) or unsafe
// (anything). Another casting is refused.
func CanCast(from, to Dtype, casting string) bool {
	switch casting {
	case "unsafe":
		return true
	case "no":
		return from.Descr() == to.Descr()
	case "equiv":
		return from.Kind == to.Kind && from.Size == to.Size
	case "same_kind":
		return safeCast(from, to) || KindRank(from.Kind) <= KindRank(to.Kind)
	case "safe":
		return safeCast(from, to)
	}
	return false
}

// CanCastScalar is numpy.can_cast of a 0-d array holding the element b of
// dtype from (NumPy 1.24's value-based casting, can_cast_scalar_to, which
// a.astype(to, casting=...) applies too): CanCast(from, to, casting), or
// else CanCast of the value's MinScalarType, taken as the signed type of
// its size where the value fits one and to is not unsigned. Every rule but
// unsafe looks at the value, no and equiv included: an int64 0-d array
// holding 5 casts to int16 under safe and to uint8 under no, one holding
// -1 to uint8 under none but unsafe.
func CanCastScalar(from Dtype, b []byte, to Dtype, casting string) bool {
	if CanCast(from, to, casting) {
		return true
	}
	t, fitsSigned := MinScalarType(from, b)
	if fitsSigned && to.Kind != 'u' {
		t.Kind = 'i'
	}
	return CanCast(t, to, casting)
}

// KindRank orders the kinds as same_kind casting lets them rise: bool 0,
// unsigned 1, signed 2, float 3, complex 4; -1 for another byte.
func KindRank(kind byte) int {
	return strings.IndexByte("buifc", kind)
}

// scalarRank is NumPy 1.24's coarser order of kinds for value-based
// casting (dtype_kind_to_simplified_ordering): bool 0, integers 1, floats
// and complex numbers 2.
func scalarRank(kind byte) int {
	return []int{0, 1, 1, 2, 2}[KindRank(kind)]
}

// safeCast is numpy.can_cast(from, to, 'safe'): every value of from is
// exactly a value of to (NumPy counts int64 and uint64 to float64 as safe).
func safeCast(from, to Dtype) bool {
	switch {
	case from.Kind == 'b':
		return true
	case from.Kind == to.Kind:
		return to.Size >= from.Size
	case to.Kind == 'b':
		return false
	}
	switch from.Kind {
	case 'u':
		if to.Kind == 'i' {
			return to.Size > from.Size
		}
		fallthrough
	case 'i':
		if to.Kind == 'u' {
			return false
		}
		// The float that holds every value: twice the size, at most float64.
		f := min(2*from.Size, 8)
		if to.Kind == 'c' {
			return to.Size >= max(2*f, 8)
		}
		return to.Kind == 'f' && to.Size >= f
	case 'f':
		return to.Kind == 'c' && to.Size >= max(2*from.Size, 8)
	}
	return false
}

// promotionOrder is the numeric dtypes by kind (bool, unsigned, signed,
// float, complex) and then size: PromoteTypes takes the first that every
// operand casts to safely.
var promotionOrder = []Dtype{
	{'b', 1, '|'},
	{'u', 1, '|'}, {'u', 2, '<'}, {'u', 4, '<'}, {'u', 8, '<'},
	{'i', 1, '|'}, {'i', 2, '<'}, {'i', 4, '<'}, {'i', 8, '<'},
	{'f', 2, '<'}, {'f', 4, '<'}, {'f', 8, '<'},
	{'c', 8, '<'}, {'c', 16, '<'},
}

// PromoteTypes is numpy.result_type of arrays (with at least one axis) of
// dtypes ds, numpy.promote_types folded over them: the first numeric
// dtype, by kind and then size, to which every one casts safely, in
// native byte order.
func PromoteTypes(ds ...Dtype) Dtype {
	for _, cand := range promotionOrder {
		all := true
		for _, d := range ds {
			all = all && safeCast(d, cand)
		}
		if all {
			return cand
		}
	}
	return Dtype{Kind: 'c', Size: 16, Order: '<'} // not reached: every dtype casts safely to complex128
}

// Operand is one argument of ResultType: an array's dtype, and the one
// element of a 0-d array, whose dtype NumPy 1.24 may set aside for its
// value.
type Operand struct {
	Dtype  Dtype
	Scalar []byte // a 0-d array's element in Dtype's byte order; nil for an array with axes
}

// ResultType is numpy.result_type of the operands (NumPy 1.24), in native
// byte order: PromoteTypes of their dtypes, unless some are 0-d arrays and
// none of those is of a higher kind (bool, then integers, then floats and
// complex numbers) than the highest among the others. Then each 0-d
// operand counts as MinScalarType of its value, and the types are promoted
// pairwise, an unsigned value that fits the signed type of its size
// promoting as that signed type against a signed or float type: int8 and
// an int64 0-d array holding 100 give int8, and holding 200, int16.
func ResultType(ops ...Operand) Dtype {
	arrays, scalars := -1, -1 // the highest scalarRank of each
	ds := make([]Dtype, len(ops))
	for i, o := range ops {
		ds[i] = o.Dtype
		if o.Scalar != nil {
			scalars = max(scalars, scalarRank(o.Dtype.Kind))
		} else {
			arrays = max(arrays, scalarRank(o.Dtype.Kind))
		}
	}
	if scalars < 0 || arrays < 0 || scalars > arrays {
		return PromoteTypes(ds...)
	}
	var ret Dtype
	retSmall := false
	for i, o := range ops {
		t, small := o.Dtype, false
		if o.Scalar != nil {
			t, small = MinScalarType(o.Dtype, o.Scalar)
		}
		if i == 0 {
			ret, retSmall = t, small
			continue
		}
		a, b := t, ret
		if small && b.Kind != 'b' && b.Kind != 'u' {
			a.Kind = 'i'
		} else if retSmall && a.Kind != 'b' && a.Kind != 'u' {
			b.Kind = 'i'
		}
		ret, retSmall = PromoteTypes(a, b), small && retSmall
	}
	return ret
}

// MinScalarType is numpy.min_scalar_type of the element b of dtype d
// (NumPy 1.24, min_scalar_type_num), in native byte order: the smallest
// type of its kind that holds the value (a non-negative integer, an
// unsigned type; a float, by its range alone: NaN and ±inf need float16;
// float16 and complex64 have no smaller type), and whether it is an
// unsigned value that fits the signed type of that size.
func MinScalarType(d Dtype, b []byte) (t Dtype, fitsSigned bool) {
	t = Dtype{Kind: d.Kind, Size: d.Size, Order: '<'}
	switch d.Kind {
	case 'u', 'i':
		x := d.Bits(b)
		if d.Kind == 'i' && int64(x) < 0 {
			for _, size := range []int{1, 2, 4, 8} {
				if int64(x) >= -1<<(8*size-1) {
					return Dtype{Kind: 'i', Size: size, Order: '<'}, false
				}
			}
		}
		for _, size := range []int{1, 2, 4, 8} {
			if size == 8 || x < 1<<(8*size) {
				return Dtype{Kind: 'u', Size: size, Order: '<'}, x < 1<<(8*size-1)
			}
		}
	case 'f', 'c':
		if d.Size == 2 || d.Kind == 'c' && d.Size == 8 {
			return t, false
		}
		z := d.Complex(b)
		re, im := real(z), imag(z)
		fits32 := func(x float64) bool { return x > -3.4e38 && x < 3.4e38 }
		switch {
		case d.Kind == 'c':
			if fits32(re) && fits32(im) {
				t.Size = 8
			}
		case re > -65000 && re < 65000 || math.IsNaN(re) || math.IsInf(re, 0):
			t.Size = 2
		case d.Size == 8 && fits32(re):
			t.Size = 4
		}
	}
	if t.Size == 1 {
		t.Order = '|'
	}
	return t, false
}
