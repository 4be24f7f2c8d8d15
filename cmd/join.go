package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/internal/dtype"
	"strider/npy"
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
	j := &join{ins: ins, specs: specs, shapes: shapes, shape: shape, axis: axis, stack: stack, flat: flat,
		dt: joinType(ins, dtypes), opt: opt}
	r := result{whole: func(dst []byte, o ops.Options) error { return j.rows(dst, 0, shape[0], o) }, readIn: j.readIn}
	if axis == 0 {
		r.pieces = j.inputs
	} else {
		r.inParts(shape[0], ops.Count(shape[1:])*j.dt.Size, j.rows)
	}
	return writeOutput(c, opt, j.dt, shape, false, r)
}

// join is a concatenation or stacking of inputs into an output of shape
// and dtype dt along axis (the output's; 0 with flat, concat's --axis none).
type join struct {
	ins         []input
	specs       []string
	shapes      [][]int // the inputs' shapes (flattened with flat)
	shape       []int
	axis        int
	stack, flat bool
	dt          dtype.Dtype
	opt         settings
}

// rows writes rows lo..hi-1 of the output (along its first axis) into
// dst, which holds just those rows: each input's share of them.
func (j *join) rows(dst []byte, lo, hi int, o ops.Options) error {
	j.opt.Options = o
	out := ops.Contiguous(j.dt.Size, append([]int{hi - lo}, j.shape[1:]...), dst)
	if j.stack && j.axis > 0 {
		return j.stackRows(out, lo, hi)
	}
	at := 0 // where input i starts along the joined axis
	for i, in := range j.ins {
		part, src, n := ops.View{}, in.view, 1
		if !j.stack || j.flat {
			n = j.shapes[i][j.axis]
		}
		if j.flat || j.axis > 0 {
			part = out.Slab(j.axis, at, n)
		}
		if j.axis > 0 {
			src = src.Slab(0, lo, hi-lo)
		} else if !j.flat {
			// The joined axis is the first: input i is output rows
			// at..at+n-1, of which lo..hi-1 take a part.
			a, b := max(at, lo), min(at+n, hi)
			if a >= b {
				at += n
				continue
			}
			if j.stack {
				part = out.Select(0, a-lo)
			} else {
				part, src = out.Slab(0, a-lo, b-a), src.Slab(0, a-at, b-a)
			}
		}
		at += n
		if err := joinPart(part, src, in.Dtype, j.dt, j.flat, j.opt); err != nil {
			return fmt.Errorf("%s: %w", displayName(j.specs[i]), err)
		}
	}
	return nil
}

// readIn reads in the inputs read out of order (see readAhead).
func (j *join) readIn() {
	for _, in := range j.ins {
		readAhead(in.Array, in.view)
	}
}

// inputs is the piecer of a join along the first axis (or flat), whose
// output is each input's elements in C order, one input after the other.
func (j *join) inputs(buf []byte, o ops.Options, emit emitter) error {
	j.opt.Options = o
	for i, in := range j.ins {
		for p := range in.view.Pieces(max(len(buf)/j.dt.Size, 1) * in.view.Elem) {
			b := buf[:p.Count()*j.dt.Size]
			if len(b) == 0 {
				continue
			}
			if err := joinPart(ops.Contiguous(j.dt.Size, p.Shape, b), p, in.Dtype, j.dt, true, j.opt); err != nil {
				return fmt.Errorf("%s: %w", displayName(j.specs[i]), err)
			}
			var err error
			if buf, err = emit(b); err != nil {
				return err
			}
		}
	}
	return nil
}

// joinPart writes src, an input of dtype from, into part, a view of the
// output of dtype dt: copied when from is dt, cast otherwise, by the
// engine, straight into part when it is contiguous. A strided part is
// written by ops.CopyTo, from the input itself on the CPU, else from the
// engine's contiguous result. With flat, part is 1-d and src is read in C
// order.
func joinPart(part, src ops.View, from, dt dtype.Dtype, flat bool, opt settings) error {
	if src.Count() == 0 {
		return nil // an empty part may start past the output's end
	}
	contiguous, _ := part.Contiguity()
	if flat || contiguous {
		return convertInto(part.Data[part.Offset*dt.Size:][:part.Count()*dt.Size], src, from, dt, opt.eng, opt.Options)
	}
	src, err := onHost(src, from, dt, opt)
	if err != nil {
		return err
	}
	return ops.CopyTo(part, src, opt.Options)
}

// stackRows writes rows lo..hi-1 of a stack along an axis past the first
// into out, which holds just those rows: every input's rows, read together
// by ops.StackTo.
func (j *join) stackRows(out ops.View, lo, hi int) error {
	srcs := make([]ops.View, len(j.ins))
	for i, in := range j.ins {
		var err error
		if srcs[i], err = onHost(in.view.Slab(0, lo, hi-lo), in.Dtype, j.dt, j.opt); err != nil {
			return fmt.Errorf("%s: %w", displayName(j.specs[i]), err)
		}
	}
	return ops.StackTo(out, srcs, j.axis, j.opt.Options)
}

// onHost is src, an input of dtype from, as the CPU can copy it into a
// strided part of an output of dtype dt: src itself on the CPU when from
// is dt, else the engine's contiguous copy or cast of it.
func onHost(src ops.View, from, dt dtype.Dtype, opt settings) (ops.View, error) {
	if _, onCPU := opt.eng.(cpu); onCPU && from == dt {
		return src, nil
	}
	buf := make([]byte, src.Count()*dt.Size)
	if len(buf) == 0 {
		return ops.Contiguous(dt.Size, src.Shape, buf), nil
	}
	o := opt.Options
	o.Done = nil // the progress counts the copy into the output
	err := convertInto(buf, src, from, dt, opt.eng, o)
	return ops.Contiguous(dt.Size, src.Shape, buf), err
}

// convertInto writes src, of dtype from, into b in C order as dtype dt
// with eng: a copy when from is dt, a cast otherwise.
func convertInto(b []byte, src ops.View, from, dt dtype.Dtype, eng engine, o ops.Options) error {
	if from == dt {
		return eng.Copy(b, src, o)
	}
	return eng.Cast(b, dt, src, from, o)
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
