package text

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

// TestSaveTxtNeeds: the text Needs promises is never more than Write
// writes, and a view of 2**40 or 2**56 elements over one stored element is
// sized at once, without building its row format (issue 27).
func TestSaveTxtNeeds(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	c8 := dtype.Dtype{Kind: 'c', Size: 8}
	vals := []float64{0, -1.5, math.NaN(), 1e300, -0.0, 2, math.Inf(-1), 7}
	b := make([]byte, 8*len(vals))
	for i, x := range vals {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	for _, tc := range []struct {
		name  string
		st    SaveTxt
		f     dtype.Dtype
		shape []int
	}{
		{"f8/8/default", SaveTxt{Fmt: "%.18e", Delimiter: " ", Newline: "\n"}, f8, []int{8}},
		{"f8/2x4/csv/header", SaveTxt{Fmt: "%.18e", Delimiter: ",", Newline: "\n", Header: "a\nb", Footer: "z", Comments: "# "}, f8, []int{2, 4}},
		{"f8/4x2/g", SaveTxt{Fmt: "%g", Delimiter: "", Newline: ""}, f8, []int{4, 2}},
		{"f8/4x2/row", SaveTxt{Fmt: "%.0s|%5.1f", Delimiter: " ", Newline: "\r\n"}, f8, []int{4, 2}},
		{"f8/8x0", SaveTxt{Fmt: "%.18e", Delimiter: " ", Newline: "\n"}, f8, []int{8, 0}},
		{"c8/2x4/+delim", SaveTxt{Fmt: "%.0s", Delimiter: "+", Newline: "\n"}, c8, []int{2, 4}},
		{"c8/4x2/e", SaveTxt{Fmt: "%.3e", Delimiter: " ", Newline: "\n"}, c8, []int{4, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := ops.Contiguous(tc.f.Size, tc.shape, b[:ops.Count(tc.shape)*tc.f.Size])
			text, mem, err := tc.st.Needs(v, tc.f, ops.Options{Threads: 2})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			var done atomic.Int64
			if err := tc.st.Write(&out, v, tc.f, ops.Options{Threads: 2, Done: &done}); err != nil {
				t.Fatal(err)
			}
			if text > int64(out.Len()) || mem <= 0 {
				t.Fatalf("Needs: text %d, memory %d; Write wrote %d bytes: %q", text, mem, out.Len(), out.String())
			}
			if want := int64(v.Count() * v.Elem); done.Load() != want {
				t.Fatalf("progress %d of the input's %d bytes", done.Load(), want)
			}
		})
	}
	st := SaveTxt{Fmt: "%.18e", Delimiter: " ", Newline: "\n"}
	for _, tc := range []struct {
		shape                []int
		wantText, wantMemory int64 // at least
	}{
		{[]int{1 << 40}, 4 << 40, 1},                  // "nan\n" at the least, one column
		{[]int{1 << 28, 1 << 28}, 4 << 56, 512 << 28}, // rows of 2**28 columns
		{[]int{1 << 47, 1 << 16}, math.MaxInt64, 512 << 16},
	} {
		v := ops.View{Elem: 8, Shape: tc.shape, Strides: make([]int, len(tc.shape)), Data: b[:8]}
		var text, mem int64
		allocs := testing.AllocsPerRun(1, func() { text, mem, _ = st.Needs(v, f8, ops.Options{Threads: 2}) })
		if text < tc.wantText || mem < tc.wantMemory || allocs > 20 {
			t.Errorf("%v of stride 0: text %d, memory %d, %v allocations; want at least %d and %d, and no row format", tc.shape, text, mem, allocs, tc.wantText, tc.wantMemory)
		}
	}
	if _, _, err := st.Needs(ops.Contiguous(8, []int{2, 2, 2}, b), f8, ops.Options{}); err == nil || !strings.Contains(err.Error(), "3D") {
		t.Errorf("a 3-d array: %v", err)
	}
}
