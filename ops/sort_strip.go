package ops

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// phase names one step of a strip's sort that runs over ranges of the
// strip's positions and may be split between threads.
type phase int

const (
	phaseEncode phase = iota
	phasePutKeys
	phasePutKeysAmbiguous
	phasePackWords
	phasePutWords
	phasePackRecs
	phasePutRecs
	phasePack64
	phasePack128
	phaseRekey
	phasePut
)

// phased is a sorter whose phase ph, over positions lo..hi-1 of strip s,
// returns a count.
type phased interface {
	run(ph phase, s strip, lo, hi int) int
}

// each runs ph over the whole strip, at once on this goroutine or split
// between threads for a long strip, and sums its counts.
func each(w phased, s strip, threads int, ph phase) int {
	defer s.progress.step()
	if threads <= 1 || s.n < 4096 {
		return w.run(ph, s, 0, s.n)
	}
	var total atomic.Int64
	parallel(s.n, threads, func(lo, hi int) { total.Add(int64(w.run(ph, s, lo, hi))) })
	return int(total.Load())
}

// srcAt is the strip's i-th input element.
func srcAt[U any](s strip, i int) U {
	return *(*U)(unsafe.Add(s.src, i*s.srcStep))
}

// scalarSorter sorts strips of bool, integer or float elements stored as U.
// Its buffers are reused from strip to strip; the fields after them hold
// the current strip's state for the phases.
type scalarSorter[U unsigned] struct {
	c          codec
	t          *tuning
	sc         radixScratch
	keys, ktmp []U
	words      []uint64 // key<<idxBits | position
	wtmp       []uint64
	recs, rtmp []rec128
	zeros      []U // ±0.0 in input order
	nans       []U // NaNs in input order
	ambRuns    []ambRun[U]
	ambMu      sync.Mutex // guards ambRuns while encode runs on threads

	idxBits uint // bits of a position in words
	z0, n0  int  // where the runs of zero and NaN keys start in keys
}

func (w *scalarSorter[U]) sort(s strip, threads int) {
	if s.idx == nil {
		w.sortValues(s, threads)
		return
	}
	n := s.n
	w.idxBits = uint(bits.Len(uint(n - 1)))
	if packs(int(w.c.bits), n, w.t) {
		// The key and the position fit one word: the position breaks ties
		// as input order, so words can be compared whole.
		w.words, w.wtmp = grow(w.words, n), grow(w.wtmp, n)
		each(w, s, threads, phasePackWords)
		sortWords(w.words, w.wtmp, w.idxBits, int(w.c.bits/8), threads, &w.sc, w.t)
		each(w, s, threads, phasePutWords)
		return
	}
	w.recs, w.rtmp = grow(w.recs, n), grow(w.rtmp, n)
	each(w, s, threads, phasePackRecs)
	sortRecs(w.recs, w.rtmp, threads, &w.sc, w.t)
	each(w, s, threads, phasePutRecs)
}

func (w *scalarSorter[U]) run(ph phase, s strip, lo, hi int) int {
	switch ph {
	case phaseEncode:
		return w.encode(s, lo, hi, nil, 0)
	case phasePutKeys:
		w.putKeys(s, lo, hi)
	case phasePutKeysAmbiguous:
		w.putKeysAmbiguous(s, lo, hi)
	case phasePackWords:
		w.packWords(s, lo, hi)
	case phasePutWords:
		w.putWords(s, lo, hi)
	case phasePackRecs:
		w.packRecs(s, lo, hi)
	case phasePutRecs:
		w.putRecs(s, lo, hi)
	default:
		panic("ops: no such phase")
	}
	return 0
}

// sortValues sorts the keys alone: equal keys are equal bits, so which of
// them goes first cannot be seen, except for the key -0.0 shares with +0.0
// and the one every NaN has. Those keys form one run each in the sorted
// keys, and their elements, listed in input order, fill the runs in order.
//
// A strip of t.inPlaceMin or more whose output is contiguous is sorted in
// the output itself.
func (w *scalarSorter[U]) sortValues(s strip, threads int) {
	if w.sortValuesWide(s, threads) {
		return
	}
	n, c := s.n, &w.c
	var u U
	if n >= w.t.inPlaceMin && s.valsStep == s.elem && uintptr(s.vals)%unsafe.Alignof(u) == 0 {
		// A long strip whose output is contiguous is sorted as keys in the
		// output itself and decoded there: one buffer of fresh pages fewer
		// to fault in and clear, a sixth of a 16M float sort.
		own := w.keys
		w.keys = unsafe.Slice((*U)(s.vals), n)
		defer func() { w.keys = own }()
	} else {
		w.keys = grow(w.keys, n)
	}
	w.ktmp = grow(w.ktmp, n)
	w.ambRuns = w.ambRuns[:0]
	amb := each(w, s, threads, phaseEncode)
	sortWords(w.keys, w.ktmp, 0, int(c.bits/8), threads, &w.sc, w.t)
	if amb == 0 {
		each(w, s, threads, phasePutKeys)
		return
	}
	w.joinAmbiguous()
	w.z0, _ = slices.BinarySearch(w.keys, U(c.zeroKey))
	w.n0, _ = slices.BinarySearch(w.keys, U(c.nanKey))
	each(w, s, threads, phasePutKeysAmbiguous)
}

// joinAmbiguous joins the zeros and NaNs that encode listed for each range
// it ran on into w.zeros and w.nans: in input order, they are the values
// of the runs of the zero key and the NaN key in the sorted keys.
func (w *scalarSorter[U]) joinAmbiguous() {
	slices.SortFunc(w.ambRuns, func(x, y ambRun[U]) int { return x.lo - y.lo })
	w.zeros, w.nans = w.zeros[:0], w.nans[:0]
	for _, r := range w.ambRuns {
		base := len(w.zeros)
		w.zeros = slices.Grow(w.zeros, r.zeros)[:base+r.zeros]
		clear(w.zeros[base:])
		for _, z := range r.negZeros {
			w.zeros[base+z.at] = z.u
		}
		w.nans = append(w.nans, r.nans...)
	}
}

// encode fills keys[lo:hi] and counts the -0.0s and NaNs, whose keys do
// not give their bits back. For sortValues it also notes, in input order,
// each NaN and where among the zeros each -0.0 stands (+0.0 is all zero
// bits in either byte order, so a count of the zeros stands for the rest):
// a second scan for them was over a quarter of a 16M float sort that had
// two -0.0s. With a histogram h it also counts each key's top bits,
// key>>shift, there (sortValuesWide's first digit).
func (w *scalarSorter[U]) encode(s strip, lo, hi int, h []uint32, shift uint) int {
	c, m := &w.c, 0
	run := ambRun[U]{lo: lo}
	for i := lo; i < hi; i++ {
		u := srcAt[U](s, i)
		k, a := c.key(c.load(uint64(u)))
		w.keys[i] = U(k)
		if h != nil {
			h[k>>shift]++
		}
		if k == c.zeroKey && c.float {
			if a {
				m++
				run.negZeros = append(run.negZeros, negZero[U]{run.zeros, u})
			}
			run.zeros++
		} else if a {
			m++
			run.nans = append(run.nans, u)
		}
	}
	if run.zeros > 0 || m > 0 {
		w.ambMu.Lock()
		w.ambRuns = append(w.ambRuns, run)
		w.ambMu.Unlock()
	}
	return m
}

// ambRun is what encode noted of the range of a strip that starts at lo:
// how many zeros it has, which of them are -0.0, and its NaNs.
type ambRun[U unsigned] struct {
	lo       int
	zeros    int
	negZeros []negZero[U]
	nans     []U
}

// negZero is a -0.0 (its bits: the sign bit in the input's byte order) and
// its place among its range's zeros.
type negZero[U unsigned] struct {
	at int
	u  U
}

func (w *scalarSorter[U]) putKeys(s strip, lo, hi int) {
	c := &w.c
	for j, k := range w.keys[lo:hi] {
		putValue(s, lo+j, U(c.decode(uint64(k))))
	}
}

func (w *scalarSorter[U]) putKeysAmbiguous(s strip, lo, hi int) {
	c := &w.c
	zk, nk := U(c.zeroKey), U(c.nanKey)
	for j := lo; j < hi; j++ {
		switch k := w.keys[j]; k {
		case zk:
			putValue(s, j, w.zeros[j-w.z0])
		case nk:
			putValue(s, j, w.nans[j-w.n0])
		default:
			putValue(s, j, U(c.decode(uint64(k))))
		}
	}
}

func (w *scalarSorter[U]) packWords(s strip, lo, hi int) {
	c := &w.c
	for i := lo; i < hi; i++ {
		k, _ := c.key(c.load(uint64(srcAt[U](s, i))))
		w.words[i] = k<<w.idxBits | uint64(i)
	}
}

func (w *scalarSorter[U]) putWords(s strip, lo, hi int) {
	mask := uint64(1)<<w.idxBits - 1
	for j, r := range w.words[lo:hi] {
		w.put(s, lo+j, r>>w.idxBits, r&mask)
	}
}

func (w *scalarSorter[U]) packRecs(s strip, lo, hi int) {
	c := &w.c
	for i := lo; i < hi; i++ {
		k, _ := c.key(c.load(uint64(srcAt[U](s, i))))
		w.recs[i] = rec128{k, uint64(i)}
	}
}

func (w *scalarSorter[U]) putRecs(s strip, lo, hi int) {
	for j, r := range w.recs[lo:hi] {
		w.put(s, lo+j, r.key, r.idx)
	}
}

// put writes the j-th sorted element, whose key is k and whose position in
// the strip is i: the value is decoded from the key when that is exact
// (no reads) and read from the input otherwise.
func (w *scalarSorter[U]) put(s strip, j int, k, i uint64) {
	if s.vals != nil {
		if w.c.special(k) {
			putValue(s, j, srcAt[U](s, int(i)))
		} else {
			putValue(s, j, U(w.c.decode(k)))
		}
	}
	if s.idx != nil {
		s.putIndex(j, i)
	}
}

// complexSorter sorts strips of complex numbers stored as E (uint64 for
// complex64, [2]uint64 for complex128) by their key (see complexCodec) and
// position in rec128s. A complex64 key is one word; a complex128 key takes
// two stable passes: by the low half, then by the high half looked up by
// position.
type complexSorter[E uint64 | [2]uint64] struct {
	c          complexCodec
	t          *tuning
	sc         radixScratch
	his        []uint64 // complex128: the high halves of the keys
	recs, rtmp []rec128
}

func (w *complexSorter[E]) sort(s strip, threads int) {
	n := s.n
	w.recs, w.rtmp = grow(w.recs, n), grow(w.rtmp, n)
	if s.elem == 8 {
		each(w, s, threads, phasePack64)
		sortRecs(w.recs, w.rtmp, threads, &w.sc, w.t)
	} else {
		w.his = grow(w.his, n)
		each(w, s, threads, phasePack128)
		sortRecs(w.recs, w.rtmp, threads, &w.sc, w.t)
		each(w, s, threads, phaseRekey)
		sortRecs(w.recs, w.rtmp, threads, &w.sc, w.t)
	}
	each(w, s, threads, phasePut)
}

func (w *complexSorter[E]) run(ph phase, s strip, lo, hi int) int {
	switch ph {
	case phasePack64:
		w.pack64(s, lo, hi)
	case phasePack128:
		w.pack128(s, lo, hi)
	case phaseRekey:
		w.rekey(lo, hi)
	case phasePut:
		w.put(s, lo, hi)
	default:
		panic("ops: no such phase")
	}
	return 0
}

func (w *complexSorter[E]) pack64(s strip, lo, hi int) {
	c := &w.c
	for i := lo; i < hi; i++ {
		u := srcAt[uint64](s, i) // the real part in the low half
		kh, kl := c.key(c.loadPart(u&0xffffffff), c.loadPart(u>>32))
		w.recs[i] = rec128{kh<<32 | kl, uint64(i)}
	}
}

func (w *complexSorter[E]) pack128(s strip, lo, hi int) {
	c := &w.c
	for i := lo; i < hi; i++ {
		u := srcAt[[2]uint64](s, i)
		kh, kl := c.key(c.loadPart(u[0]), c.loadPart(u[1]))
		w.his[i] = kh
		w.recs[i] = rec128{kl, uint64(i)}
	}
}

func (w *complexSorter[E]) rekey(lo, hi int) {
	for j := lo; j < hi; j++ {
		w.recs[j].key = w.his[w.recs[j].idx]
	}
}

func (w *complexSorter[E]) put(s strip, lo, hi int) {
	for j := lo; j < hi; j++ {
		i := w.recs[j].idx
		if s.vals != nil {
			putValue(s, j, srcAt[E](s, int(i)))
		}
		if s.idx != nil {
			s.putIndex(j, i)
		}
	}
}

// packs reports whether a key of keyBits and a position in a strip of n
// share one word (t.packLimit bits; tests lower it to force the wide
// records), so the position breaks ties and words compare whole.
func packs(keyBits, n int, t *tuning) bool {
	return keyBits+bits.Len(uint(n-1)) <= t.packLimit
}
