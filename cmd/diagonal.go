package cmd

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"strider/ops"
)

var diagonalCommand = newCommand(&cli.Command{
	Name:      "diagonal",
	Usage:     "take diagonals (numpy.diagonal, torch.diagonal)",
	ArgsUsage: "IN",
	Description: `Writes numpy.diagonal(a, offset, axis1, axis2): both axes are removed and the
diagonal is appended as the last axis. Offsets past either end give an empty
axis. The input is memory-mapped, so only the pages on the diagonal are read.
--order keep writes the result in Fortran order when numpy.save would write
the diagonal view so.

Examples:
   strider diagonal m.npy -o d.npy
   strider diagonal --offset -1 --axis1 1 --axis2 2 batch.npy -o d.npy`,
	Flags: withShared(
		orderFlag,
		// Strings read by parseInt: decimal, as everywhere else (an IntFlag would read 010 as 8).
		&cli.StringFlag{Name: "offset", Value: "0", Usage: "diagonal `K`: above the main one when positive, below when negative"},
		&cli.StringFlag{Name: "axis1", Aliases: []string{"dim1"}, Value: "0", Usage: "first axis `A` of the 2-d planes"},
		&cli.StringFlag{Name: "axis2", Aliases: []string{"dim2"}, Value: "1", Usage: "second axis `B` of the 2-d planes"},
	),
}, parseDiagonal)

// diagonalJob is diagonal's command line.
type diagonalJob struct {
	in                   string
	offset, axis1, axis2 int // as given, not yet checked against the input
}

func parseDiagonal(c *cli.Context) (job, error) {
	var j diagonalJob
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	var k [3]int
	for i, name := range []string{"offset", "axis1", "axis2"} {
		if k[i], err = parseInt(name, c.String(name)); err != nil {
			return nil, err
		}
	}
	j.offset, j.axis1, j.axis2 = k[0], k[1], k[2]
	return j, nil
}

func (j diagonalJob) run(e *env) error {
	return e.writeSparse(j.in, func(v ops.View) (ops.View, error) {
		return v.Diagonal(j.offset, j.axis1, j.axis2)
	})
}

// script writes np.diagonal / torch.diagonal.
func (j diagonalJob) script(s *script) error {
	k, a1, a2 := j.offset, j.axis1, j.axis2
	a := s.load("a", j.in)
	off := strconv.Itoa(k)
	if k >= 1<<31-1 || k <= -(1<<31-1) {
		// NumPy's offset is a C int; any offset past a corner gives the same empty diagonal.
		off = fmt.Sprintf("max(-%s.shape[%d], min(%s.shape[%d], %d))", a, a1, a, a2, k)
		s.add("# the offset is clamped to the corners: NumPy takes a 32-bit offset, and any offset past a corner is empty")
	}
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("r = %s", fromTorch(fmt.Sprintf("torch.diagonal(t, offset=%s, dim1=%d, dim2=%d)", off, a1, a2), a))
	} else {
		s.add("r = np.diagonal(%s, offset=%s, axis1=%d, axis2=%d)", a, off, a1, a2)
	}
	s.save("r")
	return nil
}
