// Command strider runs one tensor operation on NumPy .npy files: transpose,
// diagonal, gather, sort, slice, compare and more, byte-identical to NumPy.
package main

import (
	"os"

	"strider/cmd"
)

func main() {
	os.Exit(cmd.Run(cmd.NewApp(), os.Args, os.Stderr))
}
