package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/cmplx"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"strider/cmd"
)

// FuzzCommand drives every command with a small random array and random
// flags, decoded from the fuzzer's bytes, and checks the outcome against a
// naive model written here in the plainest Go: an odometer over the output
// index that computes where each element comes from (transpose, diagonal,
// slice, gather, gather-elements), sort.SliceStable with the documented
// ordering rules, plain loops for tril/triu, and assert_allclose on decoded
// values for compare. The expected file is the NumPy header built here as
// format.py builds it, then the expected element bytes.
//
// The model also decides whether a case must fail (an axis out of range, an
// index out of range in raise mode, a bad flag, a truncated input, ...). A
// failure must be exit 2 with one line "strider: ..." on stderr, nothing on
// standard output, no output file and every input unchanged.
//
// Commands run in-process through cmd.Run, with the app's Reader and
// Writer on files; STRIDER_FUZZ_EXEC=1 runs the built binary instead (the
// same cases, to check that in-process running changes nothing).
func FuzzCommand(f *testing.F) {
	for _, s := range fuzzCommandSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeCase(data).check(t)
	})
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

type fdtype struct {
	kind byte // b i u f c
	size int
	big  bool
}

func (d fdtype) descr() string {
	o := "<"
	switch {
	case d.size == 1:
		o = "|"
	case d.big:
		o = ">"
	}
	return o + string(d.kind) + strconv.Itoa(d.size)
}

func (d fdtype) name() string {
	b := strconv.Itoa(8 * d.size)
	switch d.kind {
	case 'b':
		return "bool"
	case 'i':
		return "int" + b
	case 'u':
		return "uint" + b
	case 'f':
		return "float" + b
	}
	return "complex" + b
}

// allDtypes is every CLI.md dtype in both byte orders (one-byte types once).
var allDtypes = func() []fdtype {
	out := []fdtype{{'f', 4, false}, {'b', 1, false}, {'i', 1, false}, {'u', 1, false}}
	for _, ks := range []struct {
		kind  byte
		sizes []int
	}{{'f', []int{4, 8, 2}}, {'i', []int{2, 4, 8}}, {'u', []int{2, 4, 8}}, {'c', []int{8, 16}}} {
		for _, sz := range ks.sizes {
			for _, be := range []bool{false, true} {
				d := fdtype{ks.kind, sz, be}
				if d != out[0] {
					out = append(out, d)
				}
			}
		}
	}
	return out
}()

var intDtypes = func() []fdtype {
	var out []fdtype
	for _, d := range allDtypes {
		if d.kind == 'i' || d.kind == 'u' {
			out = append(out, d)
		}
	}
	return out
}()

type farray struct {
	dt      fdtype
	shape   []int
	fortran bool
	data    []byte // in file order
}

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
	o := a.offset(idx) * a.dt.size
	return a.data[o : o+a.dt.size]
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

// npyHeader is what numpy.save writes before the data (format.py's
// _write_array_header and _wrap_header, version 1.0).
func npyHeader(descr string, fortran bool, shape []int) []byte {
	fo := "False"
	if fortran {
		fo = "True"
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	sh := "(" + strings.Join(parts, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	sh += ")"
	text := "{'descr': '" + descr + "', 'fortran_order': " + fo + ", 'shape': " + sh + ", }"
	if len(shape) > 0 {
		grow := shape[0]
		if fortran {
			grow = shape[len(shape)-1]
		}
		text += strings.Repeat(" ", 21-len(strconv.Itoa(grow)))
	}
	hlen := len(text) + 1
	pad := 64 - (8+2+hlen)%64
	out := []byte("\x93NUMPY\x01\x00")
	out = binary.LittleEndian.AppendUint16(out, uint16(hlen+pad))
	out = append(out, text...)
	out = append(out, strings.Repeat(" ", pad)...)
	return append(out, '\n')
}

func (a *farray) file() []byte {
	return append(npyHeader(a.dt.descr(), a.fortran, a.shape), a.data...)
}

// expected builds the C-order .npy of shape whose element at idx is elem(idx).
func expected(dt fdtype, shape []int, elem func(idx []int) []byte) []byte {
	out := npyHeader(dt.descr(), false, shape)
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

func getBits(b []byte, big bool) uint64 {
	var u uint64
	for k := range b {
		c := b[k]
		if big {
			c = b[len(b)-1-k]
		}
		u |= uint64(c) << (8 * k)
	}
	return u
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

func genElem(s *fsrc, dt fdtype, dst []byte) {
	if dt.kind == 'c' {
		h := dt.size / 2
		putBits(dst[:h], genBits(s, 'f', h), h, dt.big)
		putBits(dst[h:], genBits(s, 'f', h), h, dt.big)
		return
	}
	putBits(dst, genBits(s, dt.kind, dt.size), dt.size, dt.big)
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

func genArray(s *fsrc, dt fdtype, shape []int) *farray {
	a := &farray{dt: dt, shape: shape, fortran: s.n(3) == 1}
	a.data = make([]byte, count(shape)*dt.size)
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
	for k := 0; k < len(a.data); k += dt.size {
		genElem(src, dt, a.data[k:k+dt.size])
	}
	return a
}

// ---------------------------------------------------------------------------
// Decoding elements for the oracles.

func half(u uint16) float64 {
	sign := 1.0
	if u&0x8000 != 0 {
		sign = -1
	}
	e, m := int(u>>10&0x1f), float64(u&0x3ff)
	switch e {
	case 0:
		return sign * m * math.Pow(2, -24)
	case 31:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1 + m/1024) * math.Pow(2, float64(e-15))
}

func decodeFloat(b []byte, big bool) float64 {
	u := getBits(b, big)
	switch len(b) {
	case 2:
		return half(uint16(u))
	case 4:
		return float64(math.Float32frombits(uint32(u)))
	}
	return math.Float64frombits(u)
}

// decodeInt is an integer (or bool) element exactly.
func decodeInt(b []byte, dt fdtype) *big.Int {
	u := getBits(b, dt.big)
	switch dt.kind {
	case 'b':
		if u != 0 {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case 'i':
		shift := 64 - 8*uint(dt.size)
		return big.NewInt(int64(u<<shift) >> shift)
	}
	return new(big.Int).SetUint64(u)
}

func decodeComplex(b []byte, dt fdtype) complex128 {
	h := dt.size / 2
	return complex(decodeFloat(b[:h], dt.big), decodeFloat(b[h:], dt.big))
}

// toFloat is an element as float64 (integers rounded as C does).
func toFloat(b []byte, dt fdtype) float64 {
	switch dt.kind {
	case 'f':
		return decodeFloat(b, dt.big)
	case 'b', 'i', 'u':
		v := decodeInt(b, dt)
		if v.IsInt64() {
			return float64(v.Int64())
		}
		return float64(v.Uint64())
	}
	panic("toFloat of complex")
}

func toComplex(b []byte, dt fdtype) complex128 {
	if dt.kind == 'c' {
		return decodeComplex(b, dt)
	}
	return complex(toFloat(b, dt), 0)
}

// ---------------------------------------------------------------------------
// A case: files to write, the command line, and what the model expects.

type fcase struct {
	files  map[string][]byte // name in the temp folder → contents
	stdin  []byte            // nil: an empty standard input
	args   []string          // after "strider"; "@/" is replaced by the temp folder
	desc   string            // for failure messages
	note   string            // a feature worth a seed (see fuzzCommandSeeds)
	fail   bool              // the model expects exit 2
	code   int               // expected exit status when !fail: 0, or 1 from compare
	want   map[string][]byte // expected outputs: file name → bytes; "-" is standard output
	stdout func(t *testing.T, out []byte)
}

const (
	cmdTranspose = iota
	cmdDiagonal
	cmdGather
	cmdGatherElements
	cmdTril
	cmdTriu
	cmdSort
	cmdSlice
	cmdCompare
	cmdInfo
	numCommands
)

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

func decodeCase(data []byte) *fcase {
	s := &fsrc{b: data}
	c := &fcase{files: map[string][]byte{}, want: map[string][]byte{}}
	command := s.n(numCommands)
	if command == cmdTril || command == cmdTriu {
		c.tri(s, command == cmdTriu)
		return c
	}
	dt := allDtypes[s.n(len(allDtypes))]
	shape := genShape(s, 4)
	for command == cmdDiagonal && len(shape) < 2 && !s.rare(8) {
		shape = append(shape, 1+s.n(4))
	}
	a := genArray(s, dt, shape)
	c.desc = fmt.Sprintf("input %s shape %v fortran=%v data %x", dt.descr(), shape, a.fortran, a.data[:min(len(a.data), 4096)])
	switch command {
	case cmdTranspose:
		c.transpose(s, a)
	case cmdDiagonal:
		c.diagonal(s, a)
	case cmdGather:
		c.gather(s, a)
	case cmdGatherElements:
		c.gatherElements(s, a)
	case cmdSort:
		c.sortCmd(s, a)
	case cmdSlice:
		c.slice(s, a)
	case cmdCompare:
		c.compare(s, a)
	case cmdInfo:
		c.info(s, a)
	}
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
// transpose

func (c *fcase) transpose(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	perm := make([]int, nd)
	for k := range perm {
		perm[k] = nd - 1 - k
	}
	var given []int
	switch s.n(4) {
	case 1, 2: // a valid permutation, axes sometimes negative
		given = make([]int, nd)
		for k := range given {
			given[k] = k
		}
		for k := nd - 1; k > 0; k-- {
			j := s.n(k + 1)
			given[k], given[j] = given[j], given[k]
		}
		for k := range given {
			if s.n(3) == 1 {
				given[k] -= nd
			}
		}
	case 3: // anything
		given = make([]int, s.n(nd+2))
		for k := range given {
			given[k] = s.n(2*nd+3) - nd - 1
		}
	}
	if given != nil {
		txt := make([]string, len(given))
		for k, g := range given {
			txt[k] = strconv.Itoa(g)
		}
		list := strings.Join(txt, ",")
		switch s.n(4) {
		case 1:
			list = "(" + list + ")"
		case 2:
			list = "[" + strings.Join(txt, ", ") + "]"
		}
		o.flag(s, []string{"--axes", "--perm", "--dims"}[s.n(3)], list)
		if len(given) != nd {
			fail = true
		}
		seen := map[int]bool{}
		for k, g := range given {
			if g < -nd || g >= nd {
				fail = true
				break
			}
			if g < 0 {
				g += nd
			}
			if k < nd {
				perm[k] = g
			}
			if seen[g] {
				fail = true
			}
			seen[g] = true
		}
	}
	c.args = o.line(s, "transpose")
	if fail || short {
		c.fail = true
		return
	}
	outShape := make([]int, nd)
	for k, p := range perm {
		outShape[k] = a.shape[p]
	}
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		for k, p := range perm {
			in[p] = idx[k]
		}
		return a.at(in)
	}))
}

// ---------------------------------------------------------------------------
// diagonal

// genOffset is a diagonal or triangle offset: mostly small, sometimes at
// the ends of the int64 range.
func genOffset(s *fsrc) int64 {
	if s.rare(8) {
		return []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 40, -(1 << 40)}[s.n(5)]
	}
	return int64(s.n(13) - 6)
}

func (c *fcase) diagonal(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	k, ax1, ax2 := int64(0), 0, 1
	if s.n(3) > 0 {
		k = genOffset(s)
		o.flag(s, "--offset", intText(s, k))
	}
	if s.n(3) > 0 {
		ax1 = genAxis(s, nd)
		o.flag(s, []string{"--axis1", "--dim1"}[s.n(2)], intText(s, int64(ax1)))
	}
	if s.n(3) > 0 {
		ax2 = genAxis(s, nd)
		o.flag(s, []string{"--axis2", "--dim2"}[s.n(2)], intText(s, int64(ax2)))
	}
	c.args = o.line(s, "diagonal")
	norm := func(ax int) (int, bool) {
		if ax < -nd || ax >= nd {
			return 0, false
		}
		if ax < 0 {
			ax += nd
		}
		return ax, true
	}
	a1, ok1 := norm(ax1)
	a2, ok2 := norm(ax2)
	if fail || short || nd < 2 || !ok1 || !ok2 || a1 == a2 {
		c.fail = true
		return
	}
	n1, n2 := int64(a.shape[a1]), int64(a.shape[a2])
	length := int64(0)
	if k >= 0 && k < n2 {
		length = min(n1, n2-k)
	} else if k < 0 && k > -n1 {
		length = min(n1+k, n2)
	}
	var outShape, others []int
	for d := 0; d < nd; d++ {
		if d != a1 && d != a2 {
			outShape = append(outShape, a.shape[d])
			others = append(others, d)
		}
	}
	outShape = append(outShape, int(length))
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		for j, d := range others {
			in[d] = idx[j]
		}
		i := int64(idx[len(idx)-1])
		in[a1], in[a2] = int(i+max(0, -k)), int(i+max(0, k))
		return a.at(in)
	}))
}

// ---------------------------------------------------------------------------
// Index arrays (gather, gather-elements).

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
	a.data = make([]byte, count(shape)*dt.size)
	raw := make([]int64, count(shape))
	for k := range raw {
		raw[k] = genIndex(s, n)
	}
	// raw is C order; store at each element's place in the file's layout.
	k := 0
	each(shape, func(idx []int) {
		off := a.offset(idx) * dt.size
		putBits(a.data[off:off+dt.size], uint64(raw[k]), dt.size, dt.big)
		k++
	})
	f := indexFile{arr: a}
	each(shape, func(idx []int) { f.vals = append(f.vals, decodeInt(a.at(idx), dt)) })
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

func (c *fcase) gather(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	shape := a.shape
	hasAxis := s.n(3) > 0
	axis, n := 0, count(a.shape)
	if hasAxis {
		if nd == 0 {
			shape = []int{1} // numpy.take ravels a 0-d array
		}
		ax := genAxis(s, len(shape))
		o.flag(s, "--axis", intText(s, int64(ax)))
		if ax < -len(shape) || ax >= len(shape) {
			fail = true
			n = 3
		} else {
			if ax < 0 {
				ax += len(shape)
			}
			axis, n = ax, shape[ax]
		}
	}
	mode := "raise"
	switch s.n(6) {
	case 1:
		o.flag(s, "--mode", "raise")
	case 2, 3:
		mode = "wrap"
		o.flag(s, "--mode", mode)
	case 4:
		mode = "clip"
		o.flag(s, "--mode", mode)
	case 5:
		if s.rare(4) {
			o.flag(s, "--mode", []string{"Raise", "", "wrapp"}[s.n(3)])
			fail = true
		}
	}
	// The index array: a literal or a file.
	var ishape []int
	var vals []*big.Int
	switch s.n(8) {
	default:
		switch s.n(5) {
		case 0:
			ishape = []int{}
		case 1, 2:
			ishape = []int{s.n(5)}
		case 3:
			ishape = []int{1 + s.n(2), s.n(3)}
		case 4:
			ishape = []int{0}
		}
		raw := make([]int64, count(ishape))
		for k := range raw {
			raw[k] = genIndex(s, n)
			vals = append(vals, big.NewInt(raw[k]))
		}
		o.flag(s, "--index", literal(ishape, raw))
	case 5, 6:
		ishape = genShape(s, 2)
		f := genIndexFile(s, ishape, n)
		vals = f.vals
		ispec, _, ishort := c.input(s, f.arr, "idx.npy", spec != "-")
		o.flag(s, "--indices", ispec)
		fail = fail || ishort
	case 7:
		// Both sources, an index file that does not hold integers, or
		// neither: refused.
		switch s.n(3) {
		case 0:
			o.flag(s, "--index", "0")
			c.files["idx.npy"] = (&farray{dt: intDtypes[0], shape: []int{}, data: make([]byte, intDtypes[0].size)}).file()
			o.flag(s, "--indices", "@/idx.npy")
		case 1:
			dt := allDtypes[s.n(4)] // f4, b1 or (as f8) i1, u1
			if dt.kind == 'i' || dt.kind == 'u' {
				dt = fdtype{'f', 8, true}
			}
			c.files["idx.npy"] = genArray(s, dt, []int{2}).file()
			o.flag(s, "--indices", "@/idx.npy")
		}
		fail = true
	}
	c.args = o.line(s, "gather")
	c.desc += fmt.Sprintf("; index shape %v values %v mode %s", ishape, vals, mode)
	if fail || short {
		c.fail = true
		return
	}
	res := make([]int, len(vals))
	for k, v := range vals {
		i, ok := resolveIndex(v, n, mode)
		if !ok {
			c.fail = true
			return
		}
		res[k] = i
	}
	istr := cstrides(ishape)
	if !hasAxis {
		flat := make([][]int, 0, count(a.shape))
		each(a.shape, func(idx []int) { flat = append(flat, slices.Clone(idx)) })
		c.finish(false, out, expected(a.dt, ishape, func(idx []int) []byte {
			return a.at(flat[res[dot(idx, istr)]])
		}))
		return
	}
	outShape := append(append(append([]int{}, shape[:axis]...), ishape...), shape[axis+1:]...)
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, outShape, func(idx []int) []byte {
		if nd == 0 {
			return a.at(nil)
		}
		copy(in, idx[:axis])
		copy(in[axis+1:], idx[axis+len(ishape):])
		in[axis] = res[dot(idx[axis:axis+len(ishape)], istr)]
		return a.at(in)
	}))
}

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

func (c *fcase) gatherElements(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	ax := -1
	if s.n(3) > 0 {
		ax = genAxis(s, nd)
		o.flag(s, []string{"--axis", "--dim"}[s.n(2)], intText(s, int64(ax)))
	}
	axis := ax
	if ax < -nd || ax >= nd {
		fail = true
		axis = 0
	} else if ax < 0 {
		axis += nd
	}
	n := 3
	if axis < nd {
		n = a.shape[axis]
	}
	// The index shape: the input's rank, at most the input's extent off the
	// axis; sometimes a wrong rank or too large an extent.
	ind := nd
	if s.rare(10) {
		ind = s.n(4)
	}
	ishape := make([]int, ind)
	for k := range ishape {
		switch {
		case k == axis:
			ishape[k] = s.n(5)
		case k < nd:
			ishape[k] = s.n(a.shape[k] + 1)
			if s.rare(12) {
				ishape[k] = a.shape[k] + 1
			}
		default:
			ishape[k] = 1
		}
	}
	if ind != nd {
		fail = true
	}
	for k := range ishape {
		if k != axis && k < nd && ishape[k] > a.shape[k] {
			fail = true
		}
	}
	f := genIndexFile(s, ishape, n)
	if s.rare(16) {
		fail = true // a literal is not accepted here
		o.flag(s, "--index", "0")
	} else {
		ispec, _, ishort := c.input(s, f.arr, "idx.npy", spec != "-")
		o.flag(s, "--indices", ispec)
		fail = fail || ishort
	}
	c.args = o.line(s, "gather-elements")
	c.desc += fmt.Sprintf("; index shape %v values %v", ishape, f.vals)
	if fail || short {
		c.fail = true
		return
	}
	res := make([]int, len(f.vals))
	for k, v := range f.vals {
		i, ok := resolveIndex(v, n, "raise")
		if !ok {
			c.fail = true
			return
		}
		res[k] = i
	}
	ist := cstrides(ishape)
	in := make([]int, nd)
	c.finish(false, out, expected(a.dt, ishape, func(idx []int) []byte {
		copy(in, idx)
		in[axis] = res[dot(idx, ist)]
		return a.at(in)
	}))
}

// ---------------------------------------------------------------------------
// tril-indices / triu-indices

func (c *fcase) tri(s *fsrc, upper bool) {
	o := &opts{}
	name := "tril-indices"
	if upper {
		name = "triu-indices"
	}
	out, fail := c.shared(s, o, "")
	size := func() (int64, string) {
		switch s.n(16) {
		case 13:
			return -1, "-" + strconv.Itoa(1+s.n(3))
		case 14:
			return -1, []string{"x", "1.5", "", "0x3"}[s.n(4)]
		case 15:
			return 1 << 40, "1099511627776"
		}
		v := int64(s.n(8))
		return v, intText(s, v)
	}
	rows, rtxt := size()
	cols := rows
	o.pos = []string{rtxt}
	if s.n(2) == 1 {
		var ctxt string
		cols, ctxt = size()
		o.pos = append(o.pos, ctxt)
	}
	if s.rare(16) {
		for len(o.pos) < 3 {
			o.pos = append(o.pos, "3") // too many arguments
		}
		fail = true
	}
	k := int64(0)
	if s.n(2) == 1 {
		k = genOffset(s)
		o.flag(s, []string{"--offset", "-k"}[s.n(2)], intText(s, k))
	}
	dt := fdtype{'i', 8, false}
	switch s.n(8) {
	case 1:
		name := []string{"int64", "i8", "<i8", "q", "long"}[s.n(5)]
		o.flag(s, "--dtype", name)
	case 2, 3:
		dt.size = 4
		o.flag(s, "--dtype", []string{"int32", "i4", "<i4", "intc"}[s.n(4)])
	case 4:
		o.flag(s, "--dtype", []string{"int16", "float64", ">i8", "uint32", "", "bool"}[s.n(6)])
		fail = true
	}
	c.args = o.line(s, name)
	c.desc = fmt.Sprintf("rows %d cols %d offset %d", rows, cols, k)
	if fail || rows < 0 || cols < 0 {
		c.fail = true
		return
	}
	var rs, cs []int64
	if rows >= 1<<40 || cols >= 1<<40 {
		// Too large to loop over every pair: row r holds the columns
		// [0, r+k] (tril) or [r+k, cols) (triu), and only rows that hold a
		// pair are visited; a case with more than a million pairs must be
		// refused, as no such output fits MaxTriBytes here.
		kk := min(max(k, -rows-1), cols+1) // selects the same pairs
		r0, r1 := int64(0), rows
		if upper {
			r1 = min(rows, max(0, cols-kk))
		} else {
			r0 = min(rows, max(0, -kk))
		}
		if cols == 0 {
			r1 = r0 // no row holds a pair
		}
		if r1-r0 > 1<<20 {
			c.fail = true
			return
		}
		for r := r0; r < r1; r++ {
			lo, hi := int64(0), min(cols, r+kk+1)
			if upper {
				lo, hi = max(0, r+kk), cols
			}
			if hi-lo > 1<<20 || int64(len(rs)) > 1<<20 {
				c.fail = true
				return
			}
			for q := lo; q < hi; q++ {
				rs, cs = append(rs, r), append(cs, q)
			}
		}
		c.triOut(dt, out, rs, cs)
		return
	}
	for r := int64(0); r < rows; r++ {
		for q := int64(0); q < cols; q++ {
			in := q-r <= k
			if upper {
				in = q-r >= k
			}
			if in {
				rs, cs = append(rs, r), append(cs, q)
			}
		}
	}
	c.triOut(dt, out, rs, cs)
}

// triOut expects the (2, N) array of rows rs over columns cs, refused when
// an int32 cannot hold an index.
func (c *fcase) triOut(dt fdtype, out string, rs, cs []int64) {
	want := npyHeader(dt.descr(), false, []int{2, len(rs)})
	for _, v := range append(rs, cs...) {
		if dt.size == 4 && v > math.MaxInt32 {
			c.fail = true
			return
		}
		b := make([]byte, dt.size)
		putBits(b, uint64(v), dt.size, false)
		want = append(want, b...)
	}
	c.finish(false, out, want)
}

// ---------------------------------------------------------------------------
// sort

type sortKey struct {
	kind byte
	nan  bool
	cls  int // complex: 2*isnan(re) + isnan(im)
	b    byte
	i    *big.Int
	f    [2]float64
}

func sortKeyOf(b []byte, dt fdtype) sortKey {
	k := sortKey{kind: dt.kind}
	switch dt.kind {
	case 'b':
		k.b = b[0]
	case 'i', 'u':
		k.i = decodeInt(b, dt)
	case 'f':
		k.f[0] = decodeFloat(b, dt.big)
		k.nan = math.IsNaN(k.f[0])
	case 'c':
		z := decodeComplex(b, dt)
		k.f = [2]float64{real(z), imag(z)}
		if math.IsNaN(real(z)) {
			k.cls += 2
		}
		if math.IsNaN(imag(z)) {
			k.cls++
		}
		k.nan = k.cls > 0
	}
	return k
}

// numpyLess is NumPy's ascending order: NaN greatest, -0 == +0, complex by
// (real, imag) with R+Rj < R+nanj < nan+Rj < nan+nanj, bools by byte.
func numpyLess(a, b sortKey) bool {
	switch a.kind {
	case 'b':
		return a.b < b.b
	case 'i', 'u':
		return a.i.Cmp(b.i) < 0
	case 'f':
		if a.nan || b.nan {
			return !a.nan && b.nan
		}
		return a.f[0] < b.f[0]
	}
	if a.cls != b.cls {
		return a.cls < b.cls
	}
	for p := 0; p < 2; p++ {
		if math.IsNaN(a.f[p]) { // both NaN in this part
			continue
		}
		if a.f[p] != b.f[p] {
			return a.f[p] < b.f[p]
		}
	}
	return false
}

func (c *fcase) sortCmd(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	out, fail := c.shared(s, o, file)
	nd := len(a.shape)
	ax := -1
	if s.n(3) > 0 {
		ax = genAxis(s, nd)
		o.flag(s, []string{"--axis", "--dim"}[s.n(2)], intText(s, int64(ax)))
	}
	desc := s.n(2) == 1
	if desc {
		o.flags = append(o.flags, "--descending")
	}
	if s.n(4) == 1 {
		o.flags = append(o.flags, "--stable")
	}
	nans := ""
	switch s.n(6) {
	case 1, 2:
		nans = "first"
	case 3, 4:
		nans = "last"
	case 5:
		if s.rare(3) {
			fail = true
			v := []string{"none", "nan", "First", ""}[s.n(4)]
			o.flag(s, "--nans", v)
		}
	}
	if nans != "" {
		o.flag(s, "--nans", nans)
	}
	// Outputs: values, indices, or both.
	wantVals, idxOut := true, ""
	switch s.n(8) {
	case 1, 2:
		wantVals = false
		idxOut = out
		o.flags = append(o.flags, "--argsort")
	case 3, 4:
		idxOut = "idx.npy"
		o.flag(s, "--indices", "@/idx.npy")
	case 5:
		// The indices on standard output and the values in a file, when
		// the values do not go there too.
		idxOut = "-"
		o.flag(s, "--indices", "-")
	case 6:
		fail = true
		switch s.n(3) {
		case 0:
			o.flag(s, "--indices", "@/idx.npy")
			o.flags = append(o.flags, "--argsort")
		case 1:
			o.flag(s, "--indices", "")
		case 2:
			o.flag(s, "--indices", "@/"+out) // the output itself ("@/-" is "-")
		}
	}
	if wantVals && idxOut == "-" && out == "-" {
		fail = true
	}
	c.args = fixAt(o.line(s, "sort"))
	if ax < -nd || ax >= nd || fail || short {
		c.fail = true
		return
	}
	if ax < 0 {
		ax += nd
	}
	nanFirst := nans == "first" || nans == "" && desc
	n := a.shape[ax]
	vals := npyHeader(a.dt.descr(), false, a.shape)
	idxs := npyHeader("<i8", false, a.shape)
	// Sort every strip, then write both outputs in C order.
	sortedPos := map[string][]int{}
	strip := make([]int, nd)
	each(a.shape, func(idx []int) {
		if idx[ax] != 0 {
			return
		}
		keys := make([]sortKey, n)
		pos := make([]int, n)
		copy(strip, idx)
		for i := range pos {
			pos[i] = i
			strip[ax] = i
			keys[i] = sortKeyOf(a.at(strip), a.dt)
		}
		sort.SliceStable(pos, func(x, y int) bool {
			kx, ky := keys[pos[x]], keys[pos[y]]
			if kx.nan != ky.nan {
				if nanFirst {
					return kx.nan
				}
				return ky.nan
			}
			if desc {
				return numpyLess(ky, kx)
			}
			return numpyLess(kx, ky)
		})
		sortedPos[fmt.Sprint(idx)] = pos
	})
	each(a.shape, func(idx []int) {
		j := idx[ax]
		copy(strip, idx)
		strip[ax] = 0
		p := sortedPos[fmt.Sprint(strip)][j]
		strip[ax] = p
		vals = append(vals, a.at(strip)...)
		idxs = binary.LittleEndian.AppendUint64(idxs, uint64(p))
	})
	if wantVals {
		c.want[out] = vals
	}
	if idxOut != "" {
		c.want[idxOut] = idxs
	}
}

// fixAt turns "@/-" (standard output named through "@/"+out) back into "-".
func fixAt(args []string) []string {
	for k, a := range args {
		args[k] = strings.ReplaceAll(a, "@/-", "-")
	}
	return args
}

// ---------------------------------------------------------------------------
// slice

const (
	siInt = iota
	siSlice
	siEllipsis
	siNone
	siList
	siBoolList
	siBool
)

type sitem struct {
	kind                       int
	v                          int64
	start, stop, step          int64
	hasStart, hasStop, hasStep bool
	shape                      []int
	ints                       []int64
	bools                      []bool
}

func pyInt(s *fsrc, v int64) string {
	switch {
	case v >= 0 && s.rare(12):
		return "0x" + strconv.FormatInt(v, 16)
	case s.rare(12):
		return "(" + strconv.FormatInt(v, 10) + ")"
	}
	return strconv.FormatInt(v, 10)
}

func (it sitem) text(s *fsrc) string {
	switch it.kind {
	case siInt:
		return pyInt(s, it.v)
	case siSlice:
		var b strings.Builder
		if it.hasStart {
			b.WriteString(pyInt(s, it.start))
		}
		b.WriteByte(':')
		if it.hasStop {
			b.WriteString(pyInt(s, it.stop))
		}
		if it.hasStep {
			b.WriteString(":" + pyInt(s, it.step))
		} else if s.rare(4) {
			b.WriteString(":")
		}
		return b.String()
	case siEllipsis:
		return "..."
	case siNone:
		return "None"
	case siList:
		return literal(it.shape, it.ints)
	case siBool:
		if it.v != 0 {
			return "True"
		}
		return "False"
	}
	parts := make([]string, len(it.bools))
	for k, b := range it.bools {
		parts[k] = "False"
		if b {
			parts[k] = "True"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func genSliceBound(s *fsrc) int64 {
	if s.rare(10) {
		return []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 40}[s.n(4)]
	}
	return int64(s.n(15) - 7)
}

// genItems makes the items of an index expression for an array of the
// shape, mostly valid: integers and list values within the axis they
// probably index (an ellipsis makes that a guess), boolean lists as long
// as that axis.
func genItems(s *fsrc, shape []int) []sitem {
	nd := len(shape)
	items := make([]sitem, s.n(nd+3))
	ax := 0
	dim := func() int {
		if ax < nd {
			return shape[ax]
		}
		return 1 + s.n(3)
	}
	for k := range items {
		it := &items[k]
		switch v := s.n(16); {
		case v < 4:
			it.kind, it.v = siInt, genIndex(s, dim())
			ax++
		case v < 9:
			it.kind = siSlice
			if it.hasStart = s.n(2) == 1; it.hasStart {
				it.start = genSliceBound(s)
			}
			if it.hasStop = s.n(2) == 1; it.hasStop {
				it.stop = genSliceBound(s)
			}
			if it.hasStep = s.n(2) == 1; it.hasStep {
				it.step = []int64{1, 2, -1, -2, 3, -3, 1, -1}[s.n(8)]
				if s.rare(12) {
					it.step = []int64{0, math.MinInt64, math.MaxInt64, 1 << 40}[s.n(4)]
				}
			}
			ax++
		case v < 10:
			it.kind = siEllipsis
		case v < 11:
			it.kind = siNone
		case v < 14:
			it.kind = siList
			switch s.n(4) {
			case 0, 1:
				it.shape = []int{s.n(4)}
			case 2:
				it.shape = []int{1 + s.n(2), 1 + s.n(2)}
			case 3:
				it.shape = []int{1 + s.n(3), 1}
			}
			n := dim()
			for range count(it.shape) {
				it.ints = append(it.ints, genIndex(s, n))
			}
			ax++
		case v < 15:
			it.kind = siBoolList
			n := dim()
			if s.rare(8) {
				n = s.n(6)
			}
			if n == 0 {
				// "[]" is an empty integer list, as in NumPy.
				it.kind, it.shape = siList, []int{0}
				ax++
				break
			}
			it.shape = []int{n}
			for range n {
				it.bools = append(it.bools, s.n(2) == 1)
			}
			ax++
		default:
			it.kind, it.v = siBool, int64(s.n(2))
		}
	}
	return items
}

// pySlice is Python's slice.indices(n): start, step and length.
func pySlice(it sitem, n int64) (start, step, length int64, ok bool) {
	step = 1
	if it.hasStep {
		if it.step == 0 {
			return 0, 0, 0, false
		}
		step = max(it.step, -math.MaxInt64)
	}
	start, stop := int64(0), int64(math.MaxInt64)
	if step < 0 {
		start, stop = math.MaxInt64, math.MinInt64
	}
	if it.hasStart {
		start = it.start
	}
	if it.hasStop {
		stop = it.stop
	}
	adjust := func(v int64) int64 {
		if v < 0 {
			v += n
			if v < 0 {
				if step < 0 {
					return -1
				}
				return 0
			}
		} else if v >= n {
			if step < 0 {
				return n - 1
			}
			return n
		}
		return v
	}
	start, stop = adjust(start), adjust(stop)
	if step < 0 {
		if stop < start {
			length = (start-stop-1)/(-step) + 1
		}
	} else if start < stop {
		length = (stop-start-1)/step + 1
	}
	return start, step, length, true
}

// sliceModel is a[items] by NumPy's rules, written out: it returns the
// result's shape and, for an index of the result, the index of the input.
func sliceModel(shape []int, items []sitem) (_ []int, _ func([]int) []int, note string, ok bool) {
	nd := len(shape)
	used, ells := 0, 0
	for _, it := range items {
		switch it.kind {
		case siEllipsis:
			ells++
		case siInt, siSlice, siList:
			used++
		case siBoolList:
			used += len(it.shape)
		}
	}
	if ells > 1 || used > nd {
		return nil, nil, "", false
	}
	type ent struct {
		kind       int // siInt, siSlice, siNone, siList (bool lists too), siBool, and siEllipsis for one axis it spans
		axis       int
		v          int64 // siInt: the resolved position
		start, stp int64 // siSlice
		n          int   // siSlice: length
		shape      []int // siList, siBool
		vals       []int64
		zero       bool // siEllipsis standing for no axis
	}
	var ents []ent
	ax := 0
	ellipsis := func() {
		if nd-used == 0 {
			ents = append(ents, ent{kind: siEllipsis, zero: true})
		}
		for j := 0; j < nd-used; j++ {
			ents = append(ents, ent{kind: siEllipsis, axis: ax})
			ax++
		}
	}
	for _, it := range items {
		switch it.kind {
		case siEllipsis:
			ellipsis()
		case siBoolList:
			k := len(it.shape)
			for j := 0; j < k; j++ {
				if it.shape[j] != shape[ax+j] {
					return nil, nil, "", false
				}
			}
			coords := make([][]int64, k)
			i := 0
			each(it.shape, func(idx []int) {
				if it.bools[i] {
					for j := range coords {
						coords[j] = append(coords[j], int64(idx[j]))
					}
				}
				i++
			})
			for j := 0; j < k; j++ {
				ents = append(ents, ent{kind: siList, axis: ax, shape: []int{len(coords[j])}, vals: coords[j]})
				ax++
			}
		case siList:
			ents = append(ents, ent{kind: siList, axis: ax, shape: it.shape, vals: it.ints})
			ax++
		case siInt:
			n := int64(shape[ax])
			if it.v < -n || it.v >= n {
				return nil, nil, "", false
			}
			v := it.v
			if v < 0 {
				v += n
			}
			ents = append(ents, ent{kind: siInt, axis: ax, v: v})
			ax++
		case siSlice:
			start, step, length, ok := pySlice(it, int64(shape[ax]))
			if !ok {
				return nil, nil, "", false
			}
			ents = append(ents, ent{kind: siSlice, axis: ax, start: start, stp: step, n: int(length)})
			ax++
		case siNone:
			ents = append(ents, ent{kind: siNone})
		case siBool:
			n := int(it.v)
			ents = append(ents, ent{kind: siBool, shape: []int{n}, vals: make([]int64, n)})
		}
	}
	if ells == 0 && used < nd {
		ellipsis()
	}
	advanced := false
	for _, e := range ents {
		if e.kind == siList || e.kind == siBool {
			advanced = true
		}
	}
	isAdv := func(e ent) bool {
		return e.kind == siList || e.kind == siBool || advanced && e.kind == siInt
	}
	// The advanced entries are adjacent when no other entry stands
	// between the first and the last of them. An ellipsis standing for no
	// axis still separates them (NumPy's mapiter).
	first, last := -1, -1
	for k, e := range ents {
		if isAdv(e) {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	adjacent, byEmpty := true, true
	for k := first + 1; k < last; k++ {
		if !isAdv(ents[k]) {
			adjacent = false
			byEmpty = byEmpty && ents[k].zero
		}
	}
	switch {
	case !adjacent && byEmpty:
		note = "advanced apart by an empty ellipsis"
	case !adjacent:
		note = "advanced apart"
	case advanced:
		note = "advanced"
	}
	// The basic axes of the result, in order, and how many stand before the
	// first advanced entry.
	type bdim struct {
		axis       int // -1 for None
		start, stp int64
		n          int
	}
	var basic []bdim
	pre := 0
	for k, e := range ents {
		var d bdim
		switch e.kind {
		case siSlice:
			d = bdim{e.axis, e.start, e.stp, e.n}
		case siEllipsis:
			if e.zero {
				continue
			}
			d = bdim{e.axis, 0, 1, shape[e.axis]}
		case siNone:
			d = bdim{-1, 0, 0, 1}
		default:
			continue
		}
		basic = append(basic, d)
		if first < 0 || k < first {
			pre++
		}
	}
	// Broadcast the index arrays.
	var bshape []int
	var fancy []ent
	for _, e := range ents {
		if e.kind != siList && e.kind != siBool {
			continue
		}
		fancy = append(fancy, e)
		for len(bshape) < len(e.shape) {
			bshape = append([]int{1}, bshape...)
		}
		off := len(bshape) - len(e.shape)
		for j, d := range e.shape {
			switch {
			case bshape[off+j] == d || d == 1:
			case bshape[off+j] == 1:
				bshape[off+j] = d
			default:
				return nil, nil, "", false
			}
		}
	}
	if !adjacent && pre > 0 && len(bshape) > 0 {
		// Where the block goes changes the result's shape here.
		note += " (it matters)"
	}
	if !adjacent {
		pre = 0
	}
	var out []int
	for _, d := range basic[:pre] {
		out = append(out, d.n)
	}
	out = append(out, bshape...)
	for _, d := range basic[pre:] {
		out = append(out, d.n)
	}
	if len(out) > 32 {
		return nil, nil, "", false
	}
	if count(out) > 0 {
		for _, e := range fancy {
			n := int64(1)
			if e.kind == siList {
				n = int64(shape[e.axis])
			}
			for _, v := range e.vals {
				if v < -n || v >= n {
					return nil, nil, "", false
				}
			}
		}
	}
	in := make([]int, nd)
	return out, func(o []int) []int {
		for _, e := range ents {
			if e.kind == siInt {
				in[e.axis] = int(e.v)
			}
		}
		rest := append(append([]int{}, o[:pre]...), o[pre+len(bshape):]...)
		for j, d := range basic {
			if d.axis >= 0 {
				in[d.axis] = int(d.start + int64(rest[j])*d.stp)
			}
		}
		bidx := o[pre : pre+len(bshape)]
		for _, e := range fancy {
			if e.kind != siList {
				continue
			}
			flat, step := 0, 1
			for j := len(e.shape) - 1; j >= 0; j-- {
				i := bidx[len(bshape)-len(e.shape)+j]
				if e.shape[j] == 1 {
					i = 0
				}
				flat += i * step
				step *= e.shape[j]
			}
			v := e.vals[flat]
			if v < 0 {
				v += int64(shape[e.axis])
			}
			in[e.axis] = int(v)
		}
		return in
	}, note, true
}

func (c *fcase) slice(s *fsrc, a *farray) {
	o := &opts{}
	spec, file, short := c.input(s, a, "in.npy", true)
	out, fail := c.shared(s, o, file)
	items := genItems(s, a.shape)
	parts := make([]string, len(items))
	for k, it := range items {
		parts[k] = it.text(s)
	}
	expr := strings.Join(parts, ", ")
	switch {
	case len(items) == 0:
		expr = "()"
	case s.n(3) == 1 && len(items) == 1 && (items[0].kind == siList || items[0].kind == siBoolList):
		// A lone list written bare: EXPR is exactly what stands between a[
		// and ], so "[0, 2]" is a[[0, 2]].
	case len(items) == 1 && (items[0].kind == siList || items[0].kind == siBoolList):
		expr += "," // the same list as a one-item tuple
	case s.rare(4):
		expr += ","
	}
	o.pos = []string{spec, expr}
	c.args = o.line(s, "slice")
	c.desc += "; expr " + expr
	shape, src, note, ok := sliceModel(a.shape, items)
	c.note = note
	if !ok || fail || short {
		c.fail = true
		return
	}
	c.finish(false, out, expected(a.dt, shape, func(idx []int) []byte { return a.at(src(idx)) }))
}

// ---------------------------------------------------------------------------
// compare

func (c *fcase) compare(s *fsrc, a *farray) {
	o := &opts{}
	// Bools other than 0 and 1 are left to sort's tests.
	if a.dt.kind == 'b' {
		for k := range a.data {
			a.data[k] &= 1
		}
	}
	var d *farray
	same := false
	switch s.n(8) {
	case 0, 1:
		d = &farray{dt: a.dt, shape: a.shape, fortran: !a.fortran && s.n(2) == 1, data: make([]byte, len(a.data))}
		each(a.shape, func(idx []int) { copy(d.at(idx), a.at(idx)) })
	case 2, 3:
		d = &farray{dt: a.dt, shape: a.shape, fortran: a.fortran, data: slices.Clone(a.data)}
		for k := 0; k < len(d.data); k += d.dt.size {
			if s.n(3) == 1 {
				genElem(s, d.dt, d.data[k:k+d.dt.size])
			}
		}
	case 4:
		d = genArray(s, allDtypes[s.n(len(allDtypes))], a.shape)
	case 5:
		d = genArray(s, allDtypes[s.n(len(allDtypes))], []int{})
	case 6:
		d = genArray(s, allDtypes[s.n(len(allDtypes))], genShape(s, 3))
	case 7:
		same = true
		d = a
	}
	if d.dt.kind == 'b' {
		for k := range d.data {
			d.data[k] &= 1
		}
	}
	specA, _, shortA := c.input(s, a, "a.npy", true)
	fail := false
	specD := specA
	if same && specA == "-" {
		fail = true // standard input cannot be both
	}
	if !same {
		specD = "@/d.npy"
		c.files["d.npy"] = d.file()
	}
	if s.n(2) == 1 {
		specA, specD = specD, specA
		a, d = d, a
	}
	o.pos = []string{specA, specD}
	tol := struct{ rtol, atol float64 }{1e-7, 0}
	switch s.n(8) {
	case 1:
		tol.rtol = []float64{0, 0.5, 1e-3, 1}[s.n(4)]
		o.flag(s, "--rtol", strconv.FormatFloat(tol.rtol, 'g', -1, 64))
	case 2:
		tol.atol = []float64{0, 1, 0.25, 1e300}[s.n(4)]
		o.flag(s, "--atol", strconv.FormatFloat(tol.atol, 'g', -1, 64))
	case 3:
		o.flag(s, []string{"--rtol", "--atol"}[s.n(2)], []string{"-1", "nan", "x"}[s.n(3)])
		fail = true
	}
	equalNaN := true
	if s.n(4) == 1 {
		equalNaN = false
		o.flags = append(o.flags, "--equal-nan=false")
	}
	exact := s.n(4) == 1
	if exact {
		o.flags = append(o.flags, "--exact")
	}
	asJSON := s.n(3) == 1
	if asJSON {
		o.flags = append(o.flags, "--json")
	}
	switch s.n(10) {
	case 1:
		o.flag(s, "--threads", strconv.Itoa(1+s.n(3)))
	case 2:
		o.flag(s, "--device", "cuda")
		fail = true
	}
	c.args = o.line(s, "compare")
	c.desc += fmt.Sprintf("; desired %s shape %v fortran=%v data %x", d.dt.descr(), d.shape, d.fortran, d.data[:min(len(d.data), 4096)])
	if fail || shortA {
		c.fail = true
		return
	}
	equal := allClose(a, d, tol.rtol, tol.atol, equalNaN)
	if exact {
		equal = slices.Equal(a.shape, d.shape) && a.dt.descr() == d.dt.descr()
		if equal {
			each(a.shape, func(idx []int) {
				if !bytes.Equal(a.at(idx), d.at(idx)) {
					equal = false
				}
			})
		}
	}
	if !equal {
		c.code = 1
	}
	c.stdout = func(t *testing.T, out []byte) {
		switch {
		case asJSON:
			var r struct{ Equal *bool }
			if err := json.Unmarshal(out, &r); err != nil || r.Equal == nil || *r.Equal != equal || bytes.Count(out, []byte("\n")) != 1 {
				t.Fatalf("--json output %q: want one object with equal=%v (%v)", out, equal, err)
			}
		case equal && len(out) != 0:
			t.Fatalf("equal arrays printed %q", out)
		case !equal && len(out) == 0:
			t.Fatalf("different arrays printed nothing")
		}
	}
}

// allClose is numpy.testing.assert_allclose's verdict by the contract:
// integers and bools exactly, any float in float64, any complex by the
// magnitude of the difference; NaN equals NaN when equalNaN; an infinity
// (or a complex value with an infinite part) equals only itself.
func allClose(a, d *farray, rtol, atol float64, equalNaN bool) bool {
	shape := a.shape
	switch {
	case len(a.shape) == 0:
		shape = d.shape
	case len(d.shape) == 0:
	case !slices.Equal(a.shape, d.shape):
		return false
	}
	isInt := func(k byte) bool { return k == 'b' || k == 'i' || k == 'u' }
	elem := func(x *farray, idx []int) []byte {
		if len(x.shape) == 0 {
			return x.at(nil)
		}
		return x.at(idx)
	}
	equal := true
	each(shape, func(idx []int) {
		ea, ed := elem(a, idx), elem(d, idx)
		var close bool
		switch {
		case isInt(a.dt.kind) && isInt(d.dt.kind):
			x, y := decodeInt(ea, a.dt), decodeInt(ed, d.dt)
			diff := new(big.Int).Abs(new(big.Int).Sub(x, y))
			ay, _ := new(big.Float).SetInt(new(big.Int).Abs(y)).Float64()
			thr := atol + float64(rtol*ay)
			close = new(big.Float).SetInt(diff).Cmp(big.NewFloat(thr)) <= 0
		case a.dt.kind == 'c' || d.dt.kind == 'c':
			x, y := toComplex(ea, a.dt), toComplex(ed, d.dt)
			xn, yn := math.IsNaN(real(x)) || math.IsNaN(imag(x)), math.IsNaN(real(y)) || math.IsNaN(imag(y))
			switch {
			case xn || yn:
				close = xn && yn && equalNaN
			case math.IsInf(real(x), 0) || math.IsInf(imag(x), 0) || math.IsInf(real(y), 0) || math.IsInf(imag(y), 0):
				close = x == y
			default:
				close = cmplx.Abs(x-y) <= atol+float64(rtol*cmplx.Abs(y))
			}
		default:
			x, y := toFloat(ea, a.dt), toFloat(ed, d.dt)
			switch {
			case math.IsNaN(x) || math.IsNaN(y):
				close = math.IsNaN(x) && math.IsNaN(y) && equalNaN
			case math.IsInf(x, 0) || math.IsInf(y, 0):
				close = x == y
			default:
				close = math.Abs(x-y) <= atol+float64(rtol*math.Abs(y))
			}
		}
		if !close {
			equal = false
		}
	})
	return equal
}

// ---------------------------------------------------------------------------
// info

func (c *fcase) info(s *fsrc, a *farray) {
	o := &opts{}
	// info reads only the header, but it checks that a file (or an .npz
	// member, or a standard input that is a file) holds the data promised.
	spec, _, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	if spec != "-" && s.n(3) == 1 {
		o.pos = append(o.pos, spec)
	}
	asJSON := s.n(2) == 1
	if asJSON {
		o.flags = append(o.flags, "--json")
	}
	fail := false
	if s.rare(12) {
		o.flag(s, "--threads", "2") // info has no such option
		fail = true
	}
	c.args = o.line(s, "info")
	if fail || short {
		c.fail = true
		return
	}
	n := len(o.pos)
	c.stdout = func(t *testing.T, out []byte) {
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != n || !bytes.HasSuffix(out, []byte("\n")) {
			t.Fatalf("info printed %q, want %d lines", out, n)
		}
		if !asJSON {
			return
		}
		for _, l := range lines {
			var r struct {
				Shape        []int  `json:"shape"`
				Dtype        string `json:"dtype"`
				Descr        string `json:"descr"`
				FortranOrder bool   `json:"fortran_order"`
				Count        int64  `json:"count"`
				NBytes       int64  `json:"nbytes"`
				Version      string `json:"version"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("info --json line %q: %v", l, err)
			}
			if !slices.Equal(r.Shape, a.shape) || r.Dtype != a.dt.name() || r.Descr != a.dt.descr() || r.FortranOrder != a.fortran ||
				r.Count != int64(count(a.shape)) || r.NBytes != int64(len(a.data)) || r.Version != "1.0" {
				t.Fatalf("info --json line %q does not describe the input", l)
			}
		}
	}
}

// ---------------------------------------------------------------------------
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
	code, stdout, stderr := runStrider(t, args, c.stdin)
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
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
			if !bytes.Equal(readFile(t, filepath.Join(dir, name)), b) {
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
			b = readFile(t, filepath.Join(dir, name))
		}
		if !bytes.Equal(b, want) {
			report("%s differs from the model:\n got %q\nwant %q", name, b, want)
		}
	}
	for name, b := range c.files {
		if _, out := c.want[name]; !out && !bytes.Equal(readFile(t, filepath.Join(dir, name)), b) {
			report("input %s changed", name)
		}
	}
	if c.stdout != nil {
		c.stdout(t, stdout)
	} else if _, ok := c.want["-"]; !ok && len(stdout) != 0 {
		report("unexpected standard output")
	}
}

// runStrider runs strider in-process (or the built binary with
// STRIDER_FUZZ_EXEC=1) with standard input and output on files.
func runStrider(t *testing.T, args []string, stdin []byte) (code int, stdout, stderr []byte) {
	io := t.TempDir()
	inPath, outPath := filepath.Join(io, "stdin"), filepath.Join(io, "stdout")
	if err := os.WriteFile(inPath, stdin, 0o666); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(inPath)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var errb bytes.Buffer
	if os.Getenv("STRIDER_FUZZ_EXEC") == "1" {
		c := striderCommand(t, args...)
		c.Stdin, c.Stdout, c.Stderr = in, out, &errb
		err := c.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
	} else {
		app := cmd.NewApp()
		app.Reader, app.Writer = in, out
		code = cmd.Run(app, append([]string{"strider"}, args...), &errb)
	}
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return code, b, errb.Bytes()
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

// commandSeeds names a feature, the predicate that finds it, and k, the
// first seedBytes(k) whose case has it. TestFuzzCommandSeeds checks each;
// when the decoding changes, STRIDER_FUZZ_FIND_SEEDS=1 go test -run
// TestFuzzCommandSeeds -v prints the new k values.
var commandSeeds = []struct {
	name string
	k    uint64
	ok   func(c *fcase, line string) bool // line: the command line
}{
	{"transpose c16 Fortran", 775, has("transpose", "--axes", "<c16", "fortran=true")},
	{"transpose big-endian f2 to stdout", 2658, has("transpose", ">f2", "-o -")},
	{"transpose -o naming the input", 63, has("transpose", "-o @/in.npy @/in.npy")},
	{"transpose bad axes", 105, refused("transpose", "--perm")},
	{"diagonal offset", 1555, has("diagonal", "--offset", "shape [3 4")},
	{"diagonal huge offset", 9, has("diagonal", "--offset 9223372036854775807")},
	{"diagonal negative axes", 769, has("diagonal", "--axis1 -1", "--axis2")},
	{"diagonal of a 1-d array", 1264, refused("diagonal", "shape [4]")},
	{"gather literal", 3, has("gather", "--index [", "--axis")},
	{"gather flat", 20, has("gather", "--index [[")},
	{"gather wrap", 1613, has("gather", "--mode wrap", "--indices", ">i")},
	{"gather clip", 36845, has("gather", "--mode clip", "-9223372036854775808")},
	{"gather uint64 index", 85470, has("gather", "--indices", "<u8", "18446744073709551615")},
	{"gather 0-d", 10, has("gather", "--axis", "shape []")},
	{"gather out of range", 56, refused("gather", "--mode raise")},
	{"gather-elements", 106, has("gather-elements", "--axis", "shape [2 3")},
	{"gather-elements from an .npz", 106, has("gather-elements", ".npz:arr")},
	{"gather-elements wider index", 23, refused("gather-elements", "index shape [")},
	{"tril", 3363, has("tril-indices", "--offset", "--dtype int32")},
	{"triu", 104, has("triu-indices", "-k")},
	{"triu huge rows", 840, has("triu-indices", "1099511627776")},
	{"tri negative size", 387, refused("tril-indices", " -2")},
	{"sort f4 NaNs", 1368, has("sort", "<f4", "0000c07f")},
	{"sort descending complex", 359, has("sort", "--descending", "c16")},
	{"sort nans first", 6245, has("sort", "--nans first", ">f8")},
	{"sort argsort", 1699, has("sort", "--argsort", "i8")},
	{"sort indices to a file", 412, has("sort", "--indices @/idx.npy", "--axis")},
	{"sort indices to stdout", 6337, has("sort", "--indices -", "-o @/out.npy")},
	{"sort f2", 3373, has("sort", "<f2", "--nans last")},
	{"sort bools", 27518, has("sort", "|b1", "shape [3 4")},
	{"sort 0-d", 244, refused("sort", "shape []")},
	{"slice basic", 4691, has("slice", "::-1")},
	{"slice advanced apart", 27696, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced apart (it matters)" && strings.Contains(line, "...")
	}},
	{"slice advanced apart by an empty ellipsis", 87681, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced apart by an empty ellipsis (it matters)"
	}},
	{"slice advanced together", 195, func(c *fcase, line string) bool {
		return !c.fail && c.note == "advanced" && strings.Contains(line, "None")
	}},
	{"slice booleans", 243, has("slice", "True, False")},
	{"slice huge bounds", 768, has("slice", "9223372036854775807:")},
	{"slice from stdin", 611, has("slice", "-- - ")},
	{"compare equal", 4, func(c *fcase, line string) bool { return has("compare")(c, line) && c.code == 0 }},
	{"compare different", 284, func(c *fcase, line string) bool { return has("compare", "--json")(c, line) && c.code == 1 }},
	{"compare exact", 4, func(c *fcase, line string) bool { return has("compare", "--exact")(c, line) && c.code == 0 }},
	{"compare tolerance", 267, has("compare", "--atol", "c8")},
	{"compare 0-d", 93, has("compare", "desired", "shape []")},
	{"info json", 86, has("info", "--json", ".npz")},
	{"info stdin", 324, has("info", "-- -")},
	{"sort a long strip (radix)", 2305, has("sort", "f8", "shape [1000")},
	{"sort descending long strip", 4477, has("sort", "--descending", " 257]")},
	{"transpose 300x130 on threads", 8370, has("transpose", "--threads", "shape [300")},
	{"slice of a 40000-element vector", 1185, has("slice", "shape [4000")},
	{"gather of 7x5000", 864, has("gather", "--axis", "shape [7")},
	{"short input", 105, refused("transpose", "fortran=true")},
}

func seedHas(k uint64, ok func(*fcase, string) bool) bool {
	c := decodeCase(seedBytes(k))
	return ok(c, strings.Join(c.args, " "))
}

// TestFuzzCommandSeeds checks that each seed still has its feature.
func TestFuzzCommandSeeds(t *testing.T) {
	find := os.Getenv("STRIDER_FUZZ_FIND_SEEDS") == "1"
	for _, w := range commandSeeds {
		if find {
			k := uint64(0)
			for ; k < 1<<22 && !seedHas(k, w.ok); k++ {
			}
			fmt.Printf("%q: %d\n", w.name, k)
			continue
		}
		if !seedHas(w.k, w.ok) {
			t.Errorf("seed %d no longer has %q: run STRIDER_FUZZ_FIND_SEEDS=1 go test -run TestFuzzCommandSeeds -v and update commandSeeds", w.k, w.name)
		}
	}
}

// fuzzCommandSeeds is one seed per feature of commandSeeds and a few plain
// random ones per command.
func fuzzCommandSeeds() [][]byte {
	var seeds [][]byte
	for _, w := range commandSeeds {
		seeds = append(seeds, seedBytes(w.k))
	}
	for k := uint64(0); k < 3*numCommands; k++ {
		b := seedBytes(1<<40 + k)
		b[0] = byte(k % numCommands)
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
