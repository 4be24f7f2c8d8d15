package npy

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"unicode/utf8"
)

// An output "file.npz:NAME" writes member NAME.npy of an archive laid out
// byte for byte as numpy.savez (NumPy 1.24 with Python 3.11's zipfile)
// lays it out: every member stored, in the order np.savez(path,
// **members) writes them, each with a local header that carries a ZIP64
// extra field (np.savez's force_zip64), the date 1980-01-01, mode 0600 in
// the central directory, no data descriptors, and ZIP64 end records only
// past zipfile's limits. The other members of an existing archive are
// kept, in their order, and stored as np.savez stores them; NAME keeps
// its place when it was there and comes last when it was not, as in
// np.savez(path, **dict(old, NAME=result)).

// Python zipfile's limits: past them a size, an offset or a count moves to
// a ZIP64 field.
const (
	zip64Limit     = 1<<31 - 1
	zipCountLimit  = 1<<16 - 1
	zipVersion     = 20 // zipfile.DEFAULT_VERSION
	zip64Version   = 45 // zipfile.ZIP64_VERSION
	zipUTF8Flag    = 0x800
	zipDOSDate1980 = 0x21         // 1980-01-01, ZipInfo's default date_time
	zipMode0600    = 0o600 << 16  // external_attr of a member zipfile.open(name, "w") writes
	zipUnixSystem  = 3            // create_system on Unix
	zipLocalSig    = "PK\x03\x04" // local file header
	zipCentralSig  = "PK\x01\x02" // central directory header
	zipEndSig      = "PK\x05\x06" // end of central directory
	zip64EndSig    = "PK\x06\x06" // ZIP64 end of central directory
	zip64LocSig    = "PK\x06\x07" // ZIP64 end of central directory locator
	zipEndRecord64 = 44           // size of the ZIP64 end record after its first 12 bytes
	ZipNameMax     = 1<<16 - 1    // a member name's length field
)

// npzEntry is a member written, for the central directory.
type npzEntry struct {
	name   string
	crc    uint32
	size   int64
	offset int64
}

// npzWriter writes an archive the way numpy.savez does.
type npzWriter struct {
	w       *bufio.Writer
	off     int64
	entries []npzEntry
}

func newNpzWriter(w io.Writer) *npzWriter {
	return &npzWriter{w: bufio.NewWriterSize(w, 1<<20)}
}

// nameFlags is zipfile's _encodeFilenameFlags: ASCII names as they are,
// others as UTF-8 with the language-encoding flag.
func nameFlags(name string) uint16 {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return zipUTF8Flag
		}
	}
	return 0
}

func (z *npzWriter) write(b []byte) error {
	n, err := z.w.Write(b)
	z.off += int64(n)
	return err
}

// member writes one stored member of size bytes with CRC-32 crc, whose
// bytes body writes.
func (z *npzWriter) member(name string, size int64, crc uint32, body func(io.Writer) (int64, error)) error {
	if len(name) > ZipNameMax {
		return fmt.Errorf("member name of %d bytes is too long for a zip archive", len(name))
	}
	e := npzEntry{name: name, crc: crc, size: size, offset: z.off}
	version, size32 := uint8(zipVersion), uint32(size)
	if size > zip64Limit {
		version, size32 = zip64Version, 0xffffffff
	}
	h := make([]byte, 0, 30+len(name)+20)
	h = append(h, zipLocalSig...)
	h = append(h, version, 0)
	h = binary.LittleEndian.AppendUint16(h, nameFlags(name))
	h = binary.LittleEndian.AppendUint16(h, 0) // stored
	h = binary.LittleEndian.AppendUint16(h, 0) // time 00:00:00
	h = binary.LittleEndian.AppendUint16(h, zipDOSDate1980)
	h = binary.LittleEndian.AppendUint32(h, crc)
	h = binary.LittleEndian.AppendUint32(h, size32) // compressed
	h = binary.LittleEndian.AppendUint32(h, size32)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(name)))
	h = binary.LittleEndian.AppendUint16(h, 20)
	h = append(h, name...)
	h = binary.LittleEndian.AppendUint16(h, 1) // the ZIP64 extra field np.savez forces
	h = binary.LittleEndian.AppendUint16(h, 16)
	h = binary.LittleEndian.AppendUint64(h, uint64(size))
	h = binary.LittleEndian.AppendUint64(h, uint64(size))
	if err := z.write(h); err != nil {
		return err
	}
	n, err := body(z.w)
	z.off += n
	if err != nil {
		return err
	}
	if n != size {
		return fmt.Errorf("member %q has %d bytes, not %d", name, n, size)
	}
	z.entries = append(z.entries, e)
	return nil
}

// close writes the central directory and the end records, and flushes.
func (z *npzWriter) close() error {
	start := z.off
	for _, e := range z.entries {
		if err := z.write(centralHeader(e)); err != nil {
			return err
		}
	}
	if err := z.write(endRecords(int64(len(z.entries)), z.off-start, start, z.off)); err != nil {
		return err
	}
	return z.w.Flush()
}

// centralHeader is e's central directory header, as zipfile writes it: a
// size or an offset past its limit moves to a ZIP64 extra field.
func centralHeader(e npzEntry) []byte {
	var extra []uint64
	size32, offset32 := uint32(e.size), uint32(e.offset)
	version := uint8(zipVersion)
	if e.size > zip64Limit {
		extra = append(extra, uint64(e.size), uint64(e.size))
		size32, version = 0xffffffff, zip64Version
	}
	if e.offset > zip64Limit {
		extra = append(extra, uint64(e.offset))
		offset32, version = 0xffffffff, zip64Version
	}
	h := make([]byte, 0, 46+len(e.name)+4+8*len(extra))
	h = append(h, zipCentralSig...)
	h = append(h, version, zipUnixSystem, version, 0)
	h = binary.LittleEndian.AppendUint16(h, nameFlags(e.name))
	h = binary.LittleEndian.AppendUint16(h, 0) // stored
	h = binary.LittleEndian.AppendUint16(h, 0)
	h = binary.LittleEndian.AppendUint16(h, zipDOSDate1980)
	h = binary.LittleEndian.AppendUint32(h, e.crc)
	h = binary.LittleEndian.AppendUint32(h, size32)
	h = binary.LittleEndian.AppendUint32(h, size32)
	h = binary.LittleEndian.AppendUint16(h, uint16(len(e.name)))
	xlen := 0
	if len(extra) > 0 {
		xlen = 4 + 8*len(extra)
	}
	h = binary.LittleEndian.AppendUint16(h, uint16(xlen))
	h = binary.LittleEndian.AppendUint16(h, 0) // comment
	h = binary.LittleEndian.AppendUint16(h, 0) // disk
	h = binary.LittleEndian.AppendUint16(h, 0) // internal attributes
	h = binary.LittleEndian.AppendUint32(h, zipMode0600)
	h = binary.LittleEndian.AppendUint32(h, offset32)
	h = append(h, e.name...)
	if len(extra) > 0 {
		h = binary.LittleEndian.AppendUint16(h, 1)
		h = binary.LittleEndian.AppendUint16(h, uint16(8*len(extra)))
		for _, x := range extra {
			h = binary.LittleEndian.AppendUint64(h, x)
		}
	}
	return h
}

// endRecords are the end of central directory record for count members
// and a directory of size bytes at offset, preceded, past zipfile's
// limits, by the ZIP64 end record (at end64) and its locator.
func endRecords(count, size, offset, end64 int64) []byte {
	var h []byte
	if count > zipCountLimit || offset > zip64Limit || size > zip64Limit {
		h = append(h, zip64EndSig...)
		h = binary.LittleEndian.AppendUint64(h, zipEndRecord64)
		h = binary.LittleEndian.AppendUint16(h, zip64Version)
		h = binary.LittleEndian.AppendUint16(h, zip64Version)
		h = binary.LittleEndian.AppendUint32(h, 0)
		h = binary.LittleEndian.AppendUint32(h, 0)
		h = binary.LittleEndian.AppendUint64(h, uint64(count))
		h = binary.LittleEndian.AppendUint64(h, uint64(count))
		h = binary.LittleEndian.AppendUint64(h, uint64(size))
		h = binary.LittleEndian.AppendUint64(h, uint64(offset))
		h = append(h, zip64LocSig...)
		h = binary.LittleEndian.AppendUint32(h, 0)
		h = binary.LittleEndian.AppendUint64(h, uint64(end64))
		h = binary.LittleEndian.AppendUint32(h, 1)
		count, size, offset = min(count, 0xffff), min(size, 0xffffffff), min(offset, 0xffffffff)
	}
	h = append(h, zipEndSig...)
	h = binary.LittleEndian.AppendUint16(h, 0)
	h = binary.LittleEndian.AppendUint16(h, 0)
	h = binary.LittleEndian.AppendUint16(h, uint16(count))
	h = binary.LittleEndian.AppendUint16(h, uint16(count))
	h = binary.LittleEndian.AppendUint32(h, uint32(size))
	h = binary.LittleEndian.AppendUint32(h, uint32(offset))
	return binary.LittleEndian.AppendUint16(h, 0) // comment
}

// WriteSavez writes to w the archive old (nil for none) with member name
// (with its .npy suffix) replaced by, or followed by, the .npy bytes
// header+data.
func WriteSavez(w io.Writer, old *zip.Reader, name string, header, data []byte) error {
	z := newNpzWriter(w)
	crc := crc32.Update(crc32.ChecksumIEEE(header), crc32.IEEETable, data)
	size := int64(len(header) + len(data))
	ours := func(w io.Writer) (int64, error) {
		n, err := w.Write(header)
		if err != nil {
			return int64(n), err
		}
		m, err := w.Write(data)
		return int64(n + m), err
	}
	placed := false
	seen := map[string]bool{}
	if old != nil {
		for _, f := range old.File {
			if seen[f.Name] {
				continue // a later duplicate: np.savez writes a name once
			}
			seen[f.Name] = true
			if f.Name == name {
				if err := z.member(name, size, crc, ours); err != nil {
					return err
				}
				placed = true
				continue
			}
			if err := copyMember(z, old, f); err != nil {
				return err
			}
		}
	}
	if !placed {
		if err := z.member(name, size, crc, ours); err != nil {
			return err
		}
	}
	return z.close()
}

// copyMember writes f's uncompressed bytes as a stored member. Of several
// members with f's name, it copies the last, the one np.load reads.
func copyMember(z *npzWriter, old *zip.Reader, f *zip.File) error {
	for _, g := range old.File {
		if g.Name == f.Name {
			f = g
		}
	}
	if f.UncompressedSize64 > 1<<62 {
		return Malformed("member %q claims %d bytes", f.Name, f.UncompressedSize64)
	}
	rc, err := f.Open()
	if err != nil {
		return Malformed("cannot read member %q: %w", f.Name, err)
	}
	defer rc.Close()
	err = z.member(f.Name, int64(f.UncompressedSize64), f.CRC32, func(w io.Writer) (int64, error) {
		// Read to the end, so that archive/zip checks the CRC-32 the
		// new header repeats.
		return io.Copy(w, rc)
	})
	if err != nil {
		return fmt.Errorf("member %q: %w", f.Name, err)
	}
	return nil
}
