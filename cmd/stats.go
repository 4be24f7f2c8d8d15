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

var statsCommand = &cli.Command{
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
	Flags:  []cli.Flag{statsJSONFlag, deviceFlag, threadsFlag, asNumpyFlag},
	Action: runStats,
}

func runStats(c *cli.Context) error {
	if c.NArg() == 0 || c.NArg() > 2 {
		return usagef("expected IN and an optional EXPR, got %d arguments (see strider stats --help)", c.NArg())
	}
	spec := c.Args().Get(0)
	opt, err := cpuOptions(c)
	if err != nil {
		return err
	}
	var items []pylit.IndexItem
	if c.NArg() == 2 {
		if items, err = pylit.ParseIndex(c.Args().Get(1)); err != nil {
			return usagef("%v", err)
		}
	}
	in, err := openInput(c, spec, npy.AccessAll)
	if err != nil {
		return err
	}
	defer in.Close()
	// A view larger than its storage is read once per distinct element
	// (ops.Stats skips the axes of stride 0); what is left is bounded.
	const maxVisits = 1 << 28 // about a second on 2 cores (0.4 G float32s a second)
	name := displayName(spec)
	if items != nil {
		name += "[" + c.Args().Get(1) + "]"
	}
	v := in.view
	if items != nil {
		ix, err := in.view.Index(items)
		if err != nil {
			return err
		}
		var ok bool
		if v, ok = ix.Basic(); !ok {
			if err := checkVisits(name, in.view, ops.Count(ix.Shape), "elements to gather", maxVisits); err != nil {
				return err
			}
			n := ops.Count(ix.Shape) * in.Dtype.Size
			if err := sysmem.CheckMemory("the indexed elements", int64(n)); err != nil {
				return err
			}
			buf := make([]byte, n)
			if err := opt.eng.Index(buf, ix, opt.Options); err != nil {
				return err
			}
			v = ops.Contiguous(in.Dtype.Size, ix.Shape, buf)
		}
	}
	distinct, _ := ops.DropRepeats(v)
	if err := checkVisits(name, v, distinct.Count(), "elements to read", maxVisits); err != nil {
		return err
	}
	f := in.Dtype
	s, err := ops.Stats(v, f, opt.Options)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(spec), err)
	}
	var out []byte
	if c.Bool(statsJSONFlag.Name) {
		out = statsJSON(v.Shape, in.Dtype, s)
	} else {
		out = statsText(v.Shape, in.Dtype, s)
	}
	_, err = c.App.Writer.Write(out)
	return err
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
