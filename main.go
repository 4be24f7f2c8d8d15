// Command strider runs one tensor operation on NumPy .npy files: transpose,
// diagonal, gather, sort, slice, compare and more, byte-identical to NumPy.
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"strider/cmd"
)

func main() {
	app := &cli.App{
		Name:                 "strider",
		Usage:                "one tensor operation on .npy files, byte-identical to NumPy",
		Version:              cmd.Version,
		EnableBashCompletion: true,
		HideHelpCommand:      false,
		Commands:             cmd.Commands,
	}
	os.Exit(cmd.Run(app, os.Args, os.Stderr))
}
