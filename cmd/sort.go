package cmd

import "github.com/urfave/cli/v2"

// sortCommand is being written (issue 5).
var sortCommand = &cli.Command{
	Name:   "sort",
	Usage:  "stable sort along an axis (numpy.sort kind=stable, torch.sort stable=True)",
	Flags:  withShared(),
	Action: func(c *cli.Context) error { return usagef("sort is not implemented yet") },
}
