package ops

import (
	"math"
	"unsafe"

	"strider/internal/dtype"
)

// Summary is what Stats computes over every element of a view.
//
// Min and Max are exact in the element type: MinFloat/MaxFloat for float
// and complex views (complex: of the magnitude), MinInt/MaxInt for bool
// and signed views, MinUint/MaxUint for unsigned ones. HasMinMax is false
// when no element is a number (empty, or all NaN), where np.nanmin raises.
type Summary struct {
	Count, NaN, PosInf, NegInf, Zero int
	HasMinMax                        bool
	MinFloat, MaxFloat               float64
	MinInt, MaxInt                   int64
	MinUint, MaxUint                 uint64
	// Mean and Std are np.nanmean(a, dtype=float64) and
	// np.nanstd(a, dtype=float64): NaN when no element is a number.
	Mean, Std float64
}

// moments is the running count, mean and sum of squared deviations of the
// finite values seen so far, with their extremes and class counts.
type moments struct {
	n        int
	mean, m2 float64
	nan, pos int
	neg, zr  int
	has      bool
	lo, hi   float64
	ilo, ihi int64
	ulo, uhi uint64
}

// merge folds b into m: Chan, Golub and LeVeque's pairwise update of the
// mean and the sum of squared deviations, which keeps full precision when
// the mean is large against the spread (1e8 plus noise).
func (m *moments) merge(b moments) {
	switch {
	case b.n == 0: // squared deviations only (the second pass)
		m.m2 += b.m2
	case m.n == 0:
		m.n, m.mean, m.m2 = b.n, b.mean, m.m2+b.m2
	default:
		d := b.mean - m.mean
		n := m.n + b.n
		w := float64(b.n) / float64(n)
		m.mean += d * w
		m.m2 += b.m2 + d*d*float64(m.n)*w
		m.n = n
	}
	m.nan += b.nan
	m.pos += b.pos
	m.neg += b.neg
	m.zr += b.zr
	if b.has {
		if !m.has {
			m.lo, m.hi, m.ilo, m.ihi, m.ulo, m.uhi = b.lo, b.hi, b.ilo, b.ihi, b.ulo, b.uhi
		} else {
			m.lo, m.hi = min(m.lo, b.lo), max(m.hi, b.hi)
			m.ilo, m.ihi = min(m.ilo, b.ilo), max(m.ihi, b.ihi)
			m.ulo, m.uhi = min(m.ulo, b.ulo), max(m.uhi, b.uhi)
		}
		m.has = true
	}
}

// foldFloats folds a batch of floats: NaNs and infinities are counted, the
// finite values go into the moments by the corrected two-pass formula over
// the batch (which sits in L1): with m the batch's rough mean and c the
// sum of x - m, the mean is m + c/n and M2 is sum((x-m)^2) - c^2/n.
func foldFloats[F float32 | float64](st *moments, xs []F, m2 bool) {
	// Plain locals (not fields of a struct whose address is taken) keep
	// the loop's state in registers.
	lo, hi := math.Inf(1), math.Inf(-1)
	var s0, s1 float64
	nan, zr := 0, 0
	k := 0
	for ; k+1 < len(xs); k += 2 {
		x, y := float64(xs[k]), float64(xs[k+1])
		if x != x || y != y || x == 0 || y == 0 {
			// NaN or zero: rare, so handled apart from the main path.
			for _, v := range [2]float64{x, y} {
				if v != v {
					nan++
					continue
				}
				if v == 0 {
					zr++
				}
				lo, hi = min(lo, v), max(hi, v)
				s0 += v
			}
			continue
		}
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
		if y < lo {
			lo = y
		}
		if y > hi {
			hi = y
		}
		s0 += x
		s1 += y
	}
	if k < len(xs) {
		switch v := float64(xs[k]); {
		case v != v:
			nan++
		default:
			if v == 0 {
				zr++
			}
			lo, hi = min(lo, v), max(hi, v)
			s0 += v
		}
	}
	// The integer extremes start at their identities, so that merging
	// this batch leaves them to the integer folds.
	b := moments{lo: lo, hi: hi, nan: nan, zr: zr, ilo: math.MaxInt64, ihi: math.MinInt64, ulo: math.MaxUint64}
	b.has = len(xs) > b.nan
	n, sum := len(xs)-b.nan, s0+s1
	if b.lo < -math.MaxFloat64 || b.hi > math.MaxFloat64 {
		b.pos, b.neg, sum = countInfs(xs)
		n -= b.pos + b.neg
	}
	if n > 0 {
		mean := sum / float64(n)
		b.n, b.mean = n, mean
		if m2 {
			c, q := deviations(xs, mean)
			b.mean += c / float64(n)
			b.m2 = max(0, q-c*c/float64(n))
		}
	}
	st.merge(b)
}

// countInfs counts the infinities of xs and sums the finite values: the
// sum of foldFloats' first pass, which counted the infinities in.
func countInfs[F float32 | float64](xs []F) (pos, neg int, sum float64) {
	for _, x := range xs {
		v := float64(x)
		switch {
		case v > math.MaxFloat64:
			pos++
		case v < -math.MaxFloat64:
			neg++
		case v == v:
			sum += v
		}
	}
	return pos, neg, sum
}

// deviations is foldFloats' second pass: the sums of x - mean and of its
// square over the finite values of xs.
func deviations[F float32 | float64](xs []F, mean float64) (c, q float64) {
	for _, x := range xs {
		if d := float64(x) - mean; d-d == 0 { // skips NaN and ±inf
			c += d
			q += d * d
		}
	}
	return c, q
}

// foldInts folds a batch of integers, exact for the extremes; the mean
// and M2 are of their float64 values, as NumPy's dtype=float64 reductions.
// The extremes are returned for the caller to merge: foldFloats folds the
// float64 values (and counts the zeros).
func foldInts[I int64 | uint64](st *moments, xs []I, fs []float64) (lo, hi I) {
	lo, hi = xs[0], xs[0]
	for k, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
		fs[k] = float64(x)
	}
	foldFloats(st, fs[:len(xs)], true)
	return lo, hi
}

// Stats computes the Summary of v, whose elements are encoded as f, in one
// pass on opt.Threads threads. Integers and bools are exact in min and max;
// the mean and standard deviation are of the float64 values, as
// np.nanmean(a, dtype=float64) and np.nanstd(a, dtype=float64) (ddof 0),
// to within a few units in the last place. Complex elements contribute
// their magnitude, np.abs(a).
//
// Element order does not matter, so the axes are first reordered to walk
// memory forwards (a Fortran file is then one contiguous run); the walk is
// then split into chunks of runs along the innermost axis, as AllClose does.
// Axes of stride 0 (torch's expand) are not walked: each element is read
// once and counted as often as it repeats (see DropRepeats), so the time is
// that of the distinct elements, however large the view.
//
// It advances opt.Done by StatsWork(v, f) bytes as it reads.
func Stats(v View, f dtype.Dtype, opt Options) (Summary, error) {
	if err := f.CheckElem(v.Elem); err != nil {
		return Summary{}, err
	}
	if err := v.Check(); err != nil {
		return Summary{}, err
	}
	n := v.Count()
	res := Summary{Count: n, Mean: math.NaN(), Std: math.NaN()}
	if n == 0 {
		return res, nil
	}
	// Each element of v stands `times` times in the view Stats was given:
	// the counts scale by it, and the mean and the variance are those of v.
	in := v
	v, times := DropRepeats(v)
	total := mergeTree(walkStats(v, f, opt, newStatsFolder(f)))
	res.NaN, res.PosInf, res.NegInf, res.Zero = times*total.nan, times*total.pos, times*total.neg, times*total.zr
	res.HasMinMax = total.has
	res.MinFloat, res.MaxFloat = total.lo, total.hi
	res.MinInt, res.MaxInt = total.ilo, total.ihi
	res.MinUint, res.MaxUint = total.ulo, total.uhi
	switch f.Kind {
	case 'b', 'i':
		res.MinFloat, res.MaxFloat = float64(total.ilo), float64(total.ihi)
	case 'u':
		if fitsInt64(f) { // decoded as int64s
			res.MinUint, res.MaxUint = uint64(total.ilo), uint64(total.ihi)
		}
		res.MinFloat, res.MaxFloat = float64(res.MinUint), float64(res.MaxUint)
	}
	numbers := total.n + total.pos + total.neg
	round, walked := narrowRounding(f), false
	switch {
	case numbers == 0:
	case total.pos > 0 && total.neg > 0:
		res.Mean = math.NaN()
	case total.pos > 0:
		res.Mean = math.Inf(1)
	case total.neg > 0:
		res.Mean = math.Inf(-1)
	case times == 1 && f.Kind == 'f' && f.Size == 8 && math.Max(-total.lo, total.hi) >= math.MaxFloat64/float64(total.n):
		// NumPy's mean is its float64 sum over the count, and its
		// variance the mean of the squared deviations: where the largest
		// magnitude times the count reaches the largest float64, a sum
		// may overflow (inf, or NaN from both signs) and the merged
		// moments would not say so; NumPy's own reductions do.
		mean, ok1 := numpyMoment(ReduceNanmean, in, f, opt)
		std, ok2 := numpyMoment(ReduceNanstd, in, f, opt)
		if ok1 && ok2 {
			res.Mean, res.Std = mean, std
			break
		}
		fallthrough
	default:
		res.Mean = total.mean
		res.Std = math.Sqrt(total.m2 / float64(total.n))
		if round != nil {
			// np.nanstd stores x - mean (taken in float64) and its square in
			// the array's own float type (float32 for complex64 magnitudes),
			// then sums in float64: a second pass repeats exactly that.
			dev := mergeTree(walkStats(v, f, opt, newDeviationFolder(f, res.Mean, round)))
			res.Std = math.Sqrt(dev.m2 / float64(total.n))
			walked = true
		}
	}
	if round != nil && !walked && opt.Done != nil {
		// The second pass StatsWork counts was not needed: its share is done.
		opt.Done.Add(int64(v.Count() * f.Size))
	}
	return res, nil
}

// numpyMoment is np.nanmean(v) or np.nanstd(v) of a float64 view, in
// NumPy's order (Reduce); ok false if Reduce fails.
func numpyMoment(op ReduceOp, v View, f dtype.Dtype, opt Options) (float64, bool) {
	var out [8]byte
	if _, err := Reduce(out[:], op, v, f, ReduceOptions{Options: Options{Threads: opt.Threads, tune: opt.tune}}); err != nil {
		return 0, false
	}
	return real(dtype.NativeOf(f).Complex(out[:])), true // a ufunc's result is native
}

// StatsWork is the bytes Stats advances Options.Done by over v: those of
// each distinct element (see DropRepeats) once, twice for the float types
// whose standard deviation takes a second pass (float16, float32 and
// complex64).
func StatsWork(v View, f dtype.Dtype) int64 {
	distinct, _ := DropRepeats(v)
	n := int64(distinct.Count()) * int64(f.Size)
	if narrowRounding(f) != nil {
		n *= 2
	}
	return n
}

// DropRepeats returns v less its axes of stride 0 (an expanded torch
// tensor, np.broadcast_to), and how many times each element of the result
// stands in v: the product of the dropped extents. A statistic that does
// not depend on the order of the elements (a count, the extremes, the mean,
// the variance) is the same over v as over the result with each element
// weighed that many times.
func DropRepeats(v View) (View, int) {
	times := 1
	w := View{Elem: v.Elem, Data: v.Data, Offset: v.Offset}
	for k, n := range v.Shape {
		if v.Strides[k] == 0 && n > 0 {
			times *= n
			continue
		}
		w.Shape = append(w.Shape, n)
		w.Strides = append(w.Strides, v.Strides[k])
	}
	return w, times
}

// walkStats folds every element of v into one moments per chunk, on
// opt.Threads threads. Element order does not matter, so the axes are
// first reordered to walk memory forwards (a Fortran file is then one
// contiguous run); the walk is split into chunks of runs along the
// innermost axis, as AllClose does.
func walkStats(v View, f dtype.Dtype, opt Options, newFold func() statsFolder) []moments {
	n := v.Count()
	shape, strides, base := memoryOrder(v)
	calc := NewOffsetCalculator(shape, strides)
	inner, step := 1, 0
	if nd := len(shape); nd > 0 {
		inner, step = shape[nd-1], strides[nd-1]
	}
	threads := opt.threads()
	if n*f.Size < parallelMin {
		threads = 1
	}
	const chunk = 1 << 14
	chunks := ceilDiv(n, chunk)
	results := make([]moments, chunks)
	parallel(chunks, threads, func(lo, hi int) {
		idx := make([]int, len(shape))
		fold := newFold()
		for c := lo; c < hi; c++ {
			last := min(n, (c+1)*chunk)
			var st moments
			for i := c * chunk; i < last; {
				off, _ := calc.Index(i, idx)
				m := min(inner-i%inner, last-i, compareBatch)
				fold(&st, v.Data, base+off, step, m)
				i += m
			}
			results[c] = st
			if opt.Done != nil {
				opt.Done.Add(int64((last - c*chunk) * f.Size))
			}
		}
	})
	return results
}

// narrowRounding returns the rounding to the float type NumPy computes
// np.nanstd's deviations in, or nil when that is float64.
func narrowRounding(f dtype.Dtype) func(float64) float64 {
	switch {
	case f.Kind == 'f' && f.Size == 2:
		return dtype.RoundHalf
	case f.Kind == 'f' && f.Size == 4, f.Kind == 'c' && f.Size == 8:
		return func(x float64) float64 { return float64(float32(x)) }
	}
	return nil
}

// newDeviationFolder sums round(round(x - mean)^2) over the non-NaN
// values in float64, as np.nanstd does for a narrow float array: x - mean
// is taken in float64 (the mean is a float64 array of shape (1,), so no
// value-based casting) and stored rounded; the square of a rounded
// deviation is exact in float64, so one rounding of it equals NumPy's.
func newDeviationFolder(f dtype.Dtype, mean float64, round func(float64) float64) func() statsFolder {
	return func() statsFolder {
		fs := make([]float64, compareBatch)
		return func(st *moments, b []byte, off, step, m int) {
			if f.Kind == 'f' && f.Size == 4 && !f.BigEndian() && step == 4 {
				st.m2 += squaredDeviations32(unsafe.Slice((*float32)(unsafe.Pointer(&b[off])), m), mean)
				return
			}
			decodeMagnitudes(fs[:m], b, off, step, f)
			sum := 0.0
			for _, x := range fs[:m] {
				if x == x {
					d := round(x - mean)
					sum += round(d * d)
				}
			}
			st.m2 += sum
		}
	}
}

// squaredDeviations32 is the deviation fold for float32 values in place.
func squaredDeviations32(xs []float32, mean float64) float64 {
	var s0, s1 float64
	k := 0
	for ; k+1 < len(xs); k += 2 {
		d0 := float64(float32(float64(xs[k]) - mean))
		d1 := float64(float32(float64(xs[k+1]) - mean))
		q0 := float64(float32(d0 * d0))
		q1 := float64(float32(d1 * d1))
		if q0 == q0 {
			s0 += q0
		}
		if q1 == q1 {
			s1 += q1
		}
	}
	if k < len(xs) {
		d := float64(float32(float64(xs[k]) - mean))
		if q := float64(float32(d * d)); q == q {
			s0 += q
		}
	}
	return s0 + s1
}

// mergeTree merges the chunks' moments pairwise, so rounding grows with
// the logarithm of the chunk count, as NumPy's pairwise sum does.
func mergeTree(ms []moments) moments {
	switch len(ms) {
	case 0:
		return moments{}
	case 1:
		return ms[0]
	}
	a := mergeTree(ms[:len(ms)/2])
	a.merge(mergeTree(ms[len(ms)/2:]))
	return a
}

// statsFolder folds m elements at b[off], b[off+step], ... into st.
type statsFolder func(st *moments, b []byte, off, step, m int)

// newStatsFolder decodes each batch once into buffers of float64 (floats),
// int64 (bools, signed and narrower unsigned integers) or uint64 values.
func newStatsFolder(f dtype.Dtype) func() statsFolder {
	return func() statsFolder { return statsFolderFor(f) }
}

// decodeMagnitudes decodes floats as they are and complex numbers as
// np.abs computes their magnitude.
func decodeMagnitudes(dst []float64, b []byte, off, step int, f dtype.Dtype) {
	if f.Kind != 'c' {
		decodeFloats(dst, b, off, step, f)
		return
	}
	for k := range dst {
		z := f.Complex(b[off+k*step:])
		if f.Size == 8 {
			dst[k] = float64(absComplex64(float32(real(z)), float32(imag(z))))
		} else {
			dst[k] = absComplex128(real(z), imag(z))
		}
	}
}

func statsFolderFor(f dtype.Dtype) statsFolder {
	fs := make([]float64, compareBatch)
	m2 := narrowRounding(f) == nil // else a second pass computes the std
	switch {
	case f.Kind == 'f' || f.Kind == 'c':
		native := f.Kind == 'f' && !f.BigEndian() && f.Size >= 4
		return func(st *moments, b []byte, off, step, m int) {
			switch {
			case native && step == 4 && f.Size == 4:
				foldFloats(st, unsafe.Slice((*float32)(unsafe.Pointer(&b[off])), m), m2)
			case native && step == 8 && f.Size == 8:
				foldFloats(st, unsafe.Slice((*float64)(unsafe.Pointer(&b[off])), m), m2)
			default:
				decodeMagnitudes(fs[:m], b, off, step, f)
				foldFloats(st, fs[:m], m2)
			}
		}
	case fitsInt64(f):
		is := make([]int64, compareBatch)
		return func(st *moments, b []byte, off, step, m int) {
			decodeInts(is[:m], b, off, step, f)
			lo, hi := foldInts(st, is[:m], fs)
			st.merge(moments{has: true, lo: st.lo, hi: st.hi, ilo: lo, ihi: hi})
		}
	}
	us := make([]uint64, compareBatch)
	return func(st *moments, b []byte, off, step, m int) {
		decodeBits(us[:m], b, off, step, f)
		lo, hi := foldInts(st, us[:m], fs)
		st.merge(moments{has: true, lo: st.lo, hi: st.hi, ulo: lo, uhi: hi})
	}
}

// memoryOrder returns v's axes, with byte strides, reordered to walk its
// storage forwards: reversed axes flipped, then sorted by decreasing stride,
// size-1 axes dropped and neighbours that move together merged. base is
// the byte offset of the first element of the walk.
func memoryOrder(v View) (shape, strides []int, base int) {
	off := v.Offset
	type ax struct{ n, s int }
	axes := make([]ax, 0, len(v.Shape))
	for k, n := range v.Shape {
		s := v.Strides[k]
		if n == 1 {
			continue
		}
		if s < 0 {
			off += (n - 1) * s
			s = -s
		}
		axes = append(axes, ax{n, s})
	}
	for i := 1; i < len(axes); i++ {
		for j := i; j > 0 && axes[j].s > axes[j-1].s; j-- {
			axes[j], axes[j-1] = axes[j-1], axes[j]
		}
	}
	for _, a := range axes {
		if m := len(shape); m > 0 && strides[m-1] == a.n*a.s*v.Elem {
			shape[m-1] *= a.n
			strides[m-1] = a.s * v.Elem
			continue
		}
		shape, strides = append(shape, a.n), append(strides, a.s*v.Elem)
	}
	return shape, strides, off * v.Elem
}

// absComplex128 is np.abs of a complex128 as NumPy 1.24 computes it through
// npy_hypot, that is glibc's hypot (2.35 and later, sysdeps/ieee754/dbl-64/
// e_hypot.c without FMA, as Debian builds it): sqrt(ax*ax + ay*ay) with
// Borges' one-step correction, and scaling by 2^±600 where a square would
// overflow or underflow. Every product is converted to float64 so that no
// compiler fuses it into an FMA (Go may, on arm64). NumPy's AVX-512F loop,
// taken on machines that have AVX-512F, differs in the last place now and
// then; docs/behaviour.md says so, and the parity check allows for it.
func absComplex128(re, im float64) float64 {
	if math.IsInf(re, 0) || math.IsInf(im, 0) {
		return math.Inf(1)
	}
	if re != re || im != im {
		return math.NaN()
	}
	const (
		scale = 0x1p-600
		large = 0x1p+511
		tiny  = 0x1p-459
		eps   = 0x1p-54
	)
	x, y := math.Abs(re), math.Abs(im)
	ax, ay := x, y
	if x < y {
		ax, ay = y, x
	}
	switch {
	case ax > large:
		if ay <= float64(ax*eps) {
			return ax + ay
		}
		return hypotKernel(ax*scale, ay*scale) / scale
	case ay < tiny:
		if ax >= ay/eps {
			return ax + ay
		}
		return hypotKernel(ax/scale, ay/scale) * scale
	case ay <= float64(ax*eps):
		return ax + ay
	}
	return hypotKernel(ax, ay)
}

// hypotKernel is glibc's kernel for ax >= ay >= 0 whose squares neither
// overflow nor underflow.
func hypotKernel(ax, ay float64) float64 {
	h := math.Sqrt(float64(ax*ax) + float64(ay*ay))
	var t1, t2 float64
	if h <= 2*ay {
		delta := h - ay
		t1 = float64(ax * float64(2*delta-ax))
		t2 = float64(float64(delta-float64(2*(ax-ay))) * delta)
	} else {
		delta := h - ax
		t1 = float64(float64(2*delta) * float64(ax-2*ay))
		t2 = float64(float64(float64(4*delta)-ay)*ay) + float64(delta*delta)
	}
	return h - (t1+t2)/(2*h)
}

// absComplex64 is np.abs of a complex64: glibc's hypotf, the square root of
// the sum of the squares in float64 (each square exact there), rounded to
// float32.
func absComplex64(re, im float32) float32 {
	if math.IsInf(float64(re), 0) || math.IsInf(float64(im), 0) {
		return float32(math.Inf(1))
	}
	x, y := float64(re), float64(im)
	return float32(math.Sqrt(float64(x*x) + float64(y*y)))
}
