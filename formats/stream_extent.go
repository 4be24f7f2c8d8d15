package formats

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"strider/formats/npy"
	"strider/formats/safetensors"
)

// copyArchive copies an archive that arrives on a stream from r to w, and
// stops where the archive ends: after a zip's end-of-central-directory
// record, after a safetensors file's last tensor. It walks the archive's
// records as they come, so that bytes that are no archive are refused at
// once instead of after the whole stream (`PK\x03\x04` then /dev/zero, a
// safetensors header length of 2^63), and what follows a complete archive
// (an endless stream after it) is left unread for the drain. A zip member
// whose size comes after its data (a data descriptor, as torch.save writes
// them) is found by its descriptor when it is stored; one deflated that way
// is copied with everything after it, to the stream's end.
func copyArchive(w io.Writer, r io.Reader, head []byte) error {
	switch {
	case sniffTensorFile(head) == safetensorsFile:
		return copySafetensors(io.TeeReader(r, w))
	case sniffTensorFile(head) == torchLegacyFile:
		return nil // refused by its first bytes: nothing more is read
	case isZip(head):
		return copyZip(&zipStream{br: bufio.NewReaderSize(r, 64<<10), w: w})
	}
	return npy.Malformed("not a .npy file, an .npz archive or a tensor file")
}

// zipStream is a zip archive read once: what it consumes goes to w.
type zipStream struct {
	br *bufio.Reader
	w  io.Writer
	at int64    // bytes consumed
	h  [46]byte // a record's fixed part: h[i] is its byte i
}

func (z *zipStream) read(from, to int) error {
	n, err := io.ReadFull(z.br, z.h[from:to])
	z.at += int64(n)
	if _, werr := z.w.Write(z.h[from : from+n]); err == nil {
		err = werr
	}
	return err
}

func (z *zipStream) skip(n int64) error {
	m, err := io.CopyN(z.w, z.br, n)
	z.at += m
	return err
}

func (z *zipStream) u16(i int) int64 { return int64(binary.LittleEndian.Uint16(z.h[i:])) }
func (z *zipStream) u32(i int) int64 { return int64(binary.LittleEndian.Uint32(z.h[i:])) }

// copyZip copies zip records up to the end of the central directory.
func copyZip(z *zipStream) error {
	for {
		if err := z.read(0, 4); err != nil {
			return streamEnd(err, "the zip archive", z.at)
		}
		var err error
		switch sig := string(z.h[:4]); sig {
		case "PK\x03\x04": // local file header, name, extra field, data
			if err = z.read(4, 30); err != nil {
				break
			}
			flags, method, csize := z.u16(6), z.u16(8), z.u32(18)
			if z.u16(26) == 0 {
				// Every member has a name (np.load and torch.load read them
				// by it): zeros after a signature are no archive.
				return npy.Malformed("not a valid zip archive: a member without a name at offset %d", z.at-30)
			}
			if err = z.skip(z.u16(26) + z.u16(28)); err != nil {
				break
			}
			switch {
			case flags&8 != 0 && method == 0:
				err = z.storedWithDescriptor()
			case flags&8 != 0 || csize == 0xffffffff:
				_, err = io.Copy(z.w, z.br) // the size is known only by inflating, or in a zip64 field
				return err
			default:
				err = z.skip(csize)
			}
		case "PK\x01\x02": // central directory entry
			if err = z.read(4, 46); err == nil {
				err = z.skip(z.u16(28) + z.u16(30) + z.u16(32))
			}
		case "PK\x06\x06": // zip64 end of central directory
			if err = z.read(4, 12); err == nil {
				n := int64(binary.LittleEndian.Uint64(z.h[4:]))
				if n < 0 || n > 1<<20 {
					return npy.Malformed("zip64 end record of %d bytes at offset %d", n, z.at-12)
				}
				err = z.skip(n)
			}
		case "PK\x06\x07": // zip64 end of central directory locator
			err = z.skip(16)
		case "PK\x05\x06": // end of central directory: the archive ends with its comment
			if err = z.read(4, 22); err == nil {
				err = z.skip(z.u16(20))
			}
			if err == nil {
				return nil
			}
		default:
			return npy.Malformed("not a valid zip archive: %q at offset %d where a record should start", z.h[:4], z.at-4)
		}
		if err != nil {
			return streamEnd(err, "the zip archive", z.at)
		}
	}
}

// storedWithDescriptor copies the data of a stored member whose size
// follows it, and the data descriptor: the data ends where a descriptor
// ("PK\x07\x08", the CRC-32, then the sizes in 4 or 8 bytes each) gives
// as its size the bytes since the data began.
func (z *zipStream) storedWithDescriptor() error {
	const sig = "PK\x07\x08"
	var n int64 // data bytes consumed
	for {
		buf, err := z.br.Peek(z.br.Size())
		if len(buf) < 4+4+8 && err != nil {
			return streamEnd(io.ErrUnexpectedEOF, "a stored zip member", z.at)
		}
		i := bytes.Index(buf, []byte(sig))
		if i < 0 {
			if err := z.skip(int64(len(buf) - 3)); err != nil { // keep what may start a signature
				return err
			}
			n += int64(len(buf) - 3)
			continue
		}
		d := buf[i:]
		if len(d) >= 16 && int64(binary.LittleEndian.Uint32(d[8:])) == n+int64(i) && binary.LittleEndian.Uint32(d[8:]) == binary.LittleEndian.Uint32(d[12:]) {
			return z.skip(int64(i) + 16)
		}
		if len(d) >= 24 && int64(binary.LittleEndian.Uint64(d[8:])) == n+int64(i) && binary.LittleEndian.Uint64(d[8:]) == binary.LittleEndian.Uint64(d[16:]) {
			return z.skip(int64(i) + 24)
		}
		if len(d) < 24 && err == nil && len(buf) == z.br.Size() {
			// The descriptor may run past what is buffered: consume up to it first.
			if err := z.skip(int64(i)); err != nil {
				return err
			}
			n += int64(i)
			if i == 0 {
				if err := z.skip(1); err != nil {
					return err
				}
				n++
			}
			continue
		}
		if err := z.skip(int64(i) + 1); err != nil {
			return err
		}
		n += int64(i) + 1
	}
}

// copySafetensors reads a safetensors file from t (which copies it on):
// its header length, its header, and the data its tensors span.
func copySafetensors(t io.Reader) error {
	var n8 [8]byte
	if _, err := io.ReadFull(t, n8[:]); err != nil {
		return streamEnd(err, "the safetensors header length", 0)
	}
	n := binary.LittleEndian.Uint64(n8[:])
	if n > safetensors.MaxHeader {
		return npy.Malformed("safetensors header length %d is over the limit of %d bytes", n, safetensors.MaxHeader)
	}
	text := make([]byte, n)
	if _, err := io.ReadFull(t, text); err != nil {
		return streamEnd(err, "the safetensors header", 8)
	}
	tf, err := safetensors.DecodeHeader(text)
	if err != nil {
		return err
	}
	var end int64
	for _, tn := range tf.Tensors {
		end = max(end, tn.Loc.End)
	}
	m, err := io.CopyN(io.Discard, t, end)
	if err != nil {
		return streamEnd(err, fmt.Sprintf("the safetensors data (%d bytes)", end), 8+int64(n)+m)
	}
	return nil
}

// streamEnd explains a stream that ended inside what it was read for.
func streamEnd(err error, what string, at int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return npy.Malformed("the stream ends at byte %d, inside %s", at, what)
	}
	return err
}
