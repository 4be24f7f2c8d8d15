package cmd

import (
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/ops"
)

var sliceCommand = &cli.Command{
	Name:      "slice",
	Usage:     "index with a NumPy expression (a[EXPR])",
	ArgsUsage: "IN EXPR",
	Description: `Writes a[EXPR] in C order, with NumPy's indexing rules. EXPR is what goes
between the brackets of a[...]: integers (negative ones count from the end),
start:stop:step slices (any part omitted, negative steps), ... (Ellipsis),
None (newaxis), True/False, and nested lists of integers or booleans. EXPR
is exactly the text between a[ and ]: brackets are always a list, as in
Python, so '[0, 2]' is a[[0, 2]] (rows 0 and 2) and '[]' an empty index.

Integers, slices, ... and None make a view: only the selected elements are
read, so a few rows of a huge file cost only those rows. Lists are advanced
indices: they broadcast together, boolean lists act as their nonzero(), and
the broadcast axes replace the indexed ones where the first list stood when
all lists (and integers) are adjacent, or go first when a slice, ... or None
separates them. The dtype and byte order are kept. An EXPR that may be read
as an option can follow --. --order keep writes a view (no lists in EXPR)
in Fortran order when numpy.save(a[EXPR]) would.

Examples:
   strider slice x.npy -1 -o last.npy
   strider slice x.npy '0, :5, ::-1' > y.npy
   strider slice x.npy '1:, ::-1, None, [0, 2]' -o y.npy
   strider slice x.npy '[True, False, True]' -o rows.npy`,
	Flags:  withShared(orderFlag),
	Action: runSlice,
}

func runSlice(c *cli.Context) error {
	switch c.NArg() {
	case 0:
		return usagef("missing input IN and expression EXPR (see strider slice --help)")
	case 1:
		return usagef("missing expression EXPR after %s (see strider slice --help)", c.Args().First())
	case 2:
	default:
		return usagef("expected IN and one EXPR, got %d arguments: %s (quote an EXPR that has spaces)", c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
	spec, expr := c.Args().Get(0), c.Args().Get(1)
	opt, err := options(c)
	if err != nil {
		return err
	}
	items, err := pylit.ParseIndex(expr)
	if err != nil {
		return usagef("%v", err)
	}
	in, err := openInput(c, spec, npy.AccessSparse)
	if err != nil {
		return err
	}
	defer in.Close()
	ix, err := in.view.Index(items)
	if err != nil {
		return err
	}
	if v, ok := ix.Basic(); ok {
		return writeView(c, in.Dtype, v, opt)
	}
	if opt.keepOrder {
		// NumPy lays out the result of list indices by rules of its own
		// (the index arrays' order, the subspace's, then a transpose):
		// not followed here.
		return keepOrderLists(expr)
	}
	return writeResult(c, opt, in.Dtype, ix.Shape, func(dst []byte, o ops.Options) error {
		return opt.eng.Index(dst, ix, o)
	})
}

// keepOrderLists refuses --order keep for an expression with list indices.
func keepOrderLists(expr string) error {
	return usagef("--order keep: %q has list indices, so its result is not a view; only views (integers, slices, ..., None) keep their order", expr)
}
