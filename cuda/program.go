package cuda

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
)

// A program is everything one engine call does on the GPU, planned on the
// host in plain Go: the device buffers (with the bytes to upload), the
// kernel launches in order (each argument one 8-byte slot, as the driver
// binding packs them), and the buffers to copy back. The cuda build runs it
// with the driver (device.go); the tests run the same program through a Go
// emulation of every kernel, so the planning, the parameter blocks and the
// kernels' index arithmetic are checked against package ops without a GPU.
type program struct {
	op    string // what the engine call was, for messages and timings
	bufs  []buffer
	steps []step
	outs  []output
	// errBuf, when >= 0, is the kernels' error flag (see report in
	// kernels/common.cuh): three words, zeroed before the first step;
	// checkErr turns a raised flag's value and position into the error.
	errBuf   bufID
	checkErr func(value, where int64) error
}

type bufID int

// noBuf marks an argument that is a plain value (or a null pointer).
const noBuf bufID = -1

type buffer struct {
	name string
	size int64  // bytes
	data []byte // uploaded before the first step; nil: zero-filled
}

// arg is one 8-byte kernel argument: the device address of buf plus off,
// or val when buf is noBuf.
type arg struct {
	buf bufID
	off int64
	val uint64
}

// step is a kernel launch, or a device-to-device copy when kernel is "".
type step struct {
	kernel string
	grid   int    // blocks (x only)
	block  [2]int // threads per block (x, y)
	args   []arg
	// copy: bytes from src+srcOff to dst+dstOff.
	dst, src       bufID
	dstOff, srcOff int64
	bytes          int64
}

// output copies a buffer's first len(dst) bytes (from off) back to the host.
type output struct {
	buf bufID
	off int64
	dst []byte
}

func newProgram(op string) *program { return &program{op: op, errBuf: noBuf} }

// alloc adds a device buffer of size bytes holding data (zeros when nil).
func (p *program) alloc(name string, size int64, data []byte) bufID {
	p.bufs = append(p.bufs, buffer{name: name, size: max(size, 1), data: data})
	return bufID(len(p.bufs) - 1)
}

// params adds a buffer holding vals as little-endian 8-byte words.
func (p *program) params(name string, vals []int64) bufID {
	b := make([]byte, 8*len(vals))
	for k, v := range vals {
		binary.LittleEndian.PutUint64(b[8*k:], uint64(v))
	}
	return p.alloc(name, int64(len(b)), b)
}

// errorFlag adds the error flag buffer; check builds the error it reports.
func (p *program) errorFlag(check func(value, where int64) error) bufID {
	p.errBuf = p.alloc("err", 24, nil)
	p.checkErr = check
	return p.errBuf
}

func (p *program) launch(kernel string, grid int, block [2]int, args ...arg) {
	p.steps = append(p.steps, step{kernel: kernel, grid: grid, block: block, args: args})
}

func (p *program) copyDtoD(dst bufID, dstOff int64, src bufID, srcOff, n int64) {
	p.steps = append(p.steps, step{dst: dst, src: src, dstOff: dstOff, srcOff: srcOff, bytes: n})
}

func (p *program) download(buf bufID, off int64, dst []byte) {
	p.outs = append(p.outs, output{buf: buf, off: off, dst: dst})
}

// ptr is a device-pointer argument; val and ival plain values.
func ptr(b bufID) arg              { return arg{buf: b} }
func ptrAt(b bufID, off int64) arg { return arg{buf: b, off: off} }
func val(v uint64) arg             { return arg{buf: noBuf, val: v} }
func ival(v int) arg               { return arg{buf: noBuf, val: uint64(int64(v))} }
func null() arg                    { return arg{buf: noBuf} }

// Launch shapes. Grids are capped: every kernel loops over its work with a
// grid stride, and 2^20 blocks fill any GPU many times over while keeping
// grid × block below 2^31 for the 32-bit kernels.
const (
	threads1D = 256
	maxGrid   = 1 << 20
)

// gridFor is the number of blocks of per threads for n work items.
func gridFor(n int, per int) int {
	return max(1, min(maxGrid, (n+per-1)/per))
}

// fits32 reports whether a kernel whose linear indices stay below count and
// whose offsets stay within span elements may use 32-bit index math: the
// magic division's add must not overflow 32 bits (n < 2^31), and tile
// corners may run 64 past the last element.
func fits32(count, span int) bool {
	return !force64 && count < math.MaxInt32-64 && span < math.MaxInt32-64
}

// force64 makes every kernel use its 64-bit index math; the tests set it to
// cover those instantiations on small arrays.
var force64 = false

func width(use32 bool) string {
	if use32 {
		return "i32"
	}
	return "i64"
}

// calcSlots is CALC_SLOTS of kernels/common.cuh: the words per axis of an
// offset calculator's parameter block.
const calcSlots = 6

// calcBlock is the parameter block of an offset calculator over shape
// (outermost first) with one or two operands' strides: the number of axes,
// then per axis, innermost first, the extent, the 64- and 32-bit magic
// numbers, the shift and the two strides.
func calcBlock(shape []int, strides ...[]int) []int64 {
	n := len(shape)
	out := make([]int64, 1, 1+calcSlots*n)
	out[0] = int64(n)
	for k := n - 1; k >= 0; k-- {
		var s0, s1 int
		if len(strides) > 0 {
			s0 = strides[0][k]
		}
		if len(strides) > 1 {
			s1 = strides[1][k]
		}
		out = append(out, divSlots(shape[k], s0, s1)...)
	}
	return out
}

// divSlots is one axis of a calc block: extent d (0 counts as 1, as in
// ops.NewOffsetCalculator), its magic numbers and shift, and the strides.
func divSlots(d, s0, s1 int) []int64 {
	d = max(d, 1)
	m64, shift := magic64(d)
	return []int64{int64(d), int64(m64), int64(magic32(d)), int64(shift), int64(s0), int64(s1)}
}

// magic64 is ops.DivisorMagic: n/d = (mulhi64(n, m) + n) >> shift, n < 2^63.
func magic64(d int) (uint64, uint) {
	ud := uint64(d)
	l := uint(bits.Len64(ud - 1))
	q, _ := bits.Div64(uint64(1)<<l-ud, 0, ud)
	return q + 1, l
}

// magic32 is the same number for 32-bit words: n/d = (mulhi32(n, m) + n) >>
// shift for n < 2^31. Divisors above 2^31 have none (0): kernels whose
// extents are that large use 64-bit math.
func magic32(d int) uint32 {
	if d > 1<<31 {
		return 0
	}
	ud := uint32(d)
	l := uint(bits.Len32(ud - 1))
	if l >= 32 {
		return 0
	}
	q, _ := bits.Div32(uint32(1)<<l-ud, 0, ud)
	return q + 1
}

// errorf wraps a planning failure as a strider error naming the operation.
func errorf(format string, a ...any) error {
	return fmt.Errorf("--device cuda: "+format, a...)
}
