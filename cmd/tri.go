package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/internal/dtype"
	"strider/ops"
)

var (
	trilIndicesCommand = triIndicesCommand(false)
	triuIndicesCommand = triIndicesCommand(true)
)

// triIndicesCommand is tril-indices or, when upper, triu-indices: one
// command but for the side of the diagonal it keeps. --offset is read as
// a decimal string (not an IntFlag, which would take 010 as octal), the
// same way as ROWS and COLS.
func triIndicesCommand(upper bool) *cli.Command {
	fn, side, rel, k := triName(upper), "lower", "<=", "-1"
	if upper {
		side, rel, k = "upper", ">=", "1"
	}
	return newCommand(&cli.Command{
		Name:      fn + "-indices",
		Usage:     fmt.Sprintf("indices of the %[1]s triangle (torch.%[2]s_indices, numpy.%[2]s_indices)", side, fn),
		ArgsUsage: "ROWS [COLS]",
		Description: fmt.Sprintf(`Writes torch.%[1]s_indices(ROWS, COLS, K): a (2, N) array whose first row holds
the row indices and second row the column indices of the pairs (r, c) with
c - r %[2]s K, in row-major order; equal to np.stack(np.%[1]s_indices(ROWS, K, COLS)).
COLS defaults to ROWS. Offsets beyond either corner give an empty or a full
triangle.

Examples:
   strider %[1]s-indices 4 -o t.npy
   strider %[1]s-indices 4 3 --offset %[3]s -o t.npy
   strider %[1]s-indices 5 --offset -2 --dtype int32 > t.npy`, fn, rel, k),
		Flags: withShared(
			&cli.StringFlag{Name: "offset", Aliases: []string{"k"}, Value: "0", Usage: "diagonal `K`: above the main one when positive, below when negative"},
			&cli.StringFlag{Name: "dtype", Value: "int64", Usage: "integer type `T` of the indices: int64 or int32"},
		),
	}, parseTri(upper))
}

// triName is the NumPy and PyTorch name of the triangle: tril or triu.
func triName(upper bool) string {
	if upper {
		return "triu"
	}
	return "tril"
}

// triJob is tril-indices' or triu-indices' command line.
type triJob struct {
	upper              bool
	rows, cols, offset int
	d                  dtype.Dtype // int64 or int32, little-endian
}

// parseTri reads ROWS [COLS], --offset and --dtype.
func parseTri(upper bool) func(c *cli.Context) (job, error) {
	return func(c *cli.Context) (job, error) {
		j := triJob{upper: upper}
		args := c.Args().Slice()
		if len(args) == 0 || len(args) > 2 {
			return nil, usagef("expected ROWS [COLS], got %d arguments (see strider %s --help)", len(args), c.Command.Name)
		}
		var err error
		if j.rows, err = parseSize("ROWS", args[0]); err != nil {
			return nil, err
		}
		j.cols = j.rows
		if len(args) == 2 {
			if j.cols, err = parseSize("COLS", args[1]); err != nil {
				return nil, err
			}
		}
		if j.offset, err = parseInt("offset", c.String("offset")); err != nil {
			return nil, err
		}
		if j.d, err = indexDtype(c.String("dtype")); err != nil {
			return nil, err
		}
		return j, nil
	}
}

func (j triJob) run(e *env) error {
	t, err := ops.NewTri(j.upper, j.rows, j.cols, j.offset)
	if err != nil {
		return err
	}
	size := j.d.Size
	if err := t.Check(size); err != nil {
		return err
	}
	r := result{whole: func(dst []byte, o ops.Options) error {
		return e.eng.Tri(dst, t, size, o)
	}}
	if _, onCPU := e.eng.(cpu); onCPU {
		r.pieces = func(buf []byte, o ops.Options, emit emitter) error {
			total := 2 * t.Len() * size
			step := len(buf) / size * size
			for off := 0; off < total; off += step {
				b := buf[:min(step, total-off)]
				if err := t.FillPart(b, off, size, o); err != nil {
					return err
				}
				var err error
				if buf, err = emit(b); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return e.writeOutput(j.d, []int{2, t.Len()}, false, r)
}

// script writes np.tril_indices / torch.tril_indices (triu for
// triu-indices).
func (j triJob) script(s *script) error {
	rows, cols, k := j.rows, j.cols, j.offset
	fn := triName(j.upper)
	s.importModule("numpy as np")
	if kc := max(-rows, min(cols, k)); kc != k {
		s.add("# offset %d clamped to %d: any offset past a corner gives the same triangle, and NumPy's is a C long", k, kc)
		k = kc
	}
	if s.lib == "torch" {
		s.importModule("torch")
		s.add("r = torch.%s_indices(%d, %d, %d, dtype=torch.%s).numpy()", fn, rows, cols, k, j.d.Name())
	} else {
		s.add("r = np.stack(np.%s_indices(%d, %d, %d)).astype(np.%s)", fn, rows, k, cols, j.d.Name())
	}
	s.save("r")
	return nil
}

// parseSize reads ROWS or COLS: a decimal integer, 0 or more.
func parseSize(what, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, usagef("%s %q is not an integer", what, s)
	}
	if n < 0 {
		return 0, usagef("%s %d is negative; a matrix has 0 or more %s", what, n, strings.ToLower(what))
	}
	return n, nil
}

// indexDtype reads --dtype: int64 or int32 by any name NumPy gives them
// ("int64", "i8", "<i8", "int32", "i4", ...), little-endian.
func indexDtype(s string) (dtype.Dtype, error) {
	d, ok := dtype.Parse(strings.TrimSpace(s))
	if !ok || d.Kind != 'i' || d.Size != 4 && d.Size != 8 || d.Order != '<' {
		return dtype.Dtype{}, usagef("--dtype %q is not int64 or int32", s)
	}
	return d, nil
}
