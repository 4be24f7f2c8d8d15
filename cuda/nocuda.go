//go:build !cuda

package cuda

import (
	"errors"

	"strider/internal/dtype"
	"strider/ops"
)

// ErrNoCUDA is returned by every call in a build without CUDA support.
var ErrNoCUDA = errors.New("--device cuda: this strider was built without CUDA support; " +
	"build it with `go build -tags cuda` (cgo with cuda.h and libcuda.so, e.g. from Debian's nvidia-cuda-toolkit)")

// Device is the GPU engine; in this build it cannot be opened.
type Device struct{}

// Open returns the process's GPU engine; here it always fails with ErrNoCUDA.
func Open() (*Device, error) { return nil, ErrNoCUDA }

// Available reports whether a GPU can be used.
func Available() error { return ErrNoCUDA }

func (*Device) Copy(dst []byte, v ops.View, opt ops.Options) error { return ErrNoCUDA }

func (*Device) Take(dst []byte, v ops.View, axis int, idx []int, opt ops.Options) error {
	return ErrNoCUDA
}

func (*Device) TakeFlat(dst []byte, v ops.View, idx []int, opt ops.Options) error { return ErrNoCUDA }

func (*Device) TakeAlongAxis(dst []byte, v ops.View, axis int, idxShape, idx []int, opt ops.Options) error {
	return ErrNoCUDA
}

func (*Device) Index(dst []byte, x *ops.Indexing, opt ops.Options) error { return ErrNoCUDA }

func (*Device) Sort(vals, idx []byte, v ops.View, axis int, dt dtype.Dtype, ord ops.Order, opt ops.Options) error {
	return ErrNoCUDA
}

func (*Device) Tri(dst []byte, t ops.Tri, elem int, opt ops.Options) error { return ErrNoCUDA }

func (*Device) Cast(dst []byte, to dtype.Dtype, v ops.View, from dtype.Dtype, opt ops.Options) error {
	return ErrNoCUDA
}

func (*Device) UniqueConsecutive(v ops.View, f dtype.Dtype, axis int, opt ops.Options) ([]int, error) {
	return nil, ErrNoCUDA
}

func (*Device) CheckReduce(op ops.ReduceOp, d dtype.Dtype, o ops.ReduceOptions) error {
	return ErrNoCUDA
}

func (*Device) Reduce(dst []byte, op ops.ReduceOp, in ops.View, d dtype.Dtype, o ops.ReduceOptions) (ops.ReduceResult, error) {
	return ops.ReduceResult{}, ErrNoCUDA
}
