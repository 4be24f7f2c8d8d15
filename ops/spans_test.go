package ops

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// spansOracle is Spans by its definition: one span per element, merged.
func spansOracle(v View, gap int) []Span {
	var spans []Span
	for i := range v.Count() {
		off := v.Offset
		for k, p := range Unravel(i, v.Shape) {
			off += p * v.Strides[k]
		}
		spans = append(spans, Span{off * v.Elem, v.Elem})
	}
	return MergeSpans(spans, gap)
}

// TestSpans checks Spans against its oracle on random strided views
// (negative, zero and overlapping strides among them) and gaps.
func TestSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for c := range 3000 {
		ndim := rng.IntN(4)
		v := View{Elem: []int{1, 2, 4, 8}[rng.IntN(4)], Shape: make([]int, ndim), Strides: make([]int, ndim)}
		for k := range ndim {
			v.Shape[k] = rng.IntN(5)
			v.Strides[k] = rng.IntN(41) - 20
			if v.Shape[k] > 0 {
				v.Offset += max(-v.Strides[k]*(v.Shape[k]-1), 0)
			}
		}
		gap := []int{0, 1, 8, 64, 1 << 20}[rng.IntN(5)]
		got, want := v.Spans(gap), spansOracle(v, gap)
		if len(want) == 0 {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: %s: Spans(%d) = %v, want %v", c, fmt.Sprint(v.Elem, v.Shape, v.Strides, v.Offset), gap, got, want)
		}
	}
}
