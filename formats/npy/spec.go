package npy

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"

	"strider/internal/termsafe"
)

// SplitSpec splits an input spec into a path and an archive member
// ("file.npz:name"), as Open reads it: the longest prefix that names an
// existing file is the path. On Windows the ':' of a drive letter or a
// device path ("C:", "\\?\C:") separates no member, so "C:\data\w.npz:layer0"
// is member layer0 of C:\data\w.npz. Only names are looked at, never
// contents.
func SplitSpec(spec string) (path, member string, hasMember bool) {
	return splitSpecFor(spec, runtime.GOOS == "windows", pathExists)
}

// pathExists reports whether path names something Stat can reach.
func pathExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// splitSpecFor is SplitSpec with the file system as parameters, so that the
// Windows rules are tested on every system: windows says whether volume
// names hold a ':' ("C:"), exists whether a path names a file. A spec that
// exists is a path even when it holds ':'; otherwise the last ':' past the
// volume name whose prefix exists splits it.
func splitSpecFor(spec string, windows bool, exists func(string) bool) (path, member string, hasMember bool) {
	if exists(spec) {
		return spec, "", false
	}
	vol := volumeLen(spec, windows)
	for i := len(spec) - 1; i > vol; i-- {
		if spec[i] != ':' {
			continue
		}
		if exists(spec[:i]) {
			return spec[:i], spec[i+1:], true
		}
	}
	return spec, "", false
}

// volumeLen is the length of the volume name that starts path on Windows,
// where one holds a ':': a drive letter ("C:", "C:\x", "C:x"), or a device
// path ("\\?\C:\x", "\\.\C:", with either slash). It is 0 elsewhere, and
// for paths with no ':' in their volume name (UNC shares, relative paths).
func volumeLen(path string, windows bool) int {
	if !windows {
		return 0
	}
	isLetter := func(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
	isSlash := func(c byte) bool { return c == '\\' || c == '/' }
	switch {
	case len(path) >= 2 && isLetter(path[0]) && path[1] == ':':
		return 2
	case len(path) >= 6 && isSlash(path[0]) && isSlash(path[1]) && (path[2] == '?' || path[2] == '.') &&
		isSlash(path[3]) && isLetter(path[4]) && path[5] == ':':
		return 6
	}
	return 0
}

// TensorFormat tells which tensor-file format Open would read the file at
// path as, looking only at what Open looks at to decide: the first bytes
// and, for a zip, its directory. It is "safetensors", "torch" (a
// torch.save archive, or the legacy format Open refuses), or "" for
// anything else (a .npy or .npz file, or a file that cannot be read).
func TensorFormat(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, probeLen)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	// Open's test: the first four bytes could start a .npy file.
	if strings.HasPrefix(Magic, string(head[:min(n, 4)])) {
		return ""
	}
	switch sniffTensorFile(head) {
	case safetensorsFile:
		return "safetensors"
	case torchLegacyFile:
		return "torch"
	}
	if st, err := f.Stat(); err == nil && isZip(head) {
		if zr, err := zip.NewReader(f, st.Size()); err == nil && torchFolder(zr) != "" {
			return "torch"
		}
	}
	return ""
}

// An output path names an archive member as an input spec does
// ("file.npz:NAME", NAME without ".npy"), but the archive need not exist
// yet, so where its name ends is read from the path alone: at the first ':'
// that follows ".npz". A member name holds no ':' (checkMemberName), so
// there is no second reading of the path (a.npz:b.npz:c could be member
// "b.npz:c" of a.npz or member "c" of a.npz:b.npz), and SplitSpec reads
// back, from the same "file.npz:NAME", the member the output wrote.

// MemberOutput splits an output path "file.npz:NAME" into the archive and
// the member name, as the output writer does; ok is false when no ':'
// follows ".npz".
func MemberOutput(path string) (archive, member string, ok bool) { return splitMemberOutput(path) }

// splitMemberOutput splits an output path "file.npz:NAME" into the archive
// and the member name; ok is false when no ':' follows ".npz".
func splitMemberOutput(path string) (archive, member string, ok bool) {
	for i := 0; i < len(path); i++ {
		if path[i] == ':' && strings.HasSuffix(strings.ToLower(path[:i]), ".npz") {
			return path[:i], path[i+1:], true
		}
	}
	return "", "", false
}

// isNpzPath reports a path that names an archive, which an output must
// not replace with a .npy file.
func isNpzPath(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".npz")
}

// memberOfExisting reports an output path that is not a file yet but that
// SplitSpec reads as member NAME of an existing file FILE other than a
// folder ("/dev/stdout:x", "data.npy:x"): an output refuses it rather than
// create a file named "FILE:NAME" beside it.
func memberOfExisting(path string) (file string, fi fs.FileInfo, member string, ok bool) {
	if _, err := os.Lstat(path); err == nil {
		return "", nil, "", false
	}
	vol := volumeLen(path, runtime.GOOS == "windows")
	for i := len(path) - 1; i > vol; i-- {
		if path[i] != ':' {
			continue
		}
		if fi, err := os.Stat(path[:i]); err == nil && !fi.IsDir() {
			return path[:i], fi, path[i+1:], true
		}
	}
	return "", nil, "", false
}

// checkMemberName refuses a member name that an output must not write into
// an archive, although np.savez writes any: one that a later unzip would
// extract outside its folder (an absolute path, a "." or ".." component, a
// backslash, which unzip on Windows reads as a separator), one a terminal
// or a file system would act on (control characters, NUL, bytes that are
// not UTF-8, whose zip entry NumPy cannot decode), an empty name or
// component, a ':' (see splitMemberOutput), and one whose entry "NAME.npy"
// is longer than a zip entry name may be. Errors name it escaped.
func checkMemberName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("member name \"%s\" %s", termsafe.Escape(name), why)
	}
	switch {
	case name == "":
		return errors.New("no member name after the ':' (-o FILE.npz:NAME)")
	case !utf8.ValidString(name):
		return bad("is not UTF-8")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return bad("holds a control character")
	case strings.ContainsRune(name, '\\'):
		return bad(`holds a backslash, which unzip on Windows reads as a folder separator`)
	case strings.ContainsRune(name, ':'):
		return bad("holds a ':', which would leave unclear where the archive's name ends")
	case strings.HasPrefix(name, "/"):
		return bad("is an absolute path, which unzip would write outside its folder")
	case len(name)+len(".npy") > zipNameMax:
		return bad(fmt.Sprintf("is %d bytes long, more than a zip entry name may be (%d, with .npy)", len(name), zipNameMax))
	}
	for _, part := range strings.Split(name, "/") {
		switch part {
		case "":
			return bad("has an empty folder component")
		case ".":
			return bad(`has a "." component`)
		case "..":
			return bad(`has a ".." component, which unzip would follow out of its folder`)
		}
	}
	return nil
}
