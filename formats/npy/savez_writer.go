package npy

import "io"

// SavezWriter writes a whole archive, member after member, laid out as
// numpy.savez lays out np.savez(path, **members) (see WriteSavez): for a
// conversion, whose members come from another file one at a time.
type SavezWriter struct{ z *npzWriter }

// NewSavezWriter starts an archive written to w.
func NewSavezWriter(w io.Writer) *SavezWriter { return &SavezWriter{newNpzWriter(w)} }

// Add writes the next member, name (with its .npy suffix): size bytes
// whose CRC-32 is crc, which body writes (a stored zip member's local
// header carries the CRC before the data, as np.savez writes it).
func (s *SavezWriter) Add(name string, size int64, crc uint32, body func(io.Writer) (int64, error)) error {
	return s.z.member(name, size, crc, body)
}

// Close writes the central directory and the end records, and flushes.
func (s *SavezWriter) Close() error { return s.z.close() }
