package cmd

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/ops"
)

var concatCommand = newCommand(&cli.Command{
	Name:      "concat",
	Usage:     "join arrays along an axis (numpy.concatenate, torch.cat)",
	ArgsUsage: "IN IN...",
	Description: `Writes numpy.concatenate([a, b, ...], axis): the inputs joined along an
existing axis (default 0); every other extent must match. --axis none
flattens each input in C order first, as NumPy's axis=None. The result's dtype
is numpy.result_type of the inputs, in native byte order, as NumPy gives it;
inputs of another dtype are converted as astype does. Inputs may be files,
archive members and one - (standard input), in any mix.

Examples:
   strider concat part1.npy part2.npy part3.npy -o all.npy
   strider concat --axis 1 left.npy right.npy -o wide.npy
   strider concat --axis none a.npy b.npz:x - -o flat.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "axis", Aliases: []string{"dim"}, Value: "0", Usage: "axis `A` to join along, or none to flatten"},
	),
}, func(c *cli.Context) (job, error) { return parseJoin(c, false) })

var stackCommand = newCommand(&cli.Command{
	Name:      "stack",
	Usage:     "join arrays along a new axis (numpy.stack, torch.stack)",
	ArgsUsage: "IN IN...",
	Description: `Writes numpy.stack([a, b, ...], axis): the inputs, all of one shape, become
the entries of a new axis (default 0, the first; -1 is the last). The result's
dtype is numpy.result_type of the inputs, in native byte order. Inputs may be
files, archive members and one -, in any mix.

Examples:
   strider stack frame0.npy frame1.npy frame2.npy -o video.npy
   strider stack --axis -1 x.npy y.npy -o xy.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "axis", Aliases: []string{"dim"}, Value: "0", Usage: "position `A` of the new axis"},
	),
}, func(c *cli.Context) (job, error) { return parseJoin(c, true) })

// joinJob is concat's or stack's command line.
type joinJob struct {
	ins   []string
	axis  int  // as given, not yet checked against the inputs
	flat  bool // concat's --axis none
	stack bool
}

// parseJoin reads the inputs and --axis.
func parseJoin(c *cli.Context, stack bool) (job, error) {
	j := joinJob{ins: c.Args().Slice(), stack: stack}
	if len(j.ins) == 0 {
		return nil, usagef("missing the inputs IN IN... (see strider %s --help)", c.Command.Name)
	}
	stdin := 0
	for _, s := range j.ins {
		if s == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return nil, usagef("standard input (-) is given %d times; it can be read once", stdin)
	}
	a := strings.TrimSpace(c.String("axis"))
	if !stack && strings.EqualFold(a, "none") {
		j.flat = true
		return j, nil
	}
	var err error
	if j.axis, err = parseInt("axis", a); err != nil {
		if !stack {
			err = usagef("--axis %q is not an integer or none", c.String("axis"))
		}
		return nil, err
	}
	return j, nil
}

func (j joinJob) run(e *env) error {
	ins := make([]input, 0, len(j.ins))
	defer func() {
		for _, in := range ins {
			in.Close()
		}
	}()
	shapes := make([][]int, len(j.ins))
	dtypes := make([]dtype.Dtype, len(j.ins))
	for i, spec := range j.ins {
		in, err := e.openInput(spec, npy.AccessAllLater)
		if err != nil {
			return err
		}
		ins = append(ins, in)
		shapes[i], dtypes[i] = in.view.Shape, in.Dtype
		if j.flat {
			shapes[i] = []int{in.view.Count()}
		}
	}
	var shape []int
	var axis int
	var err error
	if j.stack {
		shape, axis, err = ops.StackShape(shapes, j.axis)
	} else {
		shape, axis, err = ops.ConcatShape(shapes, j.axis)
	}
	if err != nil {
		return err
	}
	join := &ops.Join{Inputs: make([]ops.JoinInput, len(ins)), Shape: shape, Axis: axis, Stack: j.stack, Flat: j.flat,
		Dtype: joinType(ins, dtypes)}
	for i, in := range ins {
		join.Inputs[i] = ops.JoinInput{View: in.view, Dtype: in.Dtype, Name: displayName(j.ins[i])}
	}
	if _, onCPU := e.eng.(cpu); !onCPU {
		join.Engine = e.eng
	}
	r := result{
		whole:  join.Fill,
		pieces: func(buf []byte, o ops.Options, emit emitter) error { return join.Pieces(buf, o, emit) },
		part:   join.Part(),
		// The inputs read out of order are read in first (see readAhead).
		readIn: func() {
			for _, in := range ins {
				readAhead(in.Array, in.view)
			}
		},
	}
	return e.writeOutput(join.Dtype, shape, false, r)
}

// joinType is the dtype numpy.concatenate gives the inputs of dtypes ds:
// numpy.result_type of the arrays, a 0-d input (only --axis none joins
// them with others) by its value, as NumPy 1.24 counts it.
func joinType(ins []input, ds []dtype.Dtype) dtype.Dtype {
	operands := make([]dtype.Operand, len(ins))
	for i, in := range ins {
		operands[i].Dtype = ds[i]
		if len(in.view.Shape) == 0 {
			operands[i].Scalar = in.view.ElemAt(nil)
		}
	}
	return dtype.ResultType(operands...)
}

// script writes np.concatenate or np.stack (torch.cat or torch.stack).
func (j joinJob) script(s *script) error {
	stack, flat := j.stack, j.flat
	names := make([]string, len(j.ins))
	for i, spec := range j.ins {
		names[i] = s.load("a"+strconv.Itoa(i), spec)
	}
	list := "[" + strings.Join(names, ", ") + "]"
	ax := strconv.Itoa(j.axis)
	if flat {
		ax = "None"
	}
	fn := map[bool]string{false: "concatenate", true: "stack"}[stack]
	if s.lib != "torch" {
		s.add("r = np.%s(%s, axis=%s)", fn, list, ax)
		s.save("r")
		return nil
	}
	s.importModule("torch")
	s.add("dt = np.result_type(*%s)  # NumPy's promotion, which strider follows (torch's differs)", list)
	s.add("ts = [torch.from_numpy(x.astype(dt.newbyteorder('='))) for x in %s]", list)
	if flat {
		s.add("r = torch.cat([t.reshape(-1) for t in ts]).numpy()")
	} else {
		s.add("r = torch.%s(ts, dim=%s).numpy()", map[bool]string{false: "cat", true: "stack"}[stack], ax)
	}
	s.save("r")
	return nil
}
