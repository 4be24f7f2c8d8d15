package formats

import (
	"bytes"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/testkit"
)

// FuzzOpen feeds arbitrary bytes to Open and OpenHeader as standard input,
// which covers the data reader and the .npz path too.
func FuzzOpen(f *testing.F) {
	testkit.NpySeeds(f, "../testdata",
		npy.EncodeHeader(dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}),
		npy.EncodeHeader(dtype.Dtype{Kind: 'c', Size: 16, Order: '>'}, []int{}),
		npy.EncodeHeader(dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{0, 7, 1}))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, herr := OpenHeader("-", bytes.NewReader(b))
		a, err := Open("-", bytes.NewReader(b), npy.AccessAll)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		defer a.Close()
		if herr != nil {
			t.Fatalf("Open succeeded where OpenHeader failed: %v", herr)
		}
		if int64(len(a.Data)) != a.NBytes() && !a.Strided() || h.NBytes() != a.NBytes() {
			t.Fatalf("%d data bytes, NBytes %d, OpenHeader's NBytes %d", len(a.Data), a.NBytes(), h.NBytes())
		}
		align := uintptr(16)
		if sniffTensorFile(b) != notTensorFile {
			align = uintptr(min(a.Dtype.Size, 8)) // tensors: aligned for their type
		}
		if len(a.Data) > 0 && sysmem.AddrOf(a.Data)%align != 0 {
			t.Fatalf("Data is not aligned")
		}
	})
}
