package cmd

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/ops"
)

var gatherElementsCommand = newCommand(&cli.Command{
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
}, parseGatherElements)

// gatherElementsJob is gather-elements' command line.
type gatherElementsJob struct {
	in   string
	idx  indexSource
	axis int // as given, not yet checked against the input
}

func parseGatherElements(c *cli.Context) (job, error) {
	var j gatherElementsJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if j.axis, err = axisValue(c); err != nil {
		return nil, err
	}
	if j.idx, err = parseIndexSource(c, false); err != nil {
		return nil, err
	}
	return j, nil
}

func (j gatherElementsJob) run(e *env) error {
	in, err := j.idx.openTake(e, j.in, npy.AccessSparse)
	if err != nil {
		return err
	}
	defer in.Close()
	v, ix := in.view, in.ix
	if len(ix.shape) != len(v.Shape) {
		return fmt.Errorf("indices and array must have the same number of dimensions: indices %s, array %s", pylit.ShapeString(ix.shape), pylit.ShapeString(v.Shape))
	}
	axis, err := ops.NormalizeAxis(j.axis, len(v.Shape))
	if err != nil {
		return err
	}
	for k, n := range ix.shape {
		if k != axis && n > v.Shape[k] {
			return fmt.Errorf("index shape %s exceeds the array's %s on axis %d (%d > %d)", pylit.ShapeString(ix.shape), pylit.ShapeString(v.Shape), k, n, v.Shape[k])
		}
	}
	idx, err := ix.resolve(v.Shape[axis], axis, ops.Raise)
	if err != nil {
		return err
	}
	return e.writeResult(in.Dtype, ix.shape, func(dst []byte, o ops.Options) error {
		return e.eng.TakeAlongAxis(dst, v, axis, ix.shape, idx, o)
	})
}

// script writes np.take_along_axis / torch.gather.
func (j gatherElementsJob) script(s *script) error {
	axis := j.axis
	a := s.load("a", j.in)
	j.idx.script(s)
	s.add("if not -%s.ndim <= %d < %s.ndim:", a, axis, a)
	s.add("    raise np.AxisError(%d, %s.ndim)", axis, a)
	s.add("ax = %d %% %s.ndim", axis, a)
	s.add("if idx.ndim != %s.ndim or any(k > m for d, (k, m) in enumerate(zip(idx.shape, %s.shape)) if d != ax):", a, a)
	s.add("    raise IndexError(f'index shape {idx.shape} does not fit input shape {%s.shape}')  # torch.gather's rule", a)
	s.add("n = %s.shape[ax]", a)
	s.add("if ((idx < -n) | (idx >= n)).any():  # strider checks the indices even when the result is empty")
	s.add("    raise IndexError('index out of range')")
	s.add("# torch.gather's shape rule: off the axis the indices may be shorter than the input")
	s.add("a = a[tuple(slice(None) if d == ax else slice(0, k) for d, k in enumerate(idx.shape))]")
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("i = torch.from_numpy(np.where(idx < 0, idx + n, idx).astype(np.int64))  # torch.gather takes no negative indices")
		s.add("r = %s", fromTorch("torch.gather(t, ax, i)", a))
	} else {
		s.add("r = np.take_along_axis(a, idx, axis=ax)")
	}
	s.save("r")
	return nil
}
