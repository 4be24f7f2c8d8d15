package text

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"strider/internal/dtype"
	"strider/ops"
)

// TestWriteJSON: json.dumps(a.tolist()) text, written in pieces that add
// up to the whole, and a write error stops the walk.
func TestWriteJSON(t *testing.T) {
	f8 := dtype.Dtype{Kind: 'f', Size: 8}
	b := make([]byte, 8*4)
	for i, x := range []float64{1.5, math.NaN(), math.Inf(-1), 0.1} {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	var out bytes.Buffer
	if err := WriteJSON(&out, ops.Contiguous(8, []int{2, 2}, b), f8, ops.Options{}); err != nil || out.String() != "[[1.5, NaN], [-Infinity, 0.1]]" {
		t.Fatalf("2x2: %q %v", out.String(), err)
	}
	// 2**16 repeats of 4 values over 32 bytes: about 600 KiB of text.
	v := ops.View{Elem: 8, Shape: []int{1 << 16, 4}, Strides: []int{0, 1}, Data: b}
	w := &pieces{}
	var done atomic.Int64
	if err := WriteJSON(w, v, f8, ops.Options{Done: &done}); err != nil {
		t.Fatal(err)
	}
	if want := int64(v.Count() * v.Elem); done.Load() != want {
		t.Fatalf("progress %d of the input's %d bytes", done.Load(), want)
	}
	row := "[1.5, NaN, -Infinity, 0.1]"
	want := "[" + strings.Repeat(row+", ", 1<<16-1) + row + "]"
	if got := w.String(); got != want || w.n < 9 || w.max > 65<<10 {
		t.Fatalf("repeated rows: %d bytes in %d writes (largest %d), equal %v", len(got), w.n, w.max, got == want)
	}
	failing := &pieces{fail: errors.New("disk full")}
	if err := WriteJSON(failing, v, f8, ops.Options{}); err == nil || failing.n != 1 {
		t.Fatalf("a failing writer: %v after %d writes, want its error after 1", err, failing.n)
	}
	if err := WriteJSON(&out, ops.Contiguous(8, []int{2}, b[:16]), dtype.Dtype{Kind: 'c', Size: 8}, ops.Options{}); err == nil {
		t.Fatal("complex: no error")
	}
}

// pieces is a writer that records how it was called.
type pieces struct {
	bytes.Buffer
	n, max int
	fail   error
}

func (p *pieces) Write(b []byte) (int, error) {
	p.n++
	p.max = max(p.max, len(b))
	if p.fail != nil {
		return 0, p.fail
	}
	return p.Buffer.Write(b)
}
