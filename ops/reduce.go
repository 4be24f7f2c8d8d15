package ops

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"strider/internal/dtype"
)

// ReduceOp is one of the reductions of issue 31, each NumPy 1.24's
// function of the same name (count-nonzero is np.count_nonzero).
type ReduceOp int

const (
	ReduceSum ReduceOp = iota
	ReduceProd
	ReduceMean
	ReduceStd
	ReduceVar
	ReduceMin
	ReduceMax
	ReducePtp
	ReduceArgmin
	ReduceArgmax
	ReduceAny
	ReduceAll
	ReduceCountNonzero
	ReduceNansum
	ReduceNanprod
	ReduceNanmean
	ReduceNanstd
	ReduceNanvar
	ReduceNanmin
	ReduceNanmax
	ReduceNanargmin
	ReduceNanargmax
	reduceOps
)

var reduceNames = [reduceOps]string{
	"sum", "prod", "mean", "std", "var", "min", "max", "ptp", "argmin", "argmax",
	"any", "all", "count-nonzero", "nansum", "nanprod", "nanmean", "nanstd", "nanvar",
	"nanmin", "nanmax", "nanargmin", "nanargmax",
}

// String is the operation's name on strider's command line ("sum",
// "count-nonzero").
func (op ReduceOp) String() string {
	if op < 0 || op >= reduceOps {
		return fmt.Sprintf("ReduceOp(%d)", int(op))
	}
	return reduceNames[op]
}

// ReduceOps lists every operation, in the order of issue 31.
func ReduceOps() []ReduceOp {
	ops := make([]ReduceOp, reduceOps)
	for i := range ops {
		ops[i] = ReduceOp(i)
	}
	return ops
}

// ReduceOpNamed is the operation a name on the command line names.
func ReduceOpNamed(name string) (ReduceOp, bool) {
	for i, n := range reduceNames {
		if n == name {
			return ReduceOp(i), true
		}
	}
	return 0, false
}

// NumPyName is the function NumPy calls it by: np.<NumPyName>.
func (op ReduceOp) NumPyName() string {
	switch op {
	case ReduceCountNonzero:
		return "count_nonzero"
	case ReduceMin:
		return "amin"
	case ReduceMax:
		return "amax"
	}
	return op.String()
}

// TakesDtype reports whether NumPy's function has a dtype argument.
func (op ReduceOp) TakesDtype() bool {
	switch op {
	case ReduceSum, ReduceProd, ReduceMean, ReduceStd, ReduceVar,
		ReduceNansum, ReduceNanprod, ReduceNanmean, ReduceNanstd, ReduceNanvar:
		return true
	}
	return false
}

// TakesDdof reports whether NumPy's function has a ddof argument.
func (op ReduceOp) TakesDdof() bool {
	switch op {
	case ReduceStd, ReduceVar, ReduceNanstd, ReduceNanvar:
		return true
	}
	return false
}

// SingleAxis reports whether NumPy's function takes one axis at most
// (argmin and its kin: an axis tuple is a TypeError).
func (op ReduceOp) SingleAxis() bool {
	switch op {
	case ReduceArgmin, ReduceArgmax, ReduceNanargmin, ReduceNanargmax:
		return true
	}
	return false
}

// ReduceOptions are NumPy's arguments to the reduction.
type ReduceOptions struct {
	// Axes are the axes to reduce, possibly negative; nil reduces every
	// axis (axis=None), an empty non-nil slice none (axis=()).
	Axes     []int
	Keepdims bool
	// Dtype is the dtype= argument; the zero Dtype leaves it out.
	Dtype dtype.Dtype
	// Ddof is std's and var's ddof=; 0 leaves it at NumPy's default.
	Ddof int
	Options
}

// ReduceShape is what ReducePlan knows before any element is read: the
// result's dtype and shape, and whether numpy.save writes NumPy's result in
// Fortran order (Reduce writes C order always; a caller honouring
// --order keep reorders when Fortran is set).
type ReduceShape struct {
	Dtype   dtype.Dtype // native byte order
	Shape   []int
	Fortran bool
}

// ReduceResult is what Reduce reports besides the values.
type ReduceResult struct {
	// Warnings are NumPy's warnings for the call as Python prints their
	// last line ("RuntimeWarning: Mean of empty slice.", "RuntimeWarning:
	// invalid value encountered in divide", "ComplexWarning: Casting
	// complex values to real discards the imaginary part"), in the order
	// NumPy issues them, each once; the command prints them on standard
	// error.
	Warnings []string
}

// ErrReduce marks a reduction NumPy refuses (its ValueError or TypeError):
// the message is NumPy's.
var ErrReduce = errors.New("reduction refused")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrReduce, fmt.Sprintf(format, args...))
}

// reduceCall is a checked request: the reduced axes as flags, the dtype
// argument resolved.
type reduceCall struct {
	op       ReduceOp
	in       View
	dt       dtype.Dtype // the input's dtype (its byte order)
	red      []bool
	all      bool // axis=None
	keepdims bool
	arg      dtype.Dtype // dtype=, native; zero when not given
	hasArg   bool
	ddof     int
	opt      Options
	nanSeen  int // 0 unknown, 1 the input holds a NaN, 2 it does not
}

func checkReduce(op ReduceOp, in View, dt dtype.Dtype, o ReduceOptions) (*reduceCall, error) {
	if op < 0 || op >= reduceOps {
		return nil, fmt.Errorf("no reduction %d", int(op))
	}
	if err := dt.CheckElem(in.Elem); err != nil {
		return nil, err
	}
	if err := in.Check(); err != nil {
		return nil, err
	}
	c := &reduceCall{op: op, in: in, dt: dt, keepdims: o.Keepdims, ddof: o.Ddof, opt: o.Options}
	if o.Dtype != (dtype.Dtype{}) {
		if !op.TakesDtype() {
			return nil, refuse("%s() got an unexpected keyword argument 'dtype'", op.NumPyName())
		}
		if err := o.Dtype.Check(); err != nil {
			return nil, err
		}
		c.arg, c.hasArg = dtype.NativeOf(o.Dtype), true
	}
	if o.Ddof != 0 && !op.TakesDdof() {
		return nil, refuse("%s() got an unexpected keyword argument 'ddof'", op.NumPyName())
	}
	nd := len(in.Shape)
	c.red = make([]bool, nd)
	if o.Axes == nil {
		c.all = true
		for k := range c.red {
			c.red[k] = true
		}
	} else {
		if op.SingleAxis() && len(o.Axes) != 1 {
			return nil, refuse("'tuple' object cannot be interpreted as an integer")
		}
		for _, a := range o.Axes {
			k, err := NormalizeAxis(a, nd)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", ErrReduce, err)
			}
			if c.red[k] {
				return nil, refuse("duplicate value in 'axis'")
			}
			c.red[k] = true
		}
	}
	if c.hasArg && isInexact(dt) && !isInexact(c.arg) {
		switch op {
		case ReduceNanmean, ReduceNanvar, ReduceNanstd:
			return nil, refuse("If a is inexact, then dtype must be inexact")
		}
	}
	return c, nil
}

func isInexact(d dtype.Dtype) bool { return d.Kind == 'f' || d.Kind == 'c' }

// reducedCount is the number of elements each output gathers.
func (c *reduceCall) reducedCount() int {
	n := 1
	for k, r := range c.red {
		if r {
			n *= c.in.Shape[k]
		}
	}
	return n
}

// emptyReduced reports whether a reduced axis has length 0.
func (c *reduceCall) emptyReduced() bool {
	for k, r := range c.red {
		if r && c.in.Shape[k] == 0 {
			return true
		}
	}
	return false
}

// ReducePlan checks a reduction and says what it will produce, before any
// element is read: the caller allocates Shape's count of Dtype's elements
// and hands them to Reduce. It returns NumPy's error (wrapping ErrReduce)
// for what NumPy refuses without looking at the values: an axis out of
// range or given twice, an argument the function lacks, a reduction
// without identity (min, max, ptp, nanmin, nanmax, argmin, argmax) over an
// empty axis. nanargmin and nanargmax of an all-NaN slice are found by
// Reduce.
func ReducePlan(op ReduceOp, in View, dt dtype.Dtype, o ReduceOptions) (ReduceShape, error) {
	c, err := checkReduce(op, in, dt, o)
	if err != nil {
		return ReduceShape{}, err
	}
	return c.plan()
}

// Reduce computes np.OP(a, axis=..., keepdims=..., dtype=..., ddof=...)
// of in (elements of dtype dt, any strides and byte order) into dst, in C
// order and native byte order, bit for bit as NumPy 1.24 computes it (see
// the package documentation, "Reductions"). dst holds exactly the count of
// ReducePlan's shape of its dtype. The result's warnings are NumPy's
// RuntimeWarnings for the call; the error for what NumPy refuses wraps
// ErrReduce and carries NumPy's message.
func Reduce(dst []byte, op ReduceOp, in View, dt dtype.Dtype, o ReduceOptions) (ReduceResult, error) {
	c, err := checkReduce(op, in, dt, o)
	if err != nil {
		return ReduceResult{}, err
	}
	sh, err := c.plan()
	if err != nil {
		return ReduceResult{}, err
	}
	if want := Count(sh.Shape) * sh.Dtype.Size; len(dst) != want {
		return ReduceResult{}, fmt.Errorf("destination holds %d bytes, the result %d", len(dst), want)
	}
	var res ndarr
	var warns warnings
	slabbed := false
	reportWork(o.Done, ReduceWork(op, in), func(own *atomic.Int64) {
		c.opt.Done = own
		if slabbed = c.slabbedVariance(dst); !slabbed {
			res, warns, err = c.compute()
		}
	})
	if slabbed {
		return ReduceResult{}, nil
	}
	if err != nil {
		return ReduceResult{Warnings: warns.list}, err
	}
	if res.d != sh.Dtype || !equalInts(res.shape, sh.Shape) {
		return ReduceResult{}, fmt.Errorf("internal: %s planned %s%v, computed %s%v", op, sh.Dtype.Name(), sh.Shape, res.d.Name(), res.shape)
	}
	res.writeC(dst)
	return ReduceResult{Warnings: warns.list}, nil
}

// warnings collects warning lines ("RuntimeWarning: Mean of empty
// slice.") once each, in order. A message without a category is a
// RuntimeWarning.
type warnings struct{ list []string }

func (w *warnings) add(msg string) {
	if !strings.Contains(msg, "Warning: ") {
		msg = "RuntimeWarning: " + msg
	}
	for _, m := range w.list {
		if m == msg {
			return
		}
	}
	w.list = append(w.list, msg)
}
