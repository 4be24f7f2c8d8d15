package cmd

import (
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/formats/output"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/ops"
)

var sortCommand = &cli.Command{
	Name:      "sort",
	Usage:     "stable sort along an axis (numpy.sort kind=stable, torch.sort stable=True)",
	ArgsUsage: "IN",
	Description: `Writes numpy.sort(a, axis, kind='stable'); --indices also writes the int64
positions the values came from (numpy.argsort(a, axis, kind='stable'),
torch.sort(a, axis, stable=True).indices) and --argsort writes only those.
The axis defaults to -1 and may be negative. The dtype and byte order are kept.

Every sort is stable: equal elements keep their input order, descending too
(torch.sort(descending=True, stable=True)); --stable is accepted and changes
nothing. NaN is greater than every number: last ascending, first descending,
unless --nans puts them first or last. -0.0 equals +0.0 and NaN payloads are
kept. Complex numbers sort by (real, imag) with NumPy's rule for NaNs
(R+Rj < R+nanj < nan+Rj < nan+nanj); bools by their byte, as NumPy does.

Examples:
   strider sort x.npy -o sorted.npy
   strider sort --axis 0 --descending x.npy -o y.npy --indices order.npy
   strider sort --argsort --nans first x.npy > order.npy`,
	Flags: withShared(
		axisFlag,
		&cli.BoolFlag{Name: "descending", Usage: "greatest first; equal elements keep their order"},
		&cli.BoolFlag{Name: "stable", Usage: "accepted for torch.sort's sake: every sort is stable"},
		&cli.StringFlag{Name: "nans", Usage: "put NaNs `first` or last (default: last ascending, first descending)"},
		&cli.StringFlag{Name: "indices", Usage: "also write the int64 indices to `OUT.npy`"},
		&cli.BoolFlag{Name: "argsort", Usage: "write only the int64 indices"},
	),
	Action: runSort,
}

// sortFlags reads sort's flags: the axis as given, the order, and the path
// of --indices ("" without it).
func sortFlags(c *cli.Context) (axis int, ord ops.Order, idxPath string, err error) {
	if axis, err = axisValue(c); err != nil {
		return 0, ord, "", err
	}
	ord.Descending = c.Bool("descending")
	switch n := c.String("nans"); {
	case !c.IsSet("nans"):
	case n == "first":
		ord.NaNs = ops.NaNsFirst
	case n == "last":
		ord.NaNs = ops.NaNsLast
	default:
		return 0, ord, "", usagef("--nans %q is not first or last", n)
	}
	if c.IsSet("indices") {
		if c.Bool("argsort") {
			return 0, ord, "", usagef("give --indices FILE or --argsort, not both")
		}
		if idxPath = c.String("indices"); idxPath == "" {
			return 0, ord, "", usagef("--indices needs a path (or - for standard output)")
		}
	}
	return axis, ord, idxPath, nil
}

func runSort(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	a, ord, idxPath, err := sortFlags(c)
	if err != nil {
		return err
	}
	in, err := openInput(c, spec, npy.AccessAllLater)
	if err != nil {
		return err
	}
	defer in.Close()
	v := in.view
	axis, err := ops.NormalizeAxis(a, len(v.Shape))
	if err != nil {
		return err
	}
	if _, onCPU := opt.eng.(cpu); onCPU {
		withIdx := idxPath != "" || c.Bool("argsort")
		scratch := ops.SortScratch(v.Shape, axis, in.Dtype, withIdx, opt.Options)
		if err := sysmem.CheckMemory("the sort's scratch space", scratch); err != nil {
			return err
		}
	}

	switch {
	case c.Bool("argsort"):
		return writeResult(c, opt, dtype.Int64, v.Shape, func(dst []byte, o ops.Options) error {
			in.Prefetch()
			return opt.eng.Sort(nil, dst, v, axis, in.Dtype, ord, o)
		})
	case idxPath == "":
		return writeResult(c, opt, in.Dtype, v.Shape, func(dst []byte, o ops.Options) error {
			in.Prefetch()
			return opt.eng.Sort(dst, nil, v, axis, in.Dtype, ord, o)
		})
	}
	return sortTwo(c, in, axis, ord, opt, idxPath)
}

// sortTwo writes the values to the output and the indices to idxPath. Both
// are created (so a bad path or a full disk fails) before the sort runs and
// committed only after it, together: both are replaced or neither is
// (standard output, which cannot be taken back, goes first).
func sortTwo(c *cli.Context, in input, axis int, ord ops.Order, opt settings, idxPath string) error {
	valPath, err := outputPath(c)
	if err != nil {
		return err
	}
	if valPath == "-" && idxPath == "-" {
		return usagef("the values and --indices cannot both go to standard output; use -o FILE")
	}
	if valPath != "-" && idxPath != "-" && samePath(output.OutputFile(valPath), output.OutputFile(idxPath)) {
		return usagef("--indices %s is also the output file", idxPath)
	}
	vals, err := output.Create(valPath, c.App.Writer, in.Dtype, in.view.Shape)
	if err != nil {
		return err
	}
	defer vals.Abort()
	idx, err := output.Create(idxPath, c.App.Writer, dtype.Int64, in.view.Shape)
	if err != nil {
		return err
	}
	defer idx.Abort()
	in.Prefetch()

	var done atomic.Int64
	stop := startProgress(c, int64(len(vals.Data)+len(idx.Data)), &done)
	opt.Done = &done
	err = opt.eng.Sort(vals.Data, idx.Data, in.view, axis, in.Dtype, ord, opt.Options)
	stop()
	if err != nil {
		return err
	}
	return output.CommitAll(vals, idx)
}

// samePath reports whether two output paths name the same file.
func samePath(a, b string) bool {
	if fa, err := os.Stat(a); err == nil {
		if fb, err := os.Stat(b); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	pa, erra := filepath.Abs(a)
	pb, errb := filepath.Abs(b)
	return erra == nil && errb == nil && pa == pb
}
