//go:build !cuda

package cuda

import "errors"

// ErrNoCUDA is returned by every call in a build without CUDA support.
var ErrNoCUDA = errors.New("--device cuda: this strider was built without CUDA support; " +
	"build it with `go build -tags cuda` on a machine with the CUDA toolkit (cuda.h, libcuda.so, nvcc)")

// Available reports whether a GPU can be used.
func Available() error { return ErrNoCUDA }
