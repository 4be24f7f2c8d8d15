package cmd

import (
	"slices"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/ops"
)

var castCommand = newCommand(&cli.Command{
	Name:      "cast",
	Usage:     "convert to another dtype (ndarray.astype)",
	ArgsUsage: "IN",
	Description: `Writes a.astype(D, casting=RULE): every element converted to dtype D, any
NumPy numeric dtype by any of its names, in either byte order ('>f4' is
big-endian float32). --casting refuses conversions NumPy's rule refuses: no
(the same dtype), equiv (byte order may change), safe (no value can change),
same_kind (safe, or within a kind: float64 to float32, int64 to int8) or unsafe
(anything; the default, as astype). A 0-d array is judged by its value, as
NumPy 1.24 judges it: an int64 5 casts to int16 under safe. Floats to
integers truncate toward zero; NaN, infinities and out-of-range values give
what NumPy's element-by-element loop gives on x86-64 (NumPy calls it
undefined: see docs/behaviour.md).
Complex to real keeps the real part.

Examples:
   strider cast --dtype float32 x.npy -o y.npy
   strider cast --dtype '>i8' --casting same_kind counts.npy -o big.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "dtype", Usage: "target dtype `D` (float32, <i8, >f4, bool, complex128, ...)"},
		&cli.StringFlag{Name: "casting", Value: "unsafe", Usage: "`RULE`: no, equiv, safe, same_kind or unsafe"},
	),
}, parseCast)

// castJob is cast's command line.
type castJob struct {
	in   string
	to   dtype.Dtype
	rule string // --casting, one of dtype.Castings
}

func parseCast(c *cli.Context) (job, error) {
	var j castJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if !c.IsSet("dtype") {
		return nil, usagef("missing --dtype D (see strider cast --help)")
	}
	if j.to, err = npy.ParseDescr(c.String("dtype")); err != nil {
		return nil, usagef("--dtype: %v", err)
	}
	if j.rule = c.String("casting"); !slices.Contains(dtype.Castings, j.rule) {
		return nil, usagef("--casting %q is not no, equiv, safe, same_kind or unsafe", j.rule)
	}
	return j, nil
}

func (j castJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessAllLater, func(in input) error {
		if !canCastInput(in, j.to, j.rule) {
			return usagef("cannot cast array data from dtype(%s) to dtype(%s) according to the rule %s",
				pyStr(dtypeString(in.Dtype)), pyStr(dtypeString(j.to)), pyStr(j.rule))
		}
		e.readAhead = in.Array
		return e.writeOutput(j.to, in.view.Shape, false, viewPieces(in.view, j.to.Size, e.settings, func(dst []byte, p ops.View, o ops.Options) error {
			return e.eng.Cast(dst, j.to, p, in.Dtype, o)
		}))
	})
}

// canCastInput is whether a.astype(to, casting=rule) takes the input: a
// 0-d array by its value, as NumPy 1.24 decides (dtype.CanCastScalar), so
// an int64 0-d array holding 5 casts to int16 under safe.
func canCastInput(in input, to dtype.Dtype, rule string) bool {
	if len(in.view.Shape) == 0 && rule != "unsafe" {
		return dtype.CanCastScalar(in.Dtype, in.view.ElemAt(nil), to, rule)
	}
	return dtype.CanCast(in.Dtype, to, rule)
}

// script writes cast's --as-numpy script: astype with the rule.
func (j castJob) script(s *script) error {
	to, rule := j.to, j.rule
	if s.lib == "torch" {
		return usagef("--as-torch: PyTorch has no casting rules nor every dtype; use --as-numpy")
	}
	a := s.load("a", j.in)
	target := pyStr(to.Descr())
	if rule == "unsafe" && to.Kind == 'u' && to.Size == 4 {
		// NumPy's contiguous float-to-uint32 loop differs from its element
		// loop out of range; int64 first gives the element loop's values.
		s.add("r = (%s.astype(np.int64) if %s.dtype.kind in 'fc' else %s).astype(%s)", a, a, a, target)
	} else {
		s.add("r = %s.astype(%s, casting=%s)", a, target, pyStr(rule))
	}
	s.save("r")
	return nil
}
