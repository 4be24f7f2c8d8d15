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

// readIndexFile opens an index .npy of any integer dtype and byte order.
func readIndexFile(c *cli.Context, spec string) (indexArray, error) {
	a, err := formats.Open(spec, stdinFor(c, spec), npy.AccessAll)
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

// parseIndexLiteral turns --index text into an int64 index array.
func parseIndexLiteral(s string) (indexArray, error) {
	ix, err := pylit.ParseIndexArray(s)
	if err != nil {
		return indexArray{}, usagef("--index: %v", err)
	}
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
	}, nil
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
