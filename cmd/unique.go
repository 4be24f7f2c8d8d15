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

var uniqueConsecutiveCommand = &cli.Command{
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
	Action: runUniqueConsecutive,
}

// uniqueArgs reads IN and --axis as given (hasAxis false: flatten).
func uniqueArgs(c *cli.Context) (spec string, axis int, hasAxis bool, err error) {
	if spec, err = oneInput(c, "input IN"); err != nil {
		return "", 0, false, err
	}
	if c.IsSet("axis") {
		if axis, err = axisValue(c); err != nil {
			return "", 0, false, err
		}
	}
	for _, name := range []string{"inverse", "counts"} {
		if c.IsSet(name) && c.String(name) == "" {
			return "", 0, false, usagef("--%s needs a path (or - for standard output)", name)
		}
	}
	return spec, axis, c.IsSet("axis"), nil
}

func runUniqueConsecutive(c *cli.Context) error {
	spec, a, hasAxis, err := uniqueArgs(c)
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	paths, err := uniquePaths(c)
	if err != nil {
		return err
	}
	in, err := openInput(c, spec, npy.AccessAllLater)
	if err != nil {
		return err
	}
	defer in.Close()
	v, axis, read := in.view, -1, in.view // read: the order the rows are read in
	if hasAxis {
		if axis, err = ops.NormalizeAxis(a, len(v.Shape)); err != nil {
			return err
		}
		read = v.AxisFirst(axis)
	}
	readAhead(in.Array, read)
	starts, err := opt.eng.UniqueConsecutive(v, in.Dtype, axis, opt.Options)
	if err != nil {
		return err
	}
	n, shape, invShape := v.Count(), []int{len(starts)}, v.Shape
	if axis >= 0 {
		n, shape, invShape = v.Shape[axis], slices.Clone(v.Shape), []int{v.Shape[axis]}
		shape[axis] = len(starts)
	}
	outs := make([]*output.Output, 0, 3)
	defer func() {
		for _, o := range outs {
			o.Abort()
		}
	}()
	create := func(path string, d dtype.Dtype, shape []int) ([]byte, error) {
		o, err := output.Create(path, c.App.Writer, d, shape)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
		return o.Data, nil
	}
	vals, err := create(paths[0], in.Dtype, shape)
	if err != nil {
		return err
	}
	if axis < 0 {
		err = opt.eng.TakeFlat(vals, v, starts, opt.Options)
	} else {
		err = opt.eng.Take(vals, v, axis, starts, opt.Options)
	}
	if err != nil {
		return err
	}
	if paths[1] != "" {
		inv, err := create(paths[1], dtype.Int64, invShape)
		if err != nil {
			return err
		}
		ops.RunIndex(inv, starts)
	}
	if paths[2] != "" {
		counts, err := create(paths[2], dtype.Int64, []int{len(starts)})
		if err != nil {
			return err
		}
		ops.RunLengths(counts, starts, n)
	}
	return output.CommitAll(outs...)
}

// uniquePaths is the output, --inverse and --counts ("" when not given):
// at most one of them standard output, no two the same file.
func uniquePaths(c *cli.Context) ([3]string, error) {
	var p [3]string
	var err error
	if p[0], err = outputPath(c); err != nil {
		return p, err
	}
	p[1], p[2] = c.String("inverse"), c.String("counts")
	names := [3]string{"the output", "--inverse " + p[1], "--counts " + p[2]}
	for i := range p {
		for j := i + 1; j < len(p); j++ {
			switch {
			case p[i] == "" || p[j] == "":
			case p[i] == "-" && p[j] == "-":
				return p, usagef("%s and %s cannot both go to standard output; use -o FILE", names[i], names[j])
			case p[i] != "-" && p[j] != "-" && samePath(output.OutputFile(p[i]), output.OutputFile(p[j])):
				return p, usagef("%s is also %s", names[j], names[i])
			}
		}
	}
	return p, nil
}

// uniqueConsecutive writes the command's script: torch's own function for
// --as-torch; for --as-numpy the same definition in NumPy (NumPy has no
// unique_consecutive): a run starts where a row differs from the one before
// by !=, so NaNs never match.
func (s *script) uniqueConsecutive(c *cli.Context) error {
	spec, axis, hasAxis, err := uniqueArgs(c)
	if err != nil {
		return err
	}
	a := s.load("a", spec)
	dim := "None"
	if hasAxis {
		dim = strconv.Itoa(axis)
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
	s.save(c, "r")
	for _, f := range []struct{ flag, name string }{{"inverse", "inv"}, {"counts", "cnt"}} {
		if c.IsSet(f.flag) {
			s.add("np.save(%s, np.asarray(%s, dtype='<i8'))", s.target(c.String(f.flag)), f.name)
		}
	}
	return nil
}
