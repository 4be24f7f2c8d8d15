package cmd

import (
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/ops"
)

var sliceCommand = newCommand(&cli.Command{
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
	Flags: withShared(orderFlag),
}, parseSlice)

// sliceJob is slice's command line.
type sliceJob struct {
	in    string
	expr  string // as given
	items []pylit.IndexItem
}

func parseSlice(c *cli.Context) (job, error) {
	var refuse error
	switch c.NArg() {
	case 0:
		refuse = usagef("missing input IN and expression EXPR (see strider slice --help)")
	case 1:
		refuse = usagef("missing expression EXPR after %s (see strider slice --help)", c.Args().First())
	case 2:
	default:
		refuse = usagef("expected IN and one EXPR, got %d arguments: %s (quote an EXPR that has spaces)", c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
	if refuse != nil {
		return sliceRefusal{runErr: refuse, scriptErr: usagef("expected IN and one EXPR, got %d arguments (see strider slice --help)", c.NArg())}, nil
	}
	j := sliceJob{in: c.Args().Get(0), expr: c.Args().Get(1)}
	var err error
	if j.items, err = pylit.ParseIndex(j.expr); err != nil {
		err = usagef("%v", err)
		return sliceRefusal{runErr: err, scriptErr: err}, nil
	}
	return j, nil
}

// sliceRefusal is a slice command line without a valid IN EXPR: run
// refuses it, and so does the script, in its own words and after
// refusing --as-torch.
type sliceRefusal struct{ runErr, scriptErr error }

func (r sliceRefusal) run(*env) error { return r.runErr }

func (r sliceRefusal) script(s *script) error {
	if s.lib == "torch" {
		return errSliceTorch
	}
	return r.scriptErr
}

func (j sliceJob) run(e *env) error {
	in, err := e.openInput(j.in, npy.AccessFetch)
	if err != nil {
		return err
	}
	defer in.Close()
	ix, err := in.view.Index(j.items)
	if err != nil {
		return err
	}
	if v, ok := ix.Basic(); ok {
		if err := in.fetch(j.in, v); err != nil {
			return err
		}
		return e.writeView(in.Dtype, v)
	}
	if err := in.fetchIndexed(j.in, ix); err != nil {
		return err
	}
	if e.keepOrder {
		// NumPy lays out the result of list indices by rules of its own
		// (the index arrays' order, the subspace's, then a transpose):
		// not followed here.
		return keepOrderLists(j.expr)
	}
	return e.writeResult(in.Dtype, ix.Shape, func(dst []byte, o ops.Options) error {
		return e.eng.Index(dst, ix, o)
	})
}

// errSliceTorch refuses --as-torch.
var errSliceTorch = usagef("--as-torch: PyTorch's indexing is not NumPy's in every case (boolean scalars, lists apart); use --as-numpy")

// keepOrderLists refuses --order keep for an expression with list indices.
func keepOrderLists(expr string) error {
	return usagef("--order keep: %q has list indices, so its result is not a view; only views (integers, slices, ..., None) keep their order", expr)
}

// script writes a[EXPR] (NumPy only). Only a valid expression (parse
// read it) is pasted into the script: its grammar admits integers, names
// of constants and punctuation, nothing to run.
func (j sliceJob) script(s *script) error {
	if s.lib == "torch" {
		return errSliceTorch
	}
	for _, it := range j.items {
		if s.keepOrder && (it.Kind == pylit.IndexArray || it.Kind == pylit.IndexBoolArray) {
			return keepOrderLists(j.expr)
		}
	}
	a := s.load("a", j.in)
	s.sliceNames(j.expr)
	s.add("r = np.asarray(%s[%s], dtype=%s.dtype)  # a scalar result stays a 0-d array of the input's dtype", a, strings.Join(strings.Fields(j.expr), " "), a)
	s.save("r")
	return nil
}

// sliceNames defines the names an index expression may use besides np.
func (s *script) sliceNames(expr string) {
	if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(expr, "np.newaxis", ""), "numpy.newaxis", ""), "newaxis") {
		s.add("newaxis = np.newaxis")
	}
	if strings.Contains(expr, "numpy.newaxis") {
		s.add("numpy = np")
	}
}
