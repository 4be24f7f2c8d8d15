package ops

import "strider/internal/dtype"

// float64ToHalfBits is dtype.Float64ToHalf, the one float16 rounding,
// under the name export_text.go gives package text; it goes when text
// calls dtype itself.
func float64ToHalfBits(x float64) uint16 { return dtype.Float64ToHalf(x) }
