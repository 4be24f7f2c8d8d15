package cmd

import (
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/formats/output"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/ops"
)

var sortCommand = newCommand(&cli.Command{
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
}, parseSort)

// sortJob is sort's command line.
type sortJob struct {
	in      string
	axis    int // as given, not yet checked against the input
	ord     ops.Order
	idxPath string // --indices; "" without it
	argsort bool
}

func parseSort(c *cli.Context) (job, error) {
	j := sortJob{argsort: c.Bool("argsort")}
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if j.axis, err = axisValue(c); err != nil {
		return nil, err
	}
	j.ord.Descending = c.Bool("descending")
	switch n := c.String("nans"); {
	case !c.IsSet("nans"):
	case n == "first":
		j.ord.NaNs = ops.NaNsFirst
	case n == "last":
		j.ord.NaNs = ops.NaNsLast
	default:
		return nil, usagef("--nans %q is not first or last", n)
	}
	if c.IsSet("indices") {
		if j.argsort {
			return nil, usagef("give --indices FILE or --argsort, not both")
		}
		if j.idxPath = c.String("indices"); j.idxPath == "" {
			return nil, usagef("--indices needs a path (or - for standard output)")
		}
	}
	return j, nil
}

func (j sortJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessAllLater, func(in input) error {
		v := in.view
		axis, err := ops.NormalizeAxis(j.axis, len(v.Shape))
		if err != nil {
			return err
		}
		if _, onCPU := e.eng.(cpu); onCPU {
			withIdx := j.idxPath != "" || j.argsort
			scratch := ops.SortScratch(v.Shape, axis, in.Dtype, withIdx, e.Options)
			if err := sysmem.CheckMemory("the sort's scratch space", scratch); err != nil {
				return err
			}
		}
		switch {
		case j.argsort:
			return e.writeResult(dtype.Int64, v.Shape, func(dst []byte, o ops.Options) error {
				in.Prefetch()
				return e.eng.Sort(nil, dst, v, axis, in.Dtype, j.ord, o)
			})
		case j.idxPath == "":
			return e.writeResult(in.Dtype, v.Shape, func(dst []byte, o ops.Options) error {
				in.Prefetch()
				return e.eng.Sort(dst, nil, v, axis, in.Dtype, j.ord, o)
			})
		}
		return j.sortTwo(e, in, axis)
	})
}

// sortTwo writes the values to the output and the indices to --indices,
// both or neither.
func (j sortJob) sortTwo(e *env, in input, axis int) error {
	valPath, err := e.outputPath()
	if err != nil {
		return err
	}
	if valPath == "-" && j.idxPath == "-" {
		return usagef("the values and --indices cannot both go to standard output; use -o FILE")
	}
	if valPath != "-" && j.idxPath != "-" && samePath(output.OutputFile(valPath), output.OutputFile(j.idxPath)) {
		return usagef("--indices %s is also the output file", j.idxPath)
	}
	var outs outputSet
	defer outs.abort()
	vals, err := outs.create(e, valPath, in.Dtype, in.view.Shape)
	if err != nil {
		return err
	}
	idx, err := outs.create(e, j.idxPath, dtype.Int64, in.view.Shape)
	if err != nil {
		return err
	}
	in.Prefetch()
	err = e.withProgress(int64(len(vals)+len(idx)), func(o ops.Options) error {
		return e.eng.Sort(vals, idx, in.view, axis, in.Dtype, j.ord, o)
	})
	if err != nil {
		return err
	}
	return outs.commit()
}

// script writes np.argsort (or torch.sort) and takes the values by it.
func (j sortJob) script(s *script) error {
	axis, ord, idxPath := j.axis, j.ord, j.idxPath
	desc, nans := ord.Descending, map[ops.NaNs]string{ops.NaNsFirst: "first", ops.NaNsLast: "last"}[ord.NaNs]
	a := s.load("a", j.in)
	s.add("if %s.ndim == 0:  # no axis to sort along (np.argsort would answer 0)", a)
	s.add("    raise np.AxisError(%d, 0)", axis)
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("idx = torch.sort(t, dim=%d, descending=%s, stable=True).indices.numpy()", axis, pyBool(desc))
	} else if desc {
		s.add("# stable descending, as torch.sort(descending=True, stable=True): equal elements keep their order")
		s.add("n = %s.shape[%d]", a, axis)
		s.add("idx = n - 1 - np.flip(np.argsort(np.flip(%s, axis=%d), axis=%d, kind='stable'), axis=%d)", a, axis, axis, axis)
	} else {
		s.add("idx = np.argsort(%s, axis=%d, kind='stable')", a, axis)
	}
	if nans == "first" && !desc || nans == "last" && desc {
		key := "~nan"
		if nans == "last" {
			key = "nan"
		}
		s.add("# NaNs (in either part of a complex) moved %s, in the order the sort gave them", nans)
		s.add("nan = np.take_along_axis(np.isnan(%s), idx, axis=%d)", a, axis)
		s.add("idx = np.take_along_axis(idx, np.argsort(%s, axis=%d, kind='stable'), axis=%d)", key, axis, axis)
	}
	if j.argsort {
		s.save("idx")
		return nil
	}
	s.add("r = np.take_along_axis(%s, idx, axis=%d)", a, axis)
	s.save("r")
	if idxPath != "" {
		s.saveTo(idxPath, "idx")
	}
	return nil
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
