package cmd

import (
	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

var transposeCommand = newCommand(&cli.Command{
	Name:      "transpose",
	Usage:     "permute the axes (numpy.transpose, torch.permute)",
	ArgsUsage: "IN",
	Description: `Writes numpy.transpose(a, axes) in C order. Without --axes the axes are
reversed. Axes may be negative. The dtype and byte order are kept.
--order keep writes the result in Fortran order when numpy.save(view) would
(the view is F- and not C-contiguous: the transpose of a C array), so the
output is byte-identical to np.save('ref.npy', a.T).

Examples:
   strider transpose testdata/example_f4_2x3x4_c.npy -o t.npy
   strider transpose --axes 0,2,1 x.npy -o y.npy
   strider transpose x.npy --perm -1,0 > y.npy`,
	Flags: withShared(
		orderFlag,
		&cli.StringFlag{Name: "axes", Aliases: []string{"perm", "dims"}, Usage: "new order of the axes, e.g. `1,0,2` (default: reversed)"},
	),
}, parseTranspose)

// transposeJob is transpose's command line.
type transposeJob struct {
	in   string
	axes []int // nil: reversed
}

func parseTranspose(c *cli.Context) (job, error) {
	var j transposeJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if c.IsSet("axes") {
		if j.axes, err = parseInts("axes", c.String("axes")); err != nil {
			return nil, err
		}
	}
	return j, nil
}

func (j transposeJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessAllLater, func(in input) error {
		perm, err := ops.NormalizePerm(j.axes, len(in.view.Shape))
		if err != nil {
			return err
		}
		e.readAhead = in.Array
		return e.writeView(in.Dtype, in.view.Permute(perm))
	})
}

// script writes np.transpose / torch.permute.
func (j transposeJob) script(s *script) error {
	axes := "None"
	if j.axes != nil {
		axes = pyInts(j.axes)
	}
	a := s.load("a", j.in)
	if s.lib == "torch" {
		s.toTorch("t", a)
		if j.axes == nil {
			axes = "tuple(reversed(range(t.dim())))"
		}
		s.add("r = %s", fromTorch("t.permute("+axes+")", a))
	} else {
		s.add("r = np.transpose(%s, axes=%s)", a, axes)
	}
	s.save("r")
	return nil
}
