package formats

import (
	"archive/zip"
	"io"
	"io/fs"
	"os"
	"runtime"

	"strider/formats/remote"
	"strider/formats/torch"
)

// SplitSpec splits an input spec into a path and an archive member
// ("file.npz:name"), as Open reads it: the longest prefix that names an
// existing file is the path. On Windows the ':' of a drive letter or a
// device path ("C:", "\\?\C:") separates no member, so "C:\data\w.npz:layer0"
// is member layer0 of C:\data\w.npz. Only names are looked at, never
// contents.
func SplitSpec(spec string) (path, member string, hasMember bool) {
	if remote.IsURL(spec) {
		return remote.Split(spec) // a URL's own ':' (scheme, port) split nothing
	}
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
	if remote.IsURL(path) {
		return "" // never a request: the scripts read local files only
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, probeLen)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	// Open's test: the first four bytes could start a .npy file.
	if hasNpyMagic(head) {
		return ""
	}
	switch sniffTensorFile(head) {
	case safetensorsFile:
		return "safetensors"
	case torchLegacyFile:
		return "torch"
	}
	if st, err := f.Stat(); err == nil && isZip(head) {
		if zr, err := zip.NewReader(f, st.Size()); err == nil && torch.Folder(zr) != "" {
			return "torch"
		}
	}
	return ""
}

// MemberOfExisting reports an output path that is not a file yet but that
// SplitSpec reads as member NAME of an existing file FILE other than a
// folder ("/dev/stdout:x", "data.npy:x"): an output refuses it rather than
// create a file named "FILE:NAME" beside it.
func MemberOfExisting(path string) (file string, fi fs.FileInfo, member string, ok bool) {
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
