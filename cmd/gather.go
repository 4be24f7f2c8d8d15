package cmd

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

var gatherCommand = newCommand(&cli.Command{
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
}, parseGather)

// gatherJob is gather's command line.
type gatherJob struct {
	in      string
	idx     indexSource
	mode    ops.Mode
	axis    int  // as given, not yet checked against the input
	hasAxis bool // --axis given; without it the input is flattened
}

func parseGather(c *cli.Context) (job, error) {
	var j gatherJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	if j.mode, err = ops.ParseMode(c.String("mode")); err != nil {
		return nil, usagef("--%v", err)
	}
	if j.idx, err = parseIndexSource(c, true); err != nil {
		return nil, err
	}
	if j.hasAxis = c.IsSet(takeAxisFlag.Name); j.hasAxis {
		if j.axis, err = axisValue(c); err != nil {
			return nil, err
		}
	}
	return j, nil
}

func (j gatherJob) run(e *env) error {
	in, err := j.idx.openTake(e, j.in, npy.AccessFetch)
	if err != nil {
		return err
	}
	defer in.Close()
	if !j.hasAxis {
		return j.takeFlat(e, in)
	}
	return j.takeAxis(e, in)
}

// takeFlat writes numpy.take without an axis: the input flattened, a run
// of indices at a time.
func (j gatherJob) takeFlat(e *env, in takeInput) error {
	v := in.view
	idx, err := in.ix.resolve(v.Count(), 0, j.mode)
	if err != nil {
		return err
	}
	if err := in.fetchTake(j.in, v, -1, idx); err != nil {
		return err
	}
	r := result{whole: func(dst []byte, o ops.Options) error {
		return e.eng.TakeFlat(dst, v, idx, o)
	}}
	r.inParts(len(idx), v.Elem, func(dst []byte, lo, hi int, o ops.Options) error {
		return e.eng.TakeFlat(dst, v, idx[lo:hi], o)
	})
	return e.writeOutput(in.Dtype, in.ix.shape, false, r)
}

// takeAxis writes numpy.take along --axis, which the index array's shape
// replaces.
func (j gatherJob) takeAxis(e *env, in takeInput) error {
	v := in.view
	if len(v.Shape) == 0 {
		// numpy.take ravels a 0-d array, so axis 0 (or -1) is its one element.
		v.Shape, v.Strides = []int{1}, []int{1}
	}
	axis, err := ops.NormalizeAxis(j.axis, len(v.Shape))
	if err != nil {
		return err
	}
	idx, err := in.ix.resolve(v.Shape[axis], axis, j.mode)
	if err != nil {
		return err
	}
	if err := in.fetchTake(j.in, v, axis, idx); err != nil {
		return err
	}
	shape := ops.TakeShape(v.Shape, axis, in.ix.shape)
	r := result{whole: func(dst []byte, o ops.Options) error {
		return e.eng.Take(dst, v, axis, idx, o)
	}}
	if axis == 0 {
		// A run of indices at a time: each takes whole rows.
		r.inParts(len(idx), ops.Count(shape[len(in.ix.shape):])*v.Elem, func(dst []byte, lo, hi int, o ops.Options) error {
			return e.eng.Take(dst, v, 0, idx[lo:hi], o)
		})
	} else {
		// A run of the input's leading rows at a time, with every index.
		row := ops.Count(shape[1:]) * v.Elem
		r.inParts(v.Shape[0], row, func(dst []byte, lo, hi int, o ops.Options) error {
			sub := v
			sub.Shape = append([]int{hi - lo}, v.Shape[1:]...)
			sub.Offset += lo * v.Strides[0]
			return e.eng.Take(dst, sub, axis, idx, o)
		})
	}
	return e.writeOutput(in.Dtype, shape, false, r)
}

// script writes np.take / torch.take, torch.index_select.
func (j gatherJob) script(s *script) error {
	mode := j.mode
	modeName := map[ops.Mode]string{ops.Raise: "raise", ops.Wrap: "wrap", ops.Clip: "clip"}[mode]
	axis := "None"
	if j.hasAxis {
		axis = strconv.Itoa(j.axis)
	}
	if s.lib == "torch" && mode != ops.Raise {
		return usagef("--as-torch: PyTorch has no take with mode=%s; use --as-numpy", modeName)
	}
	a := s.load("a", j.in)
	j.idx.script(s)
	n := a + ".size"
	if j.hasAxis {
		// np.take ravels a 0-d array: its axis must be one of a 1-d array's.
		n = fmt.Sprintf("%s.reshape(-1).shape[%s] if %s.ndim == 0 else %s.shape[%s]", a, axis, a, a, axis)
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
		if !j.hasAxis {
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
