package formats

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"testing"

	"github.com/sbinet/npyio"

	"strider/formats/npy"
	"strider/internal/dtype"
)

// Files that another implementation, github.com/sbinet/npyio, writes
// (format 2.0) must be read correctly by Open (and files written by Create
// by npyio: see TestInteropNpyioReads).
func TestInteropOpenReadsNpyio(t *testing.T) {
	var buf bytes.Buffer
	want := []float64{1, 2, 3, math.Pi}
	if err := npyio.Write(&buf, want); err != nil {
		t.Fatal(err)
	}
	a, err := Open("-", &buf, npy.AccessAll)
	if err != nil {
		t.Fatal(err)
	}
	if a.Dtype != (dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}) || !slices.Equal(a.Shape, []int{4}) || a.Major != 2 {
		t.Fatalf("header %+v", a.Header)
	}
	for i, w := range want {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(a.Data[8*i:])); got != w {
			t.Fatalf("element %d = %v, want %v", i, got, w)
		}
	}
}
