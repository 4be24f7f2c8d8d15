package ops

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"strider/internal/dtype"
)

// A ufuncKind is the binary ufunc a reduction folds with.
type ufuncKind int

const (
	ufAdd ufuncKind = iota
	ufMultiply
	ufMaximum
	ufMinimum
	ufFmax
	ufFmin
	ufOr  // logical_or on bools (np.any)
	ufAnd // logical_and on bools (np.all)
	// ufNonzero counts the nonzero elements of each output into int64
	// (reduce_nonzero.go): np.count_nonzero, and np.any and np.all.
	ufNonzero
)

// resultDtype is the dtype of uf's results in loop dtype loop: the loop
// dtype but for the count of nonzero elements.
func (u ufuncKind) resultDtype(loop dtype.Dtype) dtype.Dtype {
	if u == ufNonzero {
		return dtype.Int64
	}
	return loop
}

// hasIdentity reports whether NumPy starts the result at the ufunc's
// identity; maximum and friends start at each output's first element and
// refuse an empty reduction.
func (u ufuncKind) hasIdentity() bool {
	return u == ufAdd || u == ufMultiply || u == ufOr || u == ufAnd || u == ufNonzero
}

// stage turns a chunk of values into the next dtype's values; pos is the
// result position of the chunk's first element, step the move from one
// element's to the next; f records the exceptions of its arithmetic. A
// stage never writes into in, which may be the source's own storage.
type stage func(in []byte, pos, step int, f *stageFlags) []byte

// stageFlags are the exceptions of a stage's elementwise operations, by
// the ufunc NumPy names in its warning.
type stageFlags struct{ subtract, cast, multiply, add, reduce fpFlags }

// lockedFlags are stage flags that threads record into.
type lockedFlags struct {
	mu sync.Mutex
	sf stageFlags
}

func (l *lockedFlags) merge(s stageFlags) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sf = l.sf.or(s)
}

func (s stageFlags) or(t stageFlags) stageFlags {
	return stageFlags{s.subtract.or(t.subtract), s.cast.or(t.cast), s.multiply.or(t.multiply), s.add.or(t.add), s.reduce.or(t.reduce)}
}

// allFlags merges the flags of every loader of the job.
func (j *redJob) allFlags() (fpFlags, stageFlags) {
	f := j.flags
	var s stageFlags
	if j.kflags != nil {
		s = j.kflags.sf
		f = f.or(s.reduce)
	}
	for _, l := range j.loaders {
		f = f.or(l.flags)
		s.subtract = s.subtract.or(l.stage.subtract)
		s.multiply = s.multiply.or(l.stage.multiply)
		s.add = s.add.or(l.stage.add)
		s.cast = s.cast.or(l.stage.cast)
		f = f.or(l.stage.reduce)
	}
	return f, s
}

// redJob is one ufunc reduction: src's elements (of dtype from) cast to the
// loop dtype through stages, folded by uf into acc (loop dtype, native, in
// the result's layout) in plan's order.
type redJob struct {
	plan   redPlan
	src    View
	from   dtype.Dtype
	loop   dtype.Dtype
	uf     ufuncKind
	stages func() []stage // per thread; nil: cast from → loop only
	// inPlace: chunks may be read from src's storage as they are (native,
	// aligned, the first axis contiguous; without stages, the loop dtype).
	inPlace bool
	// castIn: NumPy casts or byte-swaps src's elements into a buffer, so
	// every reduce call sees contiguous values (min/max take another path
	// on them).
	castIn bool
	opt    Options
	// kernel, when set, is the fold instead of uf's inner loop for the
	// loop dtype: one that computes its values from the elements itself
	// (reduce_deviation.go), its exceptions in kflags.
	kernel *foldKernel
	kflags *lockedFlags

	// flags gathers the exceptions of the reduction's own arithmetic
	// ("... encountered in reduce"); stageFlags those of its stages (the
	// subtraction and product _var computes on the way), from every
	// loader.
	mu      sync.Mutex
	loaders []*loader
	flags   fpFlags
}

// newRedJob sets up the reduction of src (dtype from) over plan in loop
// dtype loop by uf.
func newRedJob(plan redPlan, src View, from, loop dtype.Dtype, uf ufuncKind, opt Options) *redJob {
	j := &redJob{plan: plan, src: src, from: from, loop: loop, uf: uf, opt: opt}
	j.castIn = !sameNative(from, loop)
	j.inPlace = !j.castIn && len(plan.n) > 0 && plan.src[0] == 1
	return j
}

// foldKernel is the job's fold: its own kernel, else uf's for the loop
// dtype.
func (j *redJob) foldKernel() (foldKernel, error) {
	if j.kernel != nil {
		return *j.kernel, nil
	}
	return kernelFor(j.uf, j.loop, j.opt.tuning().simd)
}

// reduce runs the job into a fresh result buffer, which it returns.
func (j *redJob) reduce() ([]byte, error) {
	k, err := j.foldKernel()
	if err != nil {
		return nil, err
	}
	var words []uint64
	acc := bytesOf(&words, j.plan.outCount*k.size) // a kernel may hold more than the loop dtype
	return acc, j.run(acc)
}

// setStages has the job's elements pass through stages instead of the
// plain cast: they read native source values, in place where the
// source's first axis is contiguous.
func (j *redJob) setStages(stages func() []stage) {
	j.stages = stages
	j.inPlace = !j.from.BigEndian() && len(j.plan.n) > 0 && j.plan.src[0] == 1
}

// sameNative reports whether a is b's kind and size in native byte order.
func sameNative(a, b dtype.Dtype) bool {
	return a.Kind == b.Kind && a.Size == b.Size && !a.BigEndian() && !b.BigEndian()
}

// loader reads the elements of one visit into loop-typed bytes.
type loader struct {
	j *redJob
	p *redPlan // the (part of the) plan this loader reads
	// inPlace: this loader may read chunks in place (see redJob.inPlace).
	inPlace bool
	flags   fpFlags
	stage   stageFlags
	raw     []uint64
	out     []uint64
	wide    []complex128
	stages  []stage
}

func (j *redJob) newLoader(p *redPlan) *loader {
	l := &loader{j: j, p: p, inPlace: j.inPlace}
	j.mu.Lock()
	j.loaders = append(j.loaders, l)
	j.mu.Unlock()
	if j.stages != nil {
		l.stages = j.stages()
	}
	return l
}

// bytesOf is a byte view of n elements of size bytes in buf, grown as
// needed; 8-byte aligned.
func bytesOf(buf *[]uint64, n int) []byte {
	words := (n + 7) / 8
	if cap(*buf) < words {
		*buf = make([]uint64, words)
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(*buf))), n)
}

// load returns elements [from, to) of the visit starting at source offset
// src, in the loop dtype. pos is the result position of element from and
// step the move of the position from one element to the next (0 in a
// block, where every element goes to one result).
func (l *loader) load(src, pos, step, from, to int) []byte {
	j := l.j
	p := l.p
	e := j.src.Elem
	if l.inPlace && (p.first() == 1 || to <= p.a0) {
		b := j.src.Data[(src+from)*e : (src+to)*e]
		if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(alignOf(j.from)) == 0 {
			return l.staged(b, pos, step)
		}
	}
	n := to - from
	raw := bytesOf(&l.raw, n*e)
	l.gather(raw, src, from, to)
	if j.from.BigEndian() {
		swapParts(raw, j.from)
	}
	if l.stages == nil {
		return l.cast(raw, j.from, j.loop)
	}
	return l.staged(raw, pos, step)
}

// staged passes native source values b through the loader's stages.
func (l *loader) staged(b []byte, pos, step int) []byte {
	for _, s := range l.stages {
		b = s(b, pos, step, &l.stage)
	}
	return b
}

// alignOf is the alignment Go needs to read a part of d in place.
func alignOf(d dtype.Dtype) int {
	if d.Kind == 'c' {
		return d.Size / 2
	}
	return d.Size
}

// cast converts native raw values of dtype from to dtype to (native), into
// the loader's output buffer; raw itself when nothing changes.
func (l *loader) cast(raw []byte, from, to dtype.Dtype) []byte {
	if from.Kind == to.Kind && from.Size == to.Size {
		return raw
	}
	n := len(raw) / from.Size
	out := bytesOf(&l.out, n*to.Size)
	castNative(out, raw, from, to, &l.wide)
	castFlags(out, raw, from, to, &l.flags)
	return out
}

// castFlags records the exceptions NumPy's cast of native raw (dtype
// from) into out (dtype to) raised: overflow where a finite number became
// an infinity (to float16, or float32 from wider), invalid where a float
// was NaN, infinite or beyond the range of the conversion instruction
// (cvttss2si and kin) to an integer.
func castFlags(out, raw []byte, from, to dtype.Dtype, f *fpFlags) {
	from, to = dtype.NativeOf(from), dtype.NativeOf(to)
	if from.Kind == to.Kind && from.Size == to.Size || to.Kind == 'b' {
		return
	}
	switch {
	case to.Kind == 'f' || to.Kind == 'c':
		if !(to.Size == 2 || dtype.RealOf(to).Size == 4 && dtype.RealOf(from).Size == 8 ||
			to.Kind == 'f' && to.Size == 4 && (from.Kind == 'i' || from.Kind == 'u') && false) {
			return
		}
		n := len(raw) / from.Size
		for i := 0; i < n; i++ {
			a, b := from.Complex(raw[i*from.Size:]), to.Complex(out[i*to.Size:])
			if isFinite(real(a)) && !isFinite(real(b)) || to.Kind == 'c' && isFinite(imag(a)) && !isFinite(imag(b)) {
				f.overflow = true
				return
			}
		}
	case (to.Kind == 'i' || to.Kind == 'u') && (from.Kind == 'f' || from.Kind == 'c'):
		lim := float64(1 << 31)
		if to.Size == 8 || to.Kind == 'u' && to.Size == 4 {
			lim = 1 << 63
		}
		lo := -lim
		if to.Kind == 'u' && to.Size == 8 {
			lo, lim = -(1 << 63), 1<<64
		}
		n := len(raw) / from.Size
		for i := 0; i < n; i++ {
			x := real(from.Complex(raw[i*from.Size:]))
			if !(x > lo-1 && x < lim) {
				f.invalid = true
				return
			}
		}
	}
}

// castNative is NumPy's cast of native values (ops/cast.go's rules).
func castNative(out, raw []byte, from, to dtype.Dtype, wide *[]complex128) {
	from, to = dtype.NativeOf(from), dtype.NativeOf(to)
	if from.Kind == to.Kind && from.Size == to.Size {
		copy(out, raw)
		return
	}
	if to.Kind == 'b' && castToBool(out, raw, from) {
		return
	}
	if conv := directCast(from, to); conv != nil {
		conv(out, raw)
		return
	}
	n := len(raw) / from.Size
	if cap(*wide) < n {
		*wide = make([]complex128, n)
	}
	w := (*wide)[:n]
	widen(w, raw, from)
	narrow(out, w, from, to)
}

// castToBool is bool(x) for native floats and integers (a NaN is true);
// false for the other dtypes.
func castToBool(out, raw []byte, from dtype.Dtype) bool {
	switch {
	case from.Kind == 'f' && from.Size == 4:
		for i, x := range typed[float32](raw) {
			out[i] = b2u(x != 0)
		}
	case from.Kind == 'f' && from.Size == 8:
		for i, x := range typed[float64](raw) {
			out[i] = b2u(x != 0)
		}
	case (from.Kind == 'i' || from.Kind == 'u' || from.Kind == 'b') && from.Size == 1:
		for i, x := range raw {
			out[i] = b2u(x != 0)
		}
	case (from.Kind == 'i' || from.Kind == 'u') && from.Size == 4:
		for i, x := range typed[uint32](raw) {
			out[i] = b2u(x != 0)
		}
	case (from.Kind == 'i' || from.Kind == 'u') && from.Size == 8:
		for i, x := range typed[uint64](raw) {
			out[i] = b2u(x != 0)
		}
	default:
		return false
	}
	return true
}

// gather copies the raw bytes of elements [from, to) of the visit at src.
func (l *loader) gather(dst []byte, src, from, to int) {
	p := l.p
	data, e := l.j.src.Data, l.j.src.Elem
	ax := p.first()
	if ax <= 1 {
		step := 0
		if len(p.src) > 0 {
			step = p.src[0]
		}
		gatherStrided(dst, data, src+from*step, step, to-from, e)
		return
	}
	// A block of several axes: runs along the innermost one.
	idx := make([]int, ax)
	rest := from
	off := src
	for a := 0; a < ax; a++ {
		idx[a] = rest % p.n[a]
		rest /= p.n[a]
		off += idx[a] * p.src[a]
	}
	done := 0
	for at := from; at < to; {
		run := min(p.n[0]-idx[0], to-at)
		gatherStrided(dst[done*e:], data, off, p.src[0], run, e)
		done += run
		at += run
		off += run * p.src[0]
		idx[0] += run
		for a := 0; a < ax && idx[a] == p.n[a]; a++ {
			off -= p.n[a] * p.src[a]
			idx[a] = 0
			if a+1 < ax {
				idx[a+1]++
				off += p.src[a+1]
			}
		}
	}
}

// gatherStrided copies n elements of e bytes from data, starting at
// element off and stepping step elements, into dst.
func gatherStrided(dst, data []byte, off, step, n, e int) {
	if n <= 0 {
		return
	}
	if step == 1 {
		copy(dst[:n*e], data[off*e:(off+n)*e])
		return
	}
	switch e {
	case 4:
		d := unsafe.Slice((*[4]byte)(unsafe.Pointer(unsafe.SliceData(dst))), n)
		for i := range d {
			d[i] = *(*[4]byte)(data[(off+i*step)*4:])
		}
	case 8:
		d := unsafe.Slice((*[8]byte)(unsafe.Pointer(unsafe.SliceData(dst))), n)
		for i := range d {
			d[i] = *(*[8]byte)(data[(off+i*step)*8:])
		}
	case 2:
		d := unsafe.Slice((*[2]byte)(unsafe.Pointer(unsafe.SliceData(dst))), n)
		for i := range d {
			d[i] = *(*[2]byte)(data[(off+i*step)*2:])
		}
	case 1:
		for i := 0; i < n; i++ {
			dst[i] = data[off+i*step]
		}
	default:
		for i := 0; i < n; i++ {
			copy(dst[i*e:(i+1)*e], data[(off+i*step)*e:])
		}
	}
}

// anyNaN reports whether v (dtype d) holds a NaN, in one parallel pass.
func anyNaN(v View, d dtype.Dtype, opt Options) bool {
	if d.Kind != 'f' && d.Kind != 'c' {
		return false
	}
	part := d
	if d.Kind == 'c' {
		part = d.Part()
	}
	shape, strides, base := memoryOrder(v)
	n := v.Count()
	if n == 0 {
		return false
	}
	inner, step := 1, 0
	if nd := len(shape); nd > 0 {
		inner, step = shape[nd-1], strides[nd-1]
	}
	calc := NewOffsetCalculator(shape, strides)
	const chunk = 1 << 16
	var found atomic.Bool
	threads := opt.threads()
	if n*d.Size < opt.tuning().parallelMin {
		threads = 1
	}
	parallel(ceilDiv(n, chunk), threads, func(lo, hi int) {
		idx := make([]int, len(shape))
		for c := lo; c < hi && !found.Load(); c++ {
			last := min(n, (c+1)*chunk)
			for i := c * chunk; i < last; {
				off, _ := calc.Index(i, idx)
				m := min(inner-i%inner, last-i)
				if nanInRun(v.Data, base+off, step, m, d, part) {
					found.Store(true)
					return
				}
				i += m
			}
		}
	})
	return found.Load()
}

// nanInRun reports whether m elements from byte offset off, step bytes
// apart, hold a NaN.
func nanInRun(b []byte, off, step, m int, d, part dtype.Dtype) bool {
	parts := d.Size / part.Size
	native := !part.BigEndian()
	switch {
	case native && part.Size == 4 && step == d.Size:
		for _, x := range typed[float32](b[off : off+m*d.Size]) {
			if x != x {
				return true
			}
		}
		return false
	case native && part.Size == 8 && step == d.Size:
		for _, x := range typed[float64](b[off : off+m*d.Size]) {
			if x != x {
				return true
			}
		}
		return false
	}
	for i := 0; i < m; i++ {
		for p := 0; p < parts; p++ {
			e := b[off+i*step+p*part.Size:]
			if part.Size == 2 {
				if h := uint16(part.Bits(e)); halfIsNaN(h) {
					return true
				}
			} else if x := part.Float(e); x != x {
				return true
			}
		}
	}
	return false
}
