package ops

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// sortDtypes is every dtype Sort handles, by kind and size.
var sortDtypes = []struct {
	kind byte
	elem int
}{
	{'b', 1}, {'i', 1}, {'i', 2}, {'i', 4}, {'i', 8}, {'u', 1}, {'u', 2}, {'u', 4}, {'u', 8},
	{'f', 2}, {'f', 4}, {'f', 8}, {'c', 8}, {'c', 16},
}

// scalar is one element decoded for the oracle.
type scalar struct {
	i      int64
	u      uint64
	re, im float64 // float value, or complex parts
}

// halfToFloat decodes IEEE binary16 bits.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, man := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * man * math.Pow(2, -24)
	case 31:
		if man != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1024 + man) * math.Pow(2, float64(exp-25))
}

// loadBits reads size bytes in the given byte order.
func loadBits(b []byte, big bool) uint64 {
	var u uint64
	for k := range b {
		if big {
			u = u<<8 | uint64(b[k])
		} else {
			u |= uint64(b[k]) << (8 * k)
		}
	}
	return u
}

func floatOf(u uint64, size int) float64 {
	switch size {
	case 2:
		return halfToFloat(uint16(u))
	case 4:
		return float64(math.Float32frombits(uint32(u)))
	}
	return math.Float64frombits(u)
}

func decodeScalar(b []byte, d dtype.Dtype) scalar {
	size, big := len(b), d.Order == '>'
	switch d.Kind {
	case 'c':
		h := size / 2
		return scalar{re: floatOf(loadBits(b[:h], big), h), im: floatOf(loadBits(b[h:], big), h)}
	case 'f':
		return scalar{re: floatOf(loadBits(b, big), size)}
	case 'i':
		u := loadBits(b, big)
		return scalar{i: int64(u<<(64-8*size)) >> (64 - 8*size)}
	}
	return scalar{u: loadBits(b, big)}
}

// endian is the byte-order letter of a NumPy descr.
func endian(big bool) byte {
	if big {
		return '>'
	}
	return '<'
}

func isNaNScalar(x scalar, kind byte) bool {
	switch kind {
	case 'f':
		return math.IsNaN(x.re)
	case 'c':
		return math.IsNaN(x.re) || math.IsNaN(x.im)
	}
	return false
}

// numpyLess is NumPy's sort comparator (npysort_common.h): FLOAT_LT puts
// NaNs last, CFLOAT_LT is written out exactly as NumPy has it.
func numpyLess(a, b scalar, kind byte) bool {
	nan := math.IsNaN
	switch kind {
	case 'i':
		return a.i < b.i
	case 'f':
		return a.re < b.re || nan(b.re) && !nan(a.re)
	case 'c':
		switch {
		case a.re < b.re:
			return a.im == a.im || b.im != b.im
		case a.re > b.re:
			return b.im != b.im && a.im == a.im
		case a.re == b.re || a.re != a.re && b.re != b.re:
			return a.im < b.im || b.im != b.im && a.im == a.im
		}
		return b.re != b.re
	}
	return a.u < b.u
}

// orderLess is "a goes strictly before b" under ord, straight from the
// contract's words: NaNs as a block first or last, the rest by NumPy's
// comparator in the chosen direction.
func orderLess(a, b scalar, kind byte, ord Order) bool {
	an, bn := isNaNScalar(a, kind), isNaNScalar(b, kind)
	if an != bn {
		if ord.nansFirst() {
			return an
		}
		return bn
	}
	if ord.Descending {
		return numpyLess(b, a, kind)
	}
	return numpyLess(a, b, kind)
}

// sortNaive is the oracle: for each strip along axis, sort.SliceStable of
// the positions with orderLess, then copy the elements' bytes.
func sortNaive(vals, idx []byte, v View, axis int, d dtype.Dtype, ord Order) {
	n := v.Shape[axis]
	other := append(append([]int{}, v.Shape[:axis]...), v.Shape[axis+1:]...)
	cs := CStrides(v.Shape)
	full := make([]int, len(v.Shape))
	forEach(other, func(o []int) {
		copy(full, o[:axis])
		copy(full[axis+1:], o[axis:])
		pos := make([]int, n)
		dec := make([]scalar, n)
		for i := range pos {
			pos[i] = i
			full[axis] = i
			dec[i] = decodeScalar(elemAt(v, full), d)
		}
		sort.SliceStable(pos, func(x, y int) bool { return orderLess(dec[pos[x]], dec[pos[y]], d.Kind, ord) })
		for j, i := range pos {
			full[axis] = j
			at := 0
			for k, x := range full {
				at += x * cs[k]
			}
			full[axis] = i
			if vals != nil {
				copy(vals[at*v.Elem:], elemAt(v, full))
			}
			if idx != nil {
				binary.LittleEndian.PutUint64(idx[at*8:], uint64(i))
			}
		}
	})
}

// randomBits returns the native bits of a random element of the kind: a
// mix of extremes, NaNs with assorted payloads and signs, infinities,
// signed zeros, subnormals, small duplicates and raw random bits.
func randomBits(r *rand.Rand, kind byte, size int, pool []uint64) uint64 {
	bitsN := uint(8 * size)
	ones := ^uint64(0) >> (64 - bitsN)
	if kind == 'c' {
		h := size / 2
		return randomBits(r, 'f', h, nil) | randomBits(r, 'f', h, nil)<<(8*h)
	}
	if pool != nil && r.IntN(3) == 0 {
		return pool[r.IntN(len(pool))]
	}
	switch kind {
	case 'b':
		if r.IntN(50) == 0 {
			return uint64(r.IntN(256)) // NumPy orders bools by their byte
		}
		return uint64(r.IntN(2))
	case 'i', 'u':
		switch r.IntN(6) {
		case 0:
			return []uint64{0, 1, ones, ones >> 1, ones>>1 + 1, 2}[r.IntN(6)]
		case 1:
			return uint64(r.IntN(5)) - 2&ones
		}
		return r.Uint64() & ones
	}
	sign := uint64(1) << (bitsN - 1)
	inf := infBits(bitsN)
	switch r.IntN(12) {
	case 0:
		return inf | 1 + r.Uint64()&(ones>>1&^inf) | sign*uint64(r.IntN(2)) // NaN, any payload
	case 1:
		return inf | sign*uint64(r.IntN(2))
	case 2:
		return sign * uint64(r.IntN(2)) // ±0
	case 3:
		return uint64(1+r.IntN(3)) | sign*uint64(r.IntN(2)) // subnormal
	case 4:
		if bitsN == 16 {
			return []uint64{0x3c00, 0xbc00, 0x4000, 0x3800}[r.IntN(4)]
		}
		f := float64(r.IntN(7) - 3)
		if bitsN == 32 {
			return uint64(math.Float32bits(float32(f)))
		}
		return math.Float64bits(f)
	}
	return r.Uint64() & ones
}

// storeBits writes u in size bytes of the given byte order.
func storeBits(b []byte, u uint64, big bool) {
	for k := range b {
		if big {
			b[len(b)-1-k] = byte(u >> (8 * k))
		} else {
			b[k] = byte(u >> (8 * k))
		}
	}
}

// sortData fills data with random elements of the kind, stored in the
// byte order (complex parts each in that order).
func sortData(r *rand.Rand, data []byte, kind byte, elem int, big bool) {
	pool := make([]uint64, 1+r.IntN(4))
	for k := range pool {
		pool[k] = randomBits(r, kind, elem, nil)
	}
	if r.IntN(4) == 0 {
		pool = nil
	}
	for at := 0; at+elem <= len(data); at += elem {
		u := randomBits(r, kind, elem, pool)
		if kind == 'c' {
			h := elem / 2
			var lo, hi uint64
			if h == 8 {
				lo, hi = u, randomBits(r, 'f', 8, nil)
				if r.IntN(3) == 0 {
					hi = lo
				}
			} else {
				lo, hi = u&0xffffffff, u>>32
			}
			storeBits(data[at:at+h], lo, big)
			storeBits(data[at+h:at+elem], hi, big)
			continue
		}
		storeBits(data[at:at+elem], u, big)
	}
}

// sortView is a random view of the dtype: C, Fortran or permuted storage,
// stepped, reversed and sometimes broadcast axes, with random elements.
func sortView(r *rand.Rand, kind byte, elem int, big bool, shape []int) View {
	// perm[0] is the outermost axis in memory: C order, Fortran or any.
	perm := r.Perm(len(shape))
	switch r.IntN(3) {
	case 0:
		for k := range perm {
			perm[k] = k
		}
	case 1:
		for k := range perm {
			perm[k] = len(perm) - 1 - k
		}
	}
	strides := make([]int, len(shape))
	step := 1
	for k := len(perm) - 1; k >= 0; k-- {
		a := perm[k]
		if r.IntN(6) == 0 {
			step *= 2 + r.IntN(2) // a stepped slice
		}
		strides[a] = step
		step *= max(shape[a], 1)
	}
	for k := range strides {
		if r.IntN(12) == 0 {
			strides[k] = 0 // broadcast
		}
		if r.IntN(4) == 0 {
			strides[k] = -strides[k] // reversed
		}
	}
	v := View{Elem: elem, Shape: shape, Strides: strides}
	offset, length := testkit.Storage(r, v.Shape, v.Strides)
	v.Offset = offset
	v.Data = make([]byte, length*elem)
	sortData(r, v.Data, kind, elem, big)
	return v
}

func dtypeName(kind byte, elem int, big bool) string {
	o := "<"
	if big {
		o = ">"
	}
	if elem == 1 {
		o = "|"
	}
	return fmt.Sprintf("%s%c%d", o, kind, elem)
}

func orderName(ord Order) string {
	s := "asc"
	if ord.Descending {
		s = "desc"
	}
	return s + []string{"", "/nans=first", "/nans=last"}[ord.NaNs]
}

// checkSort runs Sort and sortNaive on v with guarded destinations and
// compares them; which says what to ask for: 1 values, 2 indices, 3 both.
func checkSort(t *testing.T, v View, axis int, d dtype.Dtype, ord Order, which int, opt Options) {
	t.Helper()
	n := v.Count()
	var wantV, wantI, gotV, gotI, bufV, bufI []byte
	if which&1 != 0 {
		wantV = make([]byte, n*v.Elem)
		bufV, gotV = guarded(n * v.Elem)
	}
	if which&2 != 0 {
		wantI = make([]byte, n*8)
		bufI, gotI = guarded(n * 8)
	}
	sortNaive(wantV, wantI, v, axis, d, ord)
	if err := Sort(gotV, gotI, v, axis, d, ord, opt); err != nil {
		t.Fatalf("Sort: %v", err)
	}
	if which&1 != 0 {
		checkGuards(t, bufV, n*v.Elem)
		if !bytes.Equal(gotV, wantV) {
			t.Fatalf("values differ from the oracle\n got %s\nwant %s", hexElems(gotV, v.Elem), hexElems(wantV, v.Elem))
		}
	}
	if which&2 != 0 {
		checkGuards(t, bufI, n*8)
		if !bytes.Equal(gotI, wantI) {
			t.Fatalf("indices differ from the oracle\n got %v\nwant %v", int64s(gotI), int64s(wantI))
		}
	}
}

func hexElems(b []byte, elem int) string {
	var parts []string
	for at := 0; at < len(b) && len(parts) < 80; at += elem {
		parts = append(parts, fmt.Sprintf("%x", b[at:at+elem]))
	}
	return strings.Join(parts, " ")
}

func int64s(b []byte) []int64 {
	out := make([]int64, 0, len(b)/8)
	for at := 0; at < len(b) && len(out) < 80; at += 8 {
		out = append(out, int64(binary.LittleEndian.Uint64(b[at:])))
	}
	return out
}

func randomSortShape(r *rand.Rand) []int {
	ndim := 1 + r.IntN(3)
	shape := make([]int, ndim)
	for k := range shape {
		switch r.IntN(8) {
		case 0:
			shape[k] = 1
		case 1:
			shape[k] = r.IntN(2) * (60 + r.IntN(10)) // around radixMin
		case 2:
			shape[k] = 100 + r.IntN(600)
		default:
			shape[k] = 2 + r.IntN(12)
		}
	}
	if Count(shape) > 1<<14 {
		return shape[:1]
	}
	return shape
}

// TestSortMatchesNaive sorts random views of every dtype, in both byte
// orders, along every axis, in every order, for values, indices or both,
// sequentially and with threads, and with the radix and insertion cut-off
// moved so every path sees every size.
func TestSortMatchesNaive(t *testing.T) {
	t.Parallel()
	def := defaultTuning()
	r := rand.New(rand.NewPCG(5, 7))
	for i := 0; i < 2500; i++ {
		dt := sortDtypes[r.IntN(len(sortDtypes))]
		big := dt.elem > 1 && r.IntN(2) == 0
		shape := randomSortShape(r)
		v := sortView(r, dt.kind, dt.elem, big, shape)
		axis := r.IntN(len(shape))
		d := dtype.Dtype{Kind: dt.kind, Size: dt.elem, Order: endian(big)}
		ord := Order{Descending: r.IntN(2) == 0, NaNs: NaNs(r.IntN(3))}
		which := 1 + r.IntN(3)
		threads := 1 + r.IntN(4)
		tn := def
		tn.parallelMin = []int{0, def.parallelMin}[r.IntN(2)]
		tn.parallelSortMin = []int{8, 200, def.parallelSortMin}[r.IntN(3)]
		tn.radixMin = []int{2, 64, 1 << 30}[r.IntN(3)]
		tn.packLimit = []int{0, 64}[r.IntN(2)]
		tn.msdMin = []int{tn.radixMin, 128, def.msdMin}[r.IntN(3)]
		tn.inPlaceMin = []int{0, def.inPlaceMin}[r.IntN(2)]
		tn.msdValuesMin = []int{2, 200, def.msdValuesMin}[r.IntN(3)]
		tn.wideBucket = []int{16, 1024, def.wideBucket}[r.IntN(3)]
		tn.simd = []simdLevel{simdNone, def.simd}[r.IntN(2)]
		name := fmt.Sprintf("%d/%s/%s/axis=%d/%s/w%d/t%d/radix%d/pack%d/msd%d/inplace%d/msdvalues%d/bucket%d/%v", i, dtypeName(dt.kind, dt.elem, big),
			describe(v), axis, orderName(ord), which, threads, tn.radixMin, tn.packLimit, tn.msdMin, tn.inPlaceMin, tn.msdValuesMin, tn.wideBucket, tn.simd)
		t.Run(name, func(t *testing.T) { checkSort(t, v, axis, d, ord, which, Options{Threads: threads, tune: &tn}) })
	}
}

// TestSortLongStripParallel sorts one 300,000-element strip with four
// threads (the parallel radix sort and phases) and checks it against one
// thread, for values alone (sorted as keys) and values with indices, and
// against the oracle in one order per dtype.
func TestSortLongStripParallel(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 9))
	n := 300_000
	if sortRaceEnabled {
		n = 110_000 // still several chunks per thread and above parallelSortMin
	}
	orders := []Order{{}, {Descending: true}, {NaNs: NaNsFirst}, {Descending: true, NaNs: NaNsLast}}
	for c, dt := range []struct {
		kind byte
		elem int
		big  bool
	}{{'f', 4, false}, {'f', 4, true}, {'i', 8, false}, {'u', 2, true}, {'c', 16, false}, {'c', 8, true}, {'f', 2, false}, {'b', 1, false}} {
		for o, ord := range orders {
			d := dtype.Dtype{Kind: dt.kind, Size: dt.elem, Order: endian(dt.big)}
			v := View{Elem: dt.elem, Shape: []int{n}, Strides: []int{1}, Data: make([]byte, n*dt.elem)}
			if r.IntN(2) == 0 { // a reversed strip
				v.Strides[0], v.Offset = -1, n-1
			}
			sortData(r, v.Data, dt.kind, dt.elem, dt.big)
			name := dtypeName(dt.kind, dt.elem, dt.big) + "/" + orderName(ord)
			t.Run(name, func(t *testing.T) {
				for which := 1; which <= 3; which += 2 {
					var seqV, seqI, parV, parI []byte
					seqV, parV = make([]byte, n*dt.elem), make([]byte, n*dt.elem)
					if which == 3 {
						seqI, parI = make([]byte, n*8), make([]byte, n*8)
					}
					if err := Sort(seqV, seqI, v, 0, d, ord, Options{Threads: 1}); err != nil {
						t.Fatal(err)
					}
					if err := Sort(parV, parI, v, 0, d, ord, Options{Threads: 4}); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(seqV, parV) || !bytes.Equal(seqI, parI) {
						t.Fatalf("which=%d: four threads differ from one", which)
					}
				}
				if o == c%len(orders) {
					checkSort(t, v, 0, d, ord, 3, Options{Threads: 4})
				}
			})
		}
	}
}

// TestSortValuesWide sorts long strips of 4-byte values through
// sortValuesWide's split and buckets, with the assembly scatter and the
// pure-Go one, against the oracle: values of every 4-byte dtype as
// sortData makes them (NaNs with payloads, ±0, infinities, duplicates),
// uniform keys, keys whose top bits never vary, few distinct keys and
// normal floats, with buckets small enough to widen the split and large
// enough to narrow it, in every order.
func TestSortValuesWide(t *testing.T) {
	t.Parallel()
	def := defaultTuning()
	r := rand.New(rand.NewPCG(17, 19))
	n := 70_000
	if sortRaceEnabled {
		n = 9000
	}
	f4 := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	gens := map[string]func() uint64{
		"uniform": func() uint64 { return r.Uint64() & 0xffffffff },
		"low":     func() uint64 { return r.Uint64() & 0xfff },      // the top 16 bits never vary
		"few":     func() uint64 { return uint64(r.IntN(3)) << 29 }, // three buckets
		"normal":  func() uint64 { return f4(float32(r.NormFloat64())) },
		"zeros": func() uint64 {
			return []uint64{0, 1 << 31, f4(float32(math.NaN())), 0x7fc00001, 1, 0x80000001}[r.IntN(6)]
		},
	}
	for c := 0; c < 60; c++ {
		kind := []byte{'f', 'i', 'u'}[r.IntN(3)]
		big := r.IntN(4) == 0
		d := dtype.Dtype{Kind: kind, Size: 4, Order: endian(big)}
		v := View{Elem: 4, Shape: []int{n - r.IntN(100)}, Strides: []int{1}}
		v.Data = make([]byte, 4*v.Shape[0])
		gen := "sortData"
		if c%6 == 0 {
			sortData(r, v.Data, kind, 4, big)
		} else {
			names := []string{"uniform", "low", "few", "normal", "zeros"}
			gen = names[c%len(names)]
			for at := 0; at < len(v.Data); at += 4 {
				storeBits(v.Data[at:at+4], gens[gen](), big)
			}
		}
		if r.IntN(3) == 0 { // a strided strip
			v.Shape[0] /= 2
			v.Strides[0] = 2
		}
		ord := Order{Descending: r.IntN(2) == 0, NaNs: NaNs(r.IntN(3))}
		tn := def
		tn.msdValuesMin = 1000
		tn.wideBucket = []int{64, 4096, def.wideBucket}[r.IntN(3)]
		tn.simd = []simdLevel{simdNone, simdSSE2, def.simd}[c%3]
		threads := 1 + r.IntN(4)
		name := fmt.Sprintf("%d/%s/%s/n=%d/%s/t%d/bucket%d/%v", c, dtypeName(kind, 4, big), gen, v.Shape[0], orderName(ord), threads, tn.wideBucket, tn.simd)
		t.Run(name, func(t *testing.T) { checkSort(t, v, 0, d, ord, 1, Options{Threads: threads, tune: &tn}) })
	}
}

// TestSortKnown pins the order on hand-written cases, including NumPy's own
// answers for complex NaNs and float16.
func TestSortKnown(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	c128 := func(z ...complex128) []byte {
		b := make([]byte, 16*len(z))
		for k, x := range z {
			binary.LittleEndian.PutUint64(b[16*k:], math.Float64bits(real(x)))
			binary.LittleEndian.PutUint64(b[16*k+8:], math.Float64bits(imag(x)))
		}
		return b
	}
	f64 := func(x ...float64) []byte {
		b := make([]byte, 8*len(x))
		for k, f := range x {
			binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(f))
		}
		return b
	}
	negz := math.Copysign(0, -1)
	cases := []struct {
		name string
		kind byte
		ord  Order
		elem int
		data []byte
		want []int64
	}{
		// np.argsort(np.array([nan+1j, 1+nanj, 2, nan+nanj, nanj, nan-1j, -1+5j, 2-0j, 2]), kind='stable')
		{"c16/numpy", 'c', Order{}, 16,
			c128(complex(nan, 1), complex(1, nan), 2, complex(nan, nan), complex(0, nan), complex(nan, -1), complex(-1, 5), complex(2, negz), 2),
			[]int64{6, 2, 7, 8, 4, 1, 5, 0, 3}},
		{"c16/desc", 'c', Order{Descending: true}, 16,
			c128(complex(nan, 1), complex(1, nan), 2, complex(nan, nan), complex(0, nan), complex(nan, -1), complex(-1, 5), complex(2, negz), 2),
			[]int64{3, 0, 5, 1, 4, 2, 7, 8, 6}},
		// np.argsort(np.array([nan, -0., 0., 1, -1, inf, -inf, -0.], np.float16), kind='stable')
		{"f2/numpy", 'f', Order{}, 2,
			[]byte{0x00, 0x7e, 0x00, 0x80, 0x00, 0x00, 0x00, 0x3c, 0x00, 0xbc, 0x00, 0x7c, 0x00, 0xfc, 0x00, 0x80},
			[]int64{6, 4, 1, 2, 7, 3, 5, 0}},
		// torch.sort(..., descending=True, stable=True).indices
		{"f2/torch-desc", 'f', Order{Descending: true}, 2,
			[]byte{0x00, 0x7e, 0x00, 0x80, 0x00, 0x00, 0x00, 0x3c, 0x00, 0xbc, 0x00, 0x7c, 0x00, 0xfc, 0x00, 0x80},
			[]int64{0, 5, 3, 1, 2, 7, 4, 6}},
		{"f8/nans-first", 'f', Order{NaNs: NaNsFirst}, 8, f64(1, nan, -nan, 0, negz, math.Inf(-1)), []int64{1, 2, 5, 3, 4, 0}},
		{"f8/desc-nans-last", 'f', Order{Descending: true, NaNs: NaNsLast}, 8, f64(1, nan, -nan, 0, negz, math.Inf(-1)), []int64{0, 3, 4, 5, 1, 2}},
		// np.sort of raw bool bytes [2, 1, 0, 2, 1, 0, 255]
		{"b1/bytes", 'b', Order{}, 1, []byte{2, 1, 0, 2, 1, 0, 255}, []int64{2, 5, 1, 4, 0, 3, 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := len(c.data) / c.elem
			v := Contiguous(c.elem, []int{n}, c.data)
			vals, idx := make([]byte, len(c.data)), make([]byte, 8*n)
			d := dtype.Dtype{Kind: c.kind, Size: c.elem}
			if err := Sort(vals, idx, v, 0, d, c.ord, Options{}); err != nil {
				t.Fatal(err)
			}
			if got := int64s(idx); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("indices %v, want %v", got, c.want)
			}
			for j, i := range c.want {
				if !bytes.Equal(vals[j*c.elem:(j+1)*c.elem], c.data[int(i)*c.elem:(int(i)+1)*c.elem]) {
					t.Fatalf("value %d is not input element %d's bytes", j, i)
				}
			}
			// The oracle agrees too.
			wantIdx := make([]byte, 8*n)
			sortNaive(nil, wantIdx, v, 0, d, c.ord)
			if !bytes.Equal(wantIdx, idx) {
				t.Fatalf("oracle %v disagrees", int64s(wantIdx))
			}
		})
	}
}

func TestSortErrorsAndEdges(t *testing.T) {
	t.Parallel()
	f4 := dtype.Dtype{Kind: 'f', Size: 4}
	if err := Sort(make([]byte, 4), nil, Contiguous(4, []int{}, make([]byte, 4)), 0, f4, Order{}, Options{}); err == nil ||
		err.Error() != "axis 0 is out of bounds for array of dimension 0" {
		t.Fatalf("0-d: %v", err)
	}
	if err := Sort(make([]byte, 8), nil, Contiguous(4, []int{2}, make([]byte, 8)), 0, dtype.Dtype{Kind: 'c', Size: 4}, Order{}, Options{}); err == nil {
		t.Fatal("c4 accepted")
	}
	if err := Sort(make([]byte, 4), nil, Contiguous(4, []int{2}, make([]byte, 8)), 0, f4, Order{}, Options{}); err == nil {
		t.Fatal("short destination accepted")
	}
	for _, shape := range [][]int{{0}, {3, 0}, {0, 5}} {
		for axis := range shape {
			if err := Sort([]byte{}, []byte{}, Contiguous(4, shape, nil), axis, f4, Order{}, Options{}); err != nil {
				t.Fatalf("empty %v axis %d: %v", shape, axis, err)
			}
		}
	}
	one := Contiguous(8, []int{1}, f64bytes(math.NaN()))
	vals, idx := make([]byte, 8), make([]byte, 8)
	if err := Sort(vals, idx, one, 0, dtype.Dtype{Kind: 'f', Size: 8}, Order{}, Options{}); err != nil || !bytes.Equal(vals, one.Data) || int64s(idx)[0] != 0 {
		t.Fatalf("one element: %v %x %v", err, vals, int64s(idx))
	}
}

func f64bytes(x ...float64) []byte {
	b := make([]byte, 8*len(x))
	for k, f := range x {
		binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(f))
	}
	return b
}

// TestRadixPaths checks sortWords and sortRecs, through every path (insertion,
// LSD, most-significant split, their parallel forms, big buckets sorted with
// every thread), against the stable sort they equal, on uniform keys, keys
// whose top digit does not split, and keys with few distinct values.
func TestRadixPaths(t *testing.T) {
	t.Parallel()
	def := defaultTuning()
	r := rand.New(rand.NewPCG(11, 13))
	normal := newCodec(dtype.Dtype{Kind: 'f', Size: 8}, Order{})
	gens := map[string]func() uint64{
		"uniform":  r.Uint64,
		"narrow":   func() uint64 { return r.Uint64() >> 40 },
		"skewed":   func() uint64 { return uint64(r.IntN(3))<<56 | r.Uint64()>>20 },
		"few":      func() uint64 { return uint64(r.IntN(5)) << 30 },
		"constant": func() uint64 { return 42 },
		// Float keys of normal values: a handful of top bytes.
		"normal": func() uint64 { k, _ := normal.key(math.Float64bits(r.NormFloat64())); return k },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 5, 63, 64, 300, 5000, 70_000} {
			if n > 5000 && sortRaceEnabled {
				continue
			}
			for _, threads := range []int{1, 3, 4} {
				for _, m := range []int{64, 1000, 1 << 19, 1 << 62} {
					// The wide split from several sizes up, with buckets
					// that fit and that do not; or not at all.
					tn := def
					tn.msdMin = m
					tn.wideBucket = []int{16, 1024, def.wideBucket}[r.IntN(3)]
					keys := make([]uint64, n)
					for i := range keys {
						keys[i] = gen()
					}
					t.Run(fmt.Sprintf("%s/n=%d/t%d/msd=%d/bucket=%d", name, n, threads, m, tn.wideBucket), func(t *testing.T) {
						// Packed words: a 44-bit key above a 20-bit position.
						words := make([]uint64, n)
						for i, k := range keys {
							words[i] = k>>20<<20 | uint64(i)
						}
						want := slices.Clone(words)
						slices.SortStableFunc(want, func(x, y uint64) int { return cmp.Compare(x>>20, y>>20) })
						got := sortWords(words, make([]uint64, n), 20, 6, threads, nil, &tn)
						if !slices.Equal(got, want) {
							t.Fatalf("sortWords differs from the stable sort")
						}
						// Records with full 64-bit keys.
						recs := make([]rec128, n)
						for i, k := range keys {
							recs[i] = rec128{k, uint64(i)}
						}
						wantR := slices.Clone(recs)
						slices.SortStableFunc(wantR, func(x, y rec128) int { return cmp.Compare(x.key, y.key) })
						if gotR := sortRecs(recs, make([]rec128, n), threads, nil, &tn); !slices.Equal(gotR, wantR) {
							t.Fatalf("sortRecs differs from the stable sort")
						}
						// Keys alone, 32 bits.
						ks := make([]uint32, n)
						for i, k := range keys {
							ks[i] = uint32(k >> 32)
						}
						wantK := slices.Clone(ks)
						slices.Sort(wantK)
						if gotK := sortWords(ks, make([]uint32, n), 0, 4, threads, new(radixScratch), &tn); !slices.Equal(gotK, wantK) {
							t.Fatalf("sortWords (keys) differs from the sort")
						}
					})
				}
			}
		}
	}
}

// FuzzSort sorts arbitrary bytes as every dtype, in every order, along
// either axis of a 2-d view, and compares with the oracle.
func FuzzSort(f *testing.F) {
	f.Add([]byte{0x00, 0x7e, 0x00, 0x80, 0x00, 0x00, 0x00, 0x3c, 0x00, 0xbc, 0x00, 0x7c, 0x00, 0xfc, 0x00, 0x80}, uint8(9), uint8(0), uint8(3))
	f.Add(f64bytes(1, math.NaN(), 0, math.Copysign(0, -1), math.Inf(-1), 1, 2, 3), uint8(13), uint8(5), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, kind, flags, rows uint8) {
		dt := sortDtypes[int(kind)%len(sortDtypes)]
		d := dtype.Dtype{Kind: dt.kind, Size: dt.elem, Order: endian(flags&1 != 0)}
		ord := Order{Descending: flags&2 != 0, NaNs: NaNs(flags >> 2 % 3)}
		n := len(data) / dt.elem
		r := 1 + int(rows)%4
		if n < r {
			return
		}
		v := Contiguous(dt.elem, []int{r, n / r}, data[:n/r*r*dt.elem])
		if flags&16 != 0 {
			v = v.Permute([]int{1, 0})
		}
		axis := int(flags>>5) % 2
		checkSort(t, v, axis, d, ord, 3, Options{Threads: 1 + int(flags>>6)})
	})
}

// TestSortScratch pins SortScratch to the estimates it gave before it read
// Sort's sortPlan, over one-strip, many-strip, packed, record and complex
// sorts, and the cases it answers 0.
func TestSortScratch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		shape               []int
		axis, elem, threads int
		kind                byte
		idx                 bool
		want                int64
	}{
		{[]int{1000}, 0, 4, 1, 'f', false, 4730592},
		{[]int{1048576}, 0, 4, 4, 'f', true, 23068672},
		{[]int{1048576}, 0, 8, 4, 'i', true, 39845888},
		{[]int{4096, 4096}, 1, 4, 2, 'f', false, 9535488},
		{[]int{4096, 4096}, 0, 16, 2, 'c', true, 9764864},
		{[]int{3, 100000}, 1, 2, 8, 'u', true, 9988608},
		{[]int{0, 5}, 1, 4, 2, 'f', true, 0},
		{[]int{7, 9}, 2, 4, 2, 'f', true, 0},
	} {
		got := SortScratch(c.shape, c.axis, dtype.Dtype{Kind: c.kind, Size: c.elem}, c.idx, Options{Threads: c.threads})
		if got != c.want {
			t.Errorf("SortScratch(%v, axis %d, %c%d, idx %v, %d threads) = %d, want %d", c.shape, c.axis, c.kind, c.elem, c.idx, c.threads, got, c.want)
		}
	}
}
