//go:build !linux || race

package cmd

// limitMemory sets no limit: RLIMIT_DATA is Linux's measure of private
// memory, and under the race detector its shadow mappings would count
// against it (main_memlimit_test.go).
func limitMemory() {}
