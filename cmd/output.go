package cmd

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"strider/formats/npy"
	"strider/formats/output"
	"strider/formats/remote"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/ops"
)

// outputSet is the files one result writes, the one path every output
// takes: each is created (a bad path or a full disk fails before the work
// runs), the work fills them under one progress line, and they are
// committed together, all replaced or none (standard output, which cannot
// be taken back, goes first), or aborted, leaving nothing behind.
type outputSet struct {
	outs []*output.Output
}

// add takes an output just created (output.Create and its kin), or their
// error.
func (s *outputSet) add(o *output.Output, err error) (*output.Output, error) {
	if err != nil {
		return nil, err
	}
	s.outs = append(s.outs, o)
	return o, nil
}

// create adds a new .npy output of dtype d and shape at path and returns
// its data to fill.
func (s *outputSet) create(e *env, path string, d dtype.Dtype, shape []int) ([]byte, error) {
	o, err := s.add(output.Create(path, e.stdout, d, shape))
	if err != nil {
		return nil, err
	}
	return o.Data, nil
}

// abort removes every output not committed; deferred by whoever made s.
func (s *outputSet) abort() {
	for _, o := range s.outs {
		o.Abort()
	}
}

// commit replaces every output's target together.
func (s *outputSet) commit() error {
	if len(s.outs) == 1 {
		return s.outs[0].Commit()
	}
	return output.CommitAll(s.outs...)
}

// withProgress runs work with the command's options and a progress
// counter, showing the progress line while it runs: work advances
// opt.Done by the bytes it is done with, total in all.
func (e *env) withProgress(total int64, work func(opt ops.Options) error) error {
	var done atomic.Int64
	run := e.Options
	run.Done = &done
	stop := e.startProgress(total, &done)
	err := work(run)
	stop()
	return err
}

// writeView copies v into a new .npy of dtype d at the output the command
// line names: in C order, or with --order keep in the order numpy.save
// would write v in. Nothing is left behind on failure. A stream output gets
// the copy a bounded piece at a time.
func (e *env) writeView(d dtype.Dtype, v ops.View) error {
	shape, v, fortran := e.layout(v)
	return e.writeCopy(d, shape, fortran, v)
}

// writeCopy writes v's elements in C order under a header with shape
// (which holds as many elements) and fortran.
func (e *env) writeCopy(d dtype.Dtype, shape []int, fortran bool, v ops.View) error {
	copyPiece := func(dst []byte, p ops.View, o ops.Options) error {
		return e.eng.Copy(dst, p, o)
	}
	return e.writeOutput(d, shape, fortran, viewPieces(v, v.Elem, e.settings, copyPiece))
}

// writeSparse writes the view that view makes of the input, reading only
// what it needs. A regular file is not mapped when the view puts each
// element a page or more from the next (a diagonal): one pread per element
// is then cheaper than a page fault per element. Otherwise the input is
// mapped lazily (npy.AccessSparse), so only the pages touched are read.
func (e *env) writeSparse(spec string, view func(ops.View) (ops.View, error)) error {
	access := npy.AccessReadAt
	if remote.IsURL(spec) {
		access = npy.AccessFetch // its spans are fetched, in parallel, before the copy
	}
	in, err := e.openInput(spec, access)
	if err != nil {
		return err
	}
	defer in.Close()
	v, err := view(in.view)
	if err != nil {
		return err
	}
	if err := in.fetch(spec, v); err != nil {
		return err
	}
	r := in.ReaderAt()
	if _, onCPU := e.eng.(cpu); onCPU && r != nil && ops.PreferReadAt(v) {
		shape, v, fortran := e.layout(v)
		return e.writeOutput(in.Dtype, shape, fortran, viewPieces(v, v.Elem, e.settings, func(dst []byte, p ops.View, o ops.Options) error {
			if err := copyAt(dst, p, r, in.NBytes(), o); err != nil {
				return fmt.Errorf("%s: %w", displayName(spec), err)
			}
			return nil
		}))
	}
	if r != nil {
		// Dense enough that a mapping wins: map the file after all.
		mapped, err := e.openInput(spec, npy.AccessSparse)
		if err != nil {
			return err
		}
		defer mapped.Close()
		// The read-at file is done with: close it now, so that an output
		// that replaces the input can be renamed over it on Windows, where
		// an open file cannot be replaced.
		in.Close()
		if v, err = view(mapped.view); err != nil {
			return err
		}
	}
	return e.writeView(in.Dtype, v)
}

// streamPiece bounds the memory a result written to a stream takes: it is
// computed and written this many bytes at a time.
const streamPiece = 256 << 20

// filler computes a whole result into dst with the command's options, whose
// Done (set by writeOutput) it advances by the bytes it writes: the kernels
// of ops and cuda do so as they go.
type filler func(dst []byte, opt ops.Options) error

// piecer computes a result a piece at a time in C order: it fills buf, or
// a prefix of it, and passes that to emit, which hands back the buffer of
// the same size to fill next (emit may still be writing the piece it was
// given), until the result is whole, advancing opt.Done as a filler does.
type piecer func(buf []byte, opt ops.Options, emit emitter) error

// emitter takes a computed piece and returns the buffer for the next one.
type emitter func(piece []byte) (next []byte, err error)

// result is how a command computes its result: whole, and, where it can,
// in pieces.
type result struct {
	whole  filler
	pieces piecer // nil: a stream output holds the whole result
	part   int    // the bytes of the largest part pieces emits whole (0: it cuts anywhere)
	// readIn, when set, reads the inputs in that the result reads out of
	// order (see readAhead): writeOutput calls it once the output exists.
	readIn func()
}

// viewPieces is the result of computing v's elements with copyPiece, size
// bytes each (v.Elem for a copy), whole or in the pieces ops.View.Pieces
// cuts. An input to read ahead is read in first.
func viewPieces(v ops.View, size int, opt settings, copyPiece func(dst []byte, p ops.View, o ops.Options) error) result {
	r := result{
		whole: func(dst []byte, o ops.Options) error { return copyPiece(dst, v, o) },
		pieces: func(buf []byte, o ops.Options, emit emitter) error {
			for p := range v.Pieces(max(len(buf)/size, 1) * v.Elem) {
				b := buf[:p.Count()*size]
				if err := copyPiece(b, p, o); err != nil {
					return err
				}
				var err error
				if buf, err = emit(b); err != nil {
					return err
				}
			}
			return nil
		},
	}
	if opt.readAhead != nil {
		r.readIn = func() { readAhead(opt.readAhead, v) }
	}
	return r
}

// inParts makes r's pieces those of a result of n parts of size bytes
// each, in C order, that fill computes for parts lo..hi-1: as many whole
// parts per piece as the buffer holds (at least one; r.part says how large
// one is, so that writeOutput holds a result whose parts exceed a piece
// whole, with the memory check that comes with it).
func (r *result) inParts(n, size int, fill func(dst []byte, lo, hi int, o ops.Options) error) {
	r.part = size
	r.pieces = func(buf []byte, o ops.Options, emit emitter) error {
		return ops.PartPieces(n, size, buf, o, fill, emit)
	}
}

// readAhead reads the pages of a, an input opened with npy.AccessAllLater,
// in now when v, a view of it, reads them out of order (a transpose, a
// Fortran-order input): populating the mapping at once batches the disk
// reads such a copy would otherwise make page by page (transpose 8192²
// from a cold cache: 0.33 s populated, 0.42 s faulted). A view read in
// order faults its pages in as the kernels reach them: each fault maps
// the 16 pages around it, cheaper than populating (which walks the pages
// one by one), and the faults overlap the writing of the pieces instead
// of delaying the first (cast f32 to f64, 256 MiB: 0.27 s populated,
// 0.22 s faulted, medians of 9 alternating runs, 2026-11-25).
func readAhead(a *npy.Array, v ops.View) {
	if c, _ := v.Contiguity(); !c {
		a.Prefetch()
	}
}

// writeResult creates the output, lets fill compute into its data with
// opt's options and the progress counter, and commits it atomically,
// showing progress when the work is long.
func (e *env) writeResult(d dtype.Dtype, shape []int, fill filler) error {
	return e.writeOutput(d, shape, false, result{whole: fill})
}

// writeFortran writes a result that fill computes in C order under a
// Fortran-order header, as numpy.save writes an array that is F- but not
// C-contiguous: computed whole into memory first (after the memory
// check), then written in Fortran order.
func (e *env) writeFortran(d dtype.Dtype, shape []int, fill func(dst []byte) error) error {
	n := int64(ops.Count(shape)) * int64(d.Size)
	if err := sysmem.CheckMemory("the result", n); err != nil {
		return err
	}
	buf := make([]byte, n)
	if err := fill(buf); err != nil {
		return err
	}
	return e.writeCopy(d, shape, true, ops.Contiguous(d.Size, shape, buf).Reversed())
}

// layout is how the view v is written: in C order (its shape, v itself,
// false), or, with --order keep when numpy.save would write v in Fortran
// order, in Fortran order (its shape, the reversed view whose C order is
// v's Fortran order, true).
func (opt settings) layout(v ops.View) ([]int, ops.View, bool) {
	if opt.keepOrder {
		if c, f := v.Contiguity(); f && !c {
			return v.Shape, v.Reversed(), true
		}
	}
	return v.Shape, v, false
}

// writeOutput is writeResult for a result that may also be computed in
// pieces: a stream output (standard output, a pipe, a device) then gets it
// through a buffer of at most streamPiece bytes, whatever its size. With
// fortran, the header says Fortran order and r computes the data in it.
func (e *env) writeOutput(d dtype.Dtype, shape []int, fortran bool, r result) error {
	path, err := e.outputPath()
	if err != nil {
		return err
	}
	var outs outputSet
	defer outs.abort()
	var out *output.Output
	_, onCPU := e.eng.(cpu)
	switch {
	case r.pieces != nil && int64(r.part) <= streamPiece:
		// A file output is written in pieces only from the CPU, and when no
		// part is larger than a piece: the GPU computes each piece as a
		// program of its own, and a larger part would be held whole.
		out, err = outs.add(output.CreatePieces(path, e.stdout, d, shape, fortran, onCPU && r.part <= directPiece))
	case fortran:
		out, err = outs.add(output.CreateFortran(path, e.stdout, d, shape))
	default:
		out, err = outs.add(output.Create(path, e.stdout, d, shape))
	}
	if err != nil {
		return err
	}
	if r.readIn != nil {
		r.readIn()
	}
	if out.Streaming() {
		total := int64(ops.Count(shape)) * int64(d.Size)
		err = e.withProgress(total, func(run ops.Options) error { return writePieces(out, r.pieces, total, run) })
	} else {
		err = e.withProgress(int64(len(out.Data)), func(run ops.Options) error { return r.whole(out.Data, run) })
	}
	if err != nil {
		return err
	}
	return outs.commit()
}

// directPiece is the piece a direct file output is computed and written in:
// two of them (one being written while the next is computed) stay in the
// L3 cache. STRIDER_DIRECT_PIECE=N in the environment sets it to N bytes
// (the tests make pieces of a few elements, to run the hand-over between
// the two buffers on small arrays).
var directPiece = max(int(envInt("STRIDER_DIRECT_PIECE", 4<<20)), 64) // 64 holds any element

// envInt is the positive integer in environment variable name, or def.
func envInt(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

// writePieces computes the result with pieces into out, a streaming
// output. A stream gets pieces of at most streamPiece bytes, each written
// before the next is computed. A direct file output gets directPiece
// bytes at a time from two buffers: each piece is written on another
// goroutine while the next is computed.
func writePieces(out *output.Output, pieces piecer, total int64, run ops.Options) error {
	if !out.Direct() {
		buf := make([]byte, min(total, streamPiece))
		return pieces(buf, run, func(b []byte) ([]byte, error) { return buf, out.WritePiece(b) })
	}
	w := pieceWriter{out: out}
	defer w.wait() // after a panic, too: nothing writes once the output is aborted
	for k := range w.bufs {
		w.bufs[k] = make([]byte, min(total, int64(directPiece)))
	}
	err := pieces(w.bufs[0], run, w.emit)
	if werr := w.wait(); err == nil {
		err = werr
	}
	return err
}

// pieceWriter writes a direct output's pieces, one at a time, on another
// goroutine, from two buffers taken in turn.
type pieceWriter struct {
	out    *output.Output
	bufs   [2][]byte
	flight chan error // the write in progress; nil when none
}

// emit waits for the previous piece's write, starts writing piece, and
// returns the buffer piece is not in.
func (w *pieceWriter) emit(piece []byte) ([]byte, error) {
	if err := w.wait(); err != nil {
		return nil, err
	}
	w.flight = make(chan error, 1)
	go func(ch chan<- error) { ch <- w.out.WritePiece(piece) }(w.flight)
	if len(piece) > 0 && &piece[0] == &w.bufs[0][0] {
		return w.bufs[1], nil
	}
	return w.bufs[0], nil
}

// wait waits for the write in progress, if any, and returns its error.
func (w *pieceWriter) wait() error {
	if w.flight == nil {
		return nil
	}
	err := <-w.flight
	w.flight = nil
	return err
}

// outputPath applies the default-output rule: standard output unless it is
// a terminal, which gets an error rather than binary data.
func (e *env) outputPath() (string, error) {
	if e.outputSet {
		if e.output == "" {
			return "", usagef("--output needs a path (or - for standard output)")
		}
		return e.output, nil
	}
	if f, ok := e.stdout.(*os.File); ok && isTerminal(f) {
		return "", usagef("refusing to write .npy data to a terminal; use -o FILE or redirect standard output")
	}
	return "-", nil
}

// writeText lets write produce a text into -o PATH, atomically, or onto
// standard output (a terminal too: text is what it is for), under the
// progress line: write advances opt.Done by the bytes of the input it is
// done with, total in all.
func (e *env) writeText(total int64, write func(w io.Writer, opt ops.Options) error) error {
	path := "-"
	if e.outputSet {
		if path = e.output; path == "" {
			return usagef("--output needs a path (or - for standard output)")
		}
	}
	var outs outputSet
	defer outs.abort()
	out, err := outs.add(output.CreateRaw(path, e.stdout, 0))
	if err != nil {
		return err
	}
	if err := e.withProgress(total, func(opt ops.Options) error { return write(out, opt) }); err != nil {
		return err
	}
	return outs.commit()
}

// cpuOnly refuses --device cuda for a command that has no GPU kernel,
// rather than run it on the CPU silently.
func (e *env) cpuOnly() error {
	if _, onCPU := e.eng.(cpu); !onCPU {
		return usagef("--device cuda: %s has no GPU kernel yet; use --device cpu", e.name)
	}
	return nil
}
