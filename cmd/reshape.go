package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

var reshapeCommand = newCommand(&cli.Command{
	Name:      "reshape",
	Usage:     "give the elements a new shape (numpy.reshape, torch.reshape)",
	ArgsUsage: "IN SHAPE",
	Description: `Writes numpy.reshape(a, SHAPE, order). SHAPE is a comma-separated list such
as 3,4 or (3, 4) or () for a 0-d array; one extent may be -1 and is inferred
from the others. --order is NumPy's index order: C reads and writes the
elements with the last axis fastest, F with the first. The output is a C-order
.npy either way (as np.save(np.ascontiguousarray(r))). The dtype and byte
order are kept.

Examples:
   strider reshape testdata/example_f4_2x3x4_c.npy 6,4 -o r.npy
   strider reshape x.npy '(-1,)' -o flat.npy
   strider reshape --order F m.npy 4,-1 -o r.npy`,
	Flags: withShared(
		&cli.StringFlag{Name: "order", Value: "C", Usage: "index `ORDER`: C (last axis fastest) or F (first axis fastest), as numpy.reshape"},
	),
}, parseReshape)

// reshapeJob is reshape's command line.
type reshapeJob struct {
	in      string
	shape   []int // as given: negative extents unresolved
	fortran bool  // --order F
}

func parseReshape(c *cli.Context) (job, error) {
	var j reshapeJob
	if c.NArg() != 2 {
		return nil, usagef("expected IN SHAPE, got %d arguments: %s (see strider reshape --help)", c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
	switch o := c.String("order"); o {
	case "C", "c":
	case "F", "f":
		j.fortran = true
	default:
		return nil, usagef("--order %q is not C or F", o)
	}
	var err error
	if j.shape, err = parseIntList("shape", c.Args().Get(1)); err != nil {
		return nil, err
	}
	if len(j.shape) > npy.MaxDims {
		return nil, usagef("shape %s has %d dimensions, more than %d", ops.ShapeString(j.shape), len(j.shape), npy.MaxDims)
	}
	j.in = c.Args().Get(0)
	return j, nil
}

func (j reshapeJob) run(e *env) error {
	return e.withInput(j.in, npy.AccessAllLater, func(in input) error {
		e.readAhead = in.Array
		shape, err := ops.ResolveShape(j.shape, in.view.Count())
		if err != nil {
			return err
		}
		if !j.fortran {
			// In C index order the result's C-order elements are the input's,
			// whether NumPy returns a view or a copy.
			return e.writeCopy(in.Dtype, shape, false, in.view)
		}
		// reshape(a, s, F) is reshape(a.T, reversed s, C).T.
		rev := slices.Clone(shape)
		slices.Reverse(rev)
		r, ok := in.view.Reversed().Reshape(rev)
		if !ok && !e.keepOrder {
			// NumPy copies a into Fortran order and reshapes that; strider
			// writes the result from a view of the input when the axes nest.
			if f, ok := in.view.FortranReshape(shape); ok {
				return e.writeCopy(in.Dtype, shape, false, f)
			}
		}
		if !ok {
			// NumPy copies a into Fortran order first; so does strider.
			in.Prefetch()
			buf := make([]byte, in.view.Count()*in.view.Elem)
			if err := e.eng.Copy(buf, in.view.Reversed(), e.Options); err != nil {
				return err
			}
			r = ops.Contiguous(in.view.Elem, rev, buf)
		}
		return e.writeView(in.Dtype, r.Reversed())
	})
}

// script writes reshape's --as-numpy / --as-torch script. torch.reshape
// has no index order and infers only -1: an F-order reshape reverses the
// axes around a C-order one, and any negative extent is written as -1.
func (j reshapeJob) script(s *script) error {
	shape, fortran := j.shape, j.fortran
	a := s.load("a", j.in)
	if s.lib != "torch" {
		order := map[bool]string{false: "C", true: "F"}[fortran]
		s.add("r = np.reshape(%s, %s, order=%s)", a, pyInts(shape), pyStr(order))
		s.save("r")
		return nil
	}
	s.toTorch("t", a)
	tshape := slices.Clone(shape)
	for k, n := range tshape {
		tshape[k] = max(n, -1)
	}
	if !fortran {
		s.add("r = %s", fromTorch(fmt.Sprintf("torch.reshape(t, %s)", pyInts(tshape)), a))
	} else {
		slices.Reverse(tshape)
		s.add("r = %s", fromTorch(fmt.Sprintf("t.permute(tuple(reversed(range(t.dim())))).reshape(%s).permute(tuple(reversed(range(%d))))", pyInts(tshape), len(tshape)), a))
	}
	s.save("r")
	return nil
}
