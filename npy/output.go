package npy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// errNoReserve reports a file system that cannot allocate disk ahead.
var errNoReserve = errors.New("cannot reserve disk space ahead")

// Output is a destination being written atomically: nothing appears at the
// target path until Commit.
type Output struct {
	// Data is the output's data region, NBytes of the output long and
	// aligned to 64 bytes: the caller fills it, then calls Commit.
	Data []byte

	path    string    // the target, or "-"
	stdout  io.Writer // where "-" is written
	header  []byte
	tmp     string   // the temporary file's path
	f       *os.File // the temporary file, open until Commit or Abort
	mapping []byte   // the mapping of f, nil when Data is on the heap
	done    bool     // committed or aborted
	removed bool     // RemoveTemps deleted the temporary file; guarded by temps
}

// temps registers the outputs whose temporary files exist, for RemoveTemps.
var temps = struct {
	sync.Mutex
	m map[*Output]struct{}
}{m: map[*Output]struct{}{}}

// Create prepares an output of dtype d and C-order shape at path.
//
// For path "-" the array is written to stdout on Commit and Data is a heap
// buffer. Otherwise Create makes a temporary file ".<base>.strider-*.tmp"
// in the target's folder, writes the header, reserves the full size on disk
// (so a full disk fails here, never later as a fault) and maps the file, so
// Data is the file's own data region. Errors name path.
func Create(path string, stdout io.Writer, d Dtype, shape []int) (*Output, error) {
	if _, err := ParseDescr(d.Descr()); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", path, err)
	}
	if len(shape) > MaxDims {
		return nil, fmt.Errorf("cannot create %s: shape %s has %d dimensions, more than %d", path, shapeRepr(shape), len(shape), MaxDims)
	}
	nbytes, ok := checkedNBytes(shape, d.Size)
	if !ok || nbytes > int64(maxInt-dataAlign) {
		return nil, fmt.Errorf("cannot create %s: shape %s of %d-byte elements is negative or too large", path, shapeRepr(shape), d.Size)
	}
	o := &Output{path: path, header: EncodeHeader(d, shape)}
	if path == "-" {
		if stdout == nil {
			return nil, errors.New("cannot create -: no standard output to write to")
		}
		o.stdout = stdout
		o.Data = alignedBuf(int(nbytes))
		return o, nil
	}

	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot create %s: it is a directory", path)
	}
	dir, base := filepath.Dir(path), filepath.Base(path)
	f, err := os.CreateTemp(dir, "."+base+".strider-*.tmp")
	if err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			return nil, fmt.Errorf("cannot create %s: folder %s: %w", path, dir, unwrapPath(serr))
		}
		return nil, fmt.Errorf("cannot create %s: %w", path, unwrapPath(err))
	}
	o.f, o.tmp = f, f.Name()
	temps.Lock()
	temps.m[o] = struct{}{}
	temps.Unlock()

	if _, err := f.Write(o.header); err != nil {
		o.Abort()
		return nil, fmt.Errorf("cannot write %s: %w", path, unwrapPath(err))
	}
	if nbytes == 0 {
		o.Data = []byte{}
		return o, nil
	}
	total := int64(len(o.header)) + nbytes
	switch err := reserve(f, total); {
	case err == nil:
		if m, err := mapWritable(f, total); err == nil {
			o.mapping = m
			o.Data = m[len(o.header):total:total]
			return o, nil
		}
	case errors.Is(err, errNoReserve):
		// Without a reservation a store to a mapping could fault when the
		// disk fills, so the data waits in memory and a full disk fails
		// in Commit's write instead.
	default:
		o.Abort()
		return nil, fmt.Errorf("cannot reserve %d bytes for %s: %w", total, path, err)
	}
	o.Data = alignedBuf(int(nbytes))
	return o, nil
}

// maxInt is the largest int, as an untyped constant usable in int64
// expressions.
const maxInt = int(^uint(0) >> 1)

// unwrapPath drops an *fs.PathError that names the temporary file, which
// the user never asked for, and keeps its cause for errors.Is.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Commit writes the output: to standard output for "-", else by unmapping
// the temporary file, giving it the mode a new file gets (0666 less the
// umask), and renaming it over the target. On error the temporary file is
// removed and the target is left as it was.
func (o *Output) Commit() error {
	if o.done {
		return fmt.Errorf("output %s was already committed or aborted", o.path)
	}
	if o.path == "-" {
		o.done = true
		data := o.Data
		o.Data = nil
		if _, err := o.stdout.Write(o.header); err != nil {
			return fmt.Errorf("writing to standard output: %w", err)
		}
		if _, err := o.stdout.Write(data); err != nil {
			return fmt.Errorf("writing to standard output: %w", err)
		}
		return nil
	}

	fail := func(err error) error {
		o.Abort()
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	if o.mapping != nil {
		m := o.mapping
		o.mapping, o.Data = nil, nil
		if err := unmap(m); err != nil {
			return fail(err)
		}
	} else if len(o.Data) > 0 {
		if _, err := o.f.WriteAt(o.Data, int64(len(o.header))); err != nil {
			return fail(err)
		}
	}
	if err := o.f.Chmod(0o666 &^ umask); err != nil {
		return fail(err)
	}
	f := o.f
	o.f = nil
	if err := f.Close(); err != nil {
		return fail(err)
	}

	temps.Lock()
	defer temps.Unlock()
	if o.removed {
		o.done = true
		return fmt.Errorf("cannot write %s: the output was cancelled", o.path)
	}
	if err := os.Rename(o.tmp, o.path); err != nil {
		os.Remove(o.tmp)
		delete(temps.m, o)
		o.done = true
		return fmt.Errorf("cannot write %s: %w", o.path, unwrapPath(err))
	}
	delete(temps.m, o)
	o.done = true
	return nil
}

// Abort discards the output: it releases the mapping and removes the
// temporary file. It is idempotent and does nothing after Commit.
func (o *Output) Abort() {
	if o.done {
		return
	}
	o.done = true
	if o.mapping != nil {
		unmap(o.mapping)
		o.mapping = nil
	}
	o.Data = nil
	if o.f != nil {
		o.f.Close()
		o.f = nil
	}
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
// aborted. It only unlinks files, never unmaps, so it is safe to call from a
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
}
