package output

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders at a and b in one step (renameat2
// RENAME_EXCHANGE); exchanged is false, with no error, where the kernel or
// the file system cannot.
func exchange(a, b string) (exchanged bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return false, nil
	}
	return err == nil, err
}
