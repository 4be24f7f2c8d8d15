package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// copyArchive copies an archive that arrives on a stream from r to w, and
// stops where the archive ends: after a zip's end-of-central-directory
// record, after a safetensors file's last tensor. It walks the archive's
// records as they come, so that bytes that are no archive are refused at
// once instead of after the whole stream (`PK\x03\x04` then /dev/zero, a
// safetensors header length of 2^63), and what follows a complete archive
// (an endless stream after it) is left unread for the drain. A zip whose
// sizes come after the data (data descriptors, written by a zip writer
// that could not seek) is copied to its end.
func copyArchive(w io.Writer, r io.Reader, head []byte) error {
	t := io.TeeReader(r, w)
	switch {
	case sniffTensorFile(head) == safetensorsFile:
		return copySafetensors(t, w, r)
	case sniffTensorFile(head) == torchLegacyFile:
		return nil // refused by its first bytes: nothing more is read
	case isZip(head):
		return copyZip(t, w, r)
	}
	_, err := io.Copy(w, r)
	return err
}

// copyZip reads zip records from t (which copies them on) up to the end of
// the central directory.
func copyZip(t io.Reader, w io.Writer, r io.Reader) error {
	var at int64
	var h [46]byte // a record's fixed part: h[i] is its byte i
	read := func(from, to int) error {
		_, err := io.ReadFull(t, h[from:to])
		at += int64(to - from)
		return err
	}
	skip := func(n int64) error {
		m, err := io.CopyN(io.Discard, t, n)
		at += m
		return err
	}
	for {
		if err := read(0, 4); err != nil {
			return streamEnd(err, "the zip archive", at)
		}
		var err error
		switch sig := string(h[:4]); sig {
		case "PK\x03\x04": // local file header
			if err = read(4, 30); err == nil {
				flags, csize := binary.LittleEndian.Uint16(h[6:]), binary.LittleEndian.Uint32(h[18:])
				if flags&8 != 0 || csize == 0xffffffff {
					_, err := io.Copy(w, r) // sizes after the data, or in a zip64 field
					return err
				}
				err = skip(int64(binary.LittleEndian.Uint16(h[26:])) + int64(binary.LittleEndian.Uint16(h[28:])) + int64(csize))
			}
		case "PK\x01\x02": // central directory entry
			if err = read(4, 46); err == nil {
				err = skip(int64(binary.LittleEndian.Uint16(h[28:])) + int64(binary.LittleEndian.Uint16(h[30:])) + int64(binary.LittleEndian.Uint16(h[32:])))
			}
		case "PK\x06\x06": // zip64 end of central directory
			if err = read(4, 12); err == nil {
				n := binary.LittleEndian.Uint64(h[4:])
				if n > 1<<20 {
					return malformed("zip64 end record of %d bytes at offset %d", n, at-12)
				}
				err = skip(int64(n))
			}
		case "PK\x06\x07": // zip64 end of central directory locator
			err = skip(16)
		case "PK\x05\x06": // end of central directory: the archive ends with its comment
			if err = read(4, 22); err == nil {
				err = skip(int64(binary.LittleEndian.Uint16(h[20:])))
			}
			if err == nil {
				return nil
			}
		default:
			return malformed("not a valid zip archive: %q at offset %d where a record should start", h[:4], at-4)
		}
		if err != nil {
			return streamEnd(err, "the zip archive", at)
		}
	}
}

// copySafetensors reads a safetensors file from t (which copies it on):
// its header length, its header, and the data its tensors span.
func copySafetensors(t io.Reader, w io.Writer, r io.Reader) error {
	var n8 [8]byte
	if _, err := io.ReadFull(t, n8[:]); err != nil {
		return streamEnd(err, "the safetensors header length", 0)
	}
	n := binary.LittleEndian.Uint64(n8[:])
	if n > MaxSafetensorsHeader {
		return malformed("safetensors header length %d is over the limit of %d bytes", n, MaxSafetensorsHeader)
	}
	text := make([]byte, n)
	if _, err := io.ReadFull(t, text); err != nil {
		return streamEnd(err, "the safetensors header", 8)
	}
	tf, err := decodeSafetensorsHeader(text)
	if err != nil {
		return err
	}
	var end int64
	for _, tn := range tf.Tensors {
		end = max(end, tn.end)
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
		return malformed("the stream ends at byte %d, inside %s", at, what)
	}
	return err
}
