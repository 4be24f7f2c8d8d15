package cmd

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/pylit"
	"strider/internal/sysmem"
	"strider/ops"
	"strider/text"
)

var statsJSONFlag = &cli.BoolFlag{
	Name: "json", Usage: "print one JSON object: shape, dtype, count, nan, posinf, neginf, zero, min, max, mean, std",
}

var statsCommand = newCommand(&cli.Command{
	Name:      "stats",
	Usage:     "count, NaN/inf/zero counts, nanmin, nanmax, nanmean, nanstd",
	ArgsUsage: "IN [EXPR]",
	Description: `Summarises a[EXPR] (EXPR as for slice; default the whole array) in one
streaming pass on all threads, one statistic a line:

   shape   (1000, 3)
   dtype   float32
   count   3000          elements, NaN included
   nan     0
   posinf  0
   neginf  0
   zero    12
   min     -3.1415927    np.nanmin, exact, written in the array's dtype
   max     2.7182817     np.nanmax
   mean    0.0012345     np.nanmean(a, dtype=float64)
   std     0.99876       np.nanstd(a, dtype=float64), ddof 0

min and max are what NumPy returns, printed as NumPy prints that scalar;
mean and std are float64. Where NumPy has no answer (min of an empty or
all-NaN array) the line says "undefined"; a mean or std that is NaN is nan.
Complex arrays get the statistics of their magnitude, np.abs(a) (float32
for complex64); bool arrays count True as 1.

--json prints one object with the same keys; min and max are numbers (the
exact float64 value of a float16 or float32), true/false for bool, and
null where undefined or not finite (JSON has no NaN or infinity: the
nan/posinf/neginf counts say which).

Examples:
   strider stats x.npy
   strider stats --json x.npy '::2, 0'`,
	Flags: []cli.Flag{statsJSONFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag},
}, parseStats)

// statsMaxVisits bounds the elements stats reads or gathers from a view
// larger than its storage, which is read once per distinct element
// (ops.Stats skips the axes of stride 0): about a second on 2 cores (0.4 G
// float32s a second).
const statsMaxVisits = 1 << 28

// statsJob is stats' command line.
type statsJob struct {
	in   string
	sel  selection
	json bool
}

func parseStats(c *cli.Context) (job, error) {
	if c.NArg() == 0 || c.NArg() > 2 {
		return nil, usagef("expected IN and an optional EXPR, got %d arguments (see strider stats --help)", c.NArg())
	}
	j := statsJob{in: c.Args().Get(0), json: c.Bool(statsJSONFlag.Name)}
	var err error
	if j.sel, err = parseSelection(c.Args().Tail()); err != nil {
		return nil, err
	}
	return j, nil
}

// run reads a[EXPR], gathering it first when EXPR is not a view, and
// summarises it, under one progress line.
func (j statsJob) run(e *env) error {
	if err := e.cpuOnly(); err != nil {
		return err
	}
	return e.withInput(j.in, npy.AccessAll, func(in input) error {
		name := j.sel.name(j.in)
		v, gather, gathered, err := j.view(e, in, name)
		if err != nil {
			return err
		}
		distinct, _ := ops.DropRepeats(v)
		if err := checkVisits(name, v, distinct.Count(), "elements to read", statsMaxVisits); err != nil {
			return err
		}
		f := in.Dtype
		var s ops.Summary
		err = e.withProgress(gathered+ops.StatsWork(v, f), func(o ops.Options) error {
			if gather != nil {
				if err := gather(o); err != nil {
					return err
				}
			}
			var err error
			if s, err = ops.Stats(v, f, o); err != nil {
				return fmt.Errorf("%s: %w", displayName(j.in), err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		var out []byte
		if j.json {
			out = statsJSON(v.Shape, in.Dtype, s)
		} else {
			out = statsText(v.Shape, in.Dtype, s)
		}
		_, err = e.stdout.Write(out)
		return err
	})
}

// view is a[EXPR], the input's view when EXPR makes one; otherwise a
// buffer of the elements EXPR picks, which gather fills (gathered bytes).
func (j statsJob) view(e *env, in input, name string) (v ops.View, gather func(o ops.Options) error, gathered int64, err error) {
	if j.sel.items == nil {
		return in.view, nil, 0, nil
	}
	ix, err := in.view.Index(j.sel.items)
	if err != nil {
		return v, nil, 0, err
	}
	if v, ok := ix.Basic(); ok {
		return v, nil, 0, nil
	}
	if err := checkVisits(name, in.view, ops.Count(ix.Shape), "elements to gather", statsMaxVisits); err != nil {
		return v, nil, 0, err
	}
	n := ops.Count(ix.Shape) * in.Dtype.Size
	if err := sysmem.CheckMemory("the indexed elements", int64(n)); err != nil {
		return v, nil, 0, err
	}
	buf := make([]byte, n)
	gather = func(o ops.Options) error { return e.eng.Index(buf, ix, o) }
	return ops.Contiguous(in.Dtype.Size, ix.Shape, buf), gather, int64(n), nil
}

// statsValue is one statistic in the output: text is what NumPy prints,
// json the JSON value.
type statsValue struct{ text, json string }

// statsExtremes formats min and max as NumPy returns them: the dtype's
// scalar (a float32 magnitude for complex64).
func statsExtremes(d dtype.Dtype, s ops.Summary) (lo, hi statsValue) {
	if !s.HasMinMax {
		u := statsValue{"undefined", "null"}
		return u, u
	}
	switch d.Kind {
	case 'b':
		b := func(x int64) statsValue {
			if x != 0 {
				return statsValue{"True", "true"}
			}
			return statsValue{"False", "false"}
		}
		return b(s.MinInt), b(s.MaxInt)
	case 'i':
		i := func(x int64) statsValue { t := strconv.FormatInt(x, 10); return statsValue{t, t} }
		return i(s.MinInt), i(s.MaxInt)
	case 'u':
		u := func(x uint64) statsValue { t := strconv.FormatUint(x, 10); return statsValue{t, t} }
		return u(s.MinUint), u(s.MaxUint)
	}
	bitSize := 8 * d.Size
	if d.Kind == 'c' {
		bitSize /= 2
	}
	fl := func(x float64) statsValue {
		return statsValue{text.FormatFloatRepr(x, bitSize), statsJSONFloat(x)}
	}
	return fl(s.MinFloat), fl(s.MaxFloat)
}

// statsJSONFloat writes x as Python's json.dumps(float(x)) does, with null for
// NaN and the infinities, which JSON lacks.
func statsJSONFloat(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "null"
	}
	return text.FormatFloatRepr(x, 64)
}

func statsText(shape []int, d dtype.Dtype, s ops.Summary) []byte {
	lo, hi := statsExtremes(d, s)
	var b bytes.Buffer
	line := func(k, v string) { fmt.Fprintf(&b, "%-7s %s\n", k, v) }
	line("shape", pylit.ShapeString(shape))
	line("dtype", d.Name())
	for _, kv := range []struct {
		k string
		n int
	}{{"count", s.Count}, {"nan", s.NaN}, {"posinf", s.PosInf}, {"neginf", s.NegInf}, {"zero", s.Zero}} {
		line(kv.k, strconv.Itoa(kv.n))
	}
	line("min", lo.text)
	line("max", hi.text)
	line("mean", text.FormatFloatRepr(s.Mean, 64))
	line("std", text.FormatFloatRepr(s.Std, 64))
	return b.Bytes()
}

func statsJSON(shape []int, d dtype.Dtype, s ops.Summary) []byte {
	lo, hi := statsExtremes(d, s)
	dims := make([]string, len(shape))
	for k, n := range shape {
		dims[k] = strconv.Itoa(n)
	}
	return fmt.Appendf(nil, `{"shape":[%s],"dtype":%q,"count":%d,"nan":%d,"posinf":%d,"neginf":%d,"zero":%d,"min":%s,"max":%s,"mean":%s,"std":%s}`+"\n",
		strings.Join(dims, ","), d.Name(), s.Count, s.NaN, s.PosInf, s.NegInf, s.Zero,
		lo.json, hi.json, statsJSONFloat(s.Mean), statsJSONFloat(s.Std))
}

// script prints the statistics with NumPy, in the text form.
func (j statsJob) script(s *script) error {
	if j.json {
		return usagef("--as-numpy prints the text form of stats; leave out --json")
	}
	s.load("a", j.in)
	if j.sel.given {
		s.add("a = np.asarray(%s)", j.sel.of(s, "a"))
	}
	s.add("x = np.abs(a) if a.dtype.kind == 'c' else a  # complex: the statistics of the magnitude")
	s.add("f = x.astype(np.float64)")
	s.add("some = a.size and not np.isnan(f).all()  # else min and max are undefined, mean and std nan")
	s.add("for k, v in [('shape', a.shape), ('dtype', a.dtype.name), ('count', a.size), ('nan', np.isnan(f).sum()),")
	s.add("             ('posinf', np.isposinf(f).sum()), ('neginf', np.isneginf(f).sum()), ('zero', (f == 0).sum()),")
	s.add("             ('min', np.nanmin(x) if some else 'undefined'), ('max', np.nanmax(x) if some else 'undefined'),")
	s.add("             ('mean', np.nanmean(x, dtype=np.float64) if some else np.nan),")
	s.add("             ('std', np.nanstd(x, dtype=np.float64) if some else np.nan)]:")
	s.add("    print(f'{k:<8}{v!s}')  # str(): a float32 prints its own shortest digits")
	return nil
}
