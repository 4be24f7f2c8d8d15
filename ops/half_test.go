package ops

import (
	"testing"

	"strider/internal/dtype"
)

func TestFloat64ToHalfBits(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		x := dtype.HalfToFloat64(uint16(h))
		if x != x {
			continue
		}
		if got := float64ToHalfBits(x); got != uint16(h) {
			t.Fatalf("half %#04x -> %v -> %#04x", h, x, got)
		}
	}
}
