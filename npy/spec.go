package npy

import (
	"archive/zip"
	"io"
	"os"
	"strings"
)

// SplitSpec splits an input spec into a path and an archive member
// ("file.npz:name"), as Open reads it: the longest prefix that names an
// existing file is the path. Only names are looked at, never contents.
func SplitSpec(spec string) (path, member string, hasMember bool) {
	return splitSpec(spec)
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
