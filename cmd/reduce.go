package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/formats/output"
	"strider/internal/dtype"
	"strider/internal/termsafe"
	"strider/ops"
)

var reduceCommand = newCommand(&cli.Command{
	Name:      "reduce",
	Usage:     "sum, mean, std, min, argmax... along axes (numpy.sum and its kin, bit for bit)",
	ArgsUsage: "OP IN [EXPR]",
	Description: `Writes np.OP(a[EXPR], axis=A, keepdims=K, dtype=D, ddof=N) as NumPy 1.24
saves it, byte for byte: its result dtype (ints sum to int64, the mean of
ints is float64, argmax is int64) and its float bits, added in NumPy's own
order (pairwise along a contiguous axis, row by row along outer ones).
OP is one of:
   sum prod mean std var min max ptp argmin argmax any all count-nonzero
   nansum nanprod nanmean nanstd nanvar nanmin nanmax nanargmin nanargmax
--axis takes one axis or several (A,B; negative allowed; () for none);
without it every axis is reduced. argmin, argmax, nanargmin and nanargmax
take one axis at most. --dtype is NumPy's dtype= (sum, prod, mean, std,
var and their nan twins); --ddof is std's and var's. NumPy's errors (the
min of an empty axis, nanargmax of an all-NaN slice) are refused in its
words; its warnings (the mean of an empty slice) are printed on standard
error.

Examples:
   strider reduce argmax logits.npy --axis -1 -o best.npy
   strider reduce sum x.npy --axis 0,2 --keepdims -o s.npy
   strider reduce mean x.npy '..., :3' --dtype float64 -o m.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "axis", Aliases: []string{"dim"}, Usage: "reduce along axes `A[,B...]` (default: all)"},
		&cli.BoolFlag{Name: "keepdims", Aliases: []string{"keepdim"}, Usage: "keep the reduced axes, with length 1"},
		&cli.StringFlag{Name: "dtype", Usage: "NumPy's dtype= `D`: accumulate and write in D"},
		&cli.StringFlag{Name: "ddof", Usage: "std's and var's delta degrees of freedom `N`", DefaultText: "0"},
	),
}, parseReduce)

// reduceJob is reduce's command line.
type reduceJob struct {
	op  ops.ReduceOp
	in  string
	sel selection
	// axes as given (nil: every axis; empty: none), dtype the zero Dtype
	// unless --dtype is given.
	axes     []int
	keepdims bool
	dtype    dtype.Dtype
	ddof     int
}

func parseReduce(c *cli.Context) (job, error) {
	args := c.Args().Slice()
	if len(args) < 2 || len(args) > 3 {
		return nil, usagef("expected OP IN and an optional EXPR, got %d arguments (see strider reduce --help)", len(args))
	}
	j := reduceJob{in: args[1], keepdims: c.Bool("keepdims")}
	var ok bool
	if j.op, ok = ops.ReduceOpNamed(args[0]); !ok {
		names := make([]string, 0, 22)
		for _, op := range ops.ReduceOps() {
			names = append(names, op.String())
		}
		return nil, usagef("unknown OP %q; one of %s", args[0], strings.Join(names, " "))
	}
	var err error
	if j.sel, err = parseSelection(args[2:]); err != nil {
		return nil, err
	}
	if a := strings.TrimSpace(c.String("axis")); c.IsSet("axis") && a != "None" && a != "none" {
		if j.axes, err = parseInts("axis", a); err != nil {
			return nil, err
		}
	}
	if c.IsSet("dtype") {
		if j.dtype, err = npy.ParseDescr(c.String("dtype")); err != nil {
			return nil, usagef("--dtype: %v", err)
		}
	}
	if c.IsSet("ddof") {
		if j.ddof, err = parseInt("ddof", c.String("ddof")); err != nil {
			return nil, err
		}
	}
	return j, nil
}

func (j reduceJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessAll, func(in input) error {
		name, v := j.sel.name(j.in), in.view
		if j.sel.items != nil {
			var err error
			if v, err = indexView(name, v, j.sel.items); err != nil {
				return err
			}
		}
		o := ops.ReduceOptions{Axes: j.axes, Keepdims: j.keepdims, Dtype: j.dtype, Ddof: j.ddof, Options: e.Options}
		plan, err := ops.ReducePlan(j.op, v, in.Dtype, o)
		if err != nil {
			return j.refusal(name, err)
		}
		// --device cuda runs the order-free reductions and refuses the others
		// here, before the output is created.
		if err := e.eng.CheckReduce(j.op, in.Dtype, o); err != nil {
			return err
		}
		res, err := j.write(e, plan, func(dst []byte, opt ops.Options) (ops.ReduceResult, error) {
			o.Options = opt
			return e.eng.Reduce(dst, j.op, v, in.Dtype, o)
		}, ops.ReduceWork(j.op, v))
		for _, w := range res.Warnings {
			fmt.Fprintf(e.stderr, "strider: reduce: warning: %s\n", termsafe.Escape(w))
		}
		if err != nil {
			return j.refusal(name, err)
		}
		return nil
	})
}

// write creates the output, lets reduce compute into it under the
// progress line (work bytes in all), and commits it; a result NumPy holds
// in Fortran order is computed into memory and written in that order.
func (j reduceJob) write(e *env, plan ops.ReduceShape, reduce func(dst []byte, opt ops.Options) (ops.ReduceResult, error), work int64) (ops.ReduceResult, error) {
	var res ops.ReduceResult
	fill := func(dst []byte) error {
		return e.withProgress(work, func(opt ops.Options) (err error) {
			res, err = reduce(dst, opt)
			return err
		})
	}
	if plan.Fortran {
		return res, e.writeFortran(plan.Dtype, plan.Shape, fill)
	}
	path, err := e.outputPath()
	if err != nil {
		return res, err
	}
	var outs outputSet
	defer outs.abort()
	dst, err := outs.create(e, path, plan.Dtype, plan.Shape)
	if err != nil {
		return res, err
	}
	if err := fill(dst); err != nil {
		return res, err
	}
	return res, outs.commit()
}

// refusal names the input in NumPy's refusals.
func (j reduceJob) refusal(name string, err error) error {
	if errors.Is(err, ops.ErrReduce) {
		return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), ops.ErrReduce.Error()+": "))
	}
	return err
}

// script writes np.OP(a[EXPR], axis=..., keepdims=..., dtype=..., ddof=...)
// (or PyTorch's function of the same meaning, where it has one).
func (j reduceJob) script(s *script) error {
	a := j.sel.of(s, s.load("a", j.in))
	axis := "None"
	if j.axes != nil {
		axis = pyInts(j.axes)
		if len(j.axes) == 1 {
			axis = fmt.Sprint(j.axes[0])
		}
	}
	if s.lib == "torch" {
		return j.torchScript(s, a, axis)
	}
	args := []string{a, "axis=" + axis}
	if j.keepdims {
		args = append(args, "keepdims=True")
	}
	if j.dtype != (dtype.Dtype{}) {
		args = append(args, "dtype="+pyStr(dtypeString(j.dtype)))
	}
	if j.ddof != 0 {
		args = append(args, fmt.Sprintf("ddof=%d", j.ddof))
	}
	s.add("r = np.asarray(np.%s(%s))", j.op.NumPyName(), strings.Join(args, ", "))
	j.saveResult(s)
	return nil
}

// torchScript writes the PyTorch call: torch's own order of summation and
// its rules for ties and NaNs (docs/behaviour.md says where they differ
// from NumPy's).
func (j reduceJob) torchScript(s *script, a, axis string) error {
	fn, ok := torchReductions[j.op]
	if !ok {
		return usagef("--as-torch: PyTorch has no %s; use --as-numpy", j.op)
	}
	s.toTorch("t", a)
	args := []string{"t"}
	if j.axes != nil {
		args = append(args, "dim="+axis)
	}
	if j.keepdims {
		if j.axes == nil {
			return usagef("--as-torch: torch.%s takes keepdim only with a dim; give --axis", fn)
		}
		args = append(args, "keepdim=True")
	}
	if j.dtype != (dtype.Dtype{}) {
		args = append(args, "dtype=torch.from_numpy(np.zeros(0, "+pyStr(dtypeString(j.dtype))+")).dtype")
	}
	if j.op.TakesDdof() {
		args = append(args, fmt.Sprintf("correction=%d", j.ddof))
	}
	s.add("r = np.asarray(torch.%s(%s).numpy())", fn, strings.Join(args, ", "))
	j.saveResult(s)
	return nil
}

// saveResult saves r as numpy.save saves NumPy's result, in Fortran order
// where it is F- but not C-contiguous, as strider writes it; a member of
// an archive is saved in C order.
func (j reduceJob) saveResult(s *script) {
	if _, _, member := output.MemberOutput(s.out); member {
		s.save("r")
		return
	}
	s.add("np.save(%s, r)  # as NumPy's result is: in Fortran order where it is F- but not C-contiguous", s.target(s.out))
}

// torchReductions are the reductions PyTorch has, by its name.
var torchReductions = map[ops.ReduceOp]string{
	ops.ReduceSum: "sum", ops.ReduceProd: "prod", ops.ReduceMean: "mean", ops.ReduceStd: "std",
	ops.ReduceVar: "var", ops.ReduceMin: "amin", ops.ReduceMax: "amax", ops.ReduceArgmin: "argmin",
	ops.ReduceArgmax: "argmax", ops.ReduceAny: "any", ops.ReduceAll: "all",
	ops.ReduceCountNonzero: "count_nonzero", ops.ReduceNansum: "nansum", ops.ReduceNanmean: "nanmean",
}
