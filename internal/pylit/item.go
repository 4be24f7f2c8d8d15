package pylit

import (
	"math"
	"math/big"
	"slices"
)

// IndexKind is what one item of an index expression does.
type IndexKind uint8

const (
	IndexInt       IndexKind = iota // an integer: picks one position, the axis goes away
	IndexSlice                      // start:stop:step
	IndexEllipsis                   // ... (Ellipsis)
	IndexNewAxis                    // None, newaxis, np.newaxis
	IndexArray                      // an integer array: a (nested) list of integers
	IndexBoolArray                  // a boolean array: a (nested) list of True/False
	IndexBool                       // a scalar True or False: a 0-d boolean array
)

// IndexItem is one item of the tuple inside a[...].
type IndexItem struct {
	Kind IndexKind
	Col  int // 1-based column where the item starts in the expression

	Int  int64 // IndexInt
	Bool bool  // IndexBool

	// IndexSlice: Python's start:stop:step with Has* false for an omitted
	// (or None) part. Values beyond the int64 range are clamped, as Python
	// clamps them to Py_ssize_t.
	Start, Stop, Step          int64
	HasStart, HasStop, HasStep bool

	// IndexArray and IndexBoolArray: the array's shape and its values in C
	// order.
	Shape []int
	Ints  []int64
	Bools []bool
}

// MaxIndexDepth bounds the nesting of brackets and parentheses in an index:
// NumPy arrays have at most 32 dimensions, and the bound keeps the parser's
// recursion shallow whatever the input.
const MaxIndexDepth = 32

// NumPy's message for an index of the wrong type.
const invalidIndexMsg = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices"

// errorAt reports an error at the byte offset pos of the source.
type errorAt func(pos int, format string, args ...any) error

// clampInt64 is v limited to the int64 range, as Python limits slice
// bounds to Py_ssize_t.
func clampInt64(v *big.Int) int64 {
	if v.IsInt64() {
		return v.Int64()
	}
	if v.Sign() < 0 {
		return math.MinInt64
	}
	return math.MaxInt64
}

// item turns one value of the index tuple into an IndexItem.
func item(v *Value, col int, errf errorAt) (IndexItem, error) {
	it := IndexItem{Col: col}
	switch v.Kind {
	case Int:
		if !v.Int.IsInt64() {
			return it, errf(v.Pos, "%s does not fit in a 64-bit integer: %s", v.Int, invalidIndexMsg)
		}
		it.Kind, it.Int = IndexInt, v.Int.Int64()
	case Bool:
		it.Kind, it.Bool = IndexBool, v.Bool
	case None:
		it.Kind = IndexNewAxis
	case Ellipsis:
		it.Kind = IndexEllipsis
	case Slice:
		it.Kind = IndexSlice
		vals := []*int64{&it.Start, &it.Stop, &it.Step}
		has := []*bool{&it.HasStart, &it.HasStop, &it.HasStep}
		for k, e := range v.Items {
			if e == nil || e.Kind == None {
				continue
			}
			switch e.Kind {
			case Int:
				*vals[k] = clampInt64(e.Int)
			case Bool:
				if e.Bool {
					*vals[k] = 1
				}
			default:
				return it, errf(e.Pos, "slice indices must be integers or None")
			}
			*has[k] = true
		}
	case List, Tuple:
		return array(v, it, errf)
	}
	return it, nil
}

// leaves appends the values that are not lists or tuples, in C order.
func leaves(v *Value, out []*Value) []*Value {
	if v.Kind != List && v.Kind != Tuple {
		return append(out, v)
	}
	for _, e := range v.Items {
		out = leaves(e, out)
	}
	return out
}

// array turns a nested list into an integer or boolean index array, as
// numpy.asarray would: all booleans make a boolean array, any integer an
// integer array (True and False count as 1 and 0), and an empty list an
// integer array.
func array(v *Value, it IndexItem, errf errorAt) (IndexItem, error) {
	shape, err := arrayShape(v, errf)
	if err != nil {
		return it, err
	}
	ls := leaves(v, nil)
	allBool := len(ls) > 0
	for _, l := range ls {
		switch l.Kind {
		case Int:
			if !l.Int.IsInt64() {
				return it, errf(l.Pos, "%s does not fit in a 64-bit integer", l.Int)
			}
			allBool = false
		case Bool:
		default:
			return it, errf(l.Pos, "lists may hold only integers or booleans: %s", invalidIndexMsg)
		}
	}
	it.Shape = shape
	if allBool {
		it.Kind = IndexBoolArray
		it.Bools = make([]bool, len(ls))
		for k, l := range ls {
			it.Bools[k] = l.Bool
		}
		return it, nil
	}
	it.Kind = IndexArray
	it.Ints = make([]int64, len(ls))
	for k, l := range ls {
		if l.Kind == Bool {
			if l.Bool {
				it.Ints[k] = 1
			}
			continue
		}
		it.Ints[k] = l.Int.Int64()
	}
	return it, nil
}

// arrayShape is the shape of a nested list, which must be rectangular: the
// one ragged-list check.
func arrayShape(v *Value, errf errorAt) ([]int, error) {
	if v.Kind != List && v.Kind != Tuple {
		return []int{}, nil
	}
	shape := []int{len(v.Items)}
	var inner []int
	for k, e := range v.Items {
		sh, err := arrayShape(e, errf)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			inner = sh
		} else if !slices.Equal(inner, sh) {
			return nil, errf(e.Pos, "ragged nested list: element %d has shape %s, the first %s", k, ShapeString(sh), ShapeString(inner))
		}
	}
	return append(shape, inner...), nil
}
