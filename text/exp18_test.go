package text

import (
	"math"
	"math/rand"
	"strconv"
	"testing"
)

// appendExp18 must equal strconv's %.18e wherever it answers.
func TestAppendExp18(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	check := func(x float64) {
		got, ok := appendExp18(nil, x)
		want := strconv.FormatFloat(x, 'e', 18, 64)
		if ok && string(got) != want {
			t.Fatalf("%v: %s, strconv %s", x, got, want)
		}
	}
	for i := 0; i < 100000; i++ {
		check(math.Abs(rng.NormFloat64()) * math.Pow(10, float64(rng.Intn(22)-5)))
		check(math.Float64frombits(rng.Uint64() >> 1))
		check(float64(rng.Int63n(1 << 53)))
	}
	for _, x := range []float64{1e-4, 0.1, 1, 9.9999999999999999999, 10, 1e15, 1<<53 - 1, 0.5, 123.456, 9.999999999999999e15} {
		check(x)
		check(math.Nextafter(x, 0))
		check(math.Nextafter(x, 2e16))
	}
	if _, ok := appendExp18(nil, 1.5); !ok {
		t.Fatal("1.5 not taken by the fast path")
	}
}
