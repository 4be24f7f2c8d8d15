package sysmem

import (
	"errors"
	"fmt"
)

// ErrNoRoom is matched by errors that refuse work up front because the
// machine lacks the memory or the disk space it would need.
var ErrNoRoom = errors.New("not enough memory or disk space")

// NoRoom returns an ErrNoRoom error whose message, one line, format and
// args make (without the sentinel's text).
func NoRoom(format string, args ...any) error {
	return &noRoomError{msg: fmt.Sprintf(format, args...)}
}

type noRoomError struct{ msg string }

func (e *noRoomError) Error() string { return e.msg }

func (e *noRoomError) Is(target error) bool { return target == ErrNoRoom }

// CheckMemory refuses an allocation of n bytes for what (a phrase such as
// "the sort's scratch space") when more than the machine has available,
// so the command fails with a message instead of being killed by the
// out-of-memory killer halfway through. Where the figure is unknown it
// allows everything.
func CheckMemory(what string, n int64) error {
	avail, ok := MemAvailable()
	if !ok || n <= avail {
		return nil
	}
	return NoRoom("needs %s of memory for %s, but only %s is available", HumanBytes(n), what, HumanBytes(avail))
}

// CheckDisk refuses to create a file of n bytes in dir when the file
// system reports less free space, before anything is created. The
// reservation that follows (fallocate) is the real guard: this only gives
// the error its figures.
func CheckDisk(path, dir string, n int64) error {
	free, ok := FreeSpace(dir)
	if !ok || n <= free {
		return nil
	}
	return NoRoom("cannot create %s: it needs %s of disk space, but the file system of %s has %s free", path, HumanBytes(n), dir, HumanBytes(free))
}

// HumanBytes writes n in binary units: "512 B", "1.5 GiB".
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// FitsInMemory reports whether reading n bytes in ahead pays: only when
// they all fit in memory at once. Beyond that it evicts the first pages to
// read the last, and makes a command that then refuses the work (a sort
// whose scratch space is too large) spend minutes first.
func FitsInMemory(n int64) bool {
	avail, ok := MemAvailable()
	return !ok || n <= avail/2
}
