package cmd

import "github.com/urfave/cli/v2"

// sliceCommand is being written (issue 6).
var sliceCommand = &cli.Command{
	Name:   "slice",
	Usage:  "index with a NumPy expression (a[EXPR])",
	Flags:  withShared(),
	Action: func(c *cli.Context) error { return usagef("slice is not implemented yet") },
}
