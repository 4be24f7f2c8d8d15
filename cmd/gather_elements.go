package cmd

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/ops"
)

var gatherElementsCommand = &cli.Command{
	Name:      "gather-elements",
	Usage:     "pick one element per index along an axis (numpy.take_along_axis, torch.gather)",
	ArgsUsage: "IN",
	Description: `Writes numpy.take_along_axis(a, indices, axis) = torch.gather(a, axis, indices)
(ONNX GatherElements). The indices have the input's number of dimensions and
give the output's shape; off the axis their extents must not exceed the
input's (torch.gather's rule). Negative indices count from the end.

Examples:
   strider gather-elements --indices order.npy scores.npy -o picked.npy
   strider gather-elements --indices idx.npy --axis 0 m.npy -o g.npy`,
	Flags: withShared(
		indicesFlag,
		axisFlag,
	),
	Action: runGatherElements,
}

func runGatherElements(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	a, err := axisValue(c)
	if err != nil {
		return err
	}
	ix, err := indexSource(c, false)
	if err != nil {
		return err
	}
	defer ix.close()
	in, err := openInput(c, spec, npy.AccessSparse)
	if err != nil {
		return err
	}
	defer in.Close()
	v := in.view
	if len(ix.shape) != len(v.Shape) {
		return fmt.Errorf("indices and array must have the same number of dimensions: indices %s, array %s", pylit.ShapeString(ix.shape), pylit.ShapeString(v.Shape))
	}
	axis, err := ops.NormalizeAxis(a, len(v.Shape))
	if err != nil {
		return err
	}
	for k, e := range ix.shape {
		if k != axis && e > v.Shape[k] {
			return fmt.Errorf("index shape %s exceeds the array's %s on axis %d (%d > %d)", pylit.ShapeString(ix.shape), pylit.ShapeString(v.Shape), k, e, v.Shape[k])
		}
	}
	idx, err := ix.resolve(v.Shape[axis], axis, ops.Raise)
	if err != nil {
		return err
	}
	return writeResult(c, opt, in.Dtype, ix.shape, func(dst []byte, o ops.Options) error {
		return opt.eng.TakeAlongAxis(dst, v, axis, ix.shape, idx, o)
	})
}
