package cmd

import (
	"encoding/binary"
	"fmt"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/pylit"
	"strider/internal/sysmem"
	"strider/ops"
)

// indexArray is an index array read from a file or a literal, before its
// values are resolved against an axis.
type indexArray struct {
	shape  []int
	view   ops.View
	format dtype.Dtype
	close  func() error
}

// indexSource is where the indices of gather or gather-elements come
// from: the file --indices names, or the values of an --index literal.
type indexSource struct {
	file    string           // --indices
	literal *pylit.IndexItem // --index, read; nil for a file
}

// parseIndexSource reads --indices or, where literalAllowed, --index:
// exactly one of them.
func parseIndexSource(c *cli.Context, literalAllowed bool) (indexSource, error) {
	file, lit := c.IsSet(indicesFlag.Name), literalAllowed && c.IsSet("index")
	switch {
	case file && lit:
		return indexSource{}, usagef("give --indices or --index, not both")
	case file:
		return indexSource{file: c.String(indicesFlag.Name)}, nil
	case lit:
		ix, err := pylit.ParseIndexArray(c.String("index"))
		if err != nil {
			return indexSource{}, usagef("--index: %v", err)
		}
		return indexSource{literal: &ix}, nil
	case literalAllowed:
		return indexSource{}, usagef("missing --indices IDX.npy or --index LITERAL")
	}
	return indexSource{}, usagef("missing --indices IDX.npy")
}

// open reads the indices: the file, or the literal's values as int64.
func (src indexSource) open(e *env) (indexArray, error) {
	if src.literal == nil {
		return readIndexFile(e, src.file)
	}
	return literalIndices(*src.literal), nil
}

// takeInput is what gather and gather-elements read: an input and the
// indices that pick from it.
type takeInput struct {
	input
	ix indexArray
}

// openTake opens the indices, then the input spec with access: indices
// that will not do are reported before the input is opened.
func (src indexSource) openTake(e *env, spec string, access npy.Access) (takeInput, error) {
	ix, err := src.open(e)
	if err != nil {
		return takeInput{}, err
	}
	in, err := e.openInput(spec, access)
	if err != nil {
		ix.close()
		return takeInput{}, err
	}
	return takeInput{input: in, ix: ix}, nil
}

// Close closes the input, then the indices.
func (t takeInput) Close() error {
	err := t.input.Close()
	if ierr := t.ix.close(); err == nil {
		err = ierr
	}
	return err
}

// readIndexFile opens an index .npy of any integer dtype and byte order.
func readIndexFile(e *env, spec string) (indexArray, error) {
	a, err := formats.Open(spec, e.stdinFor(spec), npy.AccessAll)
	if err != nil {
		return indexArray{}, fmt.Errorf("--indices %s: %w", displayName(spec), err)
	}
	d := a.Dtype
	if d.Kind != 'i' && d.Kind != 'u' {
		a.Close()
		what := map[byte]string{'b': "booleans", 'f': "floats", 'c': "complex numbers"}[d.Kind]
		return indexArray{}, fmt.Errorf("--indices %s: indices must be integers, not %s (%s %s)", displayName(spec), what, d.Name(), d.Descr())
	}
	return indexArray{
		shape:  a.Shape,
		view:   ops.View{Elem: d.Size, Shape: a.Shape, Strides: a.Strides(), Data: a.Data},
		format: d,
		close:  a.Close,
	}, nil
}

// literalIndices is an --index literal's values as an int64 index array.
func literalIndices(ix pylit.IndexItem) indexArray {
	shape, vals := ix.Shape, ix.Ints
	data := make([]byte, 8*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint64(data[8*i:], uint64(v))
	}
	return indexArray{
		shape:  shape,
		view:   ops.Contiguous(8, shape, data),
		format: dtype.Int64,
		close:  func() error { return nil },
	}
}

// script adds the lines that make idx, the indices: loaded from the file,
// or the literal's values.
func (src indexSource) script(s *script) {
	if src.literal == nil {
		s.load("idx", src.file)
		s.add("if idx.dtype.kind not in 'iu':  # strider takes integer indices only (NumPy would take bools as 0 and 1)")
		s.add("    raise TypeError(f'indices of dtype {idx.dtype} are not integers')")
		return
	}
	s.importModule("numpy as np")
	s.add("idx = np.array(%s, dtype=np.int64).reshape(%s)", pyNested(src.literal.Shape, src.literal.Ints), pyInts(src.literal.Shape))
}

// resolve checks every index against an axis of size n and returns them in
// C order within [0, n).
func (ix indexArray) resolve(n, axis int, mode ops.Mode) ([]int, error) {
	// The indices are decoded into a copy and then into ints: an index file
	// larger than memory allows is refused before either is allocated.
	if err := sysmem.CheckMemory(fmt.Sprintf("%d indices", ix.view.Count()), indexMemory(ix.view)); err != nil {
		return nil, err
	}
	return ops.Indices(ix.view, ix.format, n, axis, mode)
}

// indexMemory is what ops.Indices allocates for the index view v: a
// C-order copy of the raw values and an int for each.
func indexMemory(v ops.View) int64 {
	return int64(v.Count()) * int64(v.Elem+8)
}
