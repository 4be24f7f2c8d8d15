//go:build unix

package output

import (
	"io/fs"
	"os"
	"syscall"
)

// umask is read once while the package initialises: syscall.Umask can only
// read the mask by setting it, and doing that later could race with files
// created by other goroutines.
var umask = func() os.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return os.FileMode(m)
}()

// keepOwner gives f the owner and group of the file prev describes, as far
// as strider may: both as root, the group alone when strider's user
// belongs to it. It is best effort, as a shell's ">" keeps them anyway.
func keepOwner(f *os.File, prev fs.FileInfo) {
	st, ok := prev.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	if os.Geteuid() == 0 {
		_ = f.Chown(int(st.Uid), int(st.Gid))
		return
	}
	if int(st.Gid) != os.Getegid() {
		_ = f.Chown(-1, int(st.Gid))
	}
}
