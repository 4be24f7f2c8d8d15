package cmd

import (
	"fmt"
	"sync"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/internal/sysmem"
	"strider/ops"
)

// A remote compare compares as the bytes arrive: each input that is a
// remote array read in place is opened without its data (npy.AccessFetch),
// and closeInPieces fetches both arrays a piece at a time, several pieces
// in flight, comparing each piece (ops.ClosePieces) while the next ones
// are on their way. The pieces go into buffers that are reused, so the
// arrays are never held whole; the few elements the report prints (the
// worst, --show's list) are fetched after the pass. The report is the
// one-pass report, byte for byte: ClosePieces folds and merges the pieces
// as AllClose folds and merges its chunks.

// The pieces: pieceBytes of the wider array a piece, and compareInFlight
// requests in flight while a piece is compared (remote.Options.Parallel's
// 8): 4 pieces ahead for two remote arrays, 8 for one. On the loopback server
// of scripts/bench.sh --remote (docs/remote.md), pieces of 1 to 2 MiB with
// 2 to 4 ahead were fastest, within the noise of a shared machine; 8 MiB
// (remote.Options.Chunk) took about a sixth longer: the buffers that are
// reused then fall out of the caches before they are compared.
const (
	pieceBytes      = 2 << 20
	compareInFlight = 8
)

// access is how compare opens spec: a remote array lazily, for
// closeInPieces to fetch, but for --exact, which compares the bytes in
// place; a local file as before.
func (j compareJob) access(spec string) npy.Access {
	if remote.IsURL(spec) && !j.exact {
		return npy.AccessFetch
	}
	return npy.AccessAll
}

// fetchForCompare decides how the arrays a and d, opened as access says,
// are read: inPieces when either is fetched as it is compared
// (closeInPieces); otherwise a lazy input is fetched whole now, as every
// other command fetches its input (a Fortran-order array, read out of the
// order of its bytes), or not at all where compare reads no element (the
// shapes differ).
func (j compareJob) fetchForCompare(a, d input) (inPieces bool, err error) {
	if !a.Lazy() && !d.Lazy() || !broadcastable(a.Shape, d.Shape) {
		return false, nil
	}
	if inOrder(a) && inOrder(d) {
		// A 0-d side, compared with every element, is fetched first.
		for _, s := range []struct {
			in   input
			spec string
		}{{a, j.actual}, {d, j.desired}} {
			if len(s.in.Shape) == 0 {
				if err := s.in.fetch(s.spec, s.in.view); err != nil {
					return false, err
				}
			}
		}
		return a.Lazy() && len(a.Shape) > 0 || d.Lazy() && len(d.Shape) > 0, nil
	}
	if err := a.fetch(j.actual, a.view); err != nil {
		return false, err
	}
	return false, d.fetch(j.desired, d.view)
}

// inOrder reports whether in's elements lie in C order, one after the
// other, or it is 0-d: a piece of C-order positions is then a run of its
// bytes.
func inOrder(in input) bool {
	c, _ := in.view.Contiguity()
	return len(in.Shape) == 0 || c && in.view.Offset == 0
}

// pieceSide is one array of a piecewise comparison: the view compared
// (a 0-d input broadcast to the other's shape), and, for an array
// fetched as it is compared, the input and the name its errors carry.
type pieceSide struct {
	v    ops.View
	in   input
	spec string
	lazy bool // fetched a piece at a time; else v's Data is all there
}

// piece is the view of C-order positions [lo, hi) of s, with the bytes
// fetched into buf when s is lazy.
func (s pieceSide) piece(lo, hi int, buf []byte) ops.View {
	n, elem := hi-lo, s.v.Elem
	if s.lazy {
		return ops.View{Elem: elem, Data: buf[:n*elem], Shape: []int{n}, Strides: []int{1}}
	}
	if len(s.in.Shape) == 0 {
		// A 0-d array broadcast: its one element, n times.
		return ops.View{Elem: elem, Data: s.v.Data, Offset: s.v.Offset, Shape: []int{n}, Strides: []int{0}}
	}
	return ops.View{Elem: elem, Data: s.v.Data, Offset: s.v.Offset + lo, Shape: []int{n}, Strides: []int{1}}
}

// fetchPiece fetches the bytes of positions [lo, hi) of a lazy s into buf.
func (s pieceSide) fetchPiece(lo, hi int, buf []byte) error {
	elem := s.v.Elem
	if err := s.in.Array.FetchInto(buf[:(hi-lo)*elem], int64(lo*elem)); err != nil {
		return fmt.Errorf("%s: %w", displayName(s.spec), err)
	}
	return nil
}

// closeInPieces is ops.AllClose of the views va and vd of a and d, which
// fetchForCompare found to be read in pieces: the pieces of the lazy
// inputs are fetched several at a time (compareInFlight requests) into
// buffers that are reused, and compared in order as they arrive.
func (j compareJob) closeInPieces(a input, va ops.View, d input, vd ops.View, opt ops.Options) (ops.Comparison, error) {
	sides := [2]pieceSide{
		{v: va, in: a, spec: j.actual, lazy: a.Lazy() && len(a.Shape) > 0},
		{v: vd, in: d, spec: j.desired, lazy: d.Lazy() && len(d.Shape) > 0},
	}
	n := va.Count()
	per := max(ops.PieceAlign, pieceBytes/max(va.Elem, vd.Elem)/ops.PieceAlign*ops.PieceAlign)
	pieces := (n + per - 1) / per
	type slot struct {
		bufs [2][]byte
		done chan error
	}
	lazy := 0
	for _, s := range sides {
		if s.lazy {
			lazy++
		}
	}
	slots := make([]slot, min(compareInFlight/max(lazy, 1)+1, pieces))
	// The buffers are one anonymous mapping in huge pages where the
	// system has them: a few faults, not one a 4 KiB page.
	size := 0
	for _, s := range sides {
		if s.lazy {
			size += len(slots) * min(per, n) * s.v.Elem
		}
	}
	mem, err := sysmem.MapAnon(int64(size))
	if err == nil {
		sysmem.AdviseHuge(mem)
		defer sysmem.Unmap(mem) // after the fetches are waited for (below)
	} else {
		mem = make([]byte, size)
	}
	for k := range slots {
		slots[k].done = make(chan error, 1)
		for i, s := range sides {
			if s.lazy {
				b := min(per, n) * s.v.Elem
				slots[k].bufs[i], mem = mem[:b:b], mem[b:]
			}
		}
	}
	bounds := func(k int) (lo, hi int) { return k * per, min(n, (k+1)*per) }
	// start fetches piece k's lazy sides into its slot, side by side.
	start := func(k int) {
		sl := &slots[k%len(slots)]
		lo, hi := bounds(k)
		go func() {
			var errs [2]error
			var wg sync.WaitGroup
			for i, s := range sides {
				if s.lazy {
					wg.Go(func() { errs[i] = s.fetchPiece(lo, hi, sl.bufs[i]) })
				}
			}
			wg.Wait()
			if errs[0] != nil {
				sl.done <- errs[0]
			} else {
				sl.done <- errs[1]
			}
		}()
	}
	started := 0
	for ; started < len(slots); started++ {
		start(started)
	}
	// Whatever ends the loop, no fetch is left running into the inputs.
	waited := 0
	defer func() {
		for ; waited < started; waited++ {
			<-slots[waited%len(slots)].done
		}
	}()
	p := ops.NewClosePieces(n, a.Dtype, d.Dtype, j.tol)
	for k := 0; k < pieces; k++ {
		sl := &slots[k%len(slots)]
		err := <-sl.done
		waited++
		if err != nil {
			return ops.Comparison{}, err
		}
		lo, hi := bounds(k)
		if err := p.Add(lo, sides[0].piece(lo, hi, sl.bufs[0]), sides[1].piece(lo, hi, sl.bufs[1]), opt); err != nil {
			return ops.Comparison{}, err
		}
		if started < pieces {
			start(started)
			started++
		}
	}
	return p.Result(), nil
}

// fetchReported fetches, for an input compared in pieces, the elements
// the report prints: the worst element and --show's first mismatches,
// which the pass compared without keeping.
func (j compareJob) fetchReported(a input, va ops.View, d input, vd ops.View, res ops.Comparison) error {
	positions := res.First
	if res.Worst >= 0 {
		positions = append(positions[:len(positions):len(positions)], res.Worst)
	}
	for _, s := range []struct {
		in   input
		v    ops.View
		spec string
	}{{a, va, j.actual}, {d, vd, j.desired}} {
		if !s.in.Lazy() || len(s.in.Shape) == 0 {
			continue
		}
		var spans []ops.Span
		for _, pos := range positions {
			off := s.v.Offset
			for k, i := range ops.Unravel(pos, s.v.Shape) {
				off += i * s.v.Strides[k]
			}
			spans = append(spans, ops.Span{Off: off * s.v.Elem, Len: s.v.Elem})
		}
		if err := s.in.fetchSpans(s.spec, ops.MergeSpans(spans, fetchGap)); err != nil {
			return err
		}
	}
	return nil
}
