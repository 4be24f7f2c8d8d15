//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Sizes (issue 8): files over 4 GiB, made sparse so the test is quick, with
// a few known elements written far apart. info, diagonal, slice and gather
// must get offsets past 2**32 right, and their peak memory must follow what
// they touch, not the file size. scripts/stress.sh runs the same commands
// on multi-GiB files of real data, and a 6 GiB transpose.

// sizeMaxRSS is the most resident memory a command here may peak at: the
// files are 5 to 6 GiB, so reading them whole would show by gigabytes.
const sizeMaxRSS = 64 << 20

// sizeRun runs strider, with stdin when it is not nil, and returns its
// result and peak resident memory.
func sizeRun(t *testing.T, stdin *os.File, args ...string) (result, int64) {
	t.Helper()
	c, peak := peakCommand(t, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if stdin != nil {
		c.Stdin = stdin
	}
	code := exitCode(t, c, c.Run())
	rss := peak()
	return result{code, out.Bytes(), errb.Bytes()}, rss
}

// sizeOK checks a successful run that stayed within limit bytes of peak
// RSS and returns its output's data (after the 128-byte header these
// outputs have).
func sizeOK(t *testing.T, r result, rss, limit int64, args ...string) []byte {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%v: exit %d %s", args, r.code, r.stderr)
	}
	t.Logf("%v: peak RSS %.1f MiB", args, float64(rss)/(1<<20))
	if rss > limit {
		t.Fatalf("%v: peak RSS %d bytes, more than %d: memory follows the file, not what is read", args, rss, limit)
	}
	if len(r.stdout) < 128 {
		t.Fatalf("%v: output of %d bytes", args, len(r.stdout))
	}
	return r.stdout[128:]
}

// sizePut writes the little-endian uint32 v at element i of an f4 file.
func sizePut(t *testing.T, f *os.File, dataOff, i int64, v uint32) {
	t.Helper()
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	if _, err := f.WriteAt(b[:], dataOff+4*i); err != nil {
		t.Fatal(err)
	}
}

func sizeWantU32(t *testing.T, data []byte, i int, want uint32) {
	t.Helper()
	if got := binary.LittleEndian.Uint32(data[4*i:]); got != want {
		t.Fatalf("element %d is %#x, want %#x", i, got, want)
	}
}

// TestSizeOver4GiB: a 6.4 GB (40000, 40000) float32 matrix, sparse, with
// marks on the diagonal and the last row.
func TestSizeOver4GiB(t *testing.T) {
	const n = 40000
	path := filepath.Join(t.TempDir(), "m.npy")
	off := faultNpy(t, path, "<f4", []int{n, n}, nil)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	diag := []int64{0, 1, 20000, 39998, 39999}
	for _, i := range diag {
		sizePut(t, f, off, i*n+i, 0xd1a90000+uint32(i))
	}
	for j := int64(0); j < n; j += 1000 {
		sizePut(t, f, off, (n-1)*n+j, 0x1a570000+uint32(j)) // the last row, byte offset > 6e9
	}
	sizePut(t, f, off, 123*n+(n-1), 0xc0100000) // A[123, -1]
	f.Close()

	t.Run("info", func(t *testing.T) {
		r, rss := sizeRun(t, nil, "info", "--json", path)
		if r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		var got struct {
			Shape  []int
			Count  int64
			NBytes int64
		}
		if err := json.Unmarshal(r.stdout, &got); err != nil {
			t.Fatal(err)
		}
		if got.Count != n*n || got.NBytes != 4*n*n || len(got.Shape) != 2 || got.Shape[0] != n {
			t.Fatalf("info: %s", r.stdout)
		}
		t.Logf("info: peak RSS %.1f MiB", float64(rss)/(1<<20))
		if rss > sizeMaxRSS {
			t.Fatalf("peak RSS %d", rss)
		}
	})
	t.Run("diagonal", func(t *testing.T) {
		for _, via := range []string{"pread", "mapped"} {
			args := []string{"diagonal", path, "-o", "-"}
			var stdin *os.File
			if via == "mapped" {
				// Standard input redirected from the file is mapped (lazily)
				// rather than read with pread.
				if stdin, err = os.Open(path); err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
				args = []string{"diagonal", "-", "-o", "-"}
			}
			r, rss := sizeRun(t, stdin, args...)
			limit := int64(sizeMaxRSS)
			if via == "mapped" {
				// Through a mapping each element costs its page: n pages,
				// 156 MiB of page cache mapped, not the file's 6 GiB.
				limit += n * 4096
			}
			data := sizeOK(t, r, rss, limit, args...)
			if len(data) != 4*n {
				t.Fatalf("diagonal of %d bytes", len(data))
			}
			for _, i := range diag {
				sizeWantU32(t, data, int(i), 0xd1a90000+uint32(i))
			}
			sizeWantU32(t, data, 2, 0)
		}
	})
	t.Run("slice", func(t *testing.T) {
		args := []string{"slice", path, "-1, ::1000", "-o", "-"}
		r, rss := sizeRun(t, nil, args...)
		data := sizeOK(t, r, rss, sizeMaxRSS, args...)
		if len(data) != 4*40 {
			t.Fatalf("slice of %d bytes", len(data))
		}
		for k := 0; k < 40; k++ {
			sizeWantU32(t, data, k, 0x1a570000+uint32(1000*k))
		}
		args = []string{"slice", path, "[123, 39999], -1", "-o", "-"}
		r, rss = sizeRun(t, nil, args...)
		data = sizeOK(t, r, rss, sizeMaxRSS, args...)
		sizeWantU32(t, data, 0, 0xc0100000)
		sizeWantU32(t, data, 1, 0xd1a90000+39999) // A[-1, -1], on the diagonal
	})
	t.Run("gather", func(t *testing.T) {
		args := []string{"gather", "--index", "[39999, 0]", "--axis", "0", path, "-o", "-"}
		r, rss := sizeRun(t, nil, args...)
		data := sizeOK(t, r, rss, sizeMaxRSS, args...)
		if len(data) != 2*4*n {
			t.Fatalf("gather of %d bytes", len(data))
		}
		sizeWantU32(t, data, 1000, 0x1a570000+1000)
		sizeWantU32(t, data, n, 0xd1a90000)
		args = []string{"gather", "--index", "[1599999999, 1599960000, 4959999]", path, "-o", "-"}
		r, rss = sizeRun(t, nil, args...)
		data = sizeOK(t, r, rss, sizeMaxRSS, args...)
		sizeWantU32(t, data, 0, 0xd1a90000+39999)
		sizeWantU32(t, data, 1, 0x1a570000)
		sizeWantU32(t, data, 2, 0xc0100000)
	})
}

// TestSizeOver4GElements: a 1-d uint8 array of 5e9 elements, so element
// indices themselves pass 2**32, with marks at 2**32-1, 2**32 and the end.
func TestSizeOver4GElements(t *testing.T) {
	const n = 5_000_000_000
	path := filepath.Join(t.TempDir(), "v.npy")
	off := faultNpy(t, path, "|u1", []int{n}, nil)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range map[int64]byte{1<<32 - 1: 0x11, 1 << 32: 0x22, n - 1: 0x33} {
		if _, err := f.WriteAt([]byte{v}, off+i); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	for _, c := range []struct {
		args []string
		want []byte
	}{
		{[]string{"slice", path, "4294967296"}, []byte{0x22}},
		{[]string{"slice", path, "4294967295:4294967297"}, []byte{0x11, 0x22}},
		{[]string{"slice", path, "-1:-4294967298:-4294967296"}, []byte{0x33, 0x00}},
		{[]string{"gather", "--index", "[4294967296, -1, 4294967295]", path}, []byte{0x22, 0x33, 0x11}},
		{[]string{"gather", "--index", "[9294967296]", "--mode", "wrap", path}, []byte{0x22}}, // wraps to 2**32
	} {
		t.Run(c.args[0], func(t *testing.T) {
			args := append(c.args, "-o", "-")
			r, rss := sizeRun(t, nil, args...)
			if r.code != 0 {
				t.Fatalf("exit %d %s", r.code, r.stderr)
			}
			t.Logf("%v: peak RSS %.1f MiB", c.args, float64(rss)/(1<<20))
			if rss > sizeMaxRSS {
				t.Fatalf("peak RSS %d", rss)
			}
			if got := r.stdout[len(r.stdout)-len(c.want):]; !bytes.Equal(got, c.want) {
				t.Fatalf("got % x, want % x", got, c.want)
			}
		})
	}
}
