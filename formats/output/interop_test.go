package output

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/sbinet/npyio"

	"strider/internal/dtype"
)

// Files written by Create must be read correctly by another implementation,
// github.com/sbinet/npyio (and files npyio writes by Open: see
// TestInteropOpenReadsNpyio).
func TestInteropNpyioReads(t *testing.T) {
	le, be := binary.LittleEndian, binary.BigEndian
	tests := []struct {
		name  string
		dtype dtype.Dtype
		shape []int
		put   func(data []byte) // fills the data
		got   func() any        // a pointer to a slice for npyio to fill
		want  any
	}{
		{"f8le/2x3", dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{2, 3},
			func(b []byte) {
				for i := range 6 {
					le.PutUint64(b[8*i:], math.Float64bits(float64(i)+0.5))
				}
			},
			func() any { return new([]float64) }, []float64{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}},
		{"f4be/4", dtype.Dtype{Kind: 'f', Size: 4, Order: '>'}, []int{4},
			func(b []byte) {
				for i := range 4 {
					be.PutUint32(b[4*i:], math.Float32bits(-float32(i)))
				}
			},
			func() any { return new([]float32) }, []float32{0, -1, -2, -3}},
		{"i4le/4", dtype.Dtype{Kind: 'i', Size: 4, Order: '<'}, []int{4},
			func(b []byte) {
				for i := range 4 {
					le.PutUint32(b[4*i:], uint32(int32(i*1000-1500)))
				}
			},
			func() any { return new([]int32) }, []int32{-1500, -500, 500, 1500}},
		{"u1/5", dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{5},
			func(b []byte) { copy(b, []byte{0, 1, 127, 128, 255}) },
			func() any { return new([]uint8) }, []uint8{0, 1, 127, 128, 255}},
		{"b1/3", dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{3},
			func(b []byte) { copy(b, []byte{1, 0, 1}) },
			func() any { return new([]bool) }, []bool{true, false, true}},
		{"c16le/2", dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}, []int{2},
			func(b []byte) {
				for i, v := range []float64{1, -2, 3.25, math.Inf(1)} {
					le.PutUint64(b[8*i:], math.Float64bits(v))
				}
			},
			func() any { return new([]complex128) }, []complex128{complex(1, -2), complex(3.25, math.Inf(1))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.npy")
			o, err := Create(path, nil, tc.dtype, tc.shape)
			if err != nil {
				t.Fatal(err)
			}
			tc.put(o.Data)
			if err := o.Commit(); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := npyio.NewReader(f)
			if err != nil {
				t.Fatalf("npyio.NewReader: %v", err)
			}
			if r.Header.Descr.Type != tc.dtype.Descr() || !slices.Equal(r.Header.Descr.Shape, tc.shape) || r.Header.Descr.Fortran {
				t.Fatalf("npyio header %+v, want %s %v", r.Header.Descr, tc.dtype.Descr(), tc.shape)
			}
			ptr := tc.got()
			if err := r.Read(ptr); err != nil {
				t.Fatalf("npyio Read: %v", err)
			}
			if got := reflect.ValueOf(ptr).Elem().Interface(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("npyio read %v, want %v", got, tc.want)
			}
		})
	}
}
