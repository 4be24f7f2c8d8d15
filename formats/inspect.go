package formats

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/formats/torch"
	"strider/internal/termsafe"
)

// Inspect reads the header (only) of the array spec names, as Open finds
// it, or of every member of a bare archive, in archive order. Unlike
// OpenHeader it describes what it can: a dtype strider refuses, or data
// cut short (in a file; a pipe's data is not judged). It reads no more of
// a stream than the header (a whole archive when the stream is one).
func Inspect(spec string, stdin io.Reader) ([]npy.Description, error) {
	if spec == "-" {
		if stdin == nil {
			return nil, errors.New("no standard input to read")
		}
		if f, size, ok := stdinFile(stdin); ok {
			return inspectFile(f, size, "", false)
		}
		return inspectStream(stdin, "", false)
	}
	if remote.IsURL(spec) {
		return inspectRemote(spec) // remote_open.go
	}
	path, member, hasMember := SplitSpec(spec)
	f, fi, err := openLocal(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	switch {
	case fi.IsDir():
		return nil, errors.New("is a directory, not a .npy file")
	case !fi.Mode().IsRegular():
		return inspectStream(f, member, hasMember)
	}
	return inspectFile(f, fi.Size(), member, hasMember)
}

func inspectFile(f io.ReaderAt, size int64, member string, hasMember bool) ([]npy.Description, error) {
	var sig [16]byte
	n, err := f.ReadAt(sig[:], 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	if isZip(sig[:n]) {
		zr, err := openNpzReader(f, size)
		if err != nil {
			return nil, err
		}
		return inspectArchive(zr, member, hasMember)
	}
	if err := notNpy(sig[:n]); err != nil {
		return nil, err
	}
	if hasMember {
		return nil, npy.Malformed("not an .npz archive, so it has no member %q", member)
	}
	d, err := npy.Describe(io.NewSectionReader(f, 0, size), size, "file")
	if err != nil {
		return nil, err
	}
	return []npy.Description{d}, nil
}

func inspectStream(r io.Reader, member string, hasMember bool) ([]npy.Description, error) {
	br := bufio.NewReader(r)
	sig, _ := br.Peek(16)
	if isZip(sig) {
		s, err := readStream(br, "the archive on the stream", true)
		if err != nil {
			return nil, err
		}
		defer s.release() // the descriptions hold no bytes of it
		archive := s.b
		zr, err := openNpzReader(bytes.NewReader(archive), int64(len(archive)))
		if err != nil {
			return nil, err
		}
		return inspectArchive(zr, member, hasMember)
	}
	if err := notNpy(sig); err != nil {
		return nil, err
	}
	if hasMember {
		return nil, npy.Malformed("not an .npz archive, so it has no member %q", member)
	}
	// The data of a stream is neither waited for nor judged: info is
	// about the header. What follows it is left unread here: the command
	// drains standard input once it has succeeded (cmd's drainStdin), and
	// nothing else, so an endless stream that is not a .npy (`yes |
	// strider info -`, /dev/urandom) is refused at once.
	d, err := npy.Describe(br, -1, "stream")
	if err != nil {
		return nil, err
	}
	return []npy.Description{d}, nil
}

// notNpy explains a file that is no .npy by what it is, when it can tell:
// a legacy torch.save file or another pickle.
func notNpy(sig []byte) error {
	if len(sig) >= 2 && sig[0] == 0x80 && sig[1] >= 2 && sig[1] <= 5 {
		if bytes.Contains(sig, []byte(torch.LegacyMagic)) {
			return npy.Malformed("this is a PyTorch file (legacy torch.save format), not a .npy array")
		}
		return npy.Malformed("this is a Python pickle, not a .npy array (strider never unpickles)")
	}
	return nil
}

func inspectArchive(zr *zip.Reader, member string, hasMember bool) ([]npy.Description, error) {
	for _, f := range zr.File {
		if f.Name == "data.pkl" || strings.HasSuffix(f.Name, "/data.pkl") {
			return nil, npy.Malformed("this is a PyTorch file (torch.save), not an .npz archive of .npy arrays")
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
			return nil, fmt.Errorf("archive has no array named %q (it holds %s)", member, npy.MemberList(zr))
		}
	} else {
		if len(zr.File) == 0 {
			return nil, npy.Malformed("archive holds no arrays")
		}
		files = zr.File
	}
	var out []npy.Description
	for _, zf := range files {
		rc, err := zf.Open()
		if err != nil {
			return nil, npy.Malformed("cannot read member %q: %w", zf.Name, err)
		}
		size := int64(-1)
		if zf.UncompressedSize64 <= math.MaxInt64 {
			size = int64(zf.UncompressedSize64)
		}
		d, err := npy.Describe(rc, size, "member")
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
