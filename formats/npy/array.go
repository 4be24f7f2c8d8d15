package npy

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"

	"strider/internal/sysmem"
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
	source  Source   // what Data lies on when its reader filled it (a remote file); nil otherwise
	lazy    bool     // Data is filled by Fetch only (AccessFetch)
}

// Close releases the array's memory mapping. Data must not be used after
// Close. Close is idempotent.
func (a *Array) Close() error {
	m, f, s := a.mapping, a.file, a.source
	a.mapping, a.Data, a.file, a.source = nil, nil, nil, nil
	if s != nil {
		return s.Close()
	}
	if f != nil {
		return f.Close()
	}
	if m == nil {
		return nil
	}
	sysmem.Unregister(m)
	return sysmem.Unmap(m)
}

// OwnMapping gives a the read-only mapping m that its Data lies on, a
// whole tensor file or a stream's spill mapped by the reader that made a:
// Close unmaps it.
func (a *Array) OwnMapping(m []byte) { a.mapping = m }

// Source is what the Data of an array lies on when the array's reader
// filled it from elsewhere (a remote file, formats/remote): Close releases
// it, Fetch fills the given spans of the Data of an array opened with
// AccessFetch, and FetchInto reads bytes of that Data at an offset into a
// buffer of the caller's instead.
type Source interface {
	Fetch(spans []Span) error
	FetchInto(dst []byte, off int64) error
	Close() error
}

// Span is the bytes [Off, Off+Len) of an array's Data.
type Span struct{ Off, Len int64 }

// OwnSource gives a the source its Data lies on: Close closes it. lazy
// says that Data holds zeros until Fetch fills what the caller reads.
func (a *Array) OwnSource(s Source, lazy bool) { a.source, a.lazy = s, lazy }

// HasSource reports whether a's Data lies on a Source that a owns.
func (a *Array) HasSource() bool { return a.source != nil }

// Lazy reports whether a's Data must be filled by Fetch before it is read:
// an array opened with AccessFetch whose bytes are not yet in memory.
func (a *Array) Lazy() bool { return a.lazy }

// Fetch fills the spans of a lazy array's Data (sorted or not; they may
// overlap); it does nothing for an array whose Data is all there.
func (a *Array) Fetch(spans []Span) error {
	if !a.lazy || len(spans) == 0 {
		return nil
	}
	return a.source.Fetch(spans)
}

// FetchInto reads bytes [off, off+len(dst)) of a's Data into dst. For a
// lazy array they come from its source and are not kept in Data: for a
// reader that reads each byte once, a piece at a time, into buffers it
// reuses (compare of a remote input). Otherwise they are copied from Data.
func (a *Array) FetchInto(dst []byte, off int64) error {
	if off < 0 || off+int64(len(dst)) > int64(len(a.Data)) {
		return fmt.Errorf("bytes %d..%d are not in the array's %d", off, off+int64(len(dst)), len(a.Data))
	}
	if !a.lazy {
		copy(dst, a.Data[off:])
		return nil
	}
	return a.source.FetchInto(dst, off)
}

// Mapped reports whether a's Data lies on a mapping that a owns.
func (a *Array) Mapped() bool { return a.mapping != nil }

// Strided reports whether a is a strided view of a torch storage, whose
// Strides are its own rather than its Header's layout.
func (a *Array) Strided() bool { return a.strides != nil }

// Access tells formats.Open (and OpenFile) how the caller will read the
// data.
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
	// AccessFetch is AccessSparse for a remote input (formats/remote):
	// Data is left unread (zeros), and the caller fills the spans it will
	// read with Fetch, which fetches them with HTTP range requests. Any
	// other input opens as with AccessSparse, and Fetch does nothing.
	AccessFetch
)

// ReaderAt returns the data region of an array opened with AccessReadAt,
// offset 0 being its first byte, or nil when the data is in Data instead.
func (a *Array) ReaderAt() io.ReaderAt {
	if a.file == nil {
		return nil
	}
	return io.NewSectionReader(a.file, a.DataOffset, a.NBytes())
}

// DataAlign is the alignment of Array.Data and output.Output.Data: enough
// for any element type, and NumPy's own header alignment.
const DataAlign = 64

// OpenFile reads the .npy file f of size bytes (a regular file, or
// standard input redirected from one) as access says: its data is mapped
// read-only where the file system allows (read into memory where it does
// not, or where it is misaligned), or, with AccessReadAt, left in the file
// for ReaderAt, f then staying open until Close. With headerOnly only the
// header is read.
func OpenFile(f *os.File, size int64, access Access, headerOnly bool) (*Array, error) {
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
		a.Data, err = ReadData(io.NewSectionReader(f, h.DataOffset, nbytes), nbytes)
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

// Strides returns the element strides of a: its own when it is a strided
// view over a torch storage, else those of its header's layout.
func (a *Array) Strides() []int {
	if a.strides != nil {
		return a.strides
	}
	return a.Header.Strides()
}

// dataPages returns the pages of the mapping m that hold data, a slice of
// m: what Prefetch reads in.
func dataPages(m, data []byte) []byte {
	if len(data) == 0 {
		return nil
	}
	off := int(sysmem.AddrOf(data) - sysmem.AddrOf(m))
	if off < 0 || off+len(data) > len(m) {
		return m
	}
	page := os.Getpagesize()
	start := off / page * page
	return m[start : off+len(data)]
}

// ReadData reads exactly n bytes of array data from r into a fresh aligned
// buffer. The buffer grows as the bytes arrive, so a header that promises
// more than the stream holds fails without first allocating it all.
func ReadData(r io.Reader, n int64) ([]byte, error) {
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
