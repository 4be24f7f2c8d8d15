package cmd

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/npprint"
	"strider/internal/pylit"
	"strider/internal/sysmem"
	"strider/ops"
)

// The print options of numpy.set_printoptions, by the same names.
var (
	reprFlag = &cli.BoolFlag{Name: "repr", Usage: "print repr(a) instead of str(a)"}
	// Integer options are strings read by parseInt, as --threads.
	precisionFlag = &cli.StringFlag{Name: "precision", Value: "8", Usage: "`N` digits after the point"}
	thresholdFlag = &cli.StringFlag{Name: "threshold", Value: "1000", Usage: "summarize arrays of more than `N` elements"}
	edgeItemsFlag = &cli.StringFlag{Name: "edgeitems", Value: "3", Usage: "`N` elements at each end of a summarized axis"}
	lineWidthFlag = &cli.StringFlag{Name: "linewidth", Value: "75", Usage: "`N` characters per line"}
	suppressFlag  = &cli.BoolFlag{Name: "suppress", Usage: "no scientific notation for small values (print them as 0)"}
	floatModeFlag = &cli.StringFlag{Name: "floatmode", Value: "maxprec", Usage: "`MODE`: maxprec, fixed, unique or maxprec_equal"}
	signFlag      = &cli.StringFlag{Name: "sign", Value: "-", Usage: "`S`: - (sign of negatives), + (always) or ' ' (space for positives)"}
	nanStrFlag    = &cli.StringFlag{Name: "nanstr", Value: "nan", Usage: "print NaN as `TEXT`"}
	infStrFlag    = &cli.StringFlag{Name: "infstr", Value: "inf", Usage: "print infinity as `TEXT`"}
	fullFlag      = &cli.BoolFlag{Name: "full", Usage: "never summarize (threshold=sys.maxsize)"}
)

var showCommand = newCommand(&cli.Command{
	Name:      "show",
	Usage:     "print the array (or a[EXPR]) as NumPy's print() does",
	ArgsUsage: "IN [EXPR]",
	Description: `Prints str(a), or str(a[EXPR]) with the EXPR of slice, exactly as print()
in NumPy 1.24 writes it, followed by one newline; --repr prints repr(a).
The options are numpy.set_printoptions' own, with its defaults; --full is
threshold=sys.maxsize. A 0-d array prints as its scalar, which no option
changes (as in NumPy).

Only what is printed is read: an array of more than --threshold elements
is summarized to --edgeitems elements at each end of every axis, and only
those are read from the mapped file, so a slice of a file of any size
prints in milliseconds. (--edgeitems 0 makes NumPy measure every element,
and so strider reads them all.)

Examples:
   strider show x.npy
   strider show x.npy '0, :5' --precision 3
   strider show x.npy --repr --floatmode fixed --sign +
   strider show big.npy -- -1`,
	Flags: []cli.Flag{reprFlag, precisionFlag, thresholdFlag, edgeItemsFlag, lineWidthFlag,
		suppressFlag, floatModeFlag, signFlag, nanStrFlag, infStrFlag, fullFlag, asNumpyFlag},
}, parseShow)

// showJob is show's command line.
type showJob struct {
	in         string
	sel        selection
	repr, full bool
	opt        npprint.Options // with --full's threshold
	// given are the print options of a value set on the command line, by
	// flag name, and threshold is --threshold as given: the script passes
	// those.
	given     map[string]bool
	threshold int
}

func parseShow(c *cli.Context) (job, error) {
	args := c.Args().Slice()
	if len(args) < 1 || len(args) > 2 {
		return showArgs(args), nil
	}
	j := showJob{in: args[0], repr: c.Bool(reprFlag.Name), full: c.Bool(fullFlag.Name), given: map[string]bool{}}
	for _, f := range []*cli.StringFlag{precisionFlag, thresholdFlag, edgeItemsFlag, lineWidthFlag, floatModeFlag, signFlag, nanStrFlag, infStrFlag} {
		j.given[f.Name] = c.IsSet(f.Name)
	}
	var err error
	if j.opt, err = printOptions(c); err != nil {
		return nil, err
	}
	j.threshold, _ = parseInt(thresholdFlag.Name, c.String(thresholdFlag.Name))
	if j.sel, err = parseSelection(args[1:]); err != nil {
		return nil, err
	}
	return j, nil
}

// showArgs is a show command line without IN or with more than IN and
// EXPR, which the run and the script refuse in their own words.
type showArgs []string

func (a showArgs) run(*env) error {
	if len(a) == 0 {
		return usagef("missing input IN (see strider show --help)")
	}
	return usagef("expected IN and at most one EXPR, got %d arguments: %s (quote an EXPR that has spaces)", len(a), strings.Join(a, " "))
}

func (a showArgs) script(*script) error {
	return usagef("expected IN and at most one EXPR, got %d arguments (see strider show --help)", len(a))
}

func (j showJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessFetch, func(in input) error {
		name, v := j.sel.name(j.in), in.view
		if j.sel.items != nil {
			if ix, err := in.view.Index(j.sel.items); err == nil {
				if err := in.fetchIndexed(j.in, ix); err != nil {
					return err
				}
			} // else indexView says what is wrong
			var err error
			if v, err = indexView(name, in.view, j.sel.items); err != nil {
				return err
			}
		}
		if err := v.Check(); err != nil {
			return err
		}
		// Every printed element is read and formatted, and its text held: a
		// whole view of 2**40 elements (--full, --edgeitems 0) is refused here.
		const maxPrinted = 1 << 20 // about 2.5 s of float64s, 120 MiB
		printed := npprint.Printed(v.Shape, j.opt)
		if err := checkVisits(name, v, printed, "elements to format", maxPrinted); err != nil {
			return err
		}
		need := npprint.MemoryEstimate(in.Dtype.Kind, in.Dtype.Size, printed, j.opt)
		if err := sysmem.CheckMemory(fmt.Sprintf("printing %d elements", printed), need); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if in.onData(v) {
			// A remote input: fetch just the elements print() shows.
			_, keep := npprint.Edges(v.Shape, j.opt)
			if err := in.fetchSpans(j.in, v.SpansAt(keep, fetchGap)); err != nil {
				return err
			}
		}
		a := edgeElements(v, in.Dtype, j.opt)
		var text string
		if j.repr && !isScalarIndex(j.sel.items, j.sel.given, len(in.Shape)) {
			text = npprint.Repr(a, j.opt)
		} else {
			text = npprint.Str(a, j.opt)
		}
		_, err := io.WriteString(e.stdout, text+"\n")
		return err
	})
}

// isScalarIndex reports whether a[EXPR] is a NumPy scalar rather than an
// array: one integer for every axis (a[()] of a 0-d array included). A
// scalar's repr in NumPy 1.24 is its str ('1.5', not 'array(1.5)').
func isScalarIndex(items []pylit.IndexItem, hasExpr bool, ndim int) bool {
	if !hasExpr || len(items) != ndim {
		return false
	}
	for _, it := range items {
		if it.Kind != pylit.IndexInt {
			return false
		}
	}
	return true
}

// indexView is a[items] as a view: the view itself for basic indexing,
// a C-order copy of the gathered elements for advanced indexing, which is
// bounded first as every printed element is (name is a[items] in errors).
func indexView(name string, v ops.View, items []pylit.IndexItem) (ops.View, error) {
	ix, err := v.Index(items)
	if err != nil {
		return ops.View{}, err
	}
	if w, ok := ix.Basic(); ok {
		return w, nil
	}
	// The copy is then printed, usually summarized; the gather itself
	// moves about 100 M elements a second.
	const maxGathered = 1 << 24
	n := ops.Count(ix.Shape)
	if err := checkVisits(name, v, n, "elements to gather", maxGathered); err != nil {
		return ops.View{}, err
	}
	if err := sysmem.CheckMemory("the indexed elements", int64(n*v.Elem)); err != nil {
		return ops.View{}, fmt.Errorf("%s: %w", name, err)
	}
	dst := make([]byte, n*v.Elem)
	if err := ix.Write(dst, ops.Options{Threads: runtime.GOMAXPROCS(0)}); err != nil {
		return ops.View{}, err
	}
	return ops.Contiguous(v.Elem, ix.Shape, dst), nil
}

// printOptions reads the print options.
func printOptions(c *cli.Context) (npprint.Options, error) {
	o := npprint.Defaults()
	ints := []struct {
		flag *cli.StringFlag
		dst  *int
	}{
		{precisionFlag, &o.Precision}, {thresholdFlag, &o.Threshold},
		{edgeItemsFlag, &o.EdgeItems}, {lineWidthFlag, &o.LineWidth},
	}
	for _, f := range ints {
		n, err := parseInt(f.flag.Name, c.String(f.flag.Name))
		if err != nil {
			return o, err
		}
		*f.dst = n
	}
	if c.Bool(fullFlag.Name) {
		o.Threshold = math.MaxInt
	}
	o.Suppress = c.Bool(suppressFlag.Name)
	o.FloatMode = c.String(floatModeFlag.Name)
	sign := c.String(signFlag.Name)
	if len(sign) != 1 {
		return o, usagef("--sign %q is not one of '-', '+' or ' '", sign)
	}
	o.Sign = sign[0]
	o.NanStr = c.String(nanStrFlag.Name)
	o.InfStr = c.String(infStrFlag.Name)
	if err := o.Check(); err != nil {
		return o, usagef("%v", err)
	}
	return o, nil
}

// edgeElements reads the elements npprint prints from v (see
// npprint.Edges): a few pages of a mapped file for a summarized array.
func edgeElements(v ops.View, f dtype.Dtype, o npprint.Options) npprint.Array {
	a := npprint.Array{Kind: f.Kind, Size: f.Size, Shape: v.Shape}
	if v.Count() == 0 {
		return a
	}
	_, keep := npprint.Edges(v.Shape, o)
	n, parts := 1, 1
	for _, idx := range keep {
		n *= len(idx)
	}
	part := f
	if f.Kind == 'c' {
		parts = 2
		part = f.Part()
	}
	a.Elems = make([]uint64, 0, n*parts)
	var walk func(axis, off int)
	walk = func(axis, off int) {
		if axis == len(keep) {
			b := v.Data[off*v.Elem : (off+1)*v.Elem]
			for p := 0; p < parts; p++ {
				a.Elems = append(a.Elems, part.Bits(b[p*part.Size:]))
			}
			return
		}
		for _, i := range keep[axis] {
			walk(axis+1, off+i*v.Strides[axis])
		}
	}
	walk(0, v.Offset)
	return a
}

// script prints a (or a[EXPR]) under np.printoptions with the options
// given.
func (j showJob) script(s *script) error {
	a := j.sel.of(s, s.load("a", j.in))
	var kw []string
	for _, f := range []struct {
		name string
		n    int
	}{
		{precisionFlag.Name, j.opt.Precision}, {thresholdFlag.Name, j.threshold},
		{edgeItemsFlag.Name, j.opt.EdgeItems}, {lineWidthFlag.Name, j.opt.LineWidth},
	} {
		if j.given[f.name] {
			kw = append(kw, fmt.Sprintf("%s=%d", f.name, f.n))
		}
	}
	if j.full {
		s.importModule("sys")
		kw = append(kw, "threshold=sys.maxsize")
	}
	if j.opt.Suppress {
		kw = append(kw, "suppress=True")
	}
	for _, f := range []struct{ name, value string }{
		{floatModeFlag.Name, j.opt.FloatMode}, {signFlag.Name, string([]byte{j.opt.Sign})},
		{nanStrFlag.Name, j.opt.NanStr}, {infStrFlag.Name, j.opt.InfStr},
	} {
		if j.given[f.name] {
			kw = append(kw, fmt.Sprintf("%s=%s", f.name, pyStr(f.value)))
		}
	}
	what := a
	if j.repr {
		what = "repr(" + a + ")"
	}
	s.add("with np.printoptions(%s):", strings.Join(kw, ", "))
	s.add("    print(%s)", what)
	return nil
}
