package cmd

import (
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/formats/output"
	"strider/internal/dtype"
	"strider/ops"
)

var uniqueConsecutiveCommand = newCommand(&cli.Command{
	Name:      "unique-consecutive",
	Usage:     "collapse runs of equal neighbours (torch.unique_consecutive)",
	ArgsUsage: "IN",
	Description: `Writes torch.unique_consecutive(a, return_inverse, return_counts, dim): the
first element of every run of equal neighbours, in order. Without --axis the
input is flattened in C order, as torch does; with --axis A whole slices along
A are compared, and the output keeps every other axis. --inverse writes, as
int64, the run each input element (or slice) belongs to, in the input's shape
(or the axis' length); --counts writes each run's length. Numbers compare as
numbers: a NaN is never equal to anything, not even another NaN, so each NaN
is its own run; -0.0 equals 0.0 (the run keeps its first element); bools
compare by truth. All outputs are replaced together or not at all.

Examples:
   strider unique-consecutive labels.npy -o runs.npy --counts lengths.npy
   strider unique-consecutive --axis 0 rows.npy -o u.npy --inverse which.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "axis", Aliases: []string{"dim"}, Usage: "compare slices along axis `A` (default: flatten)"},
		&cli.StringFlag{Name: "inverse", Usage: "also write the int64 run index of each element to `OUT.npy`"},
		&cli.StringFlag{Name: "counts", Usage: "also write the int64 length of each run to `OUT.npy`"},
	),
}, parseUniqueConsecutive)

// uniqueJob is unique-consecutive's command line.
type uniqueJob struct {
	in      string
	axis    int    // as given, not yet checked against the input
	hasAxis bool   // false: flatten
	inverse string // --inverse; "" without it
	counts  string // --counts; "" without it
}

func parseUniqueConsecutive(c *cli.Context) (job, error) {
	var j uniqueJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if j.hasAxis = c.IsSet("axis"); j.hasAxis {
		if j.axis, err = axisValue(c); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"inverse", "counts"} {
		if c.IsSet(name) && c.String(name) == "" {
			return nil, usagef("--%s needs a path (or - for standard output)", name)
		}
	}
	j.inverse, j.counts = c.String("inverse"), c.String("counts")
	return j, nil
}

// run finds the runs, under a progress line of its own, then writes the
// outputs, whose shapes the runs give, under another.
func (j uniqueJob) run(e *env) error {
	paths, err := j.paths(e)
	if err != nil {
		return err
	}
	in, err := e.openInput(j.in, npy.AccessAllLater)
	if err != nil {
		return err
	}
	defer in.Close()
	v, axis, read := in.view, -1, in.view // read: the order the rows are read in
	if j.hasAxis {
		if axis, err = ops.NormalizeAxis(j.axis, len(v.Shape)); err != nil {
			return err
		}
		read = v.AxisFirst(axis)
	}
	readAhead(in.Array, read)
	if _, onCPU := e.eng.(cpu); onCPU && axis < 0 && paths[1] == "" && paths[2] == "" {
		return writeRunValues(e, paths[0], in.Dtype, v)
	}
	var starts []int
	err = e.withProgress(int64(v.Count()*v.Elem), func(o ops.Options) error {
		var err error
		starts, err = e.eng.UniqueConsecutive(v, in.Dtype, axis, o)
		return err
	})
	if err != nil {
		return err
	}
	return writeRuns(e, paths, in.Dtype, v, axis, starts)
}

// writeRunValues writes the first element of every run of v read in C
// order, when no inverse or counts are asked for: the runs are counted
// chunk by chunk, then each chunk writes its runs' first elements straight
// into the output (ops.Runs), without the list of run starts (8 bytes a
// run) and the gather through it.
func writeRunValues(e *env, path string, d dtype.Dtype, v ops.View) error {
	var outs outputSet
	defer outs.abort()
	err := e.withProgress(int64(v.Count()*v.Elem), func(o ops.Options) error {
		runs, err := ops.CountRuns(v, d, o) // half of the progress
		if err != nil {
			return err
		}
		vals, err := outs.create(e, path, d, []int{runs.Count()})
		if err != nil {
			return err
		}
		return runs.Take(vals, o) // the other half
	})
	if err != nil {
		return err
	}
	return outs.commit()
}

// writeRuns creates the values of v at the run starts (elements, or rows
// along axis when it is not -1), and the inverse and the counts where
// their paths are not "", fills them and commits them together.
func writeRuns(e *env, paths [3]string, d dtype.Dtype, v ops.View, axis int, starts []int) error {
	n, shape, invShape := v.Count(), []int{len(starts)}, v.Shape
	if axis >= 0 {
		n, shape, invShape = v.Shape[axis], slices.Clone(v.Shape), []int{v.Shape[axis]}
		shape[axis] = len(starts)
	}
	var outs outputSet
	defer outs.abort()
	vals, err := outs.create(e, paths[0], d, shape)
	if err != nil {
		return err
	}
	var inv, counts []byte
	if paths[1] != "" {
		if inv, err = outs.create(e, paths[1], dtype.Int64, invShape); err != nil {
			return err
		}
	}
	if paths[2] != "" {
		if counts, err = outs.create(e, paths[2], dtype.Int64, []int{len(starts)}); err != nil {
			return err
		}
	}
	err = e.withProgress(int64(len(vals)+len(inv)+len(counts)), func(o ops.Options) error {
		var err error
		if axis < 0 {
			err = e.eng.TakeFlat(vals, v, starts, o)
		} else {
			err = e.eng.Take(vals, v, axis, starts, o)
		}
		if err != nil {
			return err
		}
		// RunIndex and RunLengths fill their outputs whole, in one pass.
		if inv != nil {
			ops.RunIndex(inv, starts)
		}
		if counts != nil {
			ops.RunLengths(counts, starts, n)
		}
		o.Done.Add(int64(len(inv) + len(counts)))
		return nil
	})
	if err != nil {
		return err
	}
	return outs.commit()
}

// paths is the output, --inverse and --counts ("" when not given): at most
// one of them standard output, no two the same file.
func (j uniqueJob) paths(e *env) ([3]string, error) {
	var p [3]string
	var err error
	if p[0], err = e.outputPath(); err != nil {
		return p, err
	}
	p[1], p[2] = j.inverse, j.counts
	names := [3]string{"the output", "--inverse " + p[1], "--counts " + p[2]}
	for i := range p {
		for k := i + 1; k < len(p); k++ {
			switch {
			case p[i] == "" || p[k] == "":
			case p[i] == "-" && p[k] == "-":
				return p, usagef("%s and %s cannot both go to standard output; use -o FILE", names[i], names[k])
			case p[i] != "-" && p[k] != "-" && samePath(output.OutputFile(p[i]), output.OutputFile(p[k])):
				return p, usagef("%s is also %s", names[k], names[i])
			}
		}
	}
	return p, nil
}

// script writes torch's own function for --as-torch; for --as-numpy the
// same definition in NumPy (NumPy has no unique_consecutive): a run starts
// where a row differs from the one before by !=, so NaNs never match.
func (j uniqueJob) script(s *script) error {
	a := s.load("a", j.in)
	dim := "None"
	if j.hasAxis {
		dim = strconv.Itoa(j.axis)
	}
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("u, inv, cnt = torch.unique_consecutive(t, return_inverse=True, return_counts=True, dim=%s)", dim)
		s.add("r, inv, cnt = %s, inv.numpy(), cnt.numpy()", fromTorch("u", a))
	} else {
		s.add("# NumPy has no unique_consecutive: a run starts where an element (a slice along axis)")
		s.add("# differs from the one before it; NaNs differ from each other, as in torch")
		s.add("axis = %s", dim)
		s.add("if axis is None:")
		s.add("    rows = %s.reshape(-1, 1)", a)
		s.add("else:")
		s.add("    if 0 in %s.shape[:axis] + %s.shape[axis:][1:]:", a, a)
		s.add("        raise ValueError('an empty axis other than the one compared (torch refuses it)')")
		s.add("    rows = np.moveaxis(%s, axis, 0).reshape(%s.shape[axis], -1) if %s.shape[axis] else np.zeros((0, 1), %s.dtype)", a, a, a, a)
		s.add("new = np.concatenate(([True], np.any(rows[1:] != rows[:-1], axis=1))) if len(rows) else np.zeros(0, bool)")
		s.add("starts = np.nonzero(new)[0]")
		s.add("r = %s.reshape(-1)[starts] if axis is None else np.take(%s, starts, axis=axis)", a, a)
		s.add("inv = (np.cumsum(new) - 1).astype(np.int64)")
		s.add("inv = inv.reshape(%s.shape) if axis is None else inv", a)
		s.add("cnt = np.diff(np.append(starts, len(rows))).astype(np.int64)")
	}
	s.save("r")
	for _, f := range []struct{ path, name string }{{j.inverse, "inv"}, {j.counts, "cnt"}} {
		if f.path != "" {
			s.add("np.save(%s, np.asarray(%s, dtype='<i8'))", s.target(f.path), f.name)
		}
	}
	return nil
}
