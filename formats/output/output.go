package output

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/pylit"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// errNoReserve reports a file system that cannot allocate disk ahead.
var errNoReserve = errors.New("cannot reserve disk space ahead")

// Output is a destination being written atomically: nothing appears at the
// target path until Commit.
type Output struct {
	// Data is the output's data region, NBytes of the output long and
	// aligned to 64 bytes: the caller fills it, then calls Commit.
	Data []byte

	path    string // the target as the user named it, or "-"
	target  string // the file renamed over on Commit: path with its symbolic links followed
	header  []byte
	tmp     string      // the temporary file's path
	f       *os.File    // the temporary file, open until Commit or Abort
	mapping []byte      // the mapping of f, nil when Data is on the heap
	done    bool        // committed or aborted
	prev    fs.FileInfo // the file the output replaces, whose mode and owner it keeps; nil when new
	created bool        // Create made an empty target through a dangling link, removed on failure
	removed bool        // RemoveTemps deleted the temporary file; guarded by temps

	// A stream output ("-", or a target that is a device or a FIFO) is
	// written on Commit from Data on the heap.
	stream    io.Writer
	closer    io.Closer // the target Create opened, closed on Commit or Abort
	spare     *os.File  // stream, when it is a regular file with space reserved ahead
	spareFrom int64     // where the reservation in spare starts
	spareTo   int64     // and ends
	spareSize int64     // spare's size before the output, to cut back to on failure
	pieces    bool      // the caller writes a stream's data with WritePiece
	direct    bool      // a file output whose data WritePiece writes to f, unmapped
	member    string    // for "file.npz:NAME", NAME.npy: the archive is written on Commit
	lock      *fileLock // held by a member output from reading the old archive to the rename
	written   int64     // bytes written to the stream so far, header included
	total     int64     // the whole output's size, header included

	// tensor is set for "file.safetensors:NAME" (member is NAME): the
	// file is written on Commit.
	tensor *tensorMember
}

// temps registers the outputs whose temporary files exist, for RemoveTemps.
var temps = struct {
	sync.Mutex
	m map[*Output]struct{}
}{m: map[*Output]struct{}{}}

// Create prepares an output of dtype d and C-order shape at path.
//
// For path "-" the array is written to stdout on Commit and Data is a heap
// buffer; so it is for a path that names a device or a FIFO (-o /dev/null),
// which is opened and written, never replaced. Otherwise Create makes a
// temporary file ".<base>.strider-*.tmp" in the target's folder, writes
// the header, reserves the full size on disk (so a full disk fails here,
// never later as a fault) and maps the file, so Data is the file's own
// data region. A target that is a symbolic link is followed: the file it
// names is the one replaced, and the link stays. Errors name path.
func Create(path string, stdout io.Writer, d dtype.Dtype, shape []int) (*Output, error) {
	return create(path, stdout, d, shape, false, false, false)
}

// CreateFortran is Create for an array of the given shape written in
// Fortran order, as numpy.save writes an F-contiguous array that is not
// C-contiguous: the caller fills Data in Fortran order.
func CreateFortran(path string, stdout io.Writer, d dtype.Dtype, shape []int) (*Output, error) {
	return create(path, stdout, d, shape, true, false, false)
}

// CreatePieces is Create for a result the caller can compute in pieces.
// When the output is a stream (standard output, a pipe, a device), Data
// is nil and Streaming reports true: the caller writes the data in C order
// with WritePiece, a bounded piece at a time, then calls Commit, so the
// result is never held whole in memory. A file output is as from Create,
// except that with direct, from 128 MiB on (directMin), it takes WritePiece
// too (Direct reports it): the caller passes direct when its pieces are
// small and made on the CPU. With fortran, the header says Fortran order
// and the pieces come in it.
func CreatePieces(path string, stdout io.Writer, d dtype.Dtype, shape []int, fortran, direct bool) (*Output, error) {
	return create(path, stdout, d, shape, fortran, true, direct)
}

func create(path string, stdout io.Writer, d dtype.Dtype, shape []int, fortran, pieces, direct bool) (*Output, error) {
	if _, err := npy.ParseDescr(d.Descr()); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", path, err)
	}
	if len(shape) > npy.MaxDims {
		return nil, fmt.Errorf("cannot create %s: shape %s has %d dimensions, more than %d", path, pylit.ShapeString(shape), len(shape), npy.MaxDims)
	}
	nbytes, ok := npy.CheckedNBytes(shape, d.Size)
	if !ok || nbytes > int64(maxInt-npy.DataAlign) {
		return nil, fmt.Errorf("cannot create %s: shape %s of %d-byte elements is negative or too large", path, pylit.ShapeString(shape), d.Size)
	}
	header := npy.EncodeHeader(d, shape)
	if fortran {
		header = npy.EncodeFortranHeader(d, shape)
	}
	var tensor *tensorMember
	if archive, _, ok := splitMemberOutput(path); ok && isSafetensorsPath(archive) {
		var err error
		if tensor, err = safetensorsMember(path, d, shape, fortran); err != nil {
			return nil, err
		}
	}
	o, err := createBytes(path, stdout, header, nbytes, pieces, direct, false)
	if o != nil {
		o.tensor = tensor
	}
	return o, err
}

// CreateRaw prepares an output of nbytes bytes with no .npy header (a text
// file), written atomically as Create's are.
func CreateRaw(path string, stdout io.Writer, nbytes int64) (*Output, error) {
	if nbytes < 0 || nbytes > int64(maxInt-npy.DataAlign) {
		return nil, fmt.Errorf("cannot create %s: %d bytes is negative or too large", path, nbytes)
	}
	if archive, _, ok := splitMemberOutput(path); ok && isSafetensorsPath(archive) {
		return nil, fmt.Errorf("cannot create %s: a safetensors tensor holds an array, not text", termsafe.Escape(path))
	}
	return createBytes(path, stdout, []byte{}, nbytes, false, false, false)
}

// Write appends p to an output made by CreateRaw with 0 bytes, for text
// whose length is known only as it is produced: p goes to the temporary
// file (or the stream) at once, without a copy in memory; Commit still
// renames the file into place, and Abort removes it.
func (o *Output) Write(p []byte) (int, error) {
	switch {
	case o.done || len(o.Data) != 0 || len(o.header) != 0:
		return 0, fmt.Errorf("output %s takes no appended bytes", o.path)
	case o.stream != nil:
		n, err := o.stream.Write(p)
		if err != nil && o.path == "-" {
			return n, fmt.Errorf("writing to standard output: %w", unwrapPath(err))
		}
		return n, err
	}
	n, err := o.f.Write(p)
	if err != nil {
		return n, fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	return n, nil
}

// createBytes is Create once the header is encoded and the size checked.
func createBytes(path string, stdout io.Writer, header []byte, nbytes int64, pieces, direct, whole bool) (*Output, error) {
	o := &Output{path: path, header: header, pieces: pieces}
	total := int64(len(o.header)) + nbytes
	if path == "-" {
		if stdout == nil {
			return nil, errors.New("cannot create -: no standard output to write to")
		}
		return o, o.openStream(stdout, "standard output", total, nbytes)
	}
	file, member, err := outputFile(path, whole)
	if err != nil {
		return nil, err
	}
	o.member = member
	old, created, err := o.openFile(file)
	if err != nil {
		return nil, err
	}
	if old != nil {
		fi, err := o.statOld(old, file)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			// A device, a FIFO, a pipe named as /dev/stdout: renaming over
			// it would replace the node itself (-o /dev/null as root), and
			// no space check applies to it, so it is written to directly.
			o.closer = old
			if err := o.openStream(old, path, total, nbytes); err != nil {
				old.Close()
				return nil, err
			}
			return o, nil
		}
		o.prev = fi
	}
	target, err := o.resolveTarget(file, old != nil)
	if old != nil {
		old.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", path, err)
	}
	if created {
		// Created through a dangling link, as ">" does; removed on failure.
		o.created, o.prev = true, nil
	}
	o.target = target
	if err := o.startTemp(file, nbytes, total, pieces && direct); err != nil {
		return nil, err
	}
	return o, nil
}

// openFile opens file, the file the output replaces (or, for a member, the
// archive it goes into), where it exists; created reports that it was
// made, through a dangling link. Errors name o.path.
func (o *Output) openFile(file string) (old *os.File, created bool, err error) {
	flags := 0
	if o.member != "" {
		if err := checkArchiveFile(o.path, file); err != nil {
			return nil, false, err
		}
		// A FIFO put there since is refused by statOld, not waited on.
		flags = openNonblock
	}
	old, created, err = openTarget(file, flags)
	if err != nil {
		if errors.Is(err, syscall.EISDIR) {
			return nil, false, fmt.Errorf("cannot create %s: it is a directory", o.path)
		}
		return nil, false, fmt.Errorf("cannot open %s: %w", o.path, unwrapPath(err))
	}
	return old, created, nil
}

// startTemp makes the temporary file beside file, once the disk has room
// for its total bytes, and gives the output its Data, nbytes long
// (placeData). On failure nothing is left behind.
func (o *Output) startTemp(file string, nbytes, total int64, direct bool) error {
	if err := o.checkRoom(file, total); err != nil {
		o.removeCreated()
		return err
	}
	if err := o.openTemp(); err != nil {
		o.removeCreated()
		return err
	}
	if err := o.placeData(nbytes, total, direct); err != nil {
		o.Abort()
		return err
	}
	return nil
}

// resolveTarget follows links from file to the file the rename will
// replace. For a plain output the file opened (o.prev) must be that one.
// An archive a member goes into may be replaced meanwhile by another writer
// of a member (parallel jobs writing one archive): it is looked at again
// under the lock (lockTarget), so it is not checked here.
func (o *Output) resolveTarget(file string, opened bool) (string, error) {
	target, err := followLinks(file)
	if err == nil && opened && o.member == "" {
		if tfi, serr := os.Stat(target); serr != nil || !os.SameFile(o.prev, tfi) {
			err = errors.New("cannot tell which file it names, to replace it")
		}
	}
	return target, err
}

// outputFile returns the file to write for path and, for "file.npz:NAME",
// the archive member, NAME.npy, once checkMemberName accepts NAME. A bare
// .npz path is refused: an archive is never replaced by a .npy file. So is
// a path that an input spec would read as a member of an existing file
// that is not an archive named .npz ("/dev/stdout:x"): no file named
// "/dev/stdout:x" is made beside it.
func outputFile(path string, whole bool) (file, member string, err error) {
	if archive, name, ok := splitMemberOutput(path); ok && !whole {
		if isSafetensorsPath(archive) {
			if err := checkTensorName(name); err != nil {
				return "", "", fmt.Errorf("cannot create %s: %w", termsafe.Escape(path), err)
			}
			return archive, name, nil
		}
		if err := checkMemberName(name); err != nil {
			return "", "", fmt.Errorf("cannot create %s: %w", termsafe.Escape(path), err)
		}
		return archive, name + ".npy", nil
	}
	if isNpzPath(path) && !whole {
		return "", "", fmt.Errorf("cannot create %s: an .npz output needs the name of the member to write: -o %s:NAME", path, path)
	}
	if isSafetensorsPath(path) && !whole {
		return "", "", fmt.Errorf("cannot create %s: a .safetensors output needs the name of the tensor to write: -o %s:NAME (strider convert writes whole files)", path, path)
	}
	if file, fi, name, ok := formats.MemberOfExisting(path); ok {
		return "", "", fmt.Errorf("cannot create %s: %s is %s, so no member \"%s\" can be written in it (only in an archive named .npz or .safetensors: -o FILE.npz:NAME)",
			termsafe.Escape(path), termsafe.Escape(file), fileKind(fi.Mode()), termsafe.Escape(name))
	}
	return path, "", nil
}

// checkArchiveFile refuses, before it is opened, an archive file that is
// there but is not a regular file: a member is written by rewriting the
// archive and renaming the result over it, which a FIFO, a device, a socket
// or a folder cannot take (and opening a FIFO would wait for a reader).
// A symbolic link is followed; a missing file is a new archive.
func checkArchiveFile(path, file string) error {
	fi, err := os.Stat(file)
	if err != nil || fi.Mode().IsRegular() {
		return nil // openTarget reports what is wrong
	}
	return fmt.Errorf("cannot create %s: %s is %s, not %s, so no member can be written in it", termsafe.Escape(path), termsafe.Escape(file), fileKind(fi.Mode()), archiveWhat(isSafetensorsPath(file)))
}

// fileKind names the kind of file mode m describes, for errors.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a file not named .npz"
	}
	return "not a regular file"
}

// statOld returns the FileInfo of old, the file already at the target,
// opened as file; a member output needs it to be a regular file (the
// archive). It closes old when it fails.
func (o *Output) statOld(old *os.File, file string) (fs.FileInfo, error) {
	fi, err := old.Stat()
	if err != nil {
		old.Close()
		return nil, fmt.Errorf("cannot open %s: %w", o.path, unwrapPath(err))
	}
	if !fi.Mode().IsRegular() && o.member != "" {
		old.Close()
		return nil, fmt.Errorf("cannot create %s: %s is not a regular file, so no archive member can be replaced in it", o.path, file)
	}
	return fi, nil
}

// checkRoom checks, before the temporary file is made beside o.target,
// that the folder is there, that an archive a member is replaced in is
// one, and that the disk has room for total bytes (and the old archive).
func (o *Output) checkRoom(file string, total int64) error {
	dir := filepath.Dir(o.target)
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("cannot create %s: folder %s: %w", o.path, dir, unwrapPath(err))
	}
	if o.member != "" && o.prev != nil {
		// The archive's other members are kept: it must be one.
		if err := checkArchive(o.target, isSafetensorsPath(file)); err != nil {
			return fmt.Errorf("cannot create %s: %s: %w", o.path, file, unwrapPath(err))
		}
		total += o.prev.Size()
	}
	return sysmem.CheckDisk(o.path, dir, total)
}

// openTemp creates the temporary file beside o.target and registers it
// for RemoveTemps.
func (o *Output) openTemp() error {
	f, err := createTemp(filepath.Dir(o.target), filepath.Base(o.target))
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", o.path, unwrapPath(err))
	}
	o.f, o.tmp = f, f.Name()
	temps.Lock()
	temps.m[o] = struct{}{}
	temps.Unlock()
	return nil
}

// placeData gives a file output its Data, nbytes long: in memory for an
// archive member (Commit writes the archive); else after the header it
// writes to the temporary file, mapped from the file when total bytes
// could be reserved on disk, else in memory.
func (o *Output) placeData(nbytes, total int64, direct bool) error {
	if o.member != "" {
		// The member is computed in memory; Commit writes the archive.
		if err := checkHeadroom("the result before it is added to "+o.path, nbytes); err != nil {
			return err
		}
		o.Data = npy.AlignedBuf(int(nbytes))
		return nil
	}
	if _, err := o.f.Write(o.header); err != nil {
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	if nbytes == 0 {
		o.Data = []byte{}
		return nil
	}
	err := reserve(o.f, 0, total, true)
	if direct && nbytes >= directMin && (err == nil || errors.Is(err, errNoReserve)) {
		o.direct = true
		// Written by WritePiece, after the header: a full disk without a
		// reservation fails there, as an error rather than a fault.
		o.written, o.total = int64(len(o.header)), total
		return nil
	}
	switch {
	case err == nil:
		if m, err := sysmem.MapWritable(o.f, total); err == nil {
			sysmem.Register(m, o.path, true)
			o.mapping = m
			o.Data = m[len(o.header):total:total]
			return nil
		}
	case errors.Is(err, errNoReserve):
		// Without a reservation a store to a mapping could fault when the
		// disk fills, so the data waits in memory and a full disk fails
		// in Commit's write instead.
	default:
		return fmt.Errorf("cannot reserve %d bytes (%s) for %s: %w", total, sysmem.HumanBytes(total), o.path, err)
	}
	if err := sysmem.CheckMemory(fmt.Sprintf("the result before it is written to %s", o.path), nbytes); err != nil {
		return err
	}
	o.Data = npy.AlignedBuf(int(nbytes))
	return nil
}

// openStream makes o a stream output to w, named name in errors: Data is
// on the heap, so it must fit in memory. When w is a regular file
// (standard output redirected to a file), the space is reserved ahead as
// for a file output, so that a full disk fails before any work is done.
func (o *Output) openStream(w io.Writer, name string, total, nbytes int64) error {
	o.total = total
	if !o.pieces {
		if err := checkHeadroom(fmt.Sprintf("the result on %s (a file given with -o is written without holding it in memory)", name), nbytes); err != nil {
			return err
		}
	}
	o.stream = w
	if f, ok := w.(*os.File); ok && total > 0 {
		if err := o.reserveStream(f, total); err != nil {
			return fmt.Errorf("cannot write to %s: %w", name, err)
		}
	}
	if !o.pieces {
		o.Data = npy.AlignedBuf(int(nbytes))
	}
	return nil
}

// checkHeadroom refuses to hold a result of n bytes whole in memory when it
// would take more than half of the memory available, leaving the rest to
// the work that computes it and to other programs.
func checkHeadroom(what string, n int64) error {
	if avail, ok := sysmem.MemAvailable(); ok && n > avail/2 {
		return sysmem.NoRoom("needs %s of memory for %s, more than half of the %s available", sysmem.HumanBytes(n), what, sysmem.HumanBytes(avail))
	}
	return nil
}

// directMin is the size from which a file output created by CreatePieces
// is written piece by piece with write(2) instead of through a mapping.
// Stores into a fresh mapping of a file fault each page in, and the kernel
// zeroes it first (the file's blocks are unwritten); write(2) fills the
// page cache from the caller's piece without either, and the writes of one
// piece overlap the computing of the next (see cmd's pieceWriter). Measured
// on a 256 MiB transpose: 25% less wall time and 30% less CPU; at 64 MiB
// the two are even.
//
// STRIDER_DIRECT_MIN=N in the environment sets it to N bytes: the tests
// and the parity suite lower it to run every piece path on small arrays.
var directMin = directMinFromEnv()

func directMinFromEnv() int64 {
	if v, err := strconv.ParseInt(os.Getenv("STRIDER_DIRECT_MIN"), 10, 64); err == nil && v >= 0 {
		return v
	}
	return 128 << 20
}

// Streaming reports an output from CreatePieces that takes its data from
// WritePiece: a stream, or a file output from directMin bytes on (Direct).
func (o *Output) Streaming() bool { return o.pieces && (o.stream != nil || o.direct) }

// Direct reports a file output written by WritePiece: its pieces may be
// written by another goroutine than the one that computes the next, one
// piece at a time.
func (o *Output) Direct() bool { return o.direct }

// WritePiece writes the next piece of a streaming output's data, the
// header first.
func (o *Output) WritePiece(b []byte) error {
	if !o.Streaming() || o.done {
		return fmt.Errorf("output %s takes no pieces", o.path)
	}
	if o.written == 0 {
		if err := o.write(o.header); err != nil {
			return err
		}
	}
	if o.written+int64(len(b)) > o.total {
		return fmt.Errorf("output %s: pieces exceed the %d bytes of the result", o.path, o.total)
	}
	return o.write(b)
}

// write writes b to the stream (a direct output's file), naming the output
// in errors.
func (o *Output) write(b []byte) error {
	w := o.stream
	if o.direct {
		w = o.f
	}
	_, err := w.Write(b)
	o.written += int64(len(b))
	if err != nil {
		return o.streamError(err)
	}
	return nil
}

// streamError is err from writing to the stream, naming it.
func (o *Output) streamError(err error) error {
	if o.path == "-" {
		return fmt.Errorf("writing to standard output: %w", unwrapPath(err))
	}
	return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
}

// reserveStream reserves total bytes of disk where writes to f will land,
// when f is a regular file, without changing its size.
func (o *Output) reserveStream(f *os.File, total int64) error {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil
	}
	if appends(f) {
		off = fi.Size()
	}
	switch err := reserve(f, off, total, false); {
	case errors.Is(err, errNoReserve):
		return nil
	case err != nil:
		return fmt.Errorf("cannot reserve %d bytes (%s): %w", total, sysmem.HumanBytes(total), err)
	}
	o.spare, o.spareFrom, o.spareTo, o.spareSize = f, off, off+total, fi.Size()
	return nil
}

// releaseStream undoes reserveStream after a failure: it cuts off what a
// partial write appended and frees the reserved blocks past the end.
func (o *Output) releaseStream() {
	f := o.spare
	if f == nil {
		return
	}
	o.spare = nil
	if o.spareSize <= o.spareFrom {
		// The output went at the end of the file: what is past its old end is ours.
		_ = f.Truncate(o.spareFrom)
	}
	if fi, err := f.Stat(); err == nil {
		if from := max(fi.Size(), o.spareFrom); from < o.spareTo {
			release(f, from, o.spareTo-from)
		}
	}
}

// openTarget opens the output path as given, for writing (with the open
// flags flags besides), neither truncating nor creating it, so that the
// kernel applies the rules a shell's ">" meets: a write-protected file or
// another user's file is refused (permission denied), and so is a link
// that fs.protected_symlinks forbids following. It returns nil when nothing
// is at path. A dangling symbolic link is opened with O_CREATE, as ">"
// does, which creates the file it names (created is then true).
func openTarget(path string, flags int) (f *os.File, created bool, err error) {
	f, err = os.OpenFile(path, os.O_WRONLY|flags, 0)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, false, err
	}
	if fi, lerr := os.Lstat(path); lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil, false, nil
	}
	f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flags, 0o666)
	return f, err == nil, err
}

// removeCreated removes the empty file openTarget created through a
// dangling link, when the output fails.
func (o *Output) removeCreated() {
	if o.created {
		o.created = false
		os.Remove(o.target)
	}
}

// tempPrefix is how every temporary name strider makes starts, after the
// target's own name when it fits.
const tempPrefix = ".strider-"

// createTemp creates the temporary file for target base in dir:
// ".<base>.strider-*.tmp", or ".strider-*.tmp" when that name would be too
// long for the file system (a target name of 232 bytes or more), so the
// temporary name fits wherever the target's does.
func createTemp(dir, base string) (*os.File, error) {
	f, err := createTempFile(dir, "."+base+tempPrefix+"*.tmp")
	if errors.Is(err, syscall.ENAMETOOLONG) {
		f, err = createTempFile(dir, tempPrefix+"*.tmp")
	}
	return f, err
}

// followLinks resolves path while it is a symbolic link, so that an output
// written through a link replaces the file it names and keeps the link, as
// numpy.save and a shell redirection do. A dangling link gives the path it
// points to.
func followLinks(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", unwrapPath(err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", errors.New("too many levels of symbolic links")
}

// maxInt is the largest int, as an untyped constant usable in int64
// expressions.
const maxInt = int(^uint(0) >> 1)

// unwrapPath drops an *fs.PathError or *os.LinkError that names the
// temporary file, which the user never asked for, and keeps its cause for
// errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// Commit writes the output: to standard output for "-", else by unmapping
// the temporary file, giving it the mode (and, as root, the owner) of the
// file it replaces, or the mode a new file gets (0666 less the umask), and
// renaming it over the target. On error the temporary file is removed and
// the target is left as it was.
func (o *Output) Commit() error {
	if o.stream != nil {
		return o.commitStream()
	}
	defer func() { o.lock.unlock() }() // lockTarget takes it in finish
	if err := o.finish(); err != nil {
		return err
	}
	return o.rename()
}

// commitStream writes a stream output.
func (o *Output) commitStream() error {
	if o.done {
		return fmt.Errorf("output %s was already committed or aborted", o.path)
	}
	var err error
	if o.pieces {
		if o.written == 0 {
			// An empty result: no piece wrote the header.
			_, err = o.stream.Write(o.header)
			o.written = int64(len(o.header))
		}
		if err == nil && o.written != o.total {
			err = fmt.Errorf("only %d of its %d bytes were written", o.written, o.total)
		}
	} else {
		_, err = o.stream.Write(o.header)
		if err == nil {
			_, err = o.stream.Write(o.Data)
		}
	}
	o.done = true
	o.Data = nil
	if o.closer != nil {
		if cerr := o.closer.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		o.releaseStream()
		return o.streamError(err)
	}
	return nil
}

// finish completes a file output's temporary file: its data, mode and
// owner. Only the rename is left.
func (o *Output) finish() error {
	if o.done || o.f == nil {
		return fmt.Errorf("output %s was already committed or aborted", o.path)
	}
	fail := func(err error) error {
		o.Abort()
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	if o.member != "" {
		if err := o.lockTarget(); err != nil {
			return fail(err)
		}
		write := o.writeArchive
		if o.tensor != nil {
			write = o.writeSafetensors
		}
		if err := write(); err != nil {
			return fail(err)
		}
	} else if o.mapping != nil {
		m := o.mapping
		o.mapping, o.Data = nil, nil
		sysmem.Unregister(m)
		if err := sysmem.Unmap(m); err != nil {
			return fail(err)
		}
	} else if o.direct {
		if o.written != o.total {
			return fail(fmt.Errorf("only %d of its %d bytes were written", o.written, o.total))
		}
	} else if len(o.Data) > 0 {
		if _, err := o.f.WriteAt(o.Data, int64(len(o.header))); err != nil {
			return fail(err)
		}
	}
	mode := 0o666 &^ umask
	if o.prev != nil {
		// As after ">": the file keeps its mode, and its owner and group
		// where strider may set them (as root; the group when strider's
		// user is in it). Owner first: chown clears set-id bits.
		keepOwner(o.f, o.prev)
		mode = o.prev.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		if os.Geteuid() != 0 {
			// A write by anyone but root clears the set-id bits.
			mode &^= fs.ModeSetuid | fs.ModeSetgid
		}
	}
	if err := o.f.Chmod(mode); err != nil {
		return fail(err)
	}
	f := o.f
	o.f = nil
	if err := f.Close(); err != nil {
		return fail(err)
	}
	return nil
}

// lockTarget takes the lock that serializes the outputs rewriting o.target
// (lockBeside), held until Commit, CommitAll or Abort has renamed or
// removed the temporary file, and then looks again at the file to rewrite:
// since Create, another writer may have made, replaced or removed it.
func (o *Output) lockTarget() error {
	l, err := lockBeside(o.target)
	if err != nil {
		return err
	}
	o.lock = l
	fi, err := os.Stat(o.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		o.prev = nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s is %s now, not %s", o.target, fileKind(fi.Mode()), archiveWhat(o.tensor != nil))
	case o.created && fi.Size() == 0:
		// The empty file Create made through a dangling link: no archive yet.
		o.prev = nil
	default:
		o.prev = fi
	}
	return nil
}

// writeArchive writes the archive of a member output into the temporary
// file: the previous archive's members, with this one replaced or added.
func (o *Output) writeArchive() error {
	var zr *zip.Reader
	if o.prev != nil {
		r, f, err := readArchive(o.target)
		if err != nil {
			return err
		}
		defer f.Close()
		zr = r
	}
	data := o.Data
	o.Data = nil
	return npy.WriteSavez(o.f, zr, o.member, o.header, data)
}

// rename moves a finished temporary file over the target.
func (o *Output) rename() error {
	temps.Lock()
	defer temps.Unlock()
	if o.removed {
		o.done = true
		return fmt.Errorf("cannot write %s: the output was cancelled", o.path)
	}
	if err := replaceFile(o.tmp, o.target, 2*time.Second); err != nil {
		os.Remove(o.tmp)
		delete(temps.m, o)
		o.done = true
		o.removeCreated()
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	delete(temps.m, o)
	o.done = true
	o.created = false
	return nil
}

// CommitAll commits outputs so that all their targets are replaced or
// none is. A stream cannot be taken back, so it is written first; the files
// are all finished, then renamed in turn, each previous file kept under a
// hard link until every rename has succeeded, and put back if one fails.
func CommitAll(outs ...*Output) error {
	var files []*Output
	defer func() {
		for _, o := range files {
			o.lock.unlock()
		}
	}()
	for _, o := range outs {
		if o.stream == nil {
			files = append(files, o)
		} else if err := o.Commit(); err != nil {
			return err
		}
	}
	// Member outputs take their locks as they finish: in the order of
	// their files' paths, the same in every process, so that two commands
	// that write the same two archives never each hold one and wait for the
	// other.
	slices.SortStableFunc(files, func(a, b *Output) int { return strings.Compare(lockOrder(a.target), lockOrder(b.target)) })
	for _, o := range files {
		if err := o.finish(); err != nil {
			return err
		}
	}
	backups := make([]string, 0, len(files))
	defer func() {
		for _, b := range backups {
			if b != "" {
				os.Remove(b)
			}
		}
	}()
	for i, o := range files {
		backups = append(backups, o.keepPrevious())
		if err := o.rename(); err != nil {
			for k, p := range files[:i] {
				if backups[k] != "" {
					os.Rename(backups[k], p.target)
					backups[k] = ""
				} else if p.prev == nil {
					os.Remove(p.target)
				}
			}
			return err
		}
	}
	return nil
}

// lockOrder is the key CommitAll orders the locks of targets by: the
// absolute path, its folder's symbolic links followed.
func lockOrder(target string) string {
	dir, base := filepath.Split(target)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if d, err := filepath.Abs(dir); err == nil {
		dir = d
	}
	return filepath.Join(dir, base)
}

// keepPrevious links the file o will replace to a new name beside it, and
// returns that name, or "" when there is no previous file or no link can be
// made there.
func (o *Output) keepPrevious() string {
	if o.prev == nil {
		return ""
	}
	dir := filepath.Dir(o.target)
	seed := time.Now().UnixNano()
	for i := range 100 {
		name := filepath.Join(dir, tempPrefix+strconv.FormatInt((seed+int64(i))%1e10, 10)+".old")
		err := os.Link(o.target, name)
		if err == nil {
			return name
		}
		if !errors.Is(err, fs.ErrExist) {
			return ""
		}
	}
	return ""
}

// Abort discards the output: it releases the mapping and removes the
// temporary file. It is idempotent and does nothing after Commit.
func (o *Output) Abort() {
	if o.done {
		return
	}
	o.done = true
	defer func() { o.lock.unlock() }()
	if o.mapping != nil {
		sysmem.Unregister(o.mapping)
		sysmem.Unmap(o.mapping)
		o.mapping = nil
	}
	o.Data = nil
	if o.closer != nil {
		o.closer.Close()
	}
	o.releaseStream()
	if o.f != nil {
		o.f.Close()
		o.f = nil
	}
	o.removeCreated()
	if o.tmp != "" {
		temps.Lock()
		if !o.removed {
			os.Remove(o.tmp)
		}
		delete(temps.m, o)
		temps.Unlock()
	}
}

// RemoveTemps removes every temporary file created and not yet committed or
// aborted, and the lock files of the locks held. It only unlinks files, never unmaps, so it is safe to call from a
// signal handler's goroutine while other goroutines still fill outputs;
// their Commit then fails.
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	for o := range temps.m {
		os.Remove(o.tmp)
		o.removed = true
		delete(temps.m, o)
	}
	removeTempFolders()
	removeLockFiles()
}

// readArchive opens the archive at path, for npy.WriteSavez.
func readArchive(path string) (*zip.Reader, *os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	zr, err := zip.NewReader(f, fi.Size())
	if err != nil {
		f.Close()
		return nil, nil, npy.Malformed("it is not an .npz archive (%v), so it has no members to keep", err)
	}
	return zr, f, nil
}
