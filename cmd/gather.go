package cmd

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"strider/internal/pylit"
	"strider/npy"
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

// indexScript adds the lines that make idx, the indices of gather or
// gather-elements: a file, or a --index literal.
func (s *script) indices(c *cli.Context, literalAllowed bool) error {
	switch file, lit := c.IsSet(indicesFlag.Name), literalAllowed && c.IsSet("index"); {
	case file && lit:
		return usagef("give --indices or --index, not both")
	case file:
		s.load("idx", c.String(indicesFlag.Name))
		s.add("if idx.dtype.kind not in 'iu':  # strider takes integer indices only (NumPy would take bools as 0 and 1)")
		s.add("    raise TypeError(f'indices of dtype {idx.dtype} are not integers')")
	case lit:
		ix, err := pylit.ParseIndexArray(c.String("index"))
		if err != nil {
			return usagef("--index: %v", err)
		}
		s.importModule("numpy as np")
		s.add("idx = np.array(%s, dtype=np.int64).reshape(%s)", pyNested(ix.Shape, ix.Ints), pyInts(ix.Shape))
	case literalAllowed:
		return usagef("missing --indices IDX.npy or --index LITERAL")
	default:
		return usagef("missing --indices IDX.npy")
	}
	return nil
}

func (s *script) gather(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	mode, err := ops.ParseMode(c.String("mode"))
	if err != nil {
		return usagef("--%v", err)
	}
	modeName := c.String("mode")
	axis, hasAxis := "None", c.IsSet(takeAxisFlag.Name)
	if hasAxis {
		a, err := axisValue(c)
		if err != nil {
			return err
		}
		axis = strconv.Itoa(a)
	}
	if s.lib == "torch" && mode != ops.Raise {
		return usagef("--as-torch: PyTorch has no take with mode=%s; use --as-numpy", modeName)
	}
	a := s.load("a", spec)
	if err := s.indices(c, true); err != nil {
		return err
	}
	n := a + ".size"
	if hasAxis {
		n = fmt.Sprintf("%s.reshape(-1).shape[0] if %s.ndim == 0 else %s.shape[%s]", a, a, a, axis)
	}
	s.add("n = %s", n)
	s.add("if idx.dtype.kind == 'u' and idx.dtype.itemsize == 8:  # NumPy will not cast uint64 indices; strider uses their exact values")
	if mode == ops.Wrap {
		s.add("    idx = (idx %% np.uint64(max(n, 1))).astype(np.int64)")
	} else {
		s.add("    idx = np.minimum(idx, np.uint64(2**63 - 1)).astype(np.int64)")
	}
	switch mode {
	case ops.Raise:
		s.add("if ((idx < -n) | (idx >= n)).any():  # strider checks the indices even when the result is empty")
		s.add("    raise IndexError('index out of range')")
	case ops.Wrap:
		s.add("idx = idx %% max(n, 1)  # the same indices; NumPy's wrap subtracts n one step at a time")
	}
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("i = torch.from_numpy(np.where(idx < 0, idx + n, idx).astype(np.int64))  # index_select takes no negative indices")
		if !hasAxis {
			s.add("r = %s", fromTorch("torch.take(t, i)", a))
		} else {
			s.add("ax = %s %% max(t.dim(), 1)", axis)
			s.add("t = t.reshape(1) if t.dim() == 0 else t  # np.take ravels a 0-d array")
			s.add("r = %s", fromTorch("torch.index_select(t, ax, i.reshape(-1)).reshape(t.shape[:ax] + i.shape + t.shape[ax + 1:])", a))
		}
	} else {
		s.add("r = np.asarray(np.take(%s, idx, axis=%s, mode=%s), dtype=%s.dtype)  # a scalar result stays a 0-d array of the input's dtype", a, axis, pyStr(modeName), a)
	}
	s.save("r")
	return nil
}
