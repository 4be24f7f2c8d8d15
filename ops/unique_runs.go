package ops

import (
	"fmt"
	"math/bits"
	"unsafe"

	"strider/internal/dtype"
)

// Runs is the runs of equal neighbours of an array read in C order, as
// torch.unique_consecutive without dim finds them, counted chunk by chunk
// so that Take can write each chunk's run starts to its place in one pass
// over the elements, without the list of positions UniqueConsecutive
// returns (8 bytes a run: more than the values themselves).
type Runs struct {
	data  []byte      // the elements in C order
	elem  int         // bytes an element
	f     dtype.Dtype // their dtype
	kind  runKind     // how they compare
	n     int         // elements
	at    []int       // at[c]: runs starting in chunks before c, element 0's included
	count int
}

// span is the elements chunk c compares with their left neighbours (all
// but element 0), and its share of the elements for progress.
func (r *Runs) span(c int) (a, b, share int) {
	nc := len(r.at) - 1
	lo, hi := c*r.n/nc, (c+1)*r.n/nc
	return max(1, lo), hi, hi - lo
}

// runKind is how the elements of Runs compare.
type runKind int

const (
	runsBytes   runKind = iota // by their bytes: integers of either byte order
	runsFloat32                // native float32 ==
	runsFloat64                // native float64 ==
	runsOther                  // rowsEqual: bools by truth, big-endian floats, complex
)

// CountRuns counts the runs of v's elements in C order, compared as
// UniqueConsecutive compares them without an axis (NaN equals nothing,
// -0.0 equals 0.0, bools by truth). It advances opt.Done by half of v's
// bytes; Take credits the other half.
func CountRuns(v View, f dtype.Dtype, opt Options) (*Runs, error) {
	if err := v.Check(); err != nil {
		return nil, err
	}
	if err := f.CheckElem(v.Elem); err != nil {
		return nil, err
	}
	n := v.Count()
	copyOpt := opt
	copyOpt.Done = nil
	data, err := cContiguous(v, copyOpt)
	if err != nil {
		return nil, err
	}
	r := &Runs{data: data, elem: v.Elem, f: f, kind: runKindOf(f), n: n}
	if n == 0 {
		return r, nil
	}
	threads := opt.threads()
	if len(data) < opt.tuning().parallelMin {
		threads = 1
	}
	nc := max(1, min(n, threads*8))
	r.at = make([]int, nc+1)
	r.at[0] = 1 // element 0 starts the first run
	t := opt.tuning()
	parallel(nc, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			a, b, share := r.span(c)
			r.at[c+1] = r.countSpan(a, b, t)
			if opt.Done != nil {
				opt.Done.Add(int64(share * r.elem / 2))
			}
		}
	})
	for c := range nc {
		r.at[c+1] += r.at[c]
	}
	r.count = r.at[nc]
	return r, nil
}

func runKindOf(f dtype.Dtype) runKind {
	switch {
	case f.Kind == 'i' || f.Kind == 'u':
		return runsBytes
	case f.Kind == 'f' && !f.BigEndian() && f.Size == 4:
		return runsFloat32
	case f.Kind == 'f' && !f.BigEndian() && f.Size == 8:
		return runsFloat64
	}
	return runsOther
}

// Count is the number of runs: the length of Take's result.
func (r *Runs) Count() int { return r.count }

// Take writes the first element of every run, in order, to dst, which
// holds Count elements.
func (r *Runs) Take(dst []byte, opt Options) error {
	if len(dst) != r.count*r.elem {
		return fmt.Errorf("destination holds %d bytes, the runs' first elements take %d", len(dst), r.count*r.elem)
	}
	if r.count == 0 {
		return nil
	}
	copy(dst, r.data[:r.elem])
	threads := opt.threads()
	if len(r.data) < opt.tuning().parallelMin {
		threads = 1
	}
	t := opt.tuning()
	parallel(len(r.at)-1, threads, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			a, b, share := r.span(c)
			r.takeSpan(dst[r.at[c]*r.elem:r.at[c+1]*r.elem], a, b, t)
			if opt.Done != nil {
				bytes := share * r.elem
				opt.Done.Add(int64(bytes - bytes/2))
			}
		}
	})
	return nil
}

// vector32 reports whether the vector kernels compare the elements: 4-byte
// integers or native float32, with AVX2 or AVX-512 allowed.
func (r *Runs) vector32(t *tuning) bool {
	return haveRunKernels && t.simd >= simdAVX2 && r.elem == 4 && (r.kind == runsBytes || r.kind == runsFloat32)
}

// countSpan counts the elements i in [a, b) that differ from element i-1.
func (r *Runs) countSpan(a, b int, t *tuning) int {
	if r.vector32(t) && b > a {
		x := as[uint32](r.data)
		prev, cur, n, float := unsafe.Pointer(&x[a-1]), unsafe.Pointer(&x[a]), b-a, r.kind == runsFloat32
		if t.simd >= simdAVX512 {
			return runsCount32AVX512(prev, cur, n, float)
		}
		m := n &^ 7
		k := runsCount32AVX2(prev, cur, m, float)
		if float {
			return k + countRuns(as[float32](r.data), a+m, b)
		}
		return k + countRuns(x, a+m, b)
	}
	switch r.kind {
	case runsFloat32:
		return countRuns(as[float32](r.data), a, b)
	case runsFloat64:
		return countRuns(as[float64](r.data), a, b)
	case runsBytes:
		switch r.elem {
		case 1:
			return countRuns(r.data, a, b)
		case 2:
			return countRuns(as[uint16](r.data), a, b)
		case 4:
			return countRuns(as[uint32](r.data), a, b)
		case 8:
			return countRuns(as[uint64](r.data), a, b)
		}
	}
	return r.finder()(a, b, nil)
}

// takeSpan writes the elements i in [a, b) that differ from element i-1,
// in order, to dst, which holds as many.
func (r *Runs) takeSpan(dst []byte, a, b int, t *tuning) {
	if r.vector32(t) && len(dst) > 0 {
		x, d := as[uint32](r.data), as[uint32](dst)
		prev, cur, n, float := unsafe.Pointer(&x[a-1]), unsafe.Pointer(&x[a]), b-a, r.kind == runsFloat32
		if t.simd >= simdAVX512 {
			if runsTake32AVX512(unsafe.Pointer(&d[0]), prev, cur, n, float) != len(d) {
				panic("ops: the run kernel wrote other than the runs it counted")
			}
			return
		}
		w, read := runsTake32AVX2(unsafe.Pointer(&d[0]), prev, cur, n, float, len(d), &compressPerm)
		if float {
			takeRuns(as[float32](dst)[w:], as[float32](r.data), a+read, b)
		} else {
			takeRuns(d[w:], x, a+read, b)
		}
		return
	}
	switch r.kind {
	case runsFloat32:
		takeRuns(as[float32](dst), as[float32](r.data), a, b)
		return
	case runsFloat64:
		takeRuns(as[float64](dst), as[float64](r.data), a, b)
		return
	case runsBytes:
		switch r.elem {
		case 1:
			takeRuns(dst, r.data, a, b)
			return
		case 2:
			takeRuns(as[uint16](dst), as[uint16](r.data), a, b)
			return
		case 4:
			takeRuns(as[uint32](dst), as[uint32](r.data), a, b)
			return
		case 8:
			takeRuns(as[uint64](dst), as[uint64](r.data), a, b)
			return
		}
	}
	starts := make([]int, len(dst)/r.elem)
	r.finder()(a, b, starts)
	for k, i := range starts {
		copy(dst[k*r.elem:(k+1)*r.elem], r.data[i*r.elem:(i+1)*r.elem])
	}
}

// finder is runFinder over the elements as rows of one.
func (r *Runs) finder() func(lo, hi int, out []int) int {
	return runFinder(r.data, r.elem, r.f)
}

// countRuns counts the i in [a, b) with x[i] != x[i-1], without a branch
// on the data.
func countRuns[E comparable](x []E, a, b int) int {
	n := 0
	for i := a; i < b; i++ {
		d := 0
		if x[i] != x[i-1] {
			d = 1
		}
		n += d
	}
	return n
}

// takeRuns writes, in order, the x[i] with i in [a, b) and x[i] != x[i-1]
// to dst, which holds exactly as many: every x[i] is written at dst[n] and
// kept by advancing n when it starts a run, so the data decides no branch;
// the loop ends when dst is full, after the last start.
func takeRuns[E comparable](dst, x []E, a, b int) {
	n := 0
	for i := a; i < b && n < len(dst); i++ {
		dst[n] = x[i]
		d := 0
		if x[i] != x[i-1] {
			d = 1
		}
		n += d
	}
}

// compressPerm[m] lists the set bits of m in order, then zeros: the lane
// permutation that puts runsTake32AVX2's kept lanes first.
var compressPerm = func() (p [256][8]uint32) {
	for m := range p {
		k := 0
		for v := uint(m); v != 0; v &= v - 1 {
			p[m][k] = uint32(bits.TrailingZeros(v))
			k++
		}
	}
	return p
}()
