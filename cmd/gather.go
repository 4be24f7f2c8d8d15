package cmd

import (
	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

var gatherCommand = &cli.Command{
	Name:      "gather",
	Usage:     "take elements along an axis (numpy.take, ONNX Gather, torch.index_select)",
	ArgsUsage: "IN",
	Description: `Writes numpy.take(a, indices, axis, mode): the axis is replaced by the index
array's shape. Without --axis the input is flattened first, as NumPy does.
Indices come from a .npy of any integer dtype (--indices) or a NumPy literal
(--index 3, --index [3,1,-1], --index [[0,1],[2,3]]); a scalar index removes
the axis. Modes: raise (default; negative indices count from the end, any
index outside [-n, n) is an error found before anything is written), wrap
(floor modulo) and clip (to [0, n-1]; negative indices become 0).

Examples:
   strider gather --index [2,0] --axis 1 m.npy -o cols.npy
   strider gather --indices idx.npy --axis 0 --mode wrap m.npy -o rows.npy
   strider gather --index -1 v.npy -o last.npy`,
	Flags: withShared(
		indicesFlag,
		&cli.StringFlag{Name: "index", Usage: "indices as a NumPy `LITERAL`"},
		takeAxisFlag,
		&cli.StringFlag{Name: "mode", Value: "raise", Usage: "out-of-range indices: `raise`, wrap or clip"},
	),
	Action: runGather,
}

// indexSource reads --indices or --index, exactly one of them.
func indexSource(c *cli.Context, literalAllowed bool) (indexArray, error) {
	file, lit := c.IsSet(indicesFlag.Name), literalAllowed && c.IsSet("index")
	switch {
	case file && lit:
		return indexArray{}, usagef("give --indices or --index, not both")
	case file:
		return readIndexFile(c, c.String(indicesFlag.Name))
	case lit:
		return parseIndexLiteral(c.String("index"))
	case literalAllowed:
		return indexArray{}, usagef("missing --indices IDX.npy or --index LITERAL")
	}
	return indexArray{}, usagef("missing --indices IDX.npy")
}

func runGather(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	opt, err := options(c)
	if err != nil {
		return err
	}
	mode, err := ops.ParseMode(c.String("mode"))
	if err != nil {
		return usagef("--%v", err)
	}
	ix, err := indexSource(c, true)
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

	if !c.IsSet(takeAxisFlag.Name) {
		idx, err := ix.resolve(v.Count(), 0, mode)
		if err != nil {
			return err
		}
		r := result{whole: func(dst []byte, o ops.Options) error {
			return opt.eng.TakeFlat(dst, v, idx, o)
		}}
		r.inParts(len(idx), v.Elem, func(dst []byte, lo, hi int, o ops.Options) error {
			return opt.eng.TakeFlat(dst, v, idx[lo:hi], o)
		})
		return writeOutput(c, opt, in.Dtype, ix.shape, false, r)
	}
	a, err := axisValue(c)
	if err != nil {
		return err
	}
	if len(v.Shape) == 0 {
		// numpy.take ravels a 0-d array, so axis 0 (or -1) is its one element.
		v.Shape, v.Strides = []int{1}, []int{1}
	}
	axis, err := ops.NormalizeAxis(a, len(v.Shape))
	if err != nil {
		return err
	}
	idx, err := ix.resolve(v.Shape[axis], axis, mode)
	if err != nil {
		return err
	}
	shape := ops.TakeShape(v.Shape, axis, ix.shape)
	r := result{whole: func(dst []byte, o ops.Options) error {
		return opt.eng.Take(dst, v, axis, idx, o)
	}}
	if axis == 0 {
		// A run of indices at a time: each takes whole rows.
		r.inParts(len(idx), ops.Count(shape[len(ix.shape):])*v.Elem, func(dst []byte, lo, hi int, o ops.Options) error {
			return opt.eng.Take(dst, v, 0, idx[lo:hi], o)
		})
	} else {
		// A run of the input's leading rows at a time, with every index.
		row := ops.Count(shape[1:]) * v.Elem
		r.inParts(v.Shape[0], row, func(dst []byte, lo, hi int, o ops.Options) error {
			sub := v
			sub.Shape = append([]int{hi - lo}, v.Shape[1:]...)
			sub.Offset += lo * v.Strides[0]
			return opt.eng.Take(dst, sub, axis, idx, o)
		})
	}
	return writeOutput(c, opt, in.Dtype, shape, false, r)
}
