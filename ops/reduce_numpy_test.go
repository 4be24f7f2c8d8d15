package ops

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"strider/internal/dtype"
)

// The reductions against real NumPy 1.24: the test writes each case's
// buffer, has /usr/bin/python3 (or $PYTHON) build the very same strided
// view over it (np.ndarray with buffer, offset and strides), call the
// function and np.save the result, and compares NumPy's file with Reduce's
// answer: dtype, shape, Fortran order, every byte, NumPy's error message
// and its warnings. Skipped only when the interpreter has no NumPy 1.24
// (scripts/test.sh installs it, so CI runs it).

// npCase is one call of a NumPy reduction.
type npCase struct {
	name     string
	in       View
	dt       dtype.Dtype
	op       ReduceOp
	axes     []int // nil: axis=None
	intAxis  bool  // pass the one axis as an int, not a tuple
	keepdims bool
	arg      dtype.Dtype
	ddof     int
	tune     *tuning // nil: the default
}

func (c npCase) options() ReduceOptions {
	return ReduceOptions{Axes: c.axes, Keepdims: c.keepdims, Dtype: c.arg, Ddof: c.ddof, Options: Options{tune: c.tune}}
}

// checkLevels is check at every SIMD level of reduceSIMDLevels: the first
// difference other than NaN bits, with the level named, else the first.
func (c npCase) checkLevels(a npAnswer) string {
	first := ""
	for _, l := range reduceSIMDLevels() {
		c.tune = simdTuning(l)
		why := c.check(a)
		if why == "" {
			continue
		}
		why = fmt.Sprintf("%s (STRIDER_SIMD=%v)", why, l)
		if !strings.HasPrefix(why, nanBitsDiffer) {
			return why
		}
		if first == "" {
			first = why
		}
	}
	return first
}

// npAnswer is what NumPy did with a case.
type npAnswer struct {
	Err      *string  `json:"err"`
	Warnings []string `json:"warnings"`
	descr    string
	fortran  bool
	shape    []int
	data     []byte
}

func numpyPython(t testing.TB) string {
	t.Helper()
	py := "/usr/bin/python3"
	if p := os.Getenv("PYTHON"); p != "" {
		py = p
	}
	if exec.Command(py, "-c", "import numpy; assert numpy.__version__.startswith('1.24.')").Run() != nil {
		t.Skipf("%s has no NumPy 1.24 (scripts/test.sh installs python3-numpy)", py)
	}
	return py
}

// runNumPy answers every case with NumPy.
func runNumPy(t *testing.T, cases []npCase) []npAnswer {
	t.Helper()
	py := numpyPython(t)
	dir := t.TempDir()
	type jcase struct {
		Buf      string `json:"buf"`
		Descr    string `json:"descr"`
		Shape    []int  `json:"shape"`
		Strides  []int  `json:"strides"`
		Offset   int    `json:"offset"`
		Op       string `json:"op"`
		Axis     any    `json:"axis"`
		Keepdims bool   `json:"keepdims"`
		Dtype    string `json:"dtype"`
		Ddof     int    `json:"ddof"`
	}
	bufs := map[*byte]string{}
	var js []jcase
	for i, c := range cases {
		key := &c.in.Data[0]
		name, ok := bufs[key]
		if !ok {
			name = filepath.Join(dir, fmt.Sprintf("buf%d", i))
			if err := os.WriteFile(name, c.in.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			bufs[key] = name
		}
		strides := make([]int, len(c.in.Strides))
		for k, s := range c.in.Strides {
			strides[k] = s * c.in.Elem
		}
		j := jcase{Buf: name, Descr: c.dt.Descr(), Shape: c.in.Shape, Strides: strides,
			Offset: c.in.Offset * c.in.Elem, Op: c.op.String(), Keepdims: c.keepdims, Ddof: c.ddof}
		if j.Shape == nil {
			j.Shape, j.Strides = []int{}, []int{}
		}
		switch {
		case c.axes == nil:
		case c.intAxis:
			j.Axis = c.axes[0]
		default:
			j.Axis = append([]int{}, c.axes...)
		}
		if c.arg != (dtype.Dtype{}) {
			j.Dtype = c.arg.Descr()
		}
		js = append(js, j)
	}
	spec, _ := json.Marshal(js)
	specPath := filepath.Join(dir, "cases.json")
	if err := os.WriteFile(specPath, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "testdata/reduce_numpy.py", specPath, out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("reduce_numpy.py: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var answers []npAnswer
	if err := json.Unmarshal(raw, &answers); err != nil {
		t.Fatal(err)
	}
	for i := range answers {
		if answers[i].Err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("%d.npy", i)))
		if err != nil {
			t.Fatal(err)
		}
		a := &answers[i]
		if a.descr, a.fortran, a.shape, a.data, err = parseNpy(b); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
	}
	return answers
}

var npyHeader = regexp.MustCompile(`'descr': '([^']*)', 'fortran_order': (True|False), 'shape': \(([^)]*)\)`)

// parseNpy reads what np.save wrote (format 1.0).
func parseNpy(b []byte) (descr string, fortran bool, shape []int, data []byte, err error) {
	if len(b) < 10 || !bytes.HasPrefix(b, []byte("\x93NUMPY")) {
		return "", false, nil, nil, fmt.Errorf("not an .npy file")
	}
	n := int(binary.LittleEndian.Uint16(b[8:]))
	m := npyHeader.FindSubmatch(b[10 : 10+n])
	if m == nil {
		return "", false, nil, nil, fmt.Errorf("header %q", b[10:10+n])
	}
	for _, f := range strings.Split(string(m[3]), ",") {
		if f = strings.TrimSpace(f); f != "" {
			k, _ := strconv.Atoi(f)
			shape = append(shape, k)
		}
	}
	return string(m[1]), string(m[2]) == "True", shape, b[10+n:], nil
}

// check compares Reduce's answer to a case with NumPy's; "" when equal.
func (c npCase) check(a npAnswer) string {
	sh, perr := ReducePlan(c.op, c.in, c.dt, c.options())
	var dst []byte
	var res ReduceResult
	err := perr
	if err == nil {
		dst = make([]byte, Count(sh.Shape)*sh.Dtype.Size)
		res, err = Reduce(dst, c.op, c.in, c.dt, c.options())
	}
	if a.Err != nil {
		if err == nil {
			return fmt.Sprintf("NumPy refused (%s), strider gave %s%v", *a.Err, sh.Dtype.Name(), sh.Shape)
		}
		if !strings.HasSuffix(err.Error(), *a.Err) {
			return fmt.Sprintf("NumPy refused with %q, strider with %q", *a.Err, err)
		}
		return ""
	}
	if err != nil {
		return fmt.Sprintf("strider refused (%v), NumPy did not", err)
	}
	var why []string
	if sh.Dtype.Descr() != a.descr {
		why = append(why, fmt.Sprintf("dtype %s, NumPy %s", sh.Dtype.Descr(), a.descr))
	}
	if !equalInts(sh.Shape, a.shape) {
		why = append(why, fmt.Sprintf("shape %v, NumPy %v", sh.Shape, a.shape))
	}
	if sh.Fortran != a.fortran {
		why = append(why, fmt.Sprintf("fortran %v, NumPy %v", sh.Fortran, a.fortran))
	}
	if len(why) > 0 {
		return strings.Join(why, "; ")
	}
	want := a.data
	if a.fortran {
		v := View{Elem: sh.Dtype.Size, Shape: sh.Shape, Strides: FStrides(sh.Shape), Data: a.data}
		want = make([]byte, len(a.data))
		if err := Copy(want, v, Options{Threads: 1}); err != nil {
			return err.Error()
		}
	}
	if !bytes.Equal(dst, want) {
		if nanBitsOnly(dst, want, sh.Dtype) {
			return nanBitsDiffer + firstDiff(dst, want, sh.Dtype)
		}
		return "values differ: " + firstDiff(dst, want, sh.Dtype)
	}
	if !equalStrings(res.Warnings, a.Warnings) {
		return fmt.Sprintf("warnings %q, NumPy %q", res.Warnings, a.Warnings)
	}
	return ""
}

// reduceValuesOnly, when set, reports only wrong values, shapes and
// errors (not warnings): for working on the values first.
var reduceValuesOnly = os.Getenv("REDUCE_VALUES_ONLY") != ""

// nanBitsDiffer starts the answer of a case whose only differences are
// the sign or payload of NaN results: where NaNs of different bits meet (a
// NaN of the data and one made by inf - inf), which one NumPy returns
// depends on the operand order its compiler chose (see docs/behaviour.md);
// the test counts these apart.
const nanBitsDiffer = "NaN bits differ: "

// nanBitsOnly reports whether got and want differ only in elements (parts,
// for complex) that are NaN in both.
func nanBitsOnly(got, want []byte, d dtype.Dtype) bool {
	if len(got) != len(want) || d.Kind != 'f' && d.Kind != 'c' {
		return false
	}
	p := d
	if d.Kind == 'c' {
		p = d.Part()
	}
	for i := 0; i+p.Size <= len(got); i += p.Size {
		if bytes.Equal(got[i:i+p.Size], want[i:i+p.Size]) {
			continue
		}
		if a, b := p.Float(got[i:]), p.Float(want[i:]); a == a || b == b {
			return false
		}
	}
	return true
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// firstDiff describes the first element where got and want differ.
func firstDiff(got, want []byte, d dtype.Dtype) string {
	n := 0
	first := -1
	for i := 0; i+d.Size <= len(got) && i+d.Size <= len(want); i += d.Size {
		if !bytes.Equal(got[i:i+d.Size], want[i:i+d.Size]) {
			n++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return fmt.Sprintf("lengths %d and %d", len(got), len(want))
	}
	g, w := got[first:first+d.Size], want[first:first+d.Size]
	show := func(b []byte) string {
		switch d.Kind {
		case 'f', 'c':
			return fmt.Sprintf("%v (%x)", d.Complex(b), b)
		}
		return fmt.Sprintf("%d (%x)", int64(d.Bits(b)), b)
	}
	return fmt.Sprintf("%d of %d elements; first at %d: %s, NumPy %s", n, len(got)/d.Size, first/d.Size, show(g), show(w))
}

// numpyDtypes are the 14 dtypes, with the multi-byte ones in both byte
// orders.
func numpyDtypes() []dtype.Dtype {
	var ds []dtype.Dtype
	for _, s := range []string{"|b1", "|i1", "|u1", "<i2", ">i2", "<u2", "<i4", ">i4", "<u4", ">u4", "<i8", ">i8", "<u8",
		"<f2", ">f2", "<f4", ">f4", "<f8", ">f8", "<c8", ">c8", "<c16", ">c16"} {
		d, _ := dtype.Parse(s)
		ds = append(ds, d)
	}
	return ds
}

// fillValues writes n elements of d into b: a flavour of values per call
// (mixed magnitudes, alternating signs, specials, small integers).
func fillValues(r *rand.Rand, b []byte, d dtype.Dtype, flavour int) {
	n := len(b) / d.Size
	part := d
	if d.Kind == 'c' {
		part = d.Part()
	}
	put := func(i int, x float64) {
		o := part.ByteOrder()
		switch part.Size {
		case 2:
			o.PutUint16(b[i*part.Size:], dtype.Float64ToHalf(x))
		case 4:
			o.PutUint32(b[i*part.Size:], math.Float32bits(float32(x)))
		default:
			o.PutUint64(b[i*part.Size:], math.Float64bits(x))
		}
	}
	switch d.Kind {
	case 'b':
		for i := range b {
			b[i] = byte(r.IntN(2))
			if flavour == 1 {
				b[i] = 0
			}
		}
		return
	case 'i', 'u':
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if flavour%2 == 1 { // small values, so sums stay in range
			for i := 0; i < n; i++ {
				v := uint64(r.IntN(7)) - 3
				if d.Kind == 'u' {
					v = uint64(r.IntN(7))
				}
				o := d.ByteOrder()
				switch d.Size {
				case 1:
					b[i] = byte(v)
				case 2:
					o.PutUint16(b[2*i:], uint16(v))
				case 4:
					o.PutUint32(b[4*i:], uint32(v))
				default:
					o.PutUint64(b[8*i:], v)
				}
			}
		}
		return
	}
	parts := len(b) / part.Size
	maxExp := 8.0
	if part.Size == 2 {
		maxExp = 3
	}
	for i := 0; i < parts; i++ {
		var x float64
		switch flavour % 5 {
		case 0: // mixed magnitudes
			x = math.Pow(10, (r.Float64()*2-1)*maxExp) * (r.Float64() + 0.5)
			if r.IntN(2) == 0 {
				x = -x
			}
		case 1: // alternating signs around one magnitude
			x = 1 + r.Float64()*1e-2
			if i%2 == 1 {
				x = -x * (1 + 1e-3)
			}
		case 2: // specials among normal values
			x = r.NormFloat64()
			switch r.IntN(12) {
			case 0:
				x = math.NaN()
			case 1:
				x = math.Inf(1)
			case 2:
				x = math.Inf(-1)
			case 3:
				x = math.Copysign(0, -1)
			case 4:
				x = 0
			}
		case 3: // ties and zeros of both signs
			x = float64(r.IntN(3) - 1)
			if x == 0 && r.IntN(2) == 0 {
				x = math.Copysign(0, -1)
			}
		default: // plain normal
			x = r.NormFloat64() * 3
		}
		put(i, x)
	}
}

// stridedView builds a view of shape over a fresh buffer: the buffer is
// C-contiguous in the axis order perm (perm = reversed is Fortran order),
// with step[k] between neighbours along axis k and axis k reversed where
// rev[k].
func stridedView(shape, perm, step []int, rev []bool, elem int) (View, int) {
	nd := len(shape)
	base := make([]int, nd)
	for k := range shape {
		base[k] = max(1, shape[k]*step[k])
	}
	// Element strides of the buffer in perm order (perm[0] outermost).
	str := make([]int, nd)
	s := 1
	for i := nd - 1; i >= 0; i-- {
		k := perm[i]
		str[k] = s
		s *= base[k]
	}
	total := s
	v := View{Elem: elem, Shape: append([]int(nil), shape...), Strides: make([]int, nd)}
	for k := range shape {
		v.Strides[k] = str[k] * step[k]
		if rev[k] && shape[k] > 0 {
			v.Offset += (shape[k] - 1) * v.Strides[k]
			v.Strides[k] = -v.Strides[k]
		}
	}
	return v, total
}

// axisSets lists every set of axes of an nd-array (none, each, pairs...)
// and axis=None.
func axisSets(nd int) [][]int {
	sets := [][]int{nil}
	for mask := 0; mask < 1<<nd; mask++ {
		set := []int{}
		for k := 0; k < nd; k++ {
			if mask&(1<<k) != 0 {
				set = append(set, k)
			}
		}
		sets = append(sets, set)
	}
	return sets
}

// layoutKinds are the views of issue 31: C, Fortran, strided, reversed,
// transposed.
var layoutKinds = []string{"c", "f", "strided", "reversed", "perm"}

func makeLayout(r *rand.Rand, kind string, shape []int, elem int) (View, int) {
	nd := len(shape)
	perm, step, rev := seq(nd), make([]int, nd), make([]bool, nd)
	for k := range step {
		step[k] = 1
	}
	switch kind {
	case "f":
		for i := range perm {
			perm[i] = nd - 1 - i
		}
	case "strided":
		if nd > 0 {
			step[r.IntN(nd)] = 2
		}
	case "reversed":
		if nd > 0 {
			rev[r.IntN(nd)] = true
		}
	case "perm":
		r.Shuffle(nd, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if nd > 0 {
			step[r.IntN(nd)] = 1 + r.IntN(2)
		}
	}
	return stridedView(shape, perm, step, rev, elem)
}

func newCaseArray(r *rand.Rand, d dtype.Dtype, shape []int, kind string, flavour int) View {
	v, total := makeLayout(r, kind, shape, d.Size)
	v.Data = make([]byte, max(total, 1)*d.Size)
	fillValues(r, v.Data, d, flavour)
	return v
}

func (c npCase) String() string {
	ax := "None"
	if c.axes != nil {
		ax = fmt.Sprint(c.axes)
	}
	extra := ""
	if c.keepdims {
		extra += " keepdims"
	}
	if c.arg != (dtype.Dtype{}) {
		extra += " dtype=" + c.arg.Descr()
	}
	if c.ddof != 0 {
		extra += fmt.Sprintf(" ddof=%d", c.ddof)
	}
	return fmt.Sprintf("%s/%s/%v/strides=%v/off=%d/axis=%s%s", c.op, c.dt.Descr(), c.in.Shape, c.in.Strides, c.in.Offset, ax, extra)
}

// numpyCases is the case table: every op over every dtype and layout of a
// 3-d array with every axis set, keepdims both ways; lengths around the
// block sizes; dtype= and ddof=; empty arrays.
func numpyCases(r *rand.Rand) []npCase {
	var cases []npCase
	add := func(c npCase) {
		if c.op.SingleAxis() && c.axes != nil {
			if len(c.axes) != 1 {
				return
			}
			c.intAxis = true
		}
		cases = append(cases, c)
	}
	ops := ReduceOps()
	// Every op, dtype and layout of a 3-d array; every axis set.
	for _, d := range numpyDtypes() {
		for li, kind := range layoutKinds {
			shape := []int{3, 4, 5}
			if li%2 == 1 {
				shape = []int{2, 3, 17}
			}
			in := newCaseArray(r, d, shape, kind, r.IntN(5))
			for _, op := range ops {
				for si, axes := range axisSets(3) {
					if (si+li+int(op))%3 != 0 && axes != nil { // a third of the axis sets per layout
						continue
					}
					add(npCase{in: in, dt: d, op: op, axes: axes, keepdims: r.IntN(2) == 0})
				}
			}
		}
	}
	// Lengths around NumPy's blocks along the reduced axis, 1-d and as
	// the inner or outer axis of a 2-d array.
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 127, 128, 129, 255, 1000, 8191, 8192, 8193, 20000} {
		for _, ds := range []string{"<f4", ">f4", "<f8", "<f2", "<c8", "<c16", "<i4", "|b1"} {
			d, _ := dtype.Parse(ds)
			in := newCaseArray(r, d, []int{n}, "c", r.IntN(5))
			for _, op := range ops {
				add(npCase{in: in, dt: d, op: op})
			}
			in2 := newCaseArray(r, d, []int{3, n}, layoutKinds[r.IntN(len(layoutKinds))], r.IntN(5))
			for _, op := range []ReduceOp{ReduceSum, ReduceMean, ReduceVar, ReduceMax, ReduceMin, ReduceArgmax, ReduceNansum, ReduceProd} {
				add(npCase{in: in2, dt: d, op: op, axes: []int{1}})
				add(npCase{in: in2, dt: d, op: op, axes: []int{0}})
				add(npCase{in: in2, dt: d, op: op})
			}
		}
	}
	// dtype= and ddof=.
	args := []string{"<f8", "<f4", "<f2", "<c16", "<i4", "<i8", "<u2", "|b1"}
	for _, d := range numpyDtypes() {
		in := newCaseArray(r, d, []int{4, 33}, layoutKinds[r.IntN(len(layoutKinds))], r.IntN(5))
		for _, op := range ops {
			if op.TakesDtype() {
				for _, a := range args {
					ad, _ := dtype.Parse(a)
					add(npCase{in: in, dt: d, op: op, axes: [][]int{nil, {0}, {1}}[r.IntN(3)], arg: ad})
				}
			}
			if op.TakesDdof() {
				for _, dd := range []int{1, 4, 40} {
					add(npCase{in: in, dt: d, op: op, axes: [][]int{nil, {0}, {1}}[r.IntN(3)], ddof: dd})
				}
			}
		}
	}
	// Empty arrays and 0-d ones.
	for _, d := range []string{"<f4", "<i2", "|b1", "<c8", "<f2"} {
		dt, _ := dtype.Parse(d)
		for _, shape := range [][]int{{2, 0, 3}, {0}, {}} {
			in := newCaseArray(r, dt, shape, "c", 0)
			for _, op := range ops {
				for _, axes := range axisSets(len(shape)) {
					add(npCase{in: in, dt: dt, op: op, axes: axes, keepdims: r.IntN(2) == 0})
				}
			}
		}
	}
	// Empty slices with every dtype= and ddof beyond the count: the count
	// is divided in NumPy's scalar arithmetic or in its ufunc depending on
	// the result's dtype, and the warnings name which ("scalar divide" or
	// "divide").
	// A 0-d operand is cast, not reduced: its flags warn as "cast", where
	// a 1-element array's warn as "reduce" (int64 -4530750682560906447 to
	// float16 overflows).
	f4, _ := dtype.Parse("<f4")
	i8, _ := dtype.Parse("<i8")
	for _, shape := range [][]int{{0}, {3}, {}, {1}} {
		in, dt := newCaseArray(r, f4, shape, "c", 0), f4
		if len(shape) == 0 || shape[0] == 1 {
			in, dt = newCaseArray(r, i8, shape, "c", 0), i8
			binary.LittleEndian.PutUint64(in.Data, uint64(0xc11f_5a1d_1a2b_3c31))
		}
		for _, a := range []string{"|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8", "<c8", "<c16"} {
			ad, _ := dtype.Parse(a)
			for _, op := range ops {
				if op.TakesDtype() {
					add(npCase{in: in, dt: dt, op: op, arg: ad, ddof: map[bool]int{true: 5}[op.TakesDdof()]})
				}
			}
		}
	}
	return cases
}

// TestReduceMatchesNumPy compares every case of numpyCases with NumPy.
func TestReduceMatchesNumPy(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 1))
	cases := numpyCases(r)
	answers := runNumPy(t, cases)
	failed, nanBits := 0, 0
	for i, c := range cases {
		why := c.checkLevels(answers[i])
		if reduceValuesOnly && strings.HasPrefix(why, "warnings") {
			why = ""
		}
		if strings.HasPrefix(why, nanBitsDiffer) {
			nanBits++
			if testing.Verbose() && nanBits <= 10 {
				t.Logf("%s: %s", c, why)
			}
			continue
		}
		if why != "" {
			failed++
			if failed <= 400 {
				t.Errorf("%s: %s", c, why)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d cases differ from NumPy", failed, len(cases))
	}
	t.Logf("%d cases; %d equal but for the bits of NaNs that met (docs/behaviour.md)", len(cases), nanBits)
	// The NumPy answering is the host's, on amd64. A NaN that an invalid
	// operation makes (inf - inf, 0 * inf) is the machine's default NaN:
	// negative on x86, positive on arm64, where NumPy's own is positive
	// too. So only on amd64 must NaN bits differ just where NaNs meet.
	if runtime.GOARCH == "amd64" && nanBits > len(cases)/50 {
		t.Errorf("%d cases differ in NaN bits: more than the few where NaNs meet", nanBits)
	}
}

// TestReduceLongMatchesNumPy runs reductions over 1000003 elements along
// the reduced axis (many calls of NumPy's 8192-element buffer, its
// pairwise recursion several levels deep), and checks that NumPy's
// float32 sum is not the sequential one: the order is what is tested.
func TestReduceLongMatchesNumPy(t *testing.T) {
	if testing.Short() || reduceRaceEnabled {
		t.Skip("long arrays (short mode or the race detector)")
	}
	r := rand.New(rand.NewPCG(31, 5))
	const n = 1000003
	var cases []npCase
	ops := []ReduceOp{ReduceSum, ReduceMean, ReduceVar, ReduceStd, ReduceNansum, ReduceNanmean, ReduceMax, ReduceArgmax, ReduceProd}
	for _, ds := range []string{"<f4", ">f4", "<f2", "<f8", "<c8", "<i4"} {
		d, _ := dtype.Parse(ds)
		in := newCaseArray(r, d, []int{n}, "c", []int{0, 1, 4}[r.IntN(3)])
		if d.Kind == 'f' && d.Size == 2 {
			// Small values, so that sums stay within float16's range.
			for i := 0; i < n; i++ {
				d.ByteOrder().PutUint16(in.Data[2*i:], dtype.Float64ToHalf(r.Float64()*1e-3))
			}
		}
		for _, op := range ops {
			cases = append(cases, npCase{in: in, dt: d, op: op})
		}
	}
	f4, _ := dtype.Parse("<f4")
	for _, kind := range []string{"c", "f", "strided"} {
		in := newCaseArray(r, f4, []int{3, 333335}, kind, 0)
		for _, op := range ops {
			for _, axes := range [][]int{nil, {0}, {1}} {
				cases = append(cases, npCase{in: in, dt: f4, op: op, axes: axes, intAxis: axes != nil})
			}
		}
	}
	answers := runNumPy(t, cases)
	for i, c := range cases {
		if why := c.checkLevels(answers[i]); why != "" {
			t.Errorf("%s: %s", c, why)
		}
	}
	// NumPy's float32 sum of the first case is not the sequential sum.
	c, a := cases[0], answers[0]
	var naive float32
	for i := 0; i < n; i++ {
		naive += math.Float32frombits(binary.LittleEndian.Uint32(c.in.Data[4*i:]))
	}
	if got := math.Float32frombits(binary.LittleEndian.Uint32(a.data)); got == naive {
		t.Errorf("NumPy's sum %v equals the sequential sum: the case does not show the order", got)
	} else {
		t.Logf("float32 sum of %d elements: NumPy %v, sequential %v", n, got, naive)
	}
}
