package output

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceFile renames tmp over target, as os.Rename does on Unix, where
// Windows needs more:
//
//   - A read-only target is replaced, as a rename replaces it on Unix:
//     MoveFileEx refuses one (ERROR_ACCESS_DENIED), so its read-only
//     attribute is cleared first and put back if the rename still fails.
//     (The new file has the mode Output.finish gave it: read-only again.)
//   - A target another program holds open cannot be replaced. A virus
//     scanner or the search indexer opens a new file for a moment, so
//     the rename is retried for up to wait; then the error says why. A
//     folder at the target is refused at once, as it will not go away.
func replaceFile(tmp, target string, wait time.Duration) error {
	cleared, attrs := clearReadOnly(target)
	deadline := time.Now().Add(wait)
	for pause := time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		err := os.Rename(tmp, target)
		if err == nil {
			return nil
		}
		if busy(err) && !isDir(target) {
			if time.Now().Before(deadline) {
				time.Sleep(pause)
				continue
			}
			err = fmt.Errorf("%w (Windows cannot replace a file that a program holds open)", err)
		}
		if cleared {
			if p, perr := windows.UTF16PtrFromString(target); perr == nil {
				_ = windows.SetFileAttributes(p, attrs)
			}
		}
		return err
	}
}

// clearReadOnly clears target's read-only attribute, reporting whether it
// did and the attributes it had.
func clearReadOnly(target string) (bool, uint32) {
	p, err := windows.UTF16PtrFromString(target)
	if err != nil {
		return false, 0
	}
	attrs, err := windows.GetFileAttributes(p)
	if err != nil || attrs&windows.FILE_ATTRIBUTE_READONLY == 0 || attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return false, 0
	}
	if windows.SetFileAttributes(p, attrs&^windows.FILE_ATTRIBUTE_READONLY) != nil {
		return false, 0
	}
	return true, attrs
}

// busy reports the errors of a rename onto a file that is open elsewhere.
func busy(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
