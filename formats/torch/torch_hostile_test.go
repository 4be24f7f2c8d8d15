package torch

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"runtime"
	"strings"
	"testing"
	"time"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// Hostile torch.save pickles and archives (issue 27): shapes PyTorch never
// writes, built opcode by opcode, that once made the reader hang or run
// out of memory. Each must be read, or refused with one line, in time
// linear in its size.

// sharedTupleKey is {t: None} where t nests (x, x) levels deep, x the
// level below: a key of 2**levels leaves in about 5*levels bytes.
func sharedTupleKey(levels int) []byte {
	p := testkit.NewPickle().Op("}").Int(0).Put(0)
	for i := 1; i <= levels; i++ {
		p.Get(uint32(i - 1)).Op("\x86").Put(uint32(i))
	}
	return p.Op("Ns").Done()
}

// longTupleKey is {(0, 0, ...): None} with n items.
func longTupleKey(n int) []byte {
	return testkit.NewPickle().Op("}(").Op(strings.Repeat("K\x00", n)).Op("tNs").Done()
}

// orderedDictLongTuple is OrderedDict([((0, 0, ...), None)]) with n items.
func orderedDictLongTuple(n int) []byte {
	p := testkit.NewPickle().Global("collections", "OrderedDict").Op("](")
	p.Op("(").Op(strings.Repeat("K\x00", n)).Op("tN\x86e\x85R")
	return p.Done()
}

// repeatedKey is a dict whose one key of size bytes is set n times,
// through the memo.
func repeatedKey(size, n int) []byte {
	p := testkit.NewPickle().Op("}").Str(strings.Repeat("k", size)).Put(0).Op("Ns")
	for range n - 1 {
		p.Get(0).Op("Ns")
	}
	return p.Done()
}

// sharedKeyDict is a list of n references to {key of size bytes: value}.
func sharedKeyDict(n, size int, value func(p *testkit.Pickle)) []byte {
	return testkit.NewPickle().Shared(n, func(p *testkit.Pickle) {
		p.Op("}").Str(strings.Repeat("k", size))
		value(p)
		p.Op("s")
	}).Done()
}

// nestedKey is {k: {k: ... {k: tensor}}}, levels dicts under one key of
// size bytes.
func nestedKey(levels, size int) []byte {
	p := testkit.NewPickle().Op("}").Str(strings.Repeat("k", size)).Put(0)
	for range levels - 1 {
		p.Op("}").Get(0)
	}
	p.Tensor("0", 1, 0, 1)
	return p.Op(strings.Repeat("s", levels)).Done()
}

func noneValue(p *testkit.Pickle)   { p.Op("N") }
func tensorValue(p *testkit.Pickle) { p.TensorValue() }

// within fails the test when f takes longer than d: it would hang.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// oneStorage resolves every persistent id to one float32 storage of
// numel elements.
func oneStorage(numel int64) func(any) (any, error) {
	s := &torchStorage{key: "0", class: "FloatStorage", dt: torchStorageTypes["FloatStorage"], numel: numel, begin: 0, end: 4 * numel}
	return func(any) (any, error) { return s, nil }
}

// TestUnpickleHostileKeys: dict keys are hashed once per object, so a
// shared tuple nested 40 levels (2**40 leaves), a key of a million items
// and a long key repeated through the memo are read in linear time.
func TestUnpickleHostileKeys(t *testing.T) {
	for _, c := range []struct {
		name   string
		pickle []byte
	}{
		{"tuple shared 40 levels deep", sharedTupleKey(40)},
		{"tuple of 1M items", longTupleKey(1 << 20)},
		{"OrderedDict pair of a 200k-item tuple", orderedDictLongTuple(200_000)},
		{"4 MiB key set 100k times", repeatedKey(4<<20, 100_000)},
	} {
		t.Run(c.name, func(t *testing.T) {
			within(t, 20*time.Second, func() {
				v, err := unpickle(c.pickle, oneStorage(1))
				if d, ok := v.(*pkDict); err != nil || !ok || len(d.keys) != 1 {
					t.Errorf("%T %v, want a dict of one key", v, err)
				}
			})
		})
	}
}

// TestUnpickleKeyEquality: numbering keys keeps Python's equality: a
// shared tuple equals the same tuple spelled out; 1, 1.0 and True are one
// key; str and bytes differ.
func TestUnpickleKeyEquality(t *testing.T) {
	for _, c := range []struct {
		name   string
		pickle string
		keys   int
	}{
		{"shared and spelled-out tuples", "}K\x00q\x00h\x00\x86q\x01h\x01\x86NsK\x00K\x00\x86K\x00K\x00\x86\x86Ns", 1},
		{"1, 1.0, True, (1,) and (True,)", "}K\x01NsG\x3f\xf0\x00\x00\x00\x00\x00\x00Ns\x88NsK\x01\x85Ns\x88\x85Ns", 2},
		{"str and bytes", "}X\x01\x00\x00\x00aNsC\x01aNsX\x01\x00\x00\x00aNs", 2},
		{"nested tuples of equal items", "}K\x01K\x02\x86\x85NsK\x01K\x02\x86\x85Ns(K\x01\x85t\x85Ns", 2},
	} {
		v, err := unpickle([]byte("\x80\x02"+c.pickle+"."), oneStorage(1))
		if d, ok := v.(*pkDict); err != nil || !ok || len(d.keys) != c.keys {
			t.Errorf("%s: %#v %v, want a dict of %d keys", c.name, v, err, c.keys)
		}
	}
	_, err := unpickle([]byte("\x80\x02}K\x00"+strings.Repeat("\x85", maxPickleDepth+1)+"Ns."), oneStorage(1))
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 256") {
		t.Errorf("a key of tuples nested %d deep: %v", maxPickleDepth+1, err)
	}
}

// walkPickle unpickles p and names its tensors with w's bounds.
func walkPickle(p []byte, w *walker) (*npy.TensorFile, error) {
	w.tf = &npy.TensorFile{Format: "torch"}
	root, err := unpickle(p, oneStorage(1))
	if err != nil {
		return w.tf, err
	}
	return w.tf, w.walk(root, 0)
}

// TestWalkNames: names join the keys on the path with '.'.
func TestWalkNames(t *testing.T) {
	p := testkit.NewPickle().Op("}").Str("a").Op("}").Str("b").Op("](")
	p.TensorValue().TensorValue().Op("es").Op("s").Str("").Op("}").Str("c").TensorValue().Op("ss")
	tf, err := walkPickle(p.Done(), newWalker(nil))
	var names []string
	for _, tn := range tf.Tensors {
		names = append(names, tn.Name)
	}
	if got := strings.Join(names, ","); err != nil || got != "a.b.0,a.b.1,.c" {
		t.Errorf("names %q, %v; want a.b.0,a.b.1,.c", got, err)
	}
	tf, err = walkPickle(testkit.NewPickle().TensorValue().Done(), newWalker(nil))
	if err != nil || len(tf.Tensors) != 1 || tf.Tensors[0].Name != "" {
		t.Errorf("a bare tensor: %+v, %v", tf.Tensors, err)
	}
}

// TestWalkHostileNames: names are built only for tensors, and refused
// with one line before they pass a bound (set small here; the real ones
// are checked end to end in main_torch_hostile_test.go).
func TestWalkHostileNames(t *testing.T) {
	within(t, 20*time.Second, func() {
		// 500k dicts under 32 MiB keys, no tensor: no name is built.
		tf, err := walkPickle(sharedKeyDict(500_000, 32<<20, noneValue), newWalker(nil))
		if err != nil || len(tf.Tensors) != 0 {
			t.Errorf("500k references to {32 MiB key: None}: %d tensors, %v", len(tf.Tensors), err)
		}
	})
	small := func() *walker { return &walker{maxName: 5000, maxNames: 64 << 10, maxTensors: 100} }
	for _, c := range []struct {
		name, want string
		pickle     []byte
	}{
		{"a key over the name bound", "2 keys joined into 8194 bytes, over the limit of 5000 bytes", sharedKeyDict(2, 8192, tensorValue)},
		{"a key under 250 nested dicts", "250 keys joined into 256249 bytes, over the limit of 5000", nestedKey(250, 1024)},
		{"one dict under many references", "first 16 tensors come to 65574 bytes, over the limit of 65536", sharedKeyDict(1000, 4096, tensorValue)},
		{"too many tensors", "more than 100 tensors", testkit.NewPickle().Shared(1000, tensorValue).Done()},
	} {
		_, err := walkPickle(c.pickle, small())
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, npy.ErrFormat) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// deflatedZeros is a raw deflate stream of n MiB of zeros, about a
// thousand times smaller: one compressed MiB repeated, then a final block.
func deflatedZeros(n int) []byte {
	var seg bytes.Buffer
	fw, _ := flate.NewWriter(&seg, flate.BestCompression)
	fw.Write(make([]byte, 1<<20))
	fw.Flush() // ends the segment on a byte, so it can be repeated
	return append(bytes.Repeat(seg.Bytes(), n), 1, 0, 0, 0xff, 0xff)
}

// zerosCRC is the CRC-32 of n MiB of zeros.
func zerosCRC(n int) uint32 {
	zeros, crc := make([]byte, 1<<20), uint32(0)
	for range n {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	return crc
}

// torchZipDeflated is a torch.save archive whose storage "0" is mib MiB of
// float32 zeros, deflated (torch.save stores them plainly), with crc as the
// record's CRC-32, and the pickle p.
func torchZipDeflated(t testing.TB, p []byte, mib int, crc uint32) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("archive/data.pkl")
	if err == nil {
		_, err = w.Write(p)
	}
	if err != nil {
		t.Fatal(err)
	}
	data := deflatedZeros(mib)
	w, err = zw.CreateRaw(&zip.FileHeader{Name: "archive/data/0", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(mib) << 20})
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTorchDeflatedStorage: a tensor of a compressed storage record
// inflates the record only up to its last byte, and keeps only its own
// bytes; the CRC-32 is checked when it reaches the record's end.
func TestTorchDeflatedStorage(t *testing.T) {
	const mib = 64
	numel := int32(mib << 20 / 4)
	p := testkit.NewPickle().Op("}").Str("first").Tensor("0", numel, 0, 1).Op("s").
		Str("last").Tensor("0", numel, numel-1, 1).Op("s").Done()
	for _, c := range []struct {
		crc       uint32
		name      string
		maxInflow uint64 // bytes allocated while opening the tensor
		err       string
	}{
		{zerosCRC(mib), "first", 1 << 20, ""},
		{zerosCRC(mib), "last", 1 << 20, ""},
		{zerosCRC(mib) + 1, "first", 1 << 20, ""}, // not inflated to its end, so not checked
		{zerosCRC(mib) + 1, "last", 1 << 20, "checksum error"},
	} {
		b := torchZipDeflated(t, p, mib, c.crc)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		a, err := openTorchTensor(b, c.name)
		runtime.ReadMemStats(&after)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s (crc %#x): %v, want %q", c.name, c.crc, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && (len(a.Data) != 4 || binary.LittleEndian.Uint32(a.Data) != 0):
			t.Errorf("%s: data %x, want 4 zero bytes", c.name, a.Data)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > c.maxInflow {
			t.Errorf("%s: opening one element allocated %d bytes", c.name, grew)
		}
	}
}

// openTorchTensor opens the tensor name of the torch.save archive b.
func openTorchTensor(b []byte, name string) (*npy.Array, error) {
	tf, err := Parse(b)
	if err != nil {
		return nil, err
	}
	t, err := tf.Pick(name, true)
	if err != nil {
		return nil, err
	}
	a, _, err := t.Open(b, false)
	return a, err
}
