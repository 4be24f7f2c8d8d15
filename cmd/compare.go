package cmd

import "github.com/urfave/cli/v2"

// compareCommand is being written (issue 6).
var compareCommand = &cli.Command{
	Name:   "compare",
	Usage:  "compare two arrays (numpy.testing.assert_allclose); exit 1 when they differ",
	Flags:  withShared(),
	Action: func(c *cli.Context) error { return usagef("compare is not implemented yet") },
}
