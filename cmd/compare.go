package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/internal/dtype"
	"strider/ops"
	"strider/text"
)

var compareCommand = newCommand(&cli.Command{
	Name:      "compare",
	Usage:     "compare two arrays (numpy.testing.assert_allclose); exit 1 when they differ",
	ArgsUsage: "ACTUAL DESIRED",
	Description: `Compares ACTUAL with DESIRED as numpy.testing.assert_allclose does: elements
are close when |actual - desired| <= atol + rtol * |desired|. NaN equals NaN
(unless --equal-nan=false) and an infinity only the same infinity. Integers
and bools are compared exactly, whatever their widths and signs; with a float
on either side the comparison is in float64, with a complex one by the
magnitude of the difference. Shapes must be equal, except that a 0-d array
on either side is compared with every element of the other, as NumPy does.

--exact demands the same shape, the same dtype (byte order included) and the
same bytes in every element, compared in one parallel pass over the files.

Equal arrays: exit 0 and no output (--json prints the report). Different:
NumPy's summary on standard output (mismatched elements, how many of them
hold a NaN or an infinity, max absolute and relative difference, the index
and values of the worst element: the one with the largest absolute
difference, a NaN difference counting as largest, the first in C order
among equals) and exit 1; --json prints one JSON object instead. Errors
(unreadable files): exit 2.

--show N lists the first N mismatched elements in C order as NumPy 2.4's
assert_allclose lists its first 5: "[i, j]: ACTUAL (ACTUAL), DESIRED
(DESIRED)", each followed by its absolute and relative difference.

Two archives (.npz, .safetensors, torch.save files, folders of .npy files) are
compared member by member: one line per member (equal; differs, with NumPy's
counts; shape mismatch; dtype mismatch with --exact; only in A; only in B),
then a summary line; --json prints
one object per member; --member GLOB selects members. Exit 1 when any member
differs or is missing on either side. Two archives of one member each are
compared as two arrays, as before, unless --member is given.

Examples:
   strider compare out.npy ref.npy
   strider compare out.npz ref.safetensors --rtol 1e-5
   strider compare --member 'layer.*' run/ ref.pt
   strider compare out.npy ref.npy --rtol 1e-5 --atol 1e-8
   strider compare --exact out.npy ref.npy && echo identical
   strider compare --show 10 out.npy ref.npy
   strider compare --json out.npy ref.npy | jq .mismatched`,
	Flags: []cli.Flag{
		&cli.Float64Flag{Name: "rtol", Value: 1e-7, Usage: "relative tolerance `R`"},
		&cli.Float64Flag{Name: "atol", Value: 0, Usage: "absolute tolerance `A`"},
		&cli.BoolFlag{Name: "equal-nan", Value: true, Usage: "NaN equals NaN (--equal-nan=false: NaN is never close)"},
		&cli.BoolFlag{Name: "exact", Usage: "demand equal shape, dtype and bytes"},
		&cli.BoolFlag{Name: "json", Usage: "print one JSON object (also when equal)"},
		&cli.StringFlag{Name: "show", Value: "0", Usage: "list the first `N` mismatched elements: index, actual, desired, absolute and relative difference"},
		memberFlag,
		deviceFlag, threadsFlag, quietFlag, asNumpyFlag, asTorchFlag,
	},
}, parseCompare)

// compareJob is compare's command line. The run checks the tolerances and
// --show, which the script passes on as given.
type compareJob struct {
	actual, desired string
	tol             ops.Tolerance // Show is read from show by check
	show            string        // --show as given
	exact, json     bool
	member          string // --member's GLOB, when memberSet
	memberSet       bool
	// inPieces: a remote input is fetched as it is compared
	// (closeInPieces), which run decides once both are open.
	inPieces bool
}

func parseCompare(c *cli.Context) (job, error) {
	if c.NArg() != 2 {
		return compareArgs(c.NArg()), nil
	}
	return compareJob{
		actual: c.Args().Get(0), desired: c.Args().Get(1),
		tol:   ops.Tolerance{RTol: c.Float64("rtol"), ATol: c.Float64("atol"), EqualNaN: c.Bool("equal-nan")},
		show:  c.String("show"),
		exact: c.Bool("exact"), json: c.Bool("json"),
		member: c.String(memberFlag.Name), memberSet: c.IsSet(memberFlag.Name),
	}, nil
}

// compareArgs is a compare command line with other than two arrays, which
// the script refuses for --as-torch first.
type compareArgs int

func (n compareArgs) run(*env) error { return n.refusal() }

func (n compareArgs) script(s *script) error {
	if s.lib == "torch" {
		return compareTorchRefusal
	}
	return n.refusal()
}

func (n compareArgs) refusal() error {
	return usagef("expected ACTUAL and DESIRED, got %d arguments (see strider compare --help)", int(n))
}

// compareReport is what compare prints, as text or JSON.
type compareReport struct {
	Equal        bool            `json:"equal"`
	Mismatched   *int            `json:"mismatched"`
	Total        *int            `json:"total"`
	MaxAbsDiff   json.RawMessage `json:"max_abs_diff"`
	MaxRelDiff   json.RawMessage `json:"max_rel_diff"`
	WorstIndex   []int           `json:"worst_index"`
	Actual       json.RawMessage `json:"actual"`
	Desired      json.RawMessage `json:"desired"`
	ShapeActual  []int           `json:"shape_actual"`
	ShapeDesired []int           `json:"shape_desired"`
	DtypeActual  string          `json:"dtype_actual"`
	DtypeDesired string          `json:"dtype_desired"`
	RTol         float64         `json:"rtol"`
	ATol         float64         `json:"atol"`
	Exact        bool            `json:"exact"`
	// Reason says why the arrays differ when no count says it:
	// "shape mismatch", "dtype mismatch", "nan location mismatch", ...
	Reason string `json:"reason,omitempty"`
	// Of the mismatched elements, those with a NaN on either side and
	// those with an infinity (and no NaN); null with --exact.
	NaNMismatched *int `json:"nan_mismatched"`
	InfMismatched *int `json:"inf_mismatched"`
	// WorstBy names the measure the worst element is the largest by.
	WorstBy string `json:"worst_by,omitempty"`
	// Mismatches are the first --show mismatched elements, in C order.
	Mismatches []mismatch `json:"mismatches,omitempty"`

	lines []string // the text report's body
}

// mismatch is one element of --show's list.
type mismatch struct {
	Index   []int           `json:"index"`
	Actual  json.RawMessage `json:"actual"`
	Desired json.RawMessage `json:"desired"`
	AbsDiff json.RawMessage `json:"abs_diff"`
	RelDiff json.RawMessage `json:"rel_diff"`
}

// maxShow bounds --show: a longer list is a job for a script.
const maxShow = 100000

var jsonNull = json.RawMessage("null")

// check reads --show into the tolerance and refuses what the run cannot
// do.
func (j *compareJob) check(e *env) error {
	if j.actual == "-" && j.desired == "-" {
		return usagef("only one of ACTUAL and DESIRED can be standard input")
	}
	if _, onCPU := e.eng.(cpu); !onCPU {
		// compare reads each element once and does little work on it: the
		// transfer to the GPU would cost more than the comparison.
		return usagef("--device cuda: compare runs on the CPU only; drop --device")
	}
	var err error
	if j.tol.Show, err = parseInt("show", j.show); err != nil {
		return err
	}
	if j.tol.Show < 0 || j.tol.Show > maxShow {
		return usagef("--show %d is out of range 0..%d", j.tol.Show, maxShow)
	}
	if j.tol.Show > 0 && j.exact {
		return usagef("--show lists mismatches by value; --exact compares bytes (drop one of them)")
	}
	for _, t := range []struct {
		name string
		v    float64
	}{{"rtol", j.tol.RTol}, {"atol", j.tol.ATol}} {
		if math.IsNaN(t.v) || t.v < 0 {
			return usagef("--%s %v: a tolerance must be a number >= 0", t.name, t.v)
		}
	}
	return nil
}

func (j compareJob) run(e *env) error {
	if err := j.check(e); err != nil {
		return err
	}
	if done, err := j.compareArchives(e); done {
		return err
	}
	a, err := e.openInput(j.actual, j.access(j.actual))
	if err != nil {
		return err
	}
	defer a.Close()
	d, err := e.openInput(j.desired, j.access(j.desired))
	if err != nil {
		return err
	}
	defer d.Close()
	if j.inPieces, err = j.fetchForCompare(a, d); err != nil {
		return err
	}
	var r *compareReport
	err = e.withProgress(int64(len(a.Data)+len(d.Data)), func(opt ops.Options) (err error) {
		r, err = j.compare(a, d, opt)
		return err
	})
	if err != nil {
		return err
	}
	if err := r.print(e.stdout, j.json, j.actual, j.desired, a.Dtype, d.Dtype); err != nil {
		return err
	}
	if !r.Equal {
		return errDifferent
	}
	return nil
}

// compare is the report on arrays a and d, compared with opt's threads
// and progress counter.
func (j compareJob) compare(a, d input, opt ops.Options) (*compareReport, error) {
	r := &compareReport{
		MaxAbsDiff: jsonNull, MaxRelDiff: jsonNull, Actual: jsonNull, Desired: jsonNull,
		ShapeActual: nonNil(a.Shape), ShapeDesired: nonNil(d.Shape),
		DtypeActual: a.Dtype.Descr(), DtypeDesired: d.Dtype.Descr(),
		RTol: j.tol.RTol, ATol: j.tol.ATol, Exact: j.exact,
	}
	if j.exact {
		return r, compareExact(r, a, d, j.tol, opt)
	}
	return r, j.compareClose(r, a, d, opt)
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// dtypeString is how NumPy prints a dtype in messages: its name when
// native, its descr (">f4") when not.
func dtypeString(d dtype.Dtype) string {
	if d.Native() {
		return d.Name()
	}
	return d.Descr()
}

// compareClose fills r with assert_allclose's verdict.
func (j compareJob) compareClose(r *compareReport, a, d input, opt ops.Options) error {
	tol := j.tol
	if !broadcastable(a.Shape, d.Shape) {
		r.Reason = "shape mismatch"
		r.lines = append(r.lines, fmt.Sprintf("(shapes %s, %s mismatch)", ops.ShapeString(a.Shape), ops.ShapeString(d.Shape)))
		return nil
	}
	va, vd, err := broadcastPair(a.view, d.view)
	if err != nil {
		return err
	}
	fa, fd := a.Dtype, d.Dtype
	var res ops.Comparison
	if j.inPieces {
		res, err = j.closeInPieces(a, va, d, vd, opt)
	} else {
		res, err = ops.AllClose(va, fa, vd, fd, tol, opt)
	}
	if err != nil {
		return err
	}
	if j.inPieces && res.Mismatched > 0 {
		if err := j.fetchReported(a, va, d, vd, res); err != nil {
			return err
		}
	}
	r.Equal = res.Mismatched == 0
	r.Mismatched, r.Total = &res.Mismatched, &res.Total
	r.NaNMismatched, r.InfMismatched = &res.NaNMismatched, &res.InfMismatched
	if res.HasDiff {
		r.MaxAbsDiff = jsonDiff(res.MaxAbs)
		r.MaxRelDiff = jsonFloat(res.MaxRel)
	}
	if r.Equal {
		return nil
	}
	for _, loc := range []struct {
		bad  bool
		what string
	}{{res.NaNLocation, "nan"}, {res.PosInfLocation, "+inf"}, {res.NegInfLocation, "-inf"}} {
		if loc.bad {
			if r.Reason == "" {
				r.Reason = loc.what + " location mismatch"
			}
			r.lines = append(r.lines, fmt.Sprintf("x and y %s location mismatch", loc.what))
		}
	}
	r.lines = append(r.lines, mismatchLine(res.Mismatched, res.Total))
	if res.NaNMismatched > 0 || res.InfMismatched > 0 {
		r.lines = append(r.lines, fmt.Sprintf("Of which with a NaN: %d, with an infinity: %d", res.NaNMismatched, res.InfMismatched))
	}
	r.list(va, fa, vd, fd, res.First, res.Mismatched)
	if res.HasDiff {
		r.lines = append(r.lines,
			"Max absolute difference: "+text.FormatDiff(res.MaxAbs),
			"Max relative difference: "+text.FormatFloatArray(res.MaxRel, 64))
	}
	r.WorstBy = "abs_diff"
	r.worst(va, fa, vd, fd, res.Worst, "Worst mismatch (largest absolute difference)")
	return nil
}

// list records the mismatched elements at C-order positions first, laid
// out as NumPy 2.4's assert_allclose lists its first five, with each
// element's absolute and relative difference appended. As in NumPy, the
// text has no list when both arrays are 0-d.
func (r *compareReport) list(va ops.View, fa dtype.Dtype, vd ops.View, fd dtype.Dtype, first []int, mismatched int) {
	if len(first) == 0 {
		return
	}
	var lines []string
	for _, pos := range first {
		idx := ops.Unravel(pos, va.Shape)
		ea, ed := va.ElemAt(idx), vd.ElemAt(idx)
		diff, rel := ops.ElemDiff(ea, fa, ed, fd)
		r.Mismatches = append(r.Mismatches, mismatch{
			Index: idx, Actual: jsonElem(ea, fa), Desired: jsonElem(ed, fd),
			AbsDiff: jsonDiff(diff), RelDiff: jsonFloat(rel),
		})
		ints := make([]string, len(idx))
		for k, i := range idx {
			ints[k] = strconv.Itoa(i)
		}
		lines = append(lines, fmt.Sprintf(" [%s]: %s (ACTUAL), %s (DESIRED), abs %s, rel %s",
			strings.Join(ints, ", "), text.FormatElem(ea, fa), text.FormatElem(ed, fd),
			text.FormatDiff(diff), text.FormatFloatArray(rel, 64)))
	}
	if len(va.Shape) == 0 {
		return
	}
	switch {
	case mismatched == 1:
		r.lines = append(r.lines, "Mismatch at index:")
	case mismatched <= len(first):
		r.lines = append(r.lines, "Mismatch at indices:")
	case len(first) == 1:
		r.lines = append(r.lines, "First mismatch is at index:")
	default:
		r.lines = append(r.lines, fmt.Sprintf("First %d mismatches are at indices:", len(first)))
	}
	r.lines = append(r.lines, lines...)
}

// compareExact fills r with the --exact verdict: shape, dtype and bytes.
func compareExact(r *compareReport, a, d input, tol ops.Tolerance, opt ops.Options) error {
	switch {
	case !slices.Equal(a.Shape, d.Shape):
		r.Reason = "shape mismatch"
		r.lines = append(r.lines, fmt.Sprintf("(shapes %s, %s mismatch)", ops.ShapeString(a.Shape), ops.ShapeString(d.Shape)))
		return nil
	case a.Dtype.Descr() != d.Dtype.Descr():
		r.Reason = "dtype mismatch"
		r.lines = append(r.lines, fmt.Sprintf("(dtypes %s, %s mismatch)", dtypeString(a.Dtype), dtypeString(d.Dtype)))
		return nil
	}
	count, first, err := ops.ExactDiff(a.view, d.view, opt)
	if err != nil {
		return err
	}
	total := a.view.Count()
	r.Equal = count == 0
	r.Mismatched, r.Total = &count, &total
	if r.Equal {
		return nil
	}
	r.lines = append(r.lines, mismatchLine(count, total))
	// The numbers behind the differing bytes, for the report only.
	fa, fd := a.Dtype, d.Dtype
	opt.Done = nil
	res, err := ops.AllClose(a.view, fa, d.view, fd, tol, opt)
	if err != nil {
		return err
	}
	if res.HasDiff {
		r.MaxAbsDiff = jsonDiff(res.MaxAbs)
		r.MaxRelDiff = jsonFloat(res.MaxRel)
		r.lines = append(r.lines,
			"Max absolute difference: "+text.FormatDiff(res.MaxAbs),
			"Max relative difference: "+text.FormatFloatArray(res.MaxRel, 64))
	}
	r.worst(a.view, fa, d.view, fd, first, "First mismatch")
	return nil
}

// worst records the element at C-order position pos (none when pos < 0);
// what names it in the text ("First mismatch").
func (r *compareReport) worst(va ops.View, fa dtype.Dtype, vd ops.View, fd dtype.Dtype, pos int, what string) {
	if pos < 0 {
		return
	}
	idx := ops.Unravel(pos, va.Shape)
	ea, ed := va.ElemAt(idx), vd.ElemAt(idx)
	r.WorstIndex = idx
	r.Actual, r.Desired = jsonElem(ea, fa), jsonElem(ed, fd)
	xs, ys := text.FormatElem(ea, fa), text.FormatElem(ed, fd)
	if xs == ys {
		// Equal values, different bytes (--exact: a NaN payload, -0.0).
		xs, ys = fmt.Sprintf("%s (bytes %x)", xs, ea), fmt.Sprintf("%s (bytes %x)", ys, ed)
	}
	r.lines = append(r.lines, fmt.Sprintf("%s at index %s: x = %s, y = %s", what, ops.ShapeString(idx), xs, ys))
}

// print writes the report: nothing when equal (text), NumPy's message when
// different, or one JSON object.
func (r *compareReport) print(w io.Writer, asJSON bool, specA, specD string, da, dd dtype.Dtype) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false) // "<f8", not "\u003cf8"
		return enc.Encode(r)
	}
	if r.Equal {
		return nil
	}
	var sb strings.Builder
	if r.Exact {
		sb.WriteString("Not equal byte for byte\n\n")
	} else {
		fmt.Fprintf(&sb, "Not equal to tolerance rtol=%s, atol=%s\n\n", pyG(r.RTol), pyG(r.ATol))
	}
	for _, l := range r.lines {
		sb.WriteString(l + "\n")
	}
	fmt.Fprintf(&sb, " x: %s, %s %s\n", displayName(specA), dtypeString(da), ops.ShapeString(r.ShapeActual))
	fmt.Fprintf(&sb, " y: %s, %s %s\n", displayName(specD), dtypeString(dd), ops.ShapeString(r.ShapeDesired))
	_, err := io.WriteString(w, sb.String())
	return err
}

// mismatchLine is NumPy's "Mismatched elements: k / n (p%)".
func mismatchLine(k, n int) string {
	return fmt.Sprintf("Mismatched elements: %d / %d (%s%%)", k, n, pyG3(100*float64(k)/float64(n)))
}

// pyG is Python's format(v, 'g'); pyG3 is format(v, '.3g').
func pyG(v float64) string  { return fmt.Sprintf("%.6g", v) }
func pyG3(v float64) string { return fmt.Sprintf("%.3g", v) }

// broadcastable is assert_allclose's shape rule: equal shapes, or a 0-d
// array on either side.
func broadcastable(a, b []int) bool {
	return len(a) == 0 || len(b) == 0 || slices.Equal(a, b)
}

// broadcastPair stretches a 0-d side to the other's shape.
func broadcastPair(a, b ops.View) (ops.View, ops.View, error) {
	shape := a.Shape
	if len(shape) == 0 {
		shape = b.Shape
	}
	va, err := ops.BroadcastTo(a, shape)
	if err != nil {
		return a, b, err
	}
	vb, err := ops.BroadcastTo(b, shape)
	return va, vb, err
}

// jsonFloat is a JSON number, or "nan", "inf", "-inf" as strings.
func jsonFloat(v float64) json.RawMessage {
	return jsonFloatBits(v, 64)
}

func jsonFloatBits(v float64, bitSize int) json.RawMessage {
	switch {
	case math.IsNaN(v):
		return json.RawMessage(`"nan"`)
	case math.IsInf(v, 1):
		return json.RawMessage(`"inf"`)
	case math.IsInf(v, -1):
		return json.RawMessage(`"-inf"`)
	}
	if bitSize == 16 {
		bitSize = 32 // shortest float32 digits also round-trip the half
	}
	return json.RawMessage(strconv.FormatFloat(v, 'g', -1, bitSize))
}

func jsonDiff(d ops.Diff) json.RawMessage {
	if d.Exact {
		return json.RawMessage(text.FormatDiff(d))
	}
	return jsonFloat(d.Float)
}

// jsonElem is one element: a number (exact for integers), true/false, or
// [re, im] for complex.
func jsonElem(b []byte, f dtype.Dtype) json.RawMessage {
	switch f.Kind {
	case 'b', 'i', 'u':
		s := text.FormatElem(b, f)
		switch s {
		case "True":
			s = "true"
		case "False":
			s = "false"
		}
		return json.RawMessage(s)
	case 'f':
		return jsonFloatBits(f.Float(b), 8*f.Size)
	}
	z := f.Complex(b)
	return json.RawMessage("[" + string(jsonFloatBits(real(z), 4*f.Size)) + "," + string(jsonFloatBits(imag(z), 4*f.Size)) + "]")
}

// compareTorchRefusal is compare's answer to --as-torch.
var compareTorchRefusal = usagef("--as-torch: compare is numpy.testing.assert_allclose; use --as-numpy")

// script writes numpy.testing.assert_allclose (or compare --exact's test).
func (j compareJob) script(s *script) error {
	if s.lib == "torch" {
		return compareTorchRefusal
	}
	if done, err := j.archivesScript(s); done {
		return err
	}
	x := s.load("x", j.actual)
	y := s.load("y", j.desired)
	if j.exact {
		s.add("# --exact: equal shape, dtype and bytes; an AssertionError exits 1, as strider does")
		s.add("assert %s, 'the arrays differ'", exactTest(x, y))
		return nil
	}
	s.add("# an AssertionError exits 1, as strider does when the arrays differ")
	s.add("%s", j.allclose(x, y))
	return nil
}

// exactTest is compare --exact's test of arrays x and y in Python.
func exactTest(x, y string) string {
	return fmt.Sprintf("%s.shape == %s.shape and %s.dtype == %s.dtype and %s.tobytes() == %s.tobytes()", x, y, x, y, x, y)
}

// allclose is compare's assertion on arrays x and y with the command's
// tolerances.
func (j compareJob) allclose(x, y string) string {
	return fmt.Sprintf("np.testing.assert_allclose(%s, %s, rtol=%s, atol=%s, equal_nan=%s)", x, y,
		strconv.FormatFloat(j.tol.RTol, 'g', -1, 64), strconv.FormatFloat(j.tol.ATol, 'g', -1, 64), pyBool(j.tol.EqualNaN))
}
