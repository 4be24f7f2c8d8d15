package cmd

import (
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/internal/dtype"
	"strider/ops"
)

// triFlags are tril-indices' and triu-indices' own options. --offset is read
// as a decimal string (not an IntFlag, which would take 010 as octal), the
// same way as ROWS and COLS.
func triFlags() []cli.Flag {
	return withShared(
		&cli.StringFlag{Name: "offset", Aliases: []string{"k"}, Value: "0", Usage: "diagonal `K`: above the main one when positive, below when negative"},
		&cli.StringFlag{Name: "dtype", Value: "int64", Usage: "integer type `T` of the indices: int64 or int32"},
	)
}

var (
	trilIndicesCommand = &cli.Command{
		Name:      "tril-indices",
		Usage:     "indices of the lower triangle (torch.tril_indices, numpy.tril_indices)",
		ArgsUsage: "ROWS [COLS]",
		Description: `Writes torch.tril_indices(ROWS, COLS, K): a (2, N) array whose first row holds
the row indices and second row the column indices of the pairs (r, c) with
c - r <= K, in row-major order; equal to np.stack(np.tril_indices(ROWS, K, COLS)).
COLS defaults to ROWS. Offsets beyond either corner give an empty or a full
triangle.

Examples:
   strider tril-indices 4 -o t.npy
   strider tril-indices 4 3 --offset -1 -o t.npy
   strider tril-indices 5 --offset -2 --dtype int32 > t.npy`,
		Flags:  triFlags(),
		Action: runTri(false),
	}
	triuIndicesCommand = &cli.Command{
		Name:      "triu-indices",
		Usage:     "indices of the upper triangle (torch.triu_indices, numpy.triu_indices)",
		ArgsUsage: "ROWS [COLS]",
		Description: `Writes torch.triu_indices(ROWS, COLS, K): a (2, N) array whose first row holds
the row indices and second row the column indices of the pairs (r, c) with
c - r >= K, in row-major order; equal to np.stack(np.triu_indices(ROWS, K, COLS)).
COLS defaults to ROWS. Offsets beyond either corner give an empty or a full
triangle.

Examples:
   strider triu-indices 4 -o t.npy
   strider triu-indices 4 3 --offset 1 -o t.npy
   strider triu-indices 5 --offset -2 --dtype int32 > t.npy`,
		Flags:  triFlags(),
		Action: runTri(true),
	}
)

func runTri(upper bool) cli.ActionFunc {
	return func(c *cli.Context) error {
		rows, cols, offset, d, err := triArgs(c)
		if err != nil {
			return err
		}
		opt, err := options(c)
		if err != nil {
			return err
		}
		t, err := ops.NewTri(upper, rows, cols, offset)
		if err != nil {
			return err
		}
		if err := t.Check(d.Size); err != nil {
			return err
		}
		r := result{whole: func(dst []byte, o ops.Options) error {
			return opt.eng.Tri(dst, t, d.Size, o)
		}}
		if _, onCPU := opt.eng.(cpu); onCPU {
			r.pieces = func(buf []byte, o ops.Options, emit emitter) error {
				total := 2 * t.Len() * d.Size
				step := len(buf) / d.Size * d.Size
				for off := 0; off < total; off += step {
					b := buf[:min(step, total-off)]
					if err := t.FillPart(b, off, d.Size, o); err != nil {
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
		return writeOutput(c, opt, d, []int{2, t.Len()}, false, r)
	}
}

// triArgs reads ROWS [COLS], --offset and --dtype.
func triArgs(c *cli.Context) (rows, cols, offset int, d dtype.Dtype, err error) {
	args := c.Args().Slice()
	if len(args) == 0 || len(args) > 2 {
		return 0, 0, 0, d, usagef("expected ROWS [COLS], got %d arguments (see strider %s --help)", len(args), c.Command.Name)
	}
	if rows, err = parseSize("ROWS", args[0]); err != nil {
		return 0, 0, 0, d, err
	}
	cols = rows
	if len(args) == 2 {
		if cols, err = parseSize("COLS", args[1]); err != nil {
			return 0, 0, 0, d, err
		}
	}
	if offset, err = parseInt("offset", c.String("offset")); err != nil {
		return 0, 0, 0, d, err
	}
	d, err = indexDtype(c.String("dtype"))
	return rows, cols, offset, d, err
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

// tri writes tril-indices and triu-indices: np.tril_indices / torch.tril_indices.
func (s *script) tri(c *cli.Context) error {
	torch := s.lib == "torch"
	name := c.Command.Name
	rows, cols, k, d, err := triArgs(c)
	if err != nil {
		return err
	}
	fn := strings.TrimSuffix(name, "-indices")
	s.importModule("numpy as np")
	if kc := max(-rows, min(cols, k)); kc != k {
		s.add("# offset %d clamped to %d: any offset past a corner gives the same triangle, and NumPy's is a C long", k, kc)
		k = kc
	}
	if torch {
		s.importModule("torch")
		s.add("r = torch.%s_indices(%d, %d, %d, dtype=torch.%s).numpy()", fn, rows, cols, k, d.Name())
	} else {
		s.add("r = np.stack(np.%s_indices(%d, %d, %d)).astype(np.%s)", fn, rows, k, cols, d.Name())
	}
	s.save("r")
	return nil
}
