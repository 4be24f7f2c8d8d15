package ops

import (
	"os"
	"runtime"

	"golang.org/x/sys/cpu"
)

// simdLevel is the widest instruction set the assembly kernels may use.
// Every kernel has a pure-Go twin that writes the same bytes; simdNone
// runs the twins only.
type simdLevel int

const (
	simdNone   simdLevel = iota // pure Go
	simdSSE2                    // amd64's baseline: non-temporal stores
	simdAVX2                    // AVX2 and BMI2
	simdAVX512                  // AVX-512 F, BW, VL and VBMI2
)

// simdNames are STRIDER_SIMD's values, by level.
var simdNames = []string{"none", "sse2", "avx2", "avx512"}

func (l simdLevel) String() string { return simdNames[l] }

// detectSIMD is the widest level the CPU has, capped by the environment
// variable STRIDER_SIMD (none, sse2, avx2 or avx512), which exists so that
// each path can be measured and tested on one machine: STRIDER_SIMD=avx2
// is what an AMD EPYC without AVX-512 runs, STRIDER_SIMD=none the pure Go
// code. It is read once, when the package starts.
func detectSIMD() simdLevel {
	level := simdNone
	if runtime.GOARCH == "amd64" {
		level = simdSSE2
		if cpu.X86.HasAVX2 && cpu.X86.HasBMI2 {
			level = simdAVX2
			if cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VBMI2 {
				level = simdAVX512
			}
		}
	}
	if cap, ok := os.LookupEnv("STRIDER_SIMD"); ok {
		for l, name := range simdNames {
			if name == cap {
				level = min(level, simdLevel(l))
			}
		}
	}
	return level
}
