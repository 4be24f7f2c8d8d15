package cmd

import (
	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

var transposeCommand = &cli.Command{
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
	Action: runTranspose,
}

func runTranspose(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	var axes []int
	if c.IsSet("axes") {
		if axes, err = parseInts("axes", c.String("axes")); err != nil {
			return err
		}
	}
	in, err := openInput(c, spec, npy.AccessAllLater)
	if err != nil {
		return err
	}
	defer in.Close()
	perm, err := ops.NormalizePerm(axes, len(in.view.Shape))
	if err != nil {
		return err
	}
	opt.readAhead = in.Array
	return writeView(c, in.Dtype, in.view.Permute(perm), opt)
}
