package cmd

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/ops"
)

var concatCommand = &cli.Command{
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
	Action: func(c *cli.Context) error { return runJoin(c, false) },
}

var stackCommand = &cli.Command{
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
	Action: func(c *cli.Context) error { return runJoin(c, true) },
}

// joinArgs reads the inputs and --axis (flat: concat's --axis none).
func joinArgs(c *cli.Context, stack bool) (specs []string, axis int, flat bool, err error) {
	specs = c.Args().Slice()
	if len(specs) == 0 {
		return nil, 0, false, usagef("missing the inputs IN IN... (see strider %s --help)", c.Command.Name)
	}
	stdin := 0
	for _, s := range specs {
		if s == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return nil, 0, false, usagef("standard input (-) is given %d times; it can be read once", stdin)
	}
	a := strings.TrimSpace(c.String("axis"))
	if !stack && strings.EqualFold(a, "none") {
		return specs, 0, true, nil
	}
	axis, err = parseInt("axis", a)
	if err != nil && !stack {
		err = usagef("--axis %q is not an integer or none", c.String("axis"))
	}
	return specs, axis, false, err
}

func runJoin(c *cli.Context, stack bool) error {
	specs, axis, flat, err := joinArgs(c, stack)
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	ins := make([]input, 0, len(specs))
	defer func() {
		for _, in := range ins {
			in.Close()
		}
	}()
	shapes := make([][]int, len(specs))
	dtypes := make([]dtype.Dtype, len(specs))
	for i, spec := range specs {
		in, err := openInput(c, spec, npy.AccessAllLater)
		if err != nil {
			return err
		}
		ins = append(ins, in)
		shapes[i], dtypes[i] = in.view.Shape, in.Dtype
		if flat {
			shapes[i] = []int{in.view.Count()}
		}
	}
	var shape []int
	if stack {
		shape, axis, err = ops.StackShape(shapes, axis)
	} else {
		shape, axis, err = ops.ConcatShape(shapes, axis)
	}
	if err != nil {
		return err
	}
	j := &ops.Join{Inputs: make([]ops.JoinInput, len(ins)), Shape: shape, Axis: axis, Stack: stack, Flat: flat,
		Dtype: joinType(ins, dtypes)}
	for i, in := range ins {
		j.Inputs[i] = ops.JoinInput{View: in.view, Dtype: in.Dtype, Name: displayName(specs[i])}
	}
	if _, onCPU := opt.eng.(cpu); !onCPU {
		j.Engine = opt.eng
	}
	r := result{
		whole:  j.Fill,
		pieces: func(buf []byte, o ops.Options, emit emitter) error { return j.Pieces(buf, o, emit) },
		part:   j.Part(),
		// The inputs read out of order are read in first (see readAhead).
		readIn: func() {
			for _, in := range ins {
				readAhead(in.Array, in.view)
			}
		},
	}
	return writeOutput(c, opt, j.Dtype, shape, false, r)
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

// join writes concat's and stack's scripts.
func (s *script) join(c *cli.Context, stack bool) error {
	specs, axis, flat, err := joinArgs(c, stack)
	if err != nil {
		return err
	}
	names := make([]string, len(specs))
	for i, spec := range specs {
		names[i] = s.load("a"+strconv.Itoa(i), spec)
	}
	list := "[" + strings.Join(names, ", ") + "]"
	ax := strconv.Itoa(axis)
	if flat {
		ax = "None"
	}
	fn := map[bool]string{false: "concatenate", true: "stack"}[stack]
	if s.lib != "torch" {
		s.add("r = np.%s(%s, axis=%s)", fn, list, ax)
		s.save(c, "r")
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
	s.save(c, "r")
	return nil
}
