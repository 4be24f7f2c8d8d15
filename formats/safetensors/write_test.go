package safetensors

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/testkit"
)

// assemble is the file Encode lays out for h, with data[i] the bytes of
// h.Tensors[i].
func assemble(t *testing.T, h Header, data [][]byte) []byte {
	t.Helper()
	prefix, order, total, err := h.Encode()
	if err != nil {
		t.Fatal(err)
	}
	b := append([]byte{}, prefix...)
	for _, i := range order {
		b = append(b, data[i]...)
	}
	if int64(len(b)) != total {
		t.Fatalf("total %d, file %d bytes", total, len(b))
	}
	return b
}

// TestEncodeLibraryFiles: the files the safetensors library's own tests
// assert, byte for byte, from what those tests saved, in the order they
// passed it; and each file read back and rewritten is itself.
func TestEncodeLibraryFiles(t *testing.T) {
	for _, lf := range testkit.LibraryFiles {
		t.Run(lf.Name, func(t *testing.T) {
			var h Header
			var data [][]byte
			for _, tn := range lf.Tensors {
				h.Tensors = append(h.Tensors, Entry{tn.Name, tn.Dtype, tn.Shape, int64(len(tn.Data))})
				data = append(data, tn.Data)
			}
			for k, v := range lf.Metadata {
				h.Metadata, h.HasMetadata = append(h.Metadata, Meta{k, v}), true
			}
			if got := assemble(t, h, data); !bytes.Equal(got, lf.Bytes) {
				t.Errorf("saved:\n got %q\nwant %q", got, lf.Bytes)
			}
			f, err := ReadFile(lf.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			h = Header{Metadata: f.Metadata, HasMetadata: f.HasMetadata}
			data = nil
			for _, s := range f.Tensors {
				h.Tensors = append(h.Tensors, s.Entry)
				data = append(data, lf.Bytes[s.Begin:s.End])
			}
			if got := assemble(t, h, data); !bytes.Equal(got, lf.Bytes) {
				t.Errorf("rewritten:\n got %q\nwant %q", got, lf.Bytes)
			}
		})
	}
}

// TestEncodeOrder: tensors of every dtype strider writes, given in a
// scrambled order, come out by the crate's Dtype enum descending, then by
// name bytewise, with the header written out by hand from the rules.
func TestEncodeOrder(t *testing.T) {
	given := []struct{ name, code string }{
		{"b", "BOOL"}, {"a", "BF16"}, {"z", "U8"}, {"m", "F8_E4M3"}, {"k", "I64"}, {"é", "F32"}, {"c", "F32"},
		{"B", "F32"}, {"e", "U64"}, {"f", "F64"}, {"g", "C64"}, {"h", "F16"}, {"i", "I8"}, {"j", "I16"},
		{"l", "U16"}, {"n", "I32"}, {"o", "U32"}, {"p", "F8_E5M2"},
	}
	var h Header
	var data [][]byte
	for i, g := range given {
		size := ItemSize(g.code)
		h.Tensors = append(h.Tensors, Entry{g.name, g.code, []int{1}, int64(size)})
		data = append(data, bytes.Repeat([]byte{byte(i)}, size))
	}
	want := `{"e":{"dtype":"U64","shape":[1],"data_offsets":[0,8]},` +
		`"k":{"dtype":"I64","shape":[1],"data_offsets":[8,16]},` +
		`"f":{"dtype":"F64","shape":[1],"data_offsets":[16,24]},` +
		`"g":{"dtype":"C64","shape":[1],"data_offsets":[24,32]},` +
		`"B":{"dtype":"F32","shape":[1],"data_offsets":[32,36]},` +
		`"c":{"dtype":"F32","shape":[1],"data_offsets":[36,40]},` +
		`"é":{"dtype":"F32","shape":[1],"data_offsets":[40,44]},` +
		`"o":{"dtype":"U32","shape":[1],"data_offsets":[44,48]},` +
		`"n":{"dtype":"I32","shape":[1],"data_offsets":[48,52]},` +
		`"a":{"dtype":"BF16","shape":[1],"data_offsets":[52,54]},` +
		`"h":{"dtype":"F16","shape":[1],"data_offsets":[54,56]},` +
		`"l":{"dtype":"U16","shape":[1],"data_offsets":[56,58]},` +
		`"j":{"dtype":"I16","shape":[1],"data_offsets":[58,60]},` +
		`"m":{"dtype":"F8_E4M3","shape":[1],"data_offsets":[60,61]},` +
		`"p":{"dtype":"F8_E5M2","shape":[1],"data_offsets":[61,62]},` +
		`"i":{"dtype":"I8","shape":[1],"data_offsets":[62,63]},` +
		`"z":{"dtype":"U8","shape":[1],"data_offsets":[63,64]},` +
		`"b":{"dtype":"BOOL","shape":[1],"data_offsets":[64,65]}}`
	want += strings.Repeat(" ", -len(want)&7)
	b := assemble(t, h, data)
	if got := string(b[8 : 8+len(want)]); got != want {
		t.Fatalf("header\n got %s\nwant %s", got, want)
	}
	if n := binary.LittleEndian.Uint64(b); n != uint64(len(want)) || len(want)%8 != 0 {
		t.Fatalf("length prefix %d, header %d bytes", n, len(want))
	}
	// The data follow in the header's order: e (given 8th), k (4th), ...
	if got := b[8+len(want):][:9]; !bytes.Equal(got, []byte{8, 8, 8, 8, 8, 8, 8, 8, 4}) {
		t.Fatalf("data start % x", got)
	}
	if _, err := Parse(b); err != nil {
		t.Fatalf("the reader refuses it: %v", err)
	}
}

// TestEscapeJSON: strings as serde_json writes them (ser.rs's ESCAPE
// table): short escapes for \b \t \n \f \r " \, \u00xx in lowercase hex
// for the other bytes below 0x20, everything else (DEL, '/', U+2028,
// non-ASCII) as it is, where Go's encoding/json would differ.
func TestEscapeJSON(t *testing.T) {
	for in, want := range map[string]string{
		"plain.name":            `"plain.name"`,
		"\x00\x01\x1f":          `"\u0000\u0001\u001f"`,
		"\b\t\n\f\r":            `"\b\t\n\f\r"`,
		"\x0b\x1b[31m":          `"\u000b\u001b[31m"`,
		`a"b\c`:                 `"a\"b\\c"`,
		"\x7f/<>&":              "\"\x7f/<>&\"",
		"ünïcode \u2028 \u2029": "\"ünïcode \u2028 \u2029\"",
		"":                      `""`,
	} {
		var b bytes.Buffer
		escapeJSON(&b, in)
		if b.String() != want {
			t.Errorf("%q: got %s, want %s", in, b.String(), want)
		}
	}
}

// TestEncodeRefuses: names and tensors no header is written for.
func TestEncodeRefuses(t *testing.T) {
	f32 := func(name string) Entry { return Entry{name, "F32", []int{1}, 4} }
	for _, c := range []struct {
		what    string
		tensors []Entry
		want    string
		class   error
	}{
		{"metadata key", []Entry{f32("__metadata__")}, "key of the file's metadata", nil},
		{"not UTF-8", []Entry{f32("a\xff")}, "not UTF-8", nil},
		{"huge name", []Entry{f32(strings.Repeat("x", MaxName+1))}, "longer than", nil},
		{"twice", []Entry{f32("a"), f32("a")}, `two tensors are named "a"`, nil},
		{"unknown dtype", []Entry{{"a", "F128", []int{1}, 16}}, `"F128"`, npy.ErrUnsupported},
		{"wrong size", []Entry{{"a", "F32", []int{3}, 8}}, "is not 8 bytes", nil},
	} {
		h := Header{Tensors: c.tensors}
		_, _, _, err := h.Encode()
		if err == nil || !strings.Contains(err.Error(), c.want) || c.class != nil && !errors.Is(err, c.class) {
			t.Errorf("%s: %v, want %q", c.what, err, c.want)
		}
		if err != nil {
			testkit.OneLine(t, err)
		}
	}
	h := Header{Tensors: []Entry{f32(strings.Repeat("x", MaxName)), f32("\x1b[2J\n")}}
	if _, _, _, err := h.Encode(); err != nil {
		t.Errorf("names a file may hold: %v", err)
	}
}

// TestCode: every NumPy dtype but complex128 has a code, in both byte
// orders.
func TestCode(t *testing.T) {
	for _, f := range dtype.Formats {
		if !f.NumPy() {
			continue
		}
		for _, order := range []byte{'<', '>'} {
			d := f.Dtype
			if d.Size > 1 {
				d.Order = order
			}
			code, ok := Code(d)
			if ok != (f.Safetensors != "") || code != f.Safetensors {
				t.Errorf("%s: %q %v, want %q", d.Descr(), code, ok, f.Safetensors)
			}
		}
	}
}

// TestSwapToLittle: big-endian elements (each part of a complex one)
// reversed, others untouched.
func TestSwapToLittle(t *testing.T) {
	for _, c := range []struct {
		d       dtype.Dtype
		in, out []byte
	}{
		{dtype.Dtype{Kind: 'i', Size: 4, Order: '>'}, []byte{0, 0, 0, 1, 1, 2, 3, 4}, []byte{1, 0, 0, 0, 4, 3, 2, 1}},
		{dtype.Dtype{Kind: 'c', Size: 8, Order: '>'}, []byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{4, 3, 2, 1, 8, 7, 6, 5}},
		{dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}, []byte{1, 2}, []byte{1, 2}},
		{dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []byte{1, 2}, []byte{1, 2}},
	} {
		b := append([]byte{}, c.in...)
		SwapToLittle(b, c.d)
		if !bytes.Equal(b, c.out) {
			t.Errorf("%s: % x, want % x", c.d.Descr(), b, c.out)
		}
	}
}

// FuzzRewrite: a file Parse accepts is read back for rewriting (or
// refused in one line, for a dtype the crate does not know), its rewrite
// is a file Parse accepts with the same tensors and bytes, and rewriting
// that is the identity: what strider writes is a fixed point.
func FuzzRewrite(f *testing.F) {
	for _, b := range testkit.ReadFixtures(f, torchTestdata, "*.safetensors") {
		f.Add(b)
	}
	for _, lf := range testkit.LibraryFiles {
		f.Add(lf.Bytes)
	}
	rewrite := func(t *testing.T, b []byte) []byte {
		rf, err := ReadFile(b)
		if err != nil {
			testkit.OneLine(t, err)
			return nil
		}
		h := Header{Metadata: rf.Metadata, HasMetadata: rf.HasMetadata}
		var data [][]byte
		for _, s := range rf.Tensors {
			h.Tensors = append(h.Tensors, s.Entry)
			data = append(data, b[s.Begin:s.End])
		}
		prefix, order, _, err := h.Encode()
		if err != nil {
			testkit.OneLine(t, err)
			return nil
		}
		out := append([]byte{}, prefix...)
		for _, i := range order {
			out = append(out, data[i]...)
		}
		return out
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := Parse(b); err != nil {
			return
		}
		once := rewrite(t, b)
		if once == nil {
			return
		}
		tf, err := Parse(once)
		if err != nil {
			t.Fatalf("the rewrite does not parse: %v", err)
		}
		orig, _ := Parse(b)
		if len(tf.Tensors) != len(orig.Tensors) {
			t.Fatalf("%d tensors rewritten, %d read", len(tf.Tensors), len(orig.Tensors))
		}
		byName := map[string][]byte{}
		for _, tn := range orig.Tensors {
			byName[tn.Name] = b[tn.Loc.Begin:tn.Loc.End]
		}
		for _, tn := range tf.Tensors {
			if !bytes.Equal(once[tn.Loc.Begin:tn.Loc.End], byName[tn.Name]) {
				t.Fatalf("tensor %q: other bytes", tn.Name)
			}
		}
		if twice := rewrite(t, once); !bytes.Equal(twice, once) {
			t.Fatalf("rewriting a rewrite changed it:\n%q\n%q", once, twice)
		}
	})
}
