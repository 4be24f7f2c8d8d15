package npy

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"strider/internal/termsafe"
)

// Description is what info shows of one array header, including headers
// whose dtype strider refuses and files whose data is cut short.
type Description struct {
	// Member is the member's name (without .npy) when a bare archive is
	// listed; "" otherwise.
	Member string
	Header Header
	// Refused, when set, is why strider cannot compute on the array (a
	// string, structured, object or datetime dtype); Header.Dtype is then
	// unset and Header.RawDescr names the dtype.
	Refused error
	// ItemSize is the bytes per element, for a refused dtype too when its
	// descr says (0 when it does not: structured).
	ItemSize int
	// DataBytes is how many data bytes follow the header (-1: unknown).
	DataBytes int64
}

// NBytes is the size the header promises, or -1 when it is unknown or
// overflows.
func (d Description) NBytes() int64 {
	if d.ItemSize == 0 && d.Refused != nil {
		return -1
	}
	n, ok := CheckedNBytes(d.Header.Shape, d.ItemSize)
	if !ok {
		return -1
	}
	return n
}

// Truncated reports whether fewer data bytes follow than the header promises.
func (d Description) Truncated() bool {
	n := d.NBytes()
	return d.DataBytes >= 0 && n >= 0 && d.DataBytes < n
}

// Inspect reads the header (only) of the array spec names, as Open finds
// it, or of every member of a bare archive, in archive order. Unlike
// OpenHeader it describes what it can: a dtype strider refuses, or data
// cut short (in a file; a pipe's data is not judged). It reads no more of
// a stream than the header (a whole archive when the stream is one).
func Inspect(spec string, stdin io.Reader) ([]Description, error) {
	if spec == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input to read")
		}
		if f, ok := stdin.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				if off, err := f.Seek(0, io.SeekCurrent); err == nil && off == 0 {
					return inspectFile(f, fi.Size(), "", false)
				}
			}
		}
		return inspectStream(stdin, "", false)
	}
	path, member, hasMember := SplitSpec(spec)
	f, err := os.Open(path)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, openError(err)
	}
	switch {
	case fi.IsDir():
		return nil, errors.New("is a directory, not a .npy file")
	case !fi.Mode().IsRegular():
		return inspectStream(f, member, hasMember)
	}
	return inspectFile(f, fi.Size(), member, hasMember)
}

func inspectFile(f *os.File, size int64, member string, hasMember bool) ([]Description, error) {
	var sig [16]byte
	n, err := f.ReadAt(sig[:], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	if isZip(sig[:n]) {
		zr, err := zip.NewReader(f, size)
		if err != nil {
			return nil, Malformed("not a valid .npz archive: %w", err)
		}
		return inspectArchive(zr, member, hasMember)
	}
	if err := notNpy(sig[:n]); err != nil {
		return nil, err
	}
	if hasMember {
		return nil, Malformed("not an .npz archive, so it has no member %q", member)
	}
	d, err := describe(io.NewSectionReader(f, 0, size), size, "file")
	if err != nil {
		return nil, err
	}
	return []Description{d}, nil
}

func inspectStream(r io.Reader, member string, hasMember bool) ([]Description, error) {
	br := bufio.NewReader(r)
	sig, _ := br.Peek(16)
	if isZip(sig) {
		s, err := readStream(br, "the archive on the stream", true)
		if err != nil {
			return nil, err
		}
		defer s.release() // the descriptions hold no bytes of it
		archive := s.b
		zr, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
		if err != nil {
			return nil, Malformed("not a valid .npz archive: %w", err)
		}
		return inspectArchive(zr, member, hasMember)
	}
	if err := notNpy(sig); err != nil {
		return nil, err
	}
	if hasMember {
		return nil, Malformed("not an .npz archive, so it has no member %q", member)
	}
	// The data of a stream is neither waited for nor judged: info is
	// about the header. What follows it is left unread here: the command
	// drains standard input once it has succeeded (cmd's drainStdin), and
	// nothing else, so an endless stream that is not a .npy (`yes |
	// strider info -`, /dev/urandom) is refused at once.
	d, err := describe(br, -1, "stream")
	if err != nil {
		return nil, err
	}
	return []Description{d}, nil
}

// torchMagic is the pickled magic number a legacy torch.save file starts with.
var torchMagic = []byte("\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19")

// notNpy explains a file that is no .npy by what it is, when it can tell:
// a legacy torch.save file or another pickle.
func notNpy(sig []byte) error {
	if len(sig) >= 2 && sig[0] == 0x80 && sig[1] >= 2 && sig[1] <= 5 {
		if bytes.Contains(sig, torchMagic) {
			return Malformed("this is a PyTorch file (legacy torch.save format), not a .npy array")
		}
		return Malformed("this is a Python pickle, not a .npy array (strider never unpickles)")
	}
	return nil
}

func inspectArchive(zr *zip.Reader, member string, hasMember bool) ([]Description, error) {
	for _, f := range zr.File {
		if f.Name == "data.pkl" || strings.HasSuffix(f.Name, "/data.pkl") {
			return nil, Malformed("this is a PyTorch file (torch.save), not an .npz archive of .npy arrays")
		}
	}
	var files []*zip.File
	if hasMember {
		for _, f := range zr.File {
			if f.Name == member+".npy" {
				files = []*zip.File{f}
			}
		}
		for _, f := range zr.File {
			if files == nil && f.Name == member {
				files = []*zip.File{f}
			}
		}
		if files == nil {
			return nil, fmt.Errorf("archive has no array named %q (it holds %s)", member, memberList(zr))
		}
	} else {
		if len(zr.File) == 0 {
			return nil, Malformed("archive holds no arrays")
		}
		files = zr.File
	}
	var out []Description
	for _, zf := range files {
		rc, err := zf.Open()
		if err != nil {
			return nil, Malformed("cannot read member %q: %w", zf.Name, err)
		}
		size := int64(-1)
		if zf.UncompressedSize64 <= math.MaxInt64 {
			size = int64(zf.UncompressedSize64)
		}
		d, err := describe(rc, size, "member")
		rc.Close()
		if err != nil {
			if !hasMember {
				return nil, fmt.Errorf("member %s: %w", termsafe.Escape(strings.TrimSuffix(zf.Name, ".npy")), err)
			}
			return nil, err
		}
		if !hasMember {
			d.Member = strings.TrimSuffix(zf.Name, ".npy")
		}
		out = append(out, d)
	}
	return out, nil
}

// describe reads one header from r, a stream of size bytes (-1 unknown).
func describe(r io.Reader, size int64, where string) (Description, error) {
	h, err := readHeader(r, size, where)
	d := Description{Header: h, DataBytes: -1}
	switch {
	case err == nil:
		d.ItemSize = h.Dtype.Size
	case errors.Is(err, ErrUnsupported) && h.RawDescr != "":
		d.Refused, d.ItemSize = err, rawItemSize(h.RawDescr)
	default:
		return Description{}, err
	}
	if size >= 0 {
		d.DataBytes = max(size-h.DataOffset, 0)
	}
	return d, nil
}

// rawItemSize is the element size NumPy gives a typestr strider refuses:
// '<U2' 8, '|S5' 5, '|O' 8, '<M8[ns]' 8, '|V16' 16, '<f16' 16; 0 when it
// cannot tell (a structured list).
func rawItemSize(descr string) int {
	s := strings.TrimLeft(descr, "<>=|")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return 0
	}
	letter, digits := s[0], s[1:]
	n, err := strconv.Atoi(digits)
	if digits == "" {
		n, err = 0, nil
	}
	if err != nil || n < 0 {
		return 0
	}
	switch letter {
	case 'U', 'w':
		if hi, lo := bits.Mul64(uint64(n), 4); hi == 0 && lo <= math.MaxInt32 {
			return int(lo)
		}
		return 0
	case 'c':
		if digits == "" {
			return 1 // 'c' is S1
		}
		return n // complex256 as 'c32'
	case 'S', 'a', 'V':
		return n
	case 'O':
		return 8
	case 'M', 'm':
		return 8
	case 'g':
		return 16
	case 'G':
		return 32
	case 'b', 'i', 'u', 'f':
		return n
	}
	return 0
}
