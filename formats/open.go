package formats

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/internal/sysmem"
)

// Open opens the array an input spec names:
//
//   - "-": standard input, read from stdin into memory;
//   - a path to a .npy file, which is memory-mapped read-only;
//   - "file.npz:name": member name.npy of an .npz archive, read into memory;
//   - "file.npz": the only member of an archive that holds one.
//
// A spec that names an existing file is that file, even when it contains
// ':'. Archives are recognised by their zip signature as well as by the
// .npz suffix.
func Open(spec string, stdin io.Reader, access npy.Access) (*npy.Array, error) {
	return open(spec, stdin, access, false)
}

// OpenHeader reads only the header of the array spec names (see Open). It
// neither reads nor maps the data, so it is instant on any file size.
func OpenHeader(spec string, stdin io.Reader) (npy.Header, error) {
	a, err := open(spec, stdin, npy.AccessSparse, true)
	if err != nil {
		return npy.Header{}, err
	}
	return a.Header, nil
}

// open is Open, or OpenHeader when headerOnly.
func open(spec string, stdin io.Reader, access npy.Access, headerOnly bool) (*npy.Array, error) {
	if spec == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input to read")
		}
		// Standard input redirected from a file can be mapped like the file.
		if f, size, ok := stdinFile(stdin); ok {
			return openFile(f, size, "", false, access, headerOnly)
		}
		return openStream(stdin, "", false, headerOnly)
	}
	if path, member, hasMember := SplitSpec(spec); IsIndex(path) { // a sharded checkpoint, local or remote (sharded.go)
		return openShardedSpec(path, member, hasMember, access, headerOnly)
	}
	if remote.IsURL(spec) {
		return openRemote(spec, access, headerOnly) // remote_open.go
	}
	if access == npy.AccessFetch {
		access = npy.AccessSparse // a local file is mapped: its pages come in as they are read
	}
	path, member, hasMember := SplitSpec(spec)
	f, fi, err := openLocal(path)
	if err != nil {
		return nil, err
	}
	var a *npy.Array
	defer func() {
		if a == nil || a.ReaderAt() == nil { // an npy.AccessReadAt array keeps f open
			f.Close()
		}
	}()
	switch {
	case fi.IsDir():
		return nil, errors.New("is a directory, not a .npy file")
	case !fi.Mode().IsRegular():
		// A pipe or device: it can be read once, from the start.
		return openStream(f, member, hasMember, headerOnly)
	}
	a, err = openFile(f, fi.Size(), member, hasMember, access, headerOnly)
	return a, err
}

// stdinFile returns standard input when it is a regular file read from
// its start (redirected from a file), which is then read as the file is.
func stdinFile(stdin io.Reader) (f *os.File, size int64, ok bool) {
	f, ok = stdin.(*os.File)
	if !ok {
		return nil, 0, false
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if off, err := f.Seek(0, io.SeekCurrent); err == nil && off == 0 {
			return f, fi.Size(), true
		}
	}
	return nil, 0, false
}

// openLocal opens the local file at path and reads its FileInfo; an error
// is openError's, and f is then closed.
func openLocal(path string) (*os.File, os.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, openError(err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, openError(err)
	}
	return f, fi, nil
}

// openError drops the *fs.PathError wrapper, whose path the caller already
// names, and keeps the cause for errors.Is.
func openError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("cannot open: %w", pe.Err)
	}
	return err
}

// isZip reports whether b starts with a zip local file header or, for an
// archive with no members, the end of central directory record.
func isZip(b []byte) bool {
	return bytes.HasPrefix(b, []byte("PK\x03\x04")) || bytes.HasPrefix(b, []byte("PK\x05\x06"))
}

// openFile opens the .npy file, or the .npz archive, f of the given size.
func openFile(f *os.File, size int64, member string, hasMember bool, access npy.Access, headerOnly bool) (*npy.Array, error) {
	var sig [4]byte
	n, err := f.ReadAt(sig[:], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	if !hasNpyMagic(sig[:n]) {
		if a, ok, err := openTensorFile(f, size, member, hasMember, access, headerOnly); ok {
			return a, err
		}
	}
	if a, ok, err := openAsNpz(f, size, f.Name(), sig[:n], member, hasMember, headerOnly); ok {
		return a, err
	}
	return npy.OpenFile(f, size, access, headerOnly)
}

// hasNpyMagic reports whether sig, a file's first bytes, could start a
// .npy file: Open's test, on the first four bytes.
func hasNpyMagic(sig []byte) bool {
	return strings.HasPrefix(npy.Magic, string(sig[:min(len(sig), 4)]))
}

// openAsNpz opens member (or the only one) of r, size bytes, as an .npz
// archive when its first bytes (sig) or its name say it is one; ok is
// false when r is a .npy file instead, which has no member to name.
func openAsNpz(r io.ReaderAt, size int64, name string, sig []byte, member string, hasMember, headerOnly bool) (a *npy.Array, ok bool, err error) {
	switch {
	case isZip(sig) || !hasNpyMagic(sig) && strings.HasSuffix(strings.ToLower(name), ".npz"):
		zr, err := openNpzReader(r, size)
		if err != nil {
			return nil, true, err
		}
		a, err := npy.OpenMember(zr, member, hasMember, headerOnly)
		return a, true, err
	case hasMember:
		return nil, true, npy.Malformed("not an .npz archive, so it has no member %q", member)
	}
	return nil, false, nil
}

// openNpzReader reads the zip directory of r, an .npz archive of size
// bytes.
func openNpzReader(r io.ReaderAt, size int64) (*zip.Reader, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, npy.Malformed("not a valid .npz archive: %w", err)
	}
	return zr, nil
}

// openStream reads an array from a stream that can be read only once.
func openStream(r io.Reader, member string, hasMember bool, headerOnly bool) (*npy.Array, error) {
	br := bufio.NewReader(r)
	sig, _ := br.Peek(probeLen)
	if looksLikeTensorFile(sig) {
		s, err := readStream(br, "the archive on the stream", true)
		if err != nil {
			return nil, err
		}
		a, onMapping, err := openArchiveBytes(s.b, member, hasMember, headerOnly)
		if err == nil && s.mapping != nil && onMapping {
			a.OwnMapping(s.mapping) // the array's data is on the stream's mapping: it owns it now
			s.mapping = nil
		}
		s.release()
		return a, err
	}
	if hasMember {
		return nil, npy.Malformed("not an .npz archive, so it has no member %q", member)
	}
	h, err := npy.ReadHeader(br)
	if err != nil {
		return nil, err
	}
	a := &npy.Array{Header: h}
	if headerOnly {
		return a, nil
	}
	a.Data, err = npy.ReadData(br, h.NBytes())
	return a, err
}

// openArchiveBytes opens a member (or the only one) of b, a whole tensor
// file or .npz archive read from a stream; onMapping tells whether the
// array's Data is a slice of b (a tensor stored as it is read).
func openArchiveBytes(b []byte, member string, hasMember bool, headerOnly bool) (a *npy.Array, onMapping bool, err error) {
	if a, onMapping, ok, err := openTensorBytes(b, member, hasMember, headerOnly); ok {
		return a, onMapping, err
	}
	if !isZip(b) {
		return nil, false, npy.Malformed("not a .npy file, an .npz archive or a tensor file")
	}
	zr, err := openNpzReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, false, err
	}
	a, err = npy.OpenMember(zr, member, hasMember, headerOnly) // its data is read into a buffer of its own
	return a, false, err
}

// MapBytes returns the whole of the regular file at path, mapped read-only
// with its pages read in ahead (or read into memory where it cannot be
// mapped), and the function that releases it. A text reader parses it in
// place: no copy from the page cache, no heap to fault in.
func MapBytes(path string) ([]byte, func(), error) {
	if remote.IsURL(path) {
		return remoteBytes(path) // remote_open.go
	}
	f, fi, err := openLocal(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if fi.IsDir() {
		return nil, nil, errors.New("is a directory, not a text file")
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return ReadStream(f, path)
	}
	if m, err := sysmem.MapFile(f, fi.Size(), sysmem.FitsInMemory(fi.Size()), false); err == nil {
		sysmem.Register(m, path, false)
		return m, func() { sysmem.Unregister(m); sysmem.Unmap(m) }, nil
	}
	if err := sysmem.CheckMemory("the text, which is read into memory", fi.Size()); err != nil {
		return nil, nil, err
	}
	b, err := io.ReadAll(f)
	return b, func() {}, err
}
