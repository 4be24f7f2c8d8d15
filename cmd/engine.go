package cmd

import (
	"strider/cuda"
	"strider/internal/dtype"
	"strider/ops"
)

// engine runs the kernels behind the commands: the CPU's (package ops) or
// the GPU's (package cuda). Both take the same views and indices and write
// the same bytes, so a command reads its inputs and writes its output the
// same way whichever runs it.
type engine interface {
	Copy(dst []byte, v ops.View, opt ops.Options) error
	Take(dst []byte, v ops.View, axis int, idx []int, opt ops.Options) error
	TakeFlat(dst []byte, v ops.View, idx []int, opt ops.Options) error
	TakeAlongAxis(dst []byte, v ops.View, axis int, idxShape, idx []int, opt ops.Options) error
	Index(dst []byte, x *ops.Indexing, opt ops.Options) error
	Sort(vals, idx []byte, v ops.View, axis int, d dtype.Dtype, ord ops.Order, opt ops.Options) error
	Tri(dst []byte, t ops.Tri, elem int, opt ops.Options) error
	Cast(dst []byte, to dtype.Dtype, v ops.View, from dtype.Dtype, opt ops.Options) error
	UniqueConsecutive(v ops.View, d dtype.Dtype, axis int, opt ops.Options) ([]int, error)
	// CheckReduce refuses, before any input is read, a reduction this
	// engine does not run, in one line saying why; Reduce is ops.Reduce.
	CheckReduce(op ops.ReduceOp, d dtype.Dtype, o ops.ReduceOptions) error
	Reduce(dst []byte, op ops.ReduceOp, in ops.View, d dtype.Dtype, o ops.ReduceOptions) (ops.ReduceResult, error)
}

// cpu is the engine of package ops.
type cpu struct{}

func (cpu) Copy(dst []byte, v ops.View, opt ops.Options) error { return ops.Copy(dst, v, opt) }

func (cpu) Take(dst []byte, v ops.View, axis int, idx []int, opt ops.Options) error {
	return ops.Take(dst, v, axis, idx, opt)
}

func (cpu) TakeFlat(dst []byte, v ops.View, idx []int, opt ops.Options) error {
	return ops.TakeFlat(dst, v, idx, opt)
}

func (cpu) TakeAlongAxis(dst []byte, v ops.View, axis int, idxShape, idx []int, opt ops.Options) error {
	return ops.TakeAlongAxis(dst, v, axis, idxShape, idx, opt)
}

func (cpu) Index(dst []byte, x *ops.Indexing, opt ops.Options) error { return x.Write(dst, opt) }

func (cpu) Sort(vals, idx []byte, v ops.View, axis int, d dtype.Dtype, ord ops.Order, opt ops.Options) error {
	return ops.Sort(vals, idx, v, axis, d, ord, opt)
}

func (cpu) Tri(dst []byte, t ops.Tri, elem int, opt ops.Options) error { return t.Fill(dst, elem, opt) }

func (cpu) Cast(dst []byte, to dtype.Dtype, v ops.View, from dtype.Dtype, opt ops.Options) error {
	return ops.Cast(dst, to, v, from, opt)
}

func (cpu) UniqueConsecutive(v ops.View, d dtype.Dtype, axis int, opt ops.Options) ([]int, error) {
	return ops.UniqueConsecutive(v, d, axis, opt)
}

func (cpu) CheckReduce(ops.ReduceOp, dtype.Dtype, ops.ReduceOptions) error { return nil }

func (cpu) Reduce(dst []byte, op ops.ReduceOp, in ops.View, d dtype.Dtype, o ops.ReduceOptions) (ops.ReduceResult, error) {
	return ops.Reduce(dst, op, in, d, o)
}

// gpu opens the CUDA engine; a build without CUDA says how to get one.
func gpu() (engine, error) {
	d, err := cuda.Open()
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Compile-time check that the GPU engine has every kernel the CPU has.
var _ engine = (*cuda.Device)(nil)
