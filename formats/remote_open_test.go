package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// The remote inputs read from a loopback server (testkit.Server) must be
// the local files' arrays, byte for byte, headers and descriptions alike,
// from a server with ranges and from one without. What they fetch is
// counted: cmd/remote_test.go checks the commands' measures.

// serveTestdata serves every file of ../testdata (and its torch folder)
// at its path under the folder.
func serveTestdata(t *testing.T) *testkit.Server {
	t.Helper()
	s := testkit.NewServer(t)
	for _, pattern := range []string{"../testdata/*.np[yz]", "../testdata/torch/*.pt", "../testdata/torch/*.safetensors", "../testdata/malformed/*", "../testdata/torch/malformed/*"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			s.PutBytes("/"+strings.TrimPrefix(p, "../testdata/"), testkit.MustRead(t, p))
		}
	}
	return s
}

// remoteCases are the specs read both ways: every kind of input, members
// and tensors among them, and broken files.
func remoteCases(t *testing.T) []string {
	var specs []string
	for _, pattern := range []string{"../testdata/*.npy", "../testdata/malformed/*", "../testdata/torch/malformed/*"} {
		paths, _ := filepath.Glob(pattern)
		specs = append(specs, paths...)
	}
	if len(specs) == 0 {
		t.Skip("no fixtures in ../testdata")
	}
	specs = append(specs, "../testdata/archive.npz", "../testdata/archive.npz:a", "../testdata/archive.npz:nope", "../testdata/torch/single.safetensors", "../testdata/torch/scalar.pt", "../testdata/torch/unpadded.safetensors:x")
	lines := bytes.Split(testkit.MustRead(t, "../testdata/torch/expected.jsonl"), []byte("\n"))
	for _, l := range lines {
		var e struct{ File, Name string }
		if json.Unmarshal(l, &e) == nil {
			specs = append(specs, "../testdata/torch/"+e.File+":"+e.Name)
		}
	}
	return specs
}

// sameOpen compares what two opens gave.
func sameOpen(a, b *npy.Array, errA, errB error) string {
	switch {
	case (errA == nil) != (errB == nil) || errA != nil && errA.Error() != errB.Error():
		return fmt.Sprintf("errors %v, %v", errA, errB)
	case errA != nil:
		return ""
	case !reflect.DeepEqual(a.Header, b.Header):
		return fmt.Sprintf("headers %+v, %+v", a.Header, b.Header)
	case !bytes.Equal(a.Data, b.Data) || !reflect.DeepEqual(a.Strides(), b.Strides()):
		return "data differ"
	}
	return ""
}

// From a server with ranges a remote file reads as the local file; from
// one without, as the file on a pipe (standard input) reads, except that
// ListTensors lists a tensor file (a pipe is never listed).
func TestRemoteSameAsLocal(t *testing.T) {
	s := serveTestdata(t)
	t.Setenv("STRIDER_HTTP_TIMEOUT", "5s")
	for _, ranges := range []bool{true, false} {
		s.NoRange(!ranges)
		for _, spec := range remoteCases(t) {
			url := s.URL + "/" + strings.TrimPrefix(filepath.ToSlash(spec), "../testdata/")
			local := func(open func(spec string, stdin io.Reader) error) error {
				if ranges {
					return open(spec, nil)
				}
				path, member, has := SplitSpec(spec)
				if has {
					member = ":" + member
				}
				return open("-"+member, bytes.NewReader(testkit.MustRead(t, path)))
			}
			t.Run(fmt.Sprintf("ranges=%v/%s", ranges, spec), func(t *testing.T) {
				if !ranges && strings.Contains(spec, ":") {
					t.Skip("standard input has no members to name")
				}
				for _, access := range []npy.Access{npy.AccessAll, npy.AccessFetch} {
					var local_ *npy.Array
					errL := local(func(spec string, stdin io.Reader) (err error) {
						local_, err = Open(spec, stdin, access)
						return err
					})
					local := local_
					got, errR := Open(url, nil, access)
					if got != nil && got.Lazy() {
						// Fetch the whole data, in two halves that overlap.
						n := int64(len(got.Data))
						if err := got.Fetch([]npy.Span{{Off: n / 3, Len: n - n/3}, {Off: 0, Len: n/2 + 1}}); err != nil {
							t.Fatal(err)
						}
					}
					if d := sameOpen(local, got, errL, errR); d != "" {
						t.Errorf("access %d: Open differs: %s", access, d)
					}
					for _, a := range []*npy.Array{local, got} {
						if a != nil {
							a.Close()
						}
					}
				}
				var hl npy.Header
				errL := local(func(spec string, stdin io.Reader) (err error) {
					hl, err = OpenHeader(spec, stdin)
					return err
				})
				hr, errR := OpenHeader(url, nil)
				if fmt.Sprint(hl, errL) != fmt.Sprint(hr, errR) {
					t.Errorf("OpenHeader: %v, %v; local %v, %v", hr, errR, hl, errL)
				}
				var dl []npy.Description
				errL = local(func(spec string, stdin io.Reader) (err error) {
					dl, err = Inspect(spec, stdin)
					return err
				})
				dr, errR := Inspect(url, nil)
				if fmt.Sprint(dl, errL) != fmt.Sprint(dr, errR) {
					t.Errorf("Inspect: %v, %v; local %v, %v", dr, errR, dl, errL)
				}
				tl, okL, errL := ListTensors(spec)
				tr, okR, errR := ListTensors(url)
				if tl != nil && tr != nil {
					tl.Path, tr.Path = "", ""
				}
				if !ranges && errL != nil && errR != nil {
					errL = errR // a stream's errors are the stream's: Open's checked them
				}
				if !ranges && errL != nil && strings.Contains(spec, "trailing_bytes") {
					return // a stream ends with its last tensor: what follows is never read
				}
				if okL != okR || fmt.Sprint(tl, errL) != fmt.Sprint(tr, errR) {
					t.Errorf("ListTensors: %v %v, %v; local %v %v, %v", okR, tr, errR, okL, tl, errL)
				}
			})
		}
	}
}

// TestRemoteArchive: a remote archive lists and opens its members as the
// local one does.
func TestRemoteArchive(t *testing.T) {
	s := serveTestdata(t)
	for _, spec := range []string{"../testdata/archive.npz", "../testdata/torch/dtypes.safetensors", "../testdata/torch/nested.pt"} {
		s.Reset()
		url := s.URL + "/" + strings.TrimPrefix(filepath.ToSlash(spec), "../testdata/")
		la, okL, errL := OpenArchive(spec)
		ra, okR, errR := OpenArchive(url)
		if !okL || !okR || errL != nil || errR != nil || !reflect.DeepEqual(la.Names, ra.Names) || la.Kind != ra.Kind {
			t.Fatalf("%s: OpenArchive: %v %v %v; local %v %v %v", spec, okR, ra, errR, okL, la, errL)
		}
		for _, name := range la.Names {
			a, errA := la.Open(name, npy.AccessAll)
			b, errB := ra.Open(name, npy.AccessAll)
			if d := sameOpen(a, b, errA, errB); d != "" {
				t.Errorf("%s:%s: %s", spec, name, d)
			}
			if b != nil {
				b.Close()
			}
		}
		la.Close()
		ra.Close()
		// The members' files share their connections (one, here: they are
		// opened one after the other).
		reqs, _ := s.Counts()
		conns := map[string]bool{}
		for _, r := range reqs {
			conns[r.Conn] = true
		}
		if len(conns) > 2 {
			t.Errorf("%s: %d requests on %d connections; want the connections reused", spec, len(reqs), len(conns))
		}
	}
	if _, ok, err := OpenArchive(s.URL + "/archive.npz:a"); ok || err != nil {
		t.Errorf("OpenArchive(URL:MEMBER) = %v, %v; a member is one array", ok, err)
	}
}

// TestRemoteHeaderOnly: the header of a 1 GiB safetensors file (the
// server makes it up, sparse) costs less than 64 KiB, and a .npy's first
// KiB; a lazy array fetches only what is asked.
func TestRemoteHeaderOnly(t *testing.T) {
	s := testkit.NewServer(t)
	header := `{"__metadata__":{"format":"pt"},"bias":{"dtype":"F32","shape":[4096],"data_offsets":[0,16384]},"weight":{"dtype":"F32","shape":[65536,4096],"data_offsets":[16384,1073758208]}}`
	header += strings.Repeat(" ", (8-len(header)%8)%8)
	head := append(binary8(len(header)), header...)
	big := testkit.Sparse{Size: int64(len(head)) + 1073758208, Patches: map[int64][]byte{0: head}}
	s.Put("/big.safetensors", testkit.Body{R: big, Size: big.Size})
	s.PutBytes("/x.npy", testkit.MustRead(t, "../testdata/example_f4_2x3x4_c.npy"))

	tf, ok, err := ListTensors(s.URL + "/big.safetensors")
	reqs, n := s.Counts()
	if !ok || err != nil || len(tf.Tensors) != 2 || n > 64<<10 {
		t.Errorf("ListTensors of 1 GiB: %v %v; %d requests, %d bytes; want 2 tensors within 64 KiB", ok, err, len(reqs), n)
	}
	s.Reset()
	a, err := Open(s.URL+"/big.safetensors:weight", nil, npy.AccessFetch)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Fetch([]npy.Span{{Off: 4096 * 4 * 100, Len: 20}}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if reqs, n = s.Counts(); len(reqs) != 2 || n != 1024+20 {
		t.Errorf("lazy open and a 20-byte fetch: %v, %d bytes; want the first KiB (the header in it), then 20 bytes", reqs, n)
	}
	s.Reset()
	if _, err := OpenHeader(s.URL+"/x.npy", nil); err != nil {
		t.Fatal(err)
	}
	if reqs, n = s.Counts(); len(reqs) != 1 || reqs[0].Range != "bytes=0-1023" {
		t.Errorf(".npy header: %v, %d bytes; want its first KiB", reqs, n)
	}
}

func binary8(n int) []byte {
	b := make([]byte, 8)
	for i := range 8 {
		b[i] = byte(n >> (8 * i))
	}
	return b
}

var _ = os.Stat
