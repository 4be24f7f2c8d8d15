//go:build !amd64

package ops

import "unsafe"

// haveReduceKernels: no fold kernels in assembly here.
const haveReduceKernels = false

func rangeRun32AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeRun32AVX2 on this architecture")
}

func rangeRun64AVX2(lanes *rangeLanes, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeRun64AVX2 on this architecture")
}

func rangeRun32AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeRun32AVX512 on this architecture")
}

func rangeRun64AVX512(lanes *rangeLanes, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeRun64AVX512 on this architecture")
}

func rangeCols32AVX2(pairs, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeCols32AVX2 on this architecture")
}

func rangeCols64AVX2(pairs, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeCols64AVX2 on this architecture")
}

func rangeCols32AVX512(pairs, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeCols32AVX512 on this architecture")
}

func rangeCols64AVX512(pairs, xs unsafe.Pointer, n int) bool {
	panic("ops: no rangeCols64AVX512 on this architecture")
}

func countCols32AVX2(counts, xs unsafe.Pointer, n int, mask uint32) {
	panic("ops: no countCols32AVX2 on this architecture")
}

func countCols32AVX512(counts, xs unsafe.Pointer, n int, mask uint32) {
	panic("ops: no countCols32AVX512 on this architecture")
}

func minCols32AVX2(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no minCols32AVX2 on this architecture")
}

func maxCols32AVX2(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no maxCols32AVX2 on this architecture")
}

func minCols64AVX2(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no minCols64AVX2 on this architecture")
}

func maxCols64AVX2(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no maxCols64AVX2 on this architecture")
}

func minCols32AVX512(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no minCols32AVX512 on this architecture")
}

func maxCols32AVX512(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no maxCols32AVX512 on this architecture")
}

func minCols64AVX512(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no minCols64AVX512 on this architecture")
}

func maxCols64AVX512(acc, xs unsafe.Pointer, n int) bool {
	panic("ops: no maxCols64AVX512 on this architecture")
}

func addCols32AVX2(acc, xs unsafe.Pointer, n int) {
	panic("ops: no addCols32AVX2 on this architecture")
}

func addCols64AVX2(acc, xs unsafe.Pointer, n int) {
	panic("ops: no addCols64AVX2 on this architecture")
}

func mulCols32AVX2(acc, xs unsafe.Pointer, n int) {
	panic("ops: no mulCols32AVX2 on this architecture")
}

func mulCols64AVX2(acc, xs unsafe.Pointer, n int) {
	panic("ops: no mulCols64AVX2 on this architecture")
}

func addCols32AVX512(acc, xs unsafe.Pointer, n int) {
	panic("ops: no addCols32AVX512 on this architecture")
}

func addCols64AVX512(acc, xs unsafe.Pointer, n int) {
	panic("ops: no addCols64AVX512 on this architecture")
}

func mulCols32AVX512(acc, xs unsafe.Pointer, n int) {
	panic("ops: no mulCols32AVX512 on this architecture")
}

func mulCols64AVX512(acc, xs unsafe.Pointer, n int) {
	panic("ops: no mulCols64AVX512 on this architecture")
}

func devCols32AVX2(acc, xs, means unsafe.Pointer, n int) {
	panic("ops: no devCols32AVX2 on this architecture")
}

func devCols64AVX2(acc, xs, means unsafe.Pointer, n int) {
	panic("ops: no devCols64AVX2 on this architecture")
}

func devCols32AVX512(acc, xs, means unsafe.Pointer, n int) {
	panic("ops: no devCols32AVX512 on this architecture")
}

func devCols64AVX512(acc, xs, means unsafe.Pointer, n int) {
	panic("ops: no devCols64AVX512 on this architecture")
}

func leafSum32AVX2(xs unsafe.Pointer, n int) float32 {
	panic("ops: no leafSum32AVX2 on this architecture")
}

func leafSum64AVX2(xs unsafe.Pointer, n int) float64 {
	panic("ops: no leafSum64AVX2 on this architecture")
}

func leafSquares32AVX2(xs unsafe.Pointer, n int, m float32) float32 {
	panic("ops: no leafSquares32AVX2 on this architecture")
}

func leafSquares64AVX2(xs unsafe.Pointer, n int, m float64) float64 {
	panic("ops: no leafSquares64AVX2 on this architecture")
}
