package formats

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"strider/formats/npy"
	"strider/internal/sysmem"
)

// streamBlock is how much of a stream read whole is held on the heap; a
// longer one goes to a temporary file.
const streamBlock = 16 << 20

// stream is the whole of a stream that had to be read to its end (an
// archive or a text on a pipe): on the heap when it is short, else on a
// mapping of a temporary file, so that a stream of gigabytes costs the
// heap one block. release frees it; arrays made over its bytes must not
// be used after, unless they took the mapping over.
type stream struct {
	b       []byte
	mapping []byte // b's mapping, nil when b is on the heap
	cleanup func() // removes the temporary file where it could not be removed at once
}

func (s *stream) release() {
	if s.mapping != nil {
		sysmem.Unregister(s.mapping)
		sysmem.Unmap(s.mapping)
		s.mapping = nil
	}
	if s.cleanup != nil {
		s.cleanup()
		s.cleanup = nil
	}
	s.b = nil
}

// ReadStream reads r, a stream named what ("standard input"), to its end,
// for a reader that needs all of it at once (from-text). release frees the
// bytes.
func ReadStream(r io.Reader, what string) (b []byte, release func(), err error) {
	s, err := readStream(r, what, false)
	if err != nil {
		return nil, nil, err
	}
	return s.b, s.release, nil
}

// readStream reads r to its end, or, when archive is set, to the end of the
// archive it holds (copyArchive, which refuses bytes that are no archive
// as they come): on the heap up to streamBlock bytes, else on to a
// temporary file that is mapped. The file is unlinked at once where the
// system lets an open file live on unnamed (Unix). The copy stops at half
// the free space of the temporary folder, so that an endless stream is
// refused instead of filling the disk; where the file cannot be mapped it
// is read back after a memory check.
func readStream(r io.Reader, what string, archive bool) (*stream, error) {
	sp := &spill{what: what}
	var err error
	if archive {
		br := bufio.NewReader(r)
		head, _ := br.Peek(probeLen)
		err = copyArchive(sp, br, head)
	} else {
		_, err = io.Copy(sp, r)
	}
	if err != nil {
		sp.close()
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	return sp.finish()
}

// spill holds what is written to it on the heap, up to streamBlock bytes,
// then on a temporary file.
type spill struct {
	what    string
	buf     []byte
	f       *os.File
	size    int64 // bytes on f
	room    int64 // bytes f may take
	cleanup func()
}

func (sp *spill) Write(p []byte) (int, error) {
	if sp.f == nil && len(sp.buf)+len(p) <= streamBlock {
		sp.buf = append(sp.buf, p...)
		return len(p), nil
	}
	if sp.f == nil {
		if err := sp.open(); err != nil {
			return 0, err
		}
	}
	if sp.size+int64(len(p)) > sp.room {
		return 0, sp.full()
	}
	n, err := sp.f.Write(p)
	sp.size += int64(n)
	return n, err
}

// open moves what the heap holds on to a new temporary file.
func (sp *spill) open() error {
	f, err := os.CreateTemp("", "strider-stream-*")
	if err != nil {
		return fmt.Errorf("%s is longer than %s, and no temporary file can hold it: %w", sp.what, sysmem.HumanBytes(streamBlock), err)
	}
	sp.f = f
	if path := f.Name(); os.Remove(path) != nil {
		sp.cleanup = func() { os.Remove(path) }
	}
	sp.room = math.MaxInt64 - 1
	if free, ok := sysmem.FreeSpace(filepath.Dir(f.Name())); ok {
		sp.room = free / 2
	}
	buf := sp.buf
	sp.buf = nil
	if int64(len(buf)) > sp.room {
		return sp.full()
	}
	n, err := f.Write(buf)
	sp.size = int64(n)
	return err
}

// full is the refusal of a stream longer than the temporary file may grow.
func (sp *spill) full() error {
	return sysmem.NoRoom("%s is longer than half the free space of %s (%s); give it as a file", sp.what, filepath.Dir(sp.f.Name()), sysmem.HumanBytes(sp.room))
}

// close drops what the spill holds.
func (sp *spill) close() {
	if sp.f != nil {
		sp.f.Close()
	}
	if sp.cleanup != nil {
		sp.cleanup()
	}
	sp.buf = nil
}

// finish returns what was written: the heap's bytes, or the temporary
// file mapped (or read back where it cannot be mapped).
func (sp *spill) finish() (*stream, error) {
	if sp.f == nil {
		return &stream{b: sp.buf}, nil
	}
	defer sp.f.Close()
	s := &stream{cleanup: sp.cleanup}
	m, err := sysmem.MapFile(sp.f, sp.size, false, false)
	if err == nil {
		sysmem.Register(m, sp.what, false)
		s.b, s.mapping = m, m
		return s, nil
	}
	if err := sysmem.CheckMemory(sp.what+", which is read into memory", sp.size); err != nil {
		s.release()
		return nil, err
	}
	if s.b, err = npy.ReadData(io.NewSectionReader(sp.f, 0, sp.size), sp.size); err != nil {
		s.release()
		return nil, err
	}
	return s, nil
}
