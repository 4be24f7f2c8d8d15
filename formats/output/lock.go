package output

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// An output that rewrites its target from what the target holds (a member
// output copies the archive's other members) must not read, write and
// rename at the same time as another such output to the same file: the
// later rename would drop what the earlier one added, and five parallel
// writers of five members would leave one or two. So such an output holds
// an advisory lock from reading the old file to the rename (lockBeside):
// flock(2) on Unix, LockFileEx on Windows, none elsewhere.
//
// The lock is not taken on the target, which the rename replaces (a writer
// waiting on the old file would then go on under a lock no one else takes),
// but on a lock file beside it, ".<name>.strider-lock", made when missing.
// On Unix its holder removes it before letting go, so none stays behind, and
// a writer that opened it before the removal sees, once it holds the lock,
// that the path no longer names the file it locked, and opens the new one.
// The system lets go of a lock when its holder dies, SIGKILL included: a
// killed writer never leaves it held, at worst leaves the empty file, which
// the next writer takes and removes.

// fileLock is a held lock of a lock file.
type fileLock struct {
	path    string   // the lock file
	f       *os.File // open while held
	removed bool     // RemoveTemps removed the lock file; guarded by held
}

// held is the locks this process holds. flock and LockFileEx locks belong
// to an open file, not to a process, so a second lock of one target from
// this process would wait for the first forever: it is refused instead.
var held = struct {
	sync.Mutex
	m map[*fileLock]struct{}
}{m: map[*fileLock]struct{}{}}

// lockBeside takes the lock that serializes the outputs which rewrite
// target, waiting for another process that holds it. Errors name target.
func lockBeside(target string) (*fileLock, error) {
	if !canLock {
		return &fileLock{}, nil
	}
	l := &fileLock{path: lockPath(target)}
	for {
		f, err := openLockFile(l.path)
		if err != nil {
			return nil, fmt.Errorf("cannot lock %s: lock file %s: %w", target, l.path, unwrapPath(err))
		}
		fi, err := f.Stat()
		if err == nil && heldHere(fi) {
			err = errors.New("this command already writes to it")
		} else if err == nil {
			err = lockFile(f)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", target, unwrapPath(err))
		}
		if now, err := os.Stat(l.path); err == nil && os.SameFile(fi, now) {
			l.f = f
			held.Lock()
			held.m[l] = struct{}{}
			held.Unlock()
			return l, nil
		}
		// Its holder removed the file we locked: take the one now there.
		f.Close()
	}
}

// heldHere reports a lock file this process holds a lock on.
func heldHere(fi fs.FileInfo) bool {
	held.Lock()
	defer held.Unlock()
	for l := range held.m {
		if hfi, err := l.f.Stat(); err == nil && os.SameFile(fi, hfi) {
			return true
		}
	}
	return false
}

// lockPath is the lock file of target: ".<name>.strider-lock" beside it,
// or ".strider-<hash of name>.lock" when that would be longer than a file
// name may be (255 bytes), so every writer finds the same one.
func lockPath(target string) string {
	dir, base := filepath.Split(target)
	name := "." + base + tempPrefix + "lock"
	if len(name) > 255 {
		h := fnv.New64a()
		h.Write([]byte(base))
		name = tempPrefix + strconv.FormatUint(h.Sum64(), 16) + ".lock"
	}
	return filepath.Join(dir, name)
}

// openLockFile opens the lock file at path, making it when missing. A
// lock file another user made may be opened for reading only, which is
// enough to lock it (and in a sticky folder such as /tmp, the kernel may
// refuse O_CREAT on it even so).
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if errors.Is(err, fs.ErrPermission) {
		if g, gerr := os.Open(path); gerr == nil {
			return g, nil
		}
	}
	return f, err
}

// unlock lets go of the lock, removing the lock file first where the lock
// survives that (Unix) and the path still names the file locked.
func (l *fileLock) unlock() {
	if l == nil || l.f == nil {
		return
	}
	held.Lock()
	defer held.Unlock()
	if removeLockFile && !l.removed {
		l.removeFile()
	}
	unlockFile(l.f)
	l.f.Close()
	l.f = nil
	delete(held.m, l)
}

// removeFile removes the lock file while l is held, unless the path names
// another file: only a holder removes it, so while l is held and the path
// names l's file, no other process can make a new one there.
func (l *fileLock) removeFile() {
	fi, err := l.f.Stat()
	if now, serr := os.Stat(l.path); err == nil && serr == nil && os.SameFile(fi, now) {
		os.Remove(l.path)
	}
	l.removed = true
}

// removeLockFiles removes the lock files this process holds locks on, for
// RemoveTemps: the locks go with the process as it dies.
func removeLockFiles() {
	held.Lock()
	defer held.Unlock()
	for l := range held.m {
		if removeLockFile && !l.removed {
			l.removeFile()
		}
	}
}
