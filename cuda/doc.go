// Package cuda is strider's GPU path. Builds without the "cuda" tag get a
// twin with the same API whose every call reports how to get a CUDA build,
// so the default build needs no cgo and runs on any machine.
package cuda
