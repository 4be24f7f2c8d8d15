package dtype

// The type rules of NumPy 1.24's reductions: which dtype np.sum, np.mean,
// np.var and their kin accumulate in, and which dtype their result has.
// Every dtype returned is in native byte order: NumPy computes and returns
// reductions in the machine's order whatever the input's.

// NativeOf is d in the machine's byte order ('<', or '|' for one byte).
func NativeOf(d Dtype) Dtype {
	if d.Size == 1 {
		d.Order = '|'
	} else {
		d.Order = '<'
	}
	return d
}

// RealOf is the dtype of one part of a complex dtype (complex64 → float32),
// and d itself (native) for every other kind: the dtype of x.real.
func RealOf(d Dtype) Dtype {
	if d.Kind == 'c' {
		return NativeOf(d.Part())
	}
	return NativeOf(d)
}

// AddReduceDtype is the dtype np.add.reduce and np.multiply.reduce (np.sum,
// np.prod) accumulate in and return when no dtype is given: bool becomes
// int64, a signed integer narrower than 8 bytes int64 and an unsigned one
// uint64 (ufunc_object.c, reducelike_promote_and_resolve, "at least a
// long"); floats and complex numbers, int64 and uint64 stay.
func AddReduceDtype(in Dtype) Dtype {
	switch {
	case in.Kind == 'b':
		return Int64
	case in.Kind == 'i' && in.Size < 8:
		return Int64
	case in.Kind == 'u' && in.Size < 8:
		return Dtype{Kind: 'u', Size: 8, Order: '<'}
	}
	return NativeOf(in)
}

// MeanDtypes are the dtype np.mean sums in when no dtype is given and the
// dtype of its result (numpy/core/_methods.py, _mean): bool and integers
// are summed and returned as float64; float16 is summed in float32 and the
// mean cast back to float16; other floats and complex numbers keep their
// dtype.
func MeanDtypes(in Dtype) (sum, result Dtype) {
	f8 := Dtype{Kind: 'f', Size: 8, Order: '<'}
	switch {
	case in.Kind == 'b' || in.Kind == 'i' || in.Kind == 'u':
		return f8, f8
	case in.Kind == 'f' && in.Size == 2:
		return Dtype{Kind: 'f', Size: 4, Order: '<'}, NativeOf(in)
	}
	return NativeOf(in), NativeOf(in)
}

// VarSumDtype is the dtype np.var and np.std sum in when no dtype is given
// (_methods.py, _var): float64 for bool and integers, else the input's own
// dtype. Unlike np.mean, float16 is summed in float16.
func VarSumDtype(in Dtype) Dtype {
	if in.Kind == 'b' || in.Kind == 'i' || in.Kind == 'u' {
		return Dtype{Kind: 'f', Size: 8, Order: '<'}
	}
	return NativeOf(in)
}

// TrueDivideLoop is the loop dtype of np.true_divide(a, n) for an array a
// of dtype d and an np.intp n (the count np.mean and np.var divide by):
// NumPy 1.24's value-based casting counts n as the smallest type that holds
// its value (ResultType), so a float16 array divided by 1000 runs in
// float32 and by 100000 in float64; an integer or bool result takes the
// true-division resolver's 'dd->d' loop.
func TrueDivideLoop(d Dtype, n int64) Dtype {
	var b [8]byte
	for i := range b {
		b[i] = byte(uint64(n) >> (8 * i))
	}
	l := ResultType(Operand{Dtype: NativeOf(d)}, Operand{Dtype: Int64, Scalar: b[:]})
	if l.Kind != 'f' && l.Kind != 'c' {
		return Float64
	}
	return l
}

// ScalarDivideDtype is the dtype NumPy 1.24's scalar arithmetic computes
// s / n in for a NumPy scalar s of dtype d and an np.int64 n: the promotion
// of d with int64 (float16 and float32 with int64 give float64, complex64
// gives complex128), float64 for bool and integers.
func ScalarDivideDtype(d Dtype) Dtype {
	p := PromoteTypes(NativeOf(d), Int64)
	if p.Kind != 'f' && p.Kind != 'c' {
		return Dtype{Kind: 'f', Size: 8, Order: '<'}
	}
	return p
}

// Float64 is float64 in native byte order.
var Float64 = Dtype{Kind: 'f', Size: 8, Order: '<'}
