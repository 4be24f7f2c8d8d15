package cmd

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/formats/output"
	"strider/internal/dtype"
	"strider/ops"
)

// Flags every operation shares, declared once.
var (
	outputFlag = &cli.StringFlag{
		Name: "output", Aliases: []string{"o"}, Usage: "write the result to `PATH` (- for standard output, FILE.npz:NAME for a member of an archive; default: standard output unless it is a terminal)",
	}
	deviceFlag = &cli.StringFlag{
		Name: "device", Value: "cpu", Usage: "run on `DEV`: cpu or cuda",
	}
	// A string read by parseInt: decimal, as every integer option (an
	// IntFlag would read 010 as 8).
	threadsFlag = &cli.StringFlag{
		Name: "threads", Usage: "use `N` threads", DefaultText: "all cores",
	}
	quietFlag = &cli.BoolFlag{
		Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on standard error",
	}
	// axisFlag is the axis sort and gather-elements work along: the last
	// by default, and --dim as torch names it. Read it with axisValue.
	axisFlag = &cli.StringFlag{
		Name: "axis", Aliases: []string{"dim"}, Value: "-1", Usage: "axis `A` to work along",
	}
	// takeAxisFlag is gather's --axis: numpy.take flattens the input
	// without one, and the contract gives gather no --dim.
	takeAxisFlag = &cli.StringFlag{
		Name: axisFlag.Name, Usage: "axis `A` to take along (default: the flattened array)",
	}
	// indicesFlag is the index array of gather and gather-elements.
	indicesFlag = &cli.StringFlag{
		Name: "indices", Usage: "read the indices from `IDX.npy`",
	}
	// The commands whose result is a view of the input (transpose, slice,
	// diagonal) take --order.
	orderFlag = &cli.StringFlag{
		Name: "order", Value: "C", Usage: "`ORDER` of the output file: C, or keep: Fortran order where numpy.save(view) writes it (F- but not C-contiguous), so cmp against it works",
	}
)

// withShared appends the shared flags to a command's own.
func withShared(own ...cli.Flag) []cli.Flag {
	return append(own, outputFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag, asTorchFlag)
}

// maxThreads bounds --threads: more goroutines than this only cost memory.
const maxThreads = 4096

// settings is what a command runs with: the engine --device picks and the
// options its kernels take.
type settings struct {
	ops.Options
	eng engine
	// readAhead, when set, is an input opened with npy.AccessAllLater that
	// writeView reads in once its output exists, when it reads it out of
	// order (see readAhead).
	readAhead *npy.Array
	// keepOrder is --order keep: a view NumPy would save in Fortran order
	// is written in Fortran order.
	keepOrder bool
}

// options reads --device and --threads.
func options(c *cli.Context) (settings, error) {
	opt := settings{Options: ops.Options{Threads: runtime.GOMAXPROCS(0)}, eng: cpu{}}
	if c.IsSet("threads") {
		n, err := parseInt("threads", c.String("threads"))
		if err != nil {
			return settings{}, err
		}
		if n < 1 || n > maxThreads {
			return settings{}, usagef("--threads %d is out of range 1..%d", n, maxThreads)
		}
		opt.Threads = n
	}
	switch o := c.String("order"); {
	case !slices.Contains(c.Command.Flags, cli.Flag(orderFlag)):
		// A command's own --order (reshape's index order) is its own.
	case o == "" || o == "C" || o == "c":
	case o == "keep":
		opt.keepOrder = true
	default:
		return settings{}, usagef("--order %q is not C or keep", o)
	}
	switch d := c.String("device"); d {
	case "cpu":
	case "cuda":
		eng, err := gpu()
		if err != nil {
			return settings{}, err
		}
		opt.eng = eng
	default:
		return settings{}, usagef("--device %q is not cpu or cuda", d)
	}
	return opt, nil
}

// oneInput returns the single positional argument.
func oneInput(c *cli.Context, what string) (string, error) {
	switch c.NArg() {
	case 0:
		return "", usagef("missing %s (see strider %s --help)", what, c.Command.Name)
	case 1:
		return c.Args().First(), nil
	default:
		return "", usagef("expected one %s, got %d arguments: %s", what, c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
}

// input is an opened array and the view of its elements.
type input struct {
	*npy.Array
	view ops.View
}

// openInput opens a .npy path, "-" or an .npz member. An input opened
// with npy.AccessAllLater is read in by whoever fills the output, once the
// output exists (settings.readAhead, or a call to Prefetch).
func openInput(c *cli.Context, spec string, access npy.Access) (input, error) {
	a, err := formats.Open(spec, stdinFor(c, spec), access)
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", displayName(spec), err)
	}
	return inputOf(a), nil
}

// inputOf is the input over an open array: the array and its view.
func inputOf(a *npy.Array) input {
	return input{Array: a, view: ops.View{Elem: a.Dtype.Size, Shape: a.Shape, Strides: a.Strides(), Data: a.Data}}
}

func displayName(spec string) string {
	if spec == "-" {
		return "standard input"
	}
	return spec
}

// writeView copies v into a new .npy of dtype d at the output the command
// line names: in C order, or with --order keep in the order numpy.save
// would write v in. Nothing is left behind on failure. A stream output gets
// the copy a bounded piece at a time.
func writeView(c *cli.Context, d dtype.Dtype, v ops.View, opt settings) error {
	shape, v, fortran := opt.layout(v)
	return writeCopy(c, d, shape, fortran, v, opt)
}

// writeCopy writes v's elements in C order under a header with shape
// (which holds as many elements) and fortran.
func writeCopy(c *cli.Context, d dtype.Dtype, shape []int, fortran bool, v ops.View, opt settings) error {
	copyPiece := func(dst []byte, p ops.View, o ops.Options) error {
		return opt.eng.Copy(dst, p, o)
	}
	return writeOutput(c, opt, d, shape, fortran, viewPieces(v, v.Elem, opt, copyPiece))
}

// writeSparse writes the view that view makes of the input, reading only
// what it needs. A regular file is not mapped when the view puts each
// element a page or more from the next (a diagonal): one pread per element
// is then cheaper than a page fault per element. Otherwise the input is
// mapped lazily (npy.AccessSparse), so only the pages touched are read.
func writeSparse(c *cli.Context, spec string, opt settings, view func(ops.View) (ops.View, error)) error {
	in, err := openInput(c, spec, npy.AccessReadAt)
	if err != nil {
		return err
	}
	defer in.Close()
	v, err := view(in.view)
	if err != nil {
		return err
	}
	r := in.ReaderAt()
	if _, onCPU := opt.eng.(cpu); onCPU && r != nil && ops.PreferReadAt(v) {
		shape, v, fortran := opt.layout(v)
		return writeOutput(c, opt, in.Dtype, shape, fortran, viewPieces(v, v.Elem, opt, func(dst []byte, p ops.View, o ops.Options) error {
			if err := copyAt(dst, p, r, in.NBytes(), o); err != nil {
				return fmt.Errorf("%s: %w", displayName(spec), err)
			}
			return nil
		}))
	}
	if r != nil {
		// Dense enough that a mapping wins: map the file after all.
		mapped, err := openInput(c, spec, npy.AccessSparse)
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
	return writeView(c, in.Dtype, v, opt)
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
func writeResult(c *cli.Context, opt settings, d dtype.Dtype, shape []int, fill filler) error {
	return writeOutput(c, opt, d, shape, false, result{whole: fill})
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
func writeOutput(c *cli.Context, opt settings, d dtype.Dtype, shape []int, fortran bool, r result) error {
	path, err := outputPath(c)
	if err != nil {
		return err
	}
	stdout := c.App.Writer
	var out *output.Output
	_, onCPU := opt.eng.(cpu)
	switch {
	case r.pieces != nil && int64(r.part) <= streamPiece:
		// A file output is written in pieces only from the CPU, and when no
		// part is larger than a piece: the GPU computes each piece as a
		// program of its own, and a larger part would be held whole.
		out, err = output.CreatePieces(path, stdout, d, shape, fortran, onCPU && r.part <= directPiece)
	case fortran:
		out, err = output.CreateFortran(path, stdout, d, shape)
	default:
		out, err = output.Create(path, stdout, d, shape)
	}
	if err != nil {
		return err
	}
	defer out.Abort()
	if r.readIn != nil {
		r.readIn()
	}
	var done atomic.Int64
	run := opt.Options
	run.Done = &done
	if out.Streaming() {
		total := int64(ops.Count(shape)) * int64(d.Size)
		stop := startProgress(c, total, &done)
		err = writePieces(out, r.pieces, total, run)
		stop()
	} else {
		stop := startProgress(c, int64(len(out.Data)), &done)
		err = r.whole(out.Data, run)
		stop()
	}
	if err != nil {
		return err
	}
	return out.Commit()
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
func outputPath(c *cli.Context) (string, error) {
	if c.IsSet("output") {
		p := c.String("output")
		if p == "" {
			return "", usagef("--output needs a path (or - for standard output)")
		}
		return p, nil
	}
	if f, ok := c.App.Writer.(*os.File); ok && isTerminal(f) {
		return "", usagef("refusing to write .npy data to a terminal; use -o FILE or redirect standard output")
	}
	return "-", nil
}

// parseInts reads a comma-separated integer list such as "1,0,-1"; brackets
// or parentheses around it are accepted, as NumPy users write tuples.
func parseInts(flag, s string) ([]int, error) { return parseIntList("--"+flag, s) }

// parseIntList is parseInts for the value of what (a flag, or an argument).
func parseIntList(what, s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
		t = t[1 : len(t)-1]
	}
	out := []int{}
	if strings.TrimSpace(t) == "" {
		return out, nil
	}
	items := strings.Split(t, ",")
	for i, f := range items {
		f = strings.TrimSpace(f)
		if f == "" && i == len(items)-1 && i > 0 {
			continue // a trailing comma, as in (1,)
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, usagef("%s %q is not a list of integers", what, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// axisValue reads --axis (or its alias) as an integer, not yet checked
// against the array's dimensions.
func axisValue(c *cli.Context) (int, error) {
	return parseInt(axisFlag.Name, c.String(axisFlag.Name))
}

// parseInt reads one integer option value.
func parseInt(flag, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, usagef("--%s %q is not an integer", flag, s)
	}
	return n, nil
}
