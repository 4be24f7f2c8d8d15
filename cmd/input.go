package cmd

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/formats/remote"
	"strider/ops"
)

// oneInput returns the single positional argument.
func oneInput(c *cli.Context, what string) (string, error) {
	switch c.NArg() {
	case 0:
		return "", usagef("missing %s (see strider %s --help)", what, c.Command.Name)
	case 1:
		return c.Args().First(), nil
	default:
		return "", usagef("expected one %s, got %d arguments: %s", what, c.NArg(), strings.Join(c.Args().Slice(), " "))
	}
}

// input is an opened array and the view of its elements.
type input struct {
	*npy.Array
	view ops.View
}

// openInput opens a .npy path, "-" or an .npz member. An input opened
// with npy.AccessAllLater is read in by whoever fills the output, once the
// output exists (settings.readAhead, or a call to Prefetch).
func (e *env) openInput(spec string, access npy.Access) (input, error) {
	a, err := formats.Open(spec, e.stdinFor(spec), access)
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", displayName(spec), err)
	}
	return inputOf(a), nil
}

// withInput opens spec as openInput does, runs work on it, and closes it.
func (e *env) withInput(spec string, access npy.Access, work func(in input) error) error {
	in, err := e.openInput(spec, access)
	if err != nil {
		return err
	}
	defer in.Close()
	return work(in)
}

// inputOf is the input over an open array: the array and its view.
func inputOf(a *npy.Array) input {
	return input{Array: a, view: ops.View{Elem: a.Dtype.Size, Shape: a.Shape, Strides: a.Strides(), Data: a.Data}}
}

func displayName(spec string) string {
	if spec == "-" {
		return "standard input"
	}
	return remote.Redact(spec) // a presigned URL's signature is never printed
}
