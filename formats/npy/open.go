package npy

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sort"
	"strings"
	"unsafe"

	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// Array is an array read from a .npy file or .npz member, or a tensor of a
// .safetensors or torch.save file.
type Array struct {
	Header
	// Data is exactly NBytes() bytes, starting on a 16-byte boundary. It is
	// read-only memory when the file is mapped: never write to it. For a
	// tensor of a .safetensors or torch.save file, Data is aligned only for
	// its element type (to its size, at most 8), and for a strided torch
	// tensor (Strides() differs from the Header's) it runs from the first
	// element to the last.
	Data []byte

	strides []int // a torch tensor's element strides; nil: the Header's

	mapping []byte   // the whole mapping, nil when Data is on the heap
	file    *os.File // the open file, for AccessReadAt; nil otherwise
}

// Close releases the array's memory mapping. Data must not be used after
// Close. Close is idempotent.
func (a *Array) Close() error {
	m, f := a.mapping, a.file
	a.mapping, a.Data, a.file = nil, nil, nil
	if f != nil {
		return f.Close()
	}
	if m == nil {
		return nil
	}
	sysmem.Unregister(m)
	return sysmem.Unmap(m)
}

// Access tells Open how the caller will read the data.
type Access int

const (
	// AccessSparse maps lazily: a command touches only the pages it reads
	// (diagonal, slice).
	AccessSparse Access = iota
	// AccessAll maps for a reader of the whole array in C order (compare,
	// stats, to-text): a Fortran-order array, which that order
	// visits out of order, is read in ahead at once; a C-order one is
	// faulted in as it is read, 16 pages a fault, which costs less than
	// populating page by page and is spread over the reader's threads.
	AccessAll
	// AccessAllLater maps as AccessAll does but reads nothing in yet: a
	// caller that reads the array out of order calls Prefetch once the
	// outputs exist, so that a full disk or a bad output path fails before
	// gigabytes are read.
	AccessAllLater
	// AccessReadAt maps nothing for a regular .npy file: the caller reads
	// the data through ReaderAt, one pread per piece, which beats page
	// faults when a few elements lie far apart (a diagonal). Other inputs
	// (standard input from a pipe, .npz members) are read as usual.
	AccessReadAt
)

// ReaderAt returns the data region of an array opened with AccessReadAt,
// offset 0 being its first byte, or nil when the data is in Data instead.
func (a *Array) ReaderAt() io.ReaderAt {
	if a.file == nil {
		return nil
	}
	return io.NewSectionReader(a.file, a.DataOffset, a.NBytes())
}

// DataAlign is the alignment of Array.Data and Output.Data: enough for any
// element type, and NumPy's own header alignment.
const DataAlign = 64

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
func Open(spec string, stdin io.Reader, access Access) (*Array, error) {
	return open(spec, stdin, access, false)
}

// OpenHeader reads only the header of the array spec names (see Open). It
// neither reads nor maps the data, so it is instant on any file size.
func OpenHeader(spec string, stdin io.Reader) (Header, error) {
	a, err := open(spec, stdin, AccessSparse, true)
	if err != nil {
		return Header{}, err
	}
	return a.Header, nil
}

// open is Open, or OpenHeader when headerOnly.
func open(spec string, stdin io.Reader, access Access, headerOnly bool) (*Array, error) {
	if spec == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input to read")
		}
		// Standard input redirected from a file can be mapped like the file.
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				if off, err := f.Seek(0, io.SeekCurrent); err == nil && off == 0 {
					return openFile(f, fi.Size(), "", false, access, headerOnly)
				}
			}
		}
		return openStream(stdin, "", false, headerOnly)
	}
	path, member, hasMember := SplitSpec(spec)
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(err)
	}
	var a *Array
	defer func() {
		if a == nil || a.file != f { // an AccessReadAt array keeps f open
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, openError(err)
	}
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
func openFile(f *os.File, size int64, member string, hasMember bool, access Access, headerOnly bool) (*Array, error) {
	var sig [4]byte
	n, err := f.ReadAt(sig[:], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	npyMagic := strings.HasPrefix(Magic, string(sig[:n]))
	if !npyMagic {
		if a, ok, err := openTensorFile(f, size, member, hasMember, access, headerOnly); ok {
			return a, err
		}
	}
	switch {
	case isZip(sig[:n]) || !npyMagic && strings.HasSuffix(strings.ToLower(f.Name()), ".npz"):
		zr, err := zip.NewReader(f, size)
		if err != nil {
			return nil, Malformed("not a valid .npz archive: %w", err)
		}
		return openMember(zr, member, hasMember, headerOnly)
	case hasMember:
		return nil, Malformed("not an .npz archive, so it has no member %q", member)
	}

	h, err := readHeader(io.NewSectionReader(f, 0, size), size, "file")
	if err != nil {
		return nil, err
	}
	a := &Array{Header: h}
	if err := checkDataSize(h, size-h.DataOffset); err != nil {
		return nil, err
	}
	if headerOnly {
		return a, nil
	}
	nbytes := h.NBytes()
	if nbytes == 0 {
		a.Data = []byte{}
		return a, nil
	}
	if access == AccessReadAt && f.Name() != "/dev/stdin" {
		a.file = f
		return a, nil
	}
	end := h.DataOffset + nbytes
	populate := access == AccessAll && h.Fortran && sysmem.FitsInMemory(end)
	m, err := sysmem.MapFile(f, end, populate, access != AccessAll && access != AccessAllLater)
	if err != nil {
		// Some file systems cannot map; read the data instead.
		a.Data, err = readData(io.NewSectionReader(f, h.DataOffset, nbytes), nbytes)
		return a, err
	}
	name := f.Name()
	if name == "/dev/stdin" {
		name = "standard input"
	}
	sysmem.Register(m, name, false)
	if h.DataOffset%16 != 0 {
		// A writer other than NumPy left the data misaligned; typed views
		// need it aligned, so take a copy.
		if err := sysmem.CheckMemory("a copy of the misaligned data", nbytes); err != nil {
			sysmem.Unregister(m)
			sysmem.Unmap(m)
			return nil, err
		}
		a.Data = AlignedBuf(int(nbytes))
		copy(a.Data, m[h.DataOffset:end])
		sysmem.Unregister(m)
		return a, sysmem.Unmap(m)
	}
	a.mapping = m
	a.Data = m[h.DataOffset:end:end]
	return a, nil
}

// Prefetch reads the pages of a mapped array in now, as AccessAll does at
// Open, when they fit in memory. It is advice: errors are ignored.
func (a *Array) Prefetch() {
	if a.mapping != nil && sysmem.FitsInMemory(int64(len(a.Data))) {
		sysmem.Prefetch(dataPages(a.mapping, a.Data)) // a tensor may be a small part of its file
	}
}

// checkDataSize checks that avail bytes after the header hold the data.
func checkDataSize(h Header, avail int64) error {
	if want := h.NBytes(); avail < want {
		return Malformed("data is %d bytes but the header promises %d", max(avail, 0), want)
	}
	return nil
}

// openStream reads an array from a stream that can be read only once.
func openStream(r io.Reader, member string, hasMember bool, headerOnly bool) (*Array, error) {
	br := bufio.NewReader(r)
	sig, _ := br.Peek(probeLen)
	if looksLikeTensorFile(sig) {
		s, err := readStream(br, "the archive on the stream", true)
		if err != nil {
			return nil, err
		}
		a, onMapping, err := openArchiveBytes(s.b, member, hasMember, headerOnly)
		if err == nil && s.mapping != nil && onMapping {
			a.mapping = s.mapping // the array's data is on the stream's mapping: it owns it now
			s.mapping = nil
		}
		s.release()
		return a, err
	}
	if hasMember {
		return nil, Malformed("not an .npz archive, so it has no member %q", member)
	}
	h, err := ReadHeader(br)
	if err != nil {
		return nil, err
	}
	a := &Array{Header: h}
	if headerOnly {
		return a, nil
	}
	a.Data, err = readData(br, h.NBytes())
	return a, err
}

// openArchiveBytes opens a member (or the only one) of b, a whole tensor
// file or .npz archive read from a stream; onMapping tells whether the
// array's Data is a slice of b (a tensor stored as it is read).
func openArchiveBytes(b []byte, member string, hasMember bool, headerOnly bool) (a *Array, onMapping bool, err error) {
	if a, onMapping, ok, err := openTensorBytes(b, member, hasMember, headerOnly); ok {
		return a, onMapping, err
	}
	if !isZip(b) {
		return nil, false, Malformed("not a .npy file, an .npz archive or a tensor file")
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, false, Malformed("not a valid .npz archive: %w", err)
	}
	a, err = openMember(zr, member, hasMember, headerOnly) // its data is read into a buffer of its own
	return a, false, err
}

// openMember opens the archive member named member (with or without its
// .npy suffix), or the only member when !hasMember.
func openMember(zr *zip.Reader, member string, hasMember bool, headerOnly bool) (*Array, error) {
	var zf *zip.File
	if hasMember {
		zf = findMember(zr, member)
		if zf == nil {
			return nil, fmt.Errorf("archive has no array named %q (it holds %s)", member, memberList(zr))
		}
	} else {
		if len(zr.File) != 1 {
			return nil, fmt.Errorf("archive holds %d arrays (%s): name one as file.npz:NAME", len(zr.File), memberList(zr))
		}
		zf = zr.File[0]
	}
	return readMember(zf, headerOnly)
}

// readMember reads the .npy that the archive member zf holds.
func readMember(zf *zip.File, headerOnly bool) (*Array, error) {
	rc, err := zf.Open()
	if err != nil {
		return nil, Malformed("cannot read member %q: %w", zf.Name, err)
	}
	defer rc.Close()
	size := int64(-1)
	if zf.UncompressedSize64 <= math.MaxInt64 {
		size = int64(zf.UncompressedSize64)
	}
	h, err := readHeader(rc, size, "member")
	if err != nil {
		return nil, err
	}
	a := &Array{Header: h}
	if size >= 0 {
		if err := checkDataSize(h, size-h.DataOffset); err != nil {
			return nil, err
		}
	}
	if headerOnly {
		return a, nil
	}
	if a.Data, err = readData(rc, h.NBytes()); err != nil {
		return nil, err
	}
	// Read to the end so that archive/zip checks the member's CRC-32.
	if _, err := io.Copy(io.Discard, rc); err != nil {
		return nil, Malformed("member %q is corrupt: %w", zf.Name, err)
	}
	return a, nil
}

// findMember finds the member np.load(archive)[member] reads: the one
// named exactly member, else member.npy; and of several with that name
// (an archive written by appending), the last in the central directory,
// as Python's zipfile does.
func findMember(zr *zip.Reader, member string) *zip.File {
	for _, name := range []string{member, member + ".npy"} {
		for i := len(zr.File) - 1; i >= 0; i-- {
			if zr.File[i].Name == name {
				return zr.File[i]
			}
		}
	}
	return nil
}

// maxListed is how many member names an error message lists.
const maxListed = 12

// memberList names the arrays in an archive, without their .npy suffix:
// all of them when they are few, else the first and last few.
func memberList(zr *zip.Reader) string {
	if len(zr.File) == 0 {
		return "no arrays"
	}
	names := make([]string, len(zr.File))
	for i, f := range zr.File {
		names[i] = termsafe.Escape(strings.TrimSuffix(f.Name, ".npy"))
	}
	sort.Strings(names)
	if n := len(names); n > maxListed {
		head := append(names[:maxListed-2:maxListed-2], "...", names[n-2], names[n-1])
		return fmt.Sprintf("%d arrays: %s", n, strings.Join(head, ", "))
	}
	return strings.Join(names, ", ")
}

// readData reads exactly n bytes of array data from r into a fresh aligned
// buffer. The buffer grows as the bytes arrive, so a header that promises
// more than the stream holds fails without first allocating it all.
func readData(r io.Reader, n int64) ([]byte, error) {
	if n > math.MaxInt-DataAlign {
		return nil, Malformed("data of %d bytes does not fit in memory", n)
	}
	const firstChunk = 1 << 20
	// Past this much, the data is checked against the memory available: a
	// stream that really holds more fails with that error, while a short
	// stream under a lying header still fails with its shortfall.
	const checkAt = 64 << 20
	buf := AlignedBuf(int(min(n, firstChunk)))
	got := 0
	for int64(got) < n {
		if got == len(buf) {
			if got < checkAt && 2*int64(got) >= checkAt {
				if err := sysmem.CheckMemory("the data, which is read into memory (a .npy file given by its path is mapped instead)", n); err != nil {
					return nil, err
				}
			}
			grown := AlignedBuf(int(min(n, 2*int64(len(buf)))))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[got:])
		got += m
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, Malformed("data is %d bytes but the header promises %d: %w", got, n, io.ErrUnexpectedEOF)
		}
		if err != nil {
			return nil, fmt.Errorf("reading the data: %w", err)
		}
	}
	return buf, nil
}

// AlignedBuf returns a zeroed n-byte slice whose first byte is aligned to
// DataAlign, so that it can be viewed as any element type.
func AlignedBuf(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	b := make([]byte, n+DataAlign-1)
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & (DataAlign - 1))
	return b[off : off+n : off+n]
}

// MapBytes returns the whole of the regular file at path, mapped read-only
// with its pages read in ahead (or read into memory where it cannot be
// mapped), and the function that releases it. A text reader parses it in
// place: no copy from the page cache, no heap to fault in.
func MapBytes(path string) ([]byte, func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, openError(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, openError(err)
	}
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
