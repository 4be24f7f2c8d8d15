//go:build !unix

package output

import (
	"io/fs"
	"os"
)

// umask is zero where there is no umask: the mode bits are then 0666.
var umask os.FileMode

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}
