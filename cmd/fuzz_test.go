package cmd

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// FuzzCommand drives every command with a small random array and random
// flags, decoded from the fuzzer's bytes, and checks the outcome against a
// naive model written in the plainest Go, one per command in its
// <command>_fuzz_test.go: an odometer over the output index that computes
// where each element comes from (transpose, diagonal, slice, gather,
// gather-elements), sort.SliceStable with the documented ordering rules,
// plain loops for tril/triu, and assert_allclose on decoded values for
// compare. The expected file is the NumPy header (testkit.SaveHeader, as
// format.py builds it), then the expected element bytes.
//
// The model also decides whether a case must fail (an axis out of range, an
// index out of range in raise mode, a bad flag, a truncated input, ...). A
// failure must be exit 2 with one line "strider: ..." on stderr, nothing on
// standard output, no output file and every input unchanged.
//
// Commands run in-process through run (main_test.go): standard input is a
// pipe (npy reads it as a stream), standard output a buffer. What needs a
// process of its own is the root package's end-to-end tests' part.
func FuzzCommand(f *testing.F) {
	for _, s := range fuzzCommandSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeCase(data).check(t)
	})
}

// commandModel is one command FuzzCommand drives: the model that writes a
// case's command line and expected outcome, and the seeds that find its
// features.
type commandModel struct {
	name    string
	noInput bool // the command reads no array (tril-indices, triu-indices): the model gets nil
	minDims int  // the input mostly has at least this many axes (diagonal: 2)
	model   func(c *fcase, s *fsrc, a *farray)
	seeds   []commandSeed
}

// commandModels are the commands FuzzCommand drives, in the order the
// fuzzer's first byte picks them: the seeds (commandSeed.k and
// testdata/fuzz/FuzzCommand) depend on it, so a new command goes at the end.
var commandModels = []commandModel{
	{name: "transpose", model: (*fcase).transpose, seeds: transposeSeeds},
	{name: "diagonal", minDims: 2, model: (*fcase).diagonal, seeds: diagonalSeeds},
	{name: "gather", model: (*fcase).gather, seeds: gatherSeeds},
	{name: "gather-elements", model: (*fcase).gatherElements, seeds: gatherElementsSeeds},
	{name: "tril-indices", noInput: true, model: (*fcase).tril, seeds: trilSeeds},
	{name: "triu-indices", noInput: true, model: (*fcase).triu, seeds: triuSeeds},
	{name: "sort", model: (*fcase).sortCmd, seeds: sortSeeds},
	{name: "slice", model: (*fcase).slice, seeds: sliceSeeds},
	{name: "compare", model: (*fcase).compare, seeds: compareSeeds},
	{name: "info", model: (*fcase).info, seeds: infoSeeds},
}

// ---------------------------------------------------------------------------
// The byte source: every choice reads one byte; past the end every byte is
// 0, and 0 is always the plain choice.

type fsrc struct {
	b []byte
	i int
}

func (s *fsrc) u8() byte {
	if s.i >= len(s.b) {
		return 0
	}
	c := s.b[s.i]
	s.i++
	return c
}

// n returns a choice in [0, k).
func (s *fsrc) n(k int) int { return int(s.u8()) % k }

// rare is true for 1 in k of the byte values, never for 0.
func (s *fsrc) rare(k int) bool { return s.n(k) == k-1 }

// ---------------------------------------------------------------------------
// Dtypes and arrays.

// fuzzDtypes is every NumPy dtype (internal/dtype's Formats) in both byte
// orders, one-byte types once, in the order the fuzzer's byte picks them:
// the seeds depend on it, and gather's refused index files take the first
// four (f4, b1, i1, u1). TestFuzzDtypes checks it against dtype.Formats.
var fuzzDtypes = parseDtypes("<f4 |b1 |i1 |u1 >f4 <f8 >f8 <f2 >f2 " +
	"<i2 >i2 <i4 >i4 <i8 >i8 <u2 >u2 <u4 >u4 <u8 >u8 <c8 >c8 <c16 >c16")

// intDtypes are the integer dtypes of fuzzDtypes, in its order.
var intDtypes = func() []dtype.Dtype {
	var out []dtype.Dtype
	for _, d := range fuzzDtypes {
		if d.Kind == 'i' || d.Kind == 'u' {
			out = append(out, d)
		}
	}
	return out
}()

func parseDtypes(descrs string) []dtype.Dtype {
	var out []dtype.Dtype
	for _, s := range strings.Fields(descrs) {
		d, ok := dtype.Parse(s)
		if !ok {
			panic("fuzzDtypes: " + s)
		}
		out = append(out, d)
	}
	return out
}

// TestFuzzDtypes checks that fuzzDtypes is every NumPy dtype of
// dtype.Formats in both byte orders (one-byte types once), each once.
func TestFuzzDtypes(t *testing.T) {
	var want []string
	for _, f := range dtype.Formats {
		if !f.NumPy() {
			continue
		}
		want = append(want, f.Dtype.Descr())
		if f.Dtype.Size > 1 {
			want = append(want, ">"+f.Dtype.Descr()[1:])
		}
	}
	var got []string
	for _, d := range fuzzDtypes {
		got = append(got, d.Descr())
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("fuzzDtypes are %v, want %v", got, want)
	}
}

// farray is a case's array: its dtype, shape and order, and its elements
// as the file holds them.
type farray struct {
	dt      dtype.Dtype
	shape   []int
	fortran bool
	data    []byte // in file order
}

// count is the number of elements of shape.
func count(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// offset is the element offset of idx in the file's layout.
func (a *farray) offset(idx []int) int {
	off, step := 0, 1
	for i := range a.shape {
		k := len(a.shape) - 1 - i
		if a.fortran {
			k = i
		}
		off += idx[k] * step
		step *= a.shape[k]
	}
	return off
}

func (a *farray) at(idx []int) []byte {
	o := a.offset(idx) * a.dt.Size
	return a.data[o : o+a.dt.Size]
}

// each calls fn with every index of shape in C order (once for 0-d).
func each(shape []int, fn func(idx []int)) {
	idx := make([]int, len(shape))
	if count(shape) == 0 {
		return
	}
	for {
		fn(idx)
		k := len(shape) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

// file is the array as numpy.save writes it.
func (a *farray) file() []byte {
	return append(testkit.SaveHeader(a.dt.Descr(), a.fortran, a.shape), a.data...)
}

// expected builds the C-order .npy of shape whose element at idx is elem(idx).
func expected(dt dtype.Dtype, shape []int, elem func(idx []int) []byte) []byte {
	out := testkit.SaveHeader(dt.Descr(), false, shape)
	each(shape, func(idx []int) { out = append(out, elem(idx)...) })
	return out
}

// putBits stores the low size bytes of u in the dtype's byte order.
func putBits(dst []byte, u uint64, size int, big bool) {
	for k := 0; k < size; k++ {
		b := byte(u >> (8 * k))
		if big {
			dst[size-1-k] = b
		} else {
			dst[k] = b
		}
	}
}

// floatPalette holds the bits of 0, -0, 1, -1, 2, 0.5, NaN, a negative NaN
// with a payload, +Inf, -Inf, the smallest subnormal and 3.
func floatPalette(size int) []uint64 {
	switch size {
	case 2:
		return []uint64{0x0000, 0x8000, 0x3c00, 0xbc00, 0x4000, 0x3800, 0x7e00, 0xfe01, 0x7c00, 0xfc00, 0x0001, 0x4200}
	case 4:
		f := math.Float32bits
		return []uint64{0, uint64(f(float32(math.Copysign(0, -1)))), uint64(f(1)), uint64(f(-1)), uint64(f(2)), uint64(f(0.5)),
			0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 1, uint64(f(3))}
	}
	f := math.Float64bits
	return []uint64{0, f(math.Copysign(0, -1)), f(1), f(-1), f(2), f(0.5),
		0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000000, 0xfff0000000000000, 1, f(3)}
}

// genBits returns one element's native bits (for a complex element, one
// part's), mostly from a palette of interesting values.
func genBits(s *fsrc, kind byte, size int) uint64 {
	ones := ^uint64(0) >> (64 - 8*uint(size))
	sel := s.u8()
	if sel >= 224 { // raw bits
		var u uint64
		for k := 0; k < size; k++ {
			u |= uint64(s.u8()) << (8 * k)
		}
		return u
	}
	switch kind {
	case 'b':
		return uint64(sel % 2)
	case 'i', 'u':
		pal := []uint64{0, 1, 2, 3, ones, ones - 1, ones >> 1, ones>>1 + 1, 5, 4}
		return pal[int(sel)%len(pal)] & ones
	}
	pal := floatPalette(size)
	return pal[int(sel)%len(pal)]
}

func genElem(s *fsrc, dt dtype.Dtype, dst []byte) {
	if dt.Kind == 'c' {
		h := dt.Size / 2
		putBits(dst[:h], genBits(s, 'f', h), h, dt.BigEndian())
		putBits(dst[h:], genBits(s, 'f', h), h, dt.BigEndian())
		return
	}
	putBits(dst, genBits(s, dt.Kind, dt.Size), dt.Size, dt.BigEndian())
}

func genShape(s *fsrc, maxDims int) []int {
	nd := s.n(maxDims + 1)
	shape := make([]int, nd)
	for k := range shape {
		// Sizes 0..5, with 0 rarer than the others.
		v := s.n(12)
		switch {
		case v == 11:
			shape[k] = 0
		case v >= 6:
			shape[k] = v - 5
		default:
			shape[k] = v
		}
		if v == 0 {
			shape[k] = 2
		}
	}
	if nd == 0 {
		return shape
	}
	// Sometimes a long axis: sort strips of 64 or more take the radix sort,
	// and copies of 256 KiB or more are split between threads.
	switch v := s.n(32); {
	case v >= 26:
		shape[s.n(nd)] = []int{63, 64, 65, 100, 129, 257, 300, 1000}[s.n(8)]
	case v == 25:
		for k := range shape {
			shape[k] = 1
		}
		switch {
		case nd == 1:
			shape[0] = 40000 + s.n(2)
		case s.n(2) == 0:
			shape[0], shape[nd-1] = 300, 130
		default:
			shape[0], shape[nd-1] = 7, 5000
		}
	}
	return shape
}

func genArray(s *fsrc, dt dtype.Dtype, shape []int) *farray {
	a := &farray{dt: dt, shape: shape, fortran: s.n(3) == 1}
	a.data = make([]byte, count(shape)*dt.Size)
	src := s
	if count(shape) > 128 {
		// The fuzzer's bytes would run out: draw the elements from a
		// generator that two of them seed.
		r := rand.New(rand.NewPCG(uint64(s.u8()), uint64(s.u8())))
		buf := make([]byte, 3*len(a.data)+count(shape))
		for k := range buf {
			buf[k] = byte(r.Uint32())
		}
		src = &fsrc{b: buf}
	}
	for k := 0; k < len(a.data); k += dt.Size {
		genElem(src, dt, a.data[k:k+dt.Size])
	}
	return a
}

// ---------------------------------------------------------------------------
// Decoding elements for the oracles: dtype.Dtype's Float and Complex, and
// integers exactly.

// bigInt is an integer (or bool) element exactly.
func bigInt(b []byte, dt dtype.Dtype) *big.Int {
	neg, mag := dt.Int(b)
	v := new(big.Int).SetUint64(mag)
	if neg {
		v.Neg(v)
	}
	return v
}

// ---------------------------------------------------------------------------
// A case: files to write, the command line, and what the model expects.

type fcase struct {
	files  map[string][]byte // name in the temp folder → contents
	stdin  []byte            // nil: /dev/null
	args   []string          // after "strider"; "@/" is replaced by the temp folder
	desc   string            // for failure messages
	note   string            // a feature worth a seed (see fuzzCommandSeeds)
	fail   bool              // the model expects exit 2
	code   int               // expected exit status when !fail: 0, or 1 from compare
	want   map[string][]byte // expected outputs: file name → bytes; "-" is standard output
	stdout func(t *testing.T, out []byte)
}

// opts collects a command's options and positionals, placed in a random
// order at the end.
type opts struct {
	flags []string
	pos   []string
}

func (o *opts) flag(s *fsrc, name, value string) {
	if s.n(3) == 2 {
		o.flags = append(o.flags, name+"="+value)
	} else {
		o.flags = append(o.flags, name, value)
	}
}

func (o *opts) line(s *fsrc, command string) []string {
	args := []string{command}
	sep := false
	for _, p := range o.pos {
		if strings.HasPrefix(p, "-") && !isArg(p) {
			sep = true
		}
	}
	switch {
	case sep || s.n(4) == 3:
		args = append(args, o.flags...)
		args = append(args, "--")
		args = append(args, o.pos...)
	case s.n(2) == 1:
		args = append(args, o.pos...)
		args = append(args, o.flags...)
	default:
		args = append(args, o.flags...)
		args = append(args, o.pos...)
	}
	return args
}

// isArg is the contract's rule: "-", or "-" then a digit, ':' or '.'.
func isArg(t string) bool {
	if t == "-" {
		return true
	}
	return len(t) >= 2 && t[0] == '-' && (t[1] >= '0' && t[1] <= '9' || t[1] == ':' || t[1] == '.')
}

// intText writes an option's integer, sometimes as "+3" or "03" (decimal).
func intText(s *fsrc, v int64) string {
	switch {
	case v >= 0 && s.rare(10):
		return "0" + strconv.FormatInt(v, 10)
	case v >= 0 && s.rare(10):
		return "+" + strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v, 10)
}

// shared adds --threads, --device, --quiet and the output, and returns
// the output's name ("-" for standard output) and whether the case must
// fail because of them.
func (c *fcase) shared(s *fsrc, o *opts, in string) (out string, fail bool) {
	switch s.n(32) {
	case 1, 2, 3, 4:
		o.flag(s, "--threads", strconv.Itoa(1+s.n(4)))
	case 31:
		o.flag(s, "--threads", []string{"0", "-1", "99999", "x"}[s.n(4)])
		fail = true
	}
	switch s.n(32) {
	case 1, 2:
		o.flag(s, "--device", "cpu")
	case 31:
		o.flag(s, "--device", []string{"cuda", "gpu", ""}[s.n(3)])
		fail = true
	}
	if s.n(4) == 1 {
		o.flags = append(o.flags, []string{"--quiet", "-q"}[s.n(2)])
	}
	switch v := s.n(16); {
	case v == 15 && in != "":
		out = in // -o naming the input
		o.flag(s, "-o", "@/"+in)
	case v < 8:
		out = "out.npy"
		o.flag(s, []string{"-o", "--output"}[s.n(2)], "@/out.npy")
	case v < 12:
		out = "-"
		o.flag(s, "-o", "-")
	default:
		out = "-" // no -o: standard output, which is not a terminal
	}
	return out, fail
}

// input writes a as the command's input: a path, standard input or an
// .npz member, sometimes truncated (the command must fail) or with bytes
// after the data (ignored). It returns the spec and the file's name when
// it is a plain .npy ("" otherwise), and whether the data is short.
func (c *fcase) input(s *fsrc, a *farray, name string, stdinOK bool) (spec, file string, short bool) {
	b := a.file()
	switch s.n(32) {
	case 30:
		if len(a.data) > 0 {
			b = b[:len(b)-1-s.n(len(a.data))]
			short = true
		}
	case 31:
		b = append(b, bytes.Repeat([]byte{0xAB}, 1+s.n(9))...)
	}
	switch v := s.n(12); {
	case v == 9 && stdinOK:
		c.stdin = b
		return "-", "", short
	case v == 10 || v == 11:
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		method := zip.Store
		if s.n(2) == 1 {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "arr.npy", Method: method})
		if err == nil {
			_, err = w.Write(b)
		}
		if err == nil {
			err = zw.Close()
		}
		if err != nil {
			panic(err)
		}
		zname := strings.TrimSuffix(name, ".npy") + ".npz"
		c.files[zname] = buf.Bytes()
		if v == 10 {
			return "@/" + zname, "", short
		}
		return "@/" + zname + ":arr", "", short
	}
	c.files[name] = b
	return "@/" + name, name, short
}

// decodeCase reads a case from the fuzzer's bytes: the command (the first
// byte), its input array, then whatever its model reads.
func decodeCase(data []byte) *fcase {
	s := &fsrc{b: data}
	c := &fcase{files: map[string][]byte{}, want: map[string][]byte{}}
	command := commandModels[s.n(len(commandModels))]
	if command.noInput {
		command.model(c, s, nil)
		return c
	}
	dt := fuzzDtypes[s.n(len(fuzzDtypes))]
	shape := genShape(s, 4)
	for len(shape) < command.minDims && !s.rare(8) {
		shape = append(shape, 1+s.n(4))
	}
	a := genArray(s, dt, shape)
	c.desc = fmt.Sprintf("input %s shape %v fortran=%v data %x", dt.Descr(), shape, a.fortran, a.data[:min(len(a.data), 4096)])
	command.model(c, s, a)
	return c
}

// finish records the expected output (or failure) of a command that
// writes one array.
func (c *fcase) finish(fail bool, out string, want []byte) {
	if fail {
		c.fail = true
		return
	}
	c.want[out] = want
}

// ---------------------------------------------------------------------------
// Offsets, axes and index arrays, for the models that take them.

// genOffset is a diagonal or triangle offset: mostly small, sometimes at
// the ends of the int64 range.
func genOffset(s *fsrc) int64 {
	if s.rare(8) {
		return []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 40, -(1 << 40)}[s.n(5)]
	}
	return int64(s.n(13) - 6)
}

// genIndex is an index value for an axis of size n: mostly within one of
// [-n, n), sometimes an extreme.
func genIndex(s *fsrc, n int) int64 {
	switch v := s.n(32); {
	case v == 31:
		return []int64{math.MaxInt64, math.MinInt64, 1 << 33, -(1 << 33), 255, -129}[s.n(6)]
	case v >= 28 || n == 0:
		return int64(s.n(2*n+3) - n - 1) // one off either end, sometimes
	}
	return int64(s.n(2*n) - n)
}

// genAxis is an axis of an nd-d array, mostly valid (negative ones too).
func genAxis(s *fsrc, nd int) int {
	if s.rare(10) || nd == 0 {
		return s.n(2*nd+5) - nd - 2
	}
	return s.n(2*nd) - nd
}

// indexFile is an index array stored in an integer dtype: the values
// written wrap to the dtype's width, and vals are what the file holds.
type indexFile struct {
	arr  *farray
	vals []*big.Int // C order
}

func genIndexFile(s *fsrc, shape []int, n int) indexFile {
	dt := intDtypes[s.n(len(intDtypes))]
	a := &farray{dt: dt, shape: shape, fortran: s.n(4) == 1}
	a.data = make([]byte, count(shape)*dt.Size)
	raw := make([]int64, count(shape))
	for k := range raw {
		raw[k] = genIndex(s, n)
	}
	// raw is C order; store at each element's place in the file's layout.
	k := 0
	each(shape, func(idx []int) {
		off := a.offset(idx) * dt.Size
		putBits(a.data[off:off+dt.Size], uint64(raw[k]), dt.Size, dt.BigEndian())
		k++
	})
	f := indexFile{arr: a}
	each(shape, func(idx []int) { f.vals = append(f.vals, bigInt(a.at(idx), dt)) })
	return f
}

// resolveIndex is numpy.take's mode for one index on an axis of size n.
func resolveIndex(v *big.Int, n int, mode string) (int, bool) {
	bn := big.NewInt(int64(n))
	switch mode {
	case "wrap":
		if n == 0 {
			return 0, false
		}
		return int(new(big.Int).Mod(v, bn).Int64()), true // Euclidean: floor modulo for n > 0
	case "clip":
		if n == 0 {
			return 0, false
		}
		if v.Sign() < 0 {
			return 0, true
		}
		if v.Cmp(bn) >= 0 {
			return n - 1, true
		}
		return int(v.Int64()), true
	}
	if v.Cmp(new(big.Int).Neg(bn)) < 0 || v.Cmp(bn) >= 0 {
		return 0, false
	}
	i := int(v.Int64())
	if i < 0 {
		i += n
	}
	return i, true
}

// ---------------------------------------------------------------------------
// gather

func cstrides(shape []int) []int {
	st := make([]int, len(shape))
	step := 1
	for k := len(shape) - 1; k >= 0; k-- {
		st[k] = step
		step *= shape[k]
	}
	return st
}

func dot(a, b []int) int {
	s := 0
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}

// literal writes a NumPy literal of the shape: "3", "[1, -2]", "[[0], [1]]".
func literal(shape []int, vals []int64) string {
	if len(shape) == 0 {
		return strconv.FormatInt(vals[0], 10)
	}
	var b strings.Builder
	var rec func(d int, vals []int64)
	rec = func(d int, vals []int64) {
		b.WriteByte('[')
		n := shape[d]
		per := 0
		if n > 0 {
			per = len(vals) / n
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			if d == len(shape)-1 {
				b.WriteString(strconv.FormatInt(vals[i], 10))
			} else {
				rec(d+1, vals[i*per:(i+1)*per])
			}
		}
		b.WriteByte(']')
	}
	rec(0, vals)
	return b.String()
}

// ---------------------------------------------------------------------------
// gather-elements

// Running a case and checking the contract.

func (c *fcase) check(t *testing.T) {
	dir := t.TempDir()
	for name, b := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	args := make([]string, len(c.args))
	for k, a := range c.args {
		args[k] = strings.ReplaceAll(a, "@/", dir+string(filepath.Separator))
	}
	r := run(t, c.stdin, args...)
	code, stdout, stderr := r.code, r.stdout, r.stderr
	readFile := func(name string) []byte { return testkit.ReadFile(t, filepath.Join(dir, name)) }
	report := func(format string, a ...any) {
		t.Helper()
		t.Fatalf("strider %s\n%s\nexit %d, stderr %q, stdout %d bytes\n%s",
			strings.Join(c.args, " "), c.desc, code, stderr, len(stdout), fmt.Sprintf(format, a...))
	}
	for _, bad := range []string{"panic", "goroutine", "internal error", "runtime error"} {
		if bytes.Contains(stderr, []byte(bad)) {
			report("stderr shows a crash")
		}
	}
	// The folder holds the inputs, the expected outputs, and nothing else.
	got := testkit.Names(t, dir)
	var names []string
	for name := range c.files {
		names = append(names, name)
	}
	if !c.fail {
		for name := range c.want {
			if name != "-" && c.files[name] == nil {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	if !slices.Equal(got, names) {
		report("the folder holds %v, want %v", got, names)
	}
	if c.fail {
		lines := strings.Split(strings.TrimSuffix(string(stderr), "\n"), "\n")
		switch {
		case code != 2:
			report("want exit 2 (the model refuses this case)")
		case c.args[0] == "info" && !allErrorLines(lines, stderr):
			// (info goes on past a bad file, one line each, as ls does.)
			report("stderr is not lines 'strider: ...'")
		case c.args[0] != "info" && (len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: ") || !bytes.HasSuffix(stderr, []byte("\n"))):
			report("stderr is not one line 'strider: ...'")
		case len(stdout) != 0 && c.args[0] != "info":
			// (info describes what it can read of a bad file, then exits 2.)
			report("standard output not empty on error")
		}
		for name, b := range c.files {
			if !bytes.Equal(readFile(name), b) {
				report("input %s changed by a failed run", name)
			}
		}
		return
	}
	if code != c.code || len(stderr) != 0 {
		report("want exit %d and nothing on stderr", c.code)
	}
	for name, want := range c.want {
		b := stdout
		if name != "-" {
			b = readFile(name)
		}
		if !bytes.Equal(b, want) {
			report("%s differs from the model:\n got %q\nwant %q", name, b, want)
		}
	}
	for name, b := range c.files {
		if _, out := c.want[name]; !out && !bytes.Equal(readFile(name), b) {
			report("input %s changed", name)
		}
	}
	if c.stdout != nil {
		c.stdout(t, stdout)
	} else if _, ok := c.want["-"]; !ok && len(stdout) != 0 {
		report("unexpected standard output")
	}
}

// ---------------------------------------------------------------------------
// Seeds.

// seedBytes is the k-th byte string of a fixed pseudo-random family.
func seedBytes(k uint64) []byte {
	r := rand.New(rand.NewPCG(k, 0x5eed))
	b := make([]byte, 24+r.IntN(96))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// has matches a case that succeeds and whose command line and description
// hold every part; refused, one that the model refuses.
func has(parts ...string) func(*fcase, string) bool {
	return func(c *fcase, line string) bool {
		for _, p := range parts {
			if !strings.Contains(line+" "+c.desc, p) {
				return false
			}
		}
		return !c.fail
	}
}

func refused(parts ...string) func(*fcase, string) bool {
	return func(c *fcase, line string) bool {
		return c.fail && has(parts...)(&fcase{desc: c.desc}, line)
	}
}

// commandSeed names a feature of a command's cases, the predicate that
// finds it, and k, the first seedBytes(k) whose case has it. Each command's
// fuzz file lists its own; TestFuzzCommandSeeds checks each, and when the
// decoding changes, STRIDER_FUZZ_FIND_SEEDS=1 go test ./cmd -run
// TestFuzzCommandSeeds -v prints the new k values.
type commandSeed struct {
	name string
	k    uint64
	ok   func(c *fcase, line string) bool // line: the command line
}

func seedHas(k uint64, ok func(*fcase, string) bool) bool {
	c := decodeCase(seedBytes(k))
	return ok(c, strings.Join(c.args, " "))
}

// TestFuzzCommandSeeds checks that each seed still has its feature.
func TestFuzzCommandSeeds(t *testing.T) {
	find := os.Getenv("STRIDER_FUZZ_FIND_SEEDS") == "1"
	for _, command := range commandModels {
		for _, w := range command.seeds {
			if find {
				k := uint64(0)
				for ; k < 1<<22 && !seedHas(k, w.ok); k++ {
				}
				fmt.Printf("%s: %q: %d\n", command.name, w.name, k)
				continue
			}
			if !seedHas(w.k, w.ok) {
				t.Errorf("seed %d no longer has %q: run STRIDER_FUZZ_FIND_SEEDS=1 go test ./cmd -run TestFuzzCommandSeeds -v and update %s's seeds", w.k, w.name, command.name)
			}
		}
	}
}

// fuzzCommandSeeds is one seed per feature of every command's seeds and a
// few plain random ones per command.
func fuzzCommandSeeds() [][]byte {
	var seeds [][]byte
	for _, command := range commandModels {
		for _, w := range command.seeds {
			seeds = append(seeds, seedBytes(w.k))
		}
	}
	n := uint64(len(commandModels))
	for k := uint64(0); k < 3*n; k++ {
		b := seedBytes(1<<40 + k)
		b[0] = byte(k % n)
		seeds = append(seeds, b)
	}
	return seeds
}

// allErrorLines reports whether stderr is one or more lines, each
// "strider: ...".
func allErrorLines(lines []string, stderr []byte) bool {
	if len(stderr) == 0 || !bytes.HasSuffix(stderr, []byte("\n")) {
		return false
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "strider: ") {
			return false
		}
	}
	return true
}
