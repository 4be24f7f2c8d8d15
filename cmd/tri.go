package cmd

import "github.com/urfave/cli/v2"

// trilIndicesCommand and triuIndicesCommand are being written (issue 5).
var (
	trilIndicesCommand = &cli.Command{
		Name:   "tril-indices",
		Usage:  "indices of the lower triangle (torch.tril_indices, numpy.tril_indices)",
		Flags:  withShared(),
		Action: func(c *cli.Context) error { return usagef("tril-indices is not implemented yet") },
	}
	triuIndicesCommand = &cli.Command{
		Name:   "triu-indices",
		Usage:  "indices of the upper triangle (torch.triu_indices, numpy.triu_indices)",
		Flags:  withShared(),
		Action: func(c *cli.Context) error { return usagef("triu-indices is not implemented yet") },
	}
)
