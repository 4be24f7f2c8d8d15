package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"strider/internal/termsafe"
)

// A folder output (strider convert IN DIR) is all or nothing, as a file
// output is: its files are written into a temporary folder beside the
// target, ".<name>.strider-*.tmp", which Commit renames into place. A
// folder already there is replaced only when it holds nothing but .npy
// files (what a conversion writes, and all a folder archive reads), so a
// mistyped path never deletes a folder of other things. On Linux the two
// folders are swapped in one step (renameat2 RENAME_EXCHANGE) and the old
// one removed after; elsewhere the old folder is renamed aside first, and
// put back if the new one cannot take its place. The swap runs under the
// lock a member output of the same path takes (lockBeside), so two
// conversions into one folder never interleave.

// Folder is a folder output being written.
type Folder struct {
	path   string // the target as the user named it
	target string // path with its symbolic links followed
	tmp    string // the temporary folder the files go into
	done   bool
}

// tempFolders registers the temporary folders not yet committed, for
// RemoveTemps.
var tempFolders = struct {
	sync.Mutex
	m map[*Folder]struct{}
}{m: map[*Folder]struct{}{}}

// CreateFolder prepares a folder output at path: it checks that a folder
// there may be replaced and makes the temporary folder.
func CreateFolder(path string) (*Folder, error) {
	if path == "-" || path == "" {
		return nil, fmt.Errorf("cannot create %q: a folder output needs a folder's path", path)
	}
	target, err := followLinks(path)
	if err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", termsafe.Escape(path), err)
	}
	f := &Folder{path: path, target: filepath.Clean(target)}
	if err := f.checkReplaceable(); err != nil {
		return nil, err
	}
	dir := filepath.Dir(f.target)
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("cannot create %s: folder %s: %w", termsafe.Escape(path), dir, unwrapPath(err))
	}
	tmp, err := os.MkdirTemp(dir, "."+filepath.Base(f.target)+tempPrefix+"*.tmp")
	if errors.Is(err, syscall.ENAMETOOLONG) {
		tmp, err = os.MkdirTemp(dir, tempPrefix+"*.tmp")
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", termsafe.Escape(path), unwrapPath(err))
	}
	f.tmp = tmp
	tempFolders.Lock()
	tempFolders.m[f] = struct{}{}
	tempFolders.Unlock()
	return f, nil
}

// checkReplaceable refuses a target that is there and is not a folder of
// .npy files.
func (f *Folder) checkReplaceable() error {
	fi, err := os.Stat(f.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("cannot create %s: %w", termsafe.Escape(f.path), unwrapPath(err))
	case !fi.IsDir():
		return fmt.Errorf("cannot create %s: it is %s, not a folder", termsafe.Escape(f.path), fileKind(fi.Mode()))
	}
	entries, err := os.ReadDir(f.target)
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", termsafe.Escape(f.path), unwrapPath(err))
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".npy") {
			return fmt.Errorf("cannot replace folder %s: it holds \"%s\", which is not a .npy file (strider replaces only a folder of .npy files)", termsafe.Escape(f.path), termsafe.Escape(e.Name()))
		}
	}
	return nil
}

// File is the path to create file name of the output at, in the
// temporary folder.
func (f *Folder) File(name string) string { return filepath.Join(f.tmp, name) }

// Commit puts the folder in place of the target: renamed there when there
// is none, swapped with a folder of .npy files that was there, which is
// then removed. On error the target is as it was and the temporary folder
// is gone.
func (f *Folder) Commit() error {
	if f.done {
		return fmt.Errorf("output %s was already committed or aborted", f.path)
	}
	defer f.Abort()
	l, err := lockBeside(f.target)
	if err != nil {
		return err
	}
	defer l.unlock()
	tempFolders.Lock()
	_, live := tempFolders.m[f]
	tempFolders.Unlock()
	if !live {
		return fmt.Errorf("cannot write %s: the output was cancelled", f.path)
	}
	if err := f.checkReplaceable(); err != nil {
		return err
	}
	mode := 0o777 &^ umask
	if fi, err := os.Stat(f.target); err == nil {
		mode = fi.Mode() & fs.ModePerm
	}
	if err := os.Chmod(f.tmp, mode); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.path, unwrapPath(err))
	}
	old, err := swapFolder(f.tmp, f.target)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", termsafe.Escape(f.path), unwrapPath(err))
	}
	if old != "" {
		os.RemoveAll(old)
	}
	tempFolders.Lock()
	delete(tempFolders.m, f)
	tempFolders.Unlock()
	f.done = true
	return nil
}

// swapFolder moves folder tmp to target. A target that is there is moved
// out of the way and its new path returned, for the caller to remove:
// exchanged with tmp where the system can, else renamed aside and put back
// if tmp cannot take its place.
func swapFolder(tmp, target string) (old string, err error) {
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		return "", os.Rename(tmp, target)
	}
	if exchanged, err := exchange(tmp, target); exchanged || err != nil {
		return tmp, err
	}
	aside := tmp + ".old"
	if err := os.Rename(target, aside); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Rename(aside, target)
		return "", err
	}
	return aside, nil
}

// Abort removes the temporary folder and what it holds. It does nothing
// after Commit.
func (f *Folder) Abort() {
	if f.done {
		return
	}
	f.done = true
	tempFolders.Lock()
	defer tempFolders.Unlock()
	if _, live := tempFolders.m[f]; live {
		os.RemoveAll(f.tmp)
		delete(tempFolders.m, f)
	}
}

// removeTempFolders removes every temporary folder not yet committed or
// aborted (RemoveTemps).
func removeTempFolders() {
	tempFolders.Lock()
	defer tempFolders.Unlock()
	for f := range tempFolders.m {
		os.RemoveAll(f.tmp)
		delete(tempFolders.m, f)
	}
}
