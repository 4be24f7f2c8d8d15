//go:build cuda

package cuda

import (
	"fmt"
	"os"

	"strider/internal/dtype"
	"strider/ops"
)

// CheckReduce refuses, in one line saying why, a reduction the GPU does
// not run (see checkReduce), before any input is read.
func (d *Device) CheckReduce(op ops.ReduceOp, dt dtype.Dtype, o ops.ReduceOptions) error {
	return checkReduce(op, dt, o)
}

// Reduce is ops.Reduce for the order-free reductions (reduce.go): the
// kernels of kernels/reduce.cu, and ops.Reduce itself where an output's
// bits follow NumPy's order (a float extreme between +0.0 and -0.0, or
// among NaNs of different bits). With STRIDER_CUDA_TIMING such a redo is
// reported as a step "redo-on-cpu".
func (d *Device) Reduce(dst []byte, op ops.ReduceOp, in ops.View, dt dtype.Dtype, o ops.ReduceOptions) (ops.ReduceResult, error) {
	out, err := reduceOn(func(p *program) error { return d.exec(nil, p, nil) }, dst, op, in, dt, o)
	if d.timing && out.open > 0 {
		fmt.Fprintf(os.Stderr, "strider: cuda-timing: reduce redo-on-cpu %.6f %d\n",
			float64(out.redo.Microseconds())/1000, ops.ReduceWork(op, in))
	}
	return out.res, err
}
