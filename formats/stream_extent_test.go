package formats

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"strings"
	"testing"
)

// endlessZeros is /dev/zero.
type endlessZeros struct{}

func (endlessZeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func archiveFixtures(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range []string{"../testdata/archive.npz", "../testdata/single.npz", "../testdata/torch/dtypes.safetensors", "../testdata/torch/nested.pt", "../testdata/torch/empty.safetensors"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		out[f] = b
	}
	return out
}

// TestCopyArchiveStopsAtItsEnd: an archive NumPy, safetensors or
// torch.save wrote is copied whole, and not a byte of what follows it.
func TestCopyArchiveStopsAtItsEnd(t *testing.T) {
	for name, b := range archiveFixtures(t) {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			r := io.MultiReader(bytes.NewReader(b), endlessZeros{})
			if err := copyArchive(&got, r, b[:min(len(b), probeLen)]); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), b) {
				t.Fatalf("copied %d bytes of a %d-byte archive", got.Len(), len(b))
			}
		})
	}
}

// TestCopyArchiveRefuses: bytes that are no archive, or an archive cut
// short, are refused without reading the stream to its end.
func TestCopyArchiveRefuses(t *testing.T) {
	npz := archiveFixtures(t)["../testdata/archive.npz"]
	for _, c := range []struct {
		name string
		r    io.Reader
		want string
	}{
		{"zip-then-zeros", io.MultiReader(strings.NewReader("PK\x03\x04"), endlessZeros{}), "without a name"},
		{"stored-descriptor-then-zeros", io.MultiReader(strings.NewReader("PK\x03\x04\x14\x00\x08\x00\x00\x00"), endlessZeros{}), "without a name"},
		{"zip-cut", bytes.NewReader(npz[:len(npz)-10]), "the stream ends"},
		{"safetensors-2^63", io.MultiReader(strings.NewReader("\xff\xff\xff\xff\xff\xff\xff\x7f{"), endlessZeros{}), "over the limit"},
		{"safetensors-junk-header", io.MultiReader(strings.NewReader("\x04\x00\x00\x00\x00\x00\x00\x00{{{{"), endlessZeros{}), "safetensors"},
		{"safetensors-data-cut", strings.NewReader(safetensorsCut), "the stream ends"},
		{"torch-stored-cut", bytes.NewReader(archiveFixtures(t)["../testdata/torch/nested.pt"][:200]), "the stream ends"},
		{"not-an-archive", io.MultiReader(strings.NewReader("hello"), endlessZeros{}), "not a .npy file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			br := io.MultiReader(c.r)
			head := make([]byte, probeLen)
			n, _ := io.ReadFull(br, head)
			err := copyArchive(io.Discard, io.MultiReader(bytes.NewReader(head[:n]), br), head[:n])
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

// safetensorsCut is a safetensors file of one 16-byte tensor, cut after 8
// of its data bytes.
var safetensorsCut = func() string {
	h := `{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`
	return string(binary.LittleEndian.AppendUint64(nil, uint64(len(h)))) + h + "12345678"
}()

// FuzzCopyArchive: whatever the bytes, copyArchive copies a prefix of them
// and ends.
func FuzzCopyArchive(f *testing.F) {
	for _, b := range archiveFixtures(f) {
		f.Add(b)
	}
	f.Add([]byte("PK\x03\x04"))
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var got bytes.Buffer
		_ = copyArchive(&got, bytes.NewReader(b), b[:min(len(b), probeLen)])
		if !bytes.HasPrefix(b, got.Bytes()) {
			t.Fatalf("copied %d bytes that are not a prefix of the input", got.Len())
		}
	})
}
