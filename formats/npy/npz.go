package npy

import (
	"archive/zip"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"strider/internal/termsafe"
)

// The members of an .npz archive, found and read as np.load finds and
// reads them (npz_write.go writes archives).

// OpenMember opens the archive member named member (with or without its
// .npy suffix), or the only member when !hasMember.
func OpenMember(zr *zip.Reader, member string, hasMember bool, headerOnly bool) (*Array, error) {
	zf, err := PickMember(zr, member, hasMember)
	if err != nil {
		return nil, err
	}
	return ReadMember(zf, headerOnly)
}

// PickMember is the member of zr that file.npz:member names (findMember),
// or, without a member, the archive's only one.
func PickMember(zr *zip.Reader, member string, hasMember bool) (*zip.File, error) {
	if hasMember {
		zf := findMember(zr, member)
		if zf == nil {
			return nil, fmt.Errorf("archive has no array named %q (it holds %s)", member, MemberList(zr))
		}
		return zf, nil
	}
	if len(zr.File) != 1 {
		return nil, fmt.Errorf("archive holds %d arrays (%s): name one as file.npz:NAME", len(zr.File), MemberList(zr))
	}
	return zr.File[0], nil
}

// ReadMember reads the .npy that the archive member zf holds.
func ReadMember(zf *zip.File, headerOnly bool) (*Array, error) {
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
	if a.Data, err = ReadData(rc, h.NBytes()); err != nil {
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

// MemberList names the arrays in an archive, without their .npy suffix:
// all of them when they are few, else the first and last few.
func MemberList(zr *zip.Reader) string {
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
