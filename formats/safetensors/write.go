package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/termsafe"
)

// The layout save_file writes, from the safetensors crate's
// safetensors/src/tensor.rs (prepare, serialize_to_file, Metadata's
// Serialize) and its Python binding (bindings/python/src/lib.rs
// serialize_file, py_src/safetensors/torch.py and numpy.py save_file),
// the same from v0.4.0 to v0.7.0 (the latest release) and on the main
// branch (0.8.0-dev, May 2026):
//
//   - the tensors are sorted by dtype, descending, in the order the crate's
//     Dtype enum declares them (BOOL, F4, F6_E2M3, F6_E3M2, U8, I8,
//     F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ, I16, U16, F16,
//     BF16, I32, U32, F32, C64, F64, I64, U64: the derived Ord), then by
//     name, bytewise (Rust's String Ord); their data follow one another
//     in that order, from offset 0, with no gaps;
//   - the header is serde_json's compact form of one object: "__metadata__"
//     first when there is metadata (an empty map too), then each tensor in
//     that order as {"dtype":..,"shape":[..],"data_offsets":[begin,end]};
//     no spaces; strings escaped as serde_json escapes them (escapeJSON);
//   - the header is padded with spaces to a multiple of 8 bytes (v0.3
//     padded by len%8 instead: not matched), and its padded length is the
//     8-byte little-endian prefix;
//   - the elements are little-endian (numpy.py's _tobytes byte-swaps a
//     big-endian array), C order.
//
// The crate's metadata is a HashMap, so save_file writes the keys of a
// metadata of two or more in an order that changes from run to run; a
// file's metadata is kept here in the order the file has it, so that a
// file the library wrote is rewritten byte for byte.

// dtypeOrder is the crate's Dtype enum in declaration order: the order
// prepare sorts by, descending.
var dtypeOrder = []string{
	"BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
	"F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
	"F64", "I64", "U64",
}

// rank is a dtype code's place in dtypeOrder; ok is false for a code the
// crate does not know (which no library could have written).
func rank(code string) (int, bool) {
	i := slices.Index(dtypeOrder, code)
	return i, i >= 0
}

// MaxName bounds a tensor's name in the header strider writes, in bytes:
// a name is a JSON key, any length the 100 MB header holds, but no model
// names its tensors with more than a few hundred bytes, and a bound keeps
// a hostile name from filling the header.
const MaxName = 1 << 16

// Meta is one key of a file's __metadata__, in the file's order.
type Meta struct{ Key, Value string }

// Entry is one tensor of a file to write: its data is Size bytes,
// little-endian and in C order, written by the caller after the header.
type Entry struct {
	Name  string
	Dtype string // the format's code: "F32", "BF16"
	Shape []int
	Size  int64
}

// Header is what a file holds besides its tensors' data.
type Header struct {
	// Metadata is the __metadata__ object, written when HasMetadata (an
	// empty one too, as save_file writes metadata={}).
	Metadata    []Meta
	HasMetadata bool
	Tensors     []Entry
}

// Code returns the safetensors dtype code of a strider dtype, in either
// byte order: the file is little-endian, and the writer swaps big-endian
// elements (SwapToLittle). ok is false for complex128, which the format
// has no code for.
func Code(d dtype.Dtype) (string, bool) {
	le := d
	if le.Size > 1 {
		le.Order = '<'
	}
	for _, f := range dtype.Formats {
		if f.NumPy() && f.Dtype == le && f.Safetensors != "" {
			return f.Safetensors, true
		}
	}
	return "", false
}

// CodeOf returns the code of a tensor strider read, by the name of its
// stored dtype (npy.Tensor.Stored: "bfloat16", "float32"), so that a
// tensor NumPy lacks keeps its own type.
func CodeOf(stored string) (string, bool) {
	for _, f := range dtype.Formats {
		if f.Torch == stored && f.Safetensors != "" {
			return f.Safetensors, true
		}
	}
	return "", false
}

// ItemSize is the bytes per element of a code strider reads, 0 for others.
func ItemSize(code string) int {
	if d, ok := safetensorsDtypes[code]; ok {
		return d.size
	}
	return 0
}

// CheckName refuses a tensor name the writer does not put in a header:
// one that is not UTF-8 (a JSON key is text), "__metadata__" (the key of
// the metadata), and one over MaxName bytes. Control characters and an
// empty name are the format's to hold, escaped as serde_json escapes them;
// the command line refuses them on its own (output's checkTensorName).
func CheckName(name string) error {
	switch {
	case !utf8.ValidString(name):
		return fmt.Errorf("tensor name \"%s\" is not UTF-8, which a safetensors header (JSON) cannot hold", termsafe.Escape(name))
	case name == "__metadata__":
		return fmt.Errorf("tensor name \"__metadata__\" is the key of the file's metadata")
	case len(name) > MaxName:
		return fmt.Errorf("tensor name of %d bytes is longer than the %d bytes strider writes", len(name), MaxName)
	}
	return nil
}

// Encode lays h out as save_file does: the 8-byte length, the padded JSON
// header, and the order in which the tensors' data must follow it (an
// index into h.Tensors) with the file's total size. Names are checked
// (CheckName, unique) and sizes must match dtype × shape where the dtype's
// size is known.
func (h *Header) Encode() (prefix []byte, order []int, total int64, err error) {
	ranks, err := h.checkEntries()
	if err != nil {
		return nil, nil, 0, err
	}
	order = h.saveOrder(ranks)
	j, dataSize := h.headerJSON(order)
	if j.Len() > MaxHeader {
		return nil, nil, 0, fmt.Errorf("the safetensors header would be %d bytes, over the format's limit of %d", j.Len(), MaxHeader)
	}
	prefix = binary.LittleEndian.AppendUint64(make([]byte, 0, 8+j.Len()), uint64(j.Len()))
	prefix = append(prefix, j.Bytes()...)
	return prefix, order, int64(len(prefix)) + dataSize, nil
}

// checkEntries checks each tensor's name (CheckName, unique), dtype and
// size, and returns each one's dtype rank.
func (h *Header) checkEntries() ([]int, error) {
	seen := make(map[string]bool, len(h.Tensors))
	ranks := make([]int, len(h.Tensors))
	for i, t := range h.Tensors {
		if err := CheckName(t.Name); err != nil {
			return nil, err
		}
		if seen[t.Name] {
			return nil, fmt.Errorf("two tensors are named \"%s\"", termsafe.Escape(t.Name))
		}
		seen[t.Name] = true
		r, ok := rank(t.Dtype)
		if !ok {
			return nil, npy.Unsupported("tensor \"%s\" has dtype %q, which safetensors does not know", termsafe.Escape(t.Name), t.Dtype)
		}
		ranks[i] = r
		if size := ItemSize(t.Dtype); size > 0 {
			want, ok := npy.CheckedNBytes(t.Shape, size)
			if !ok || want != t.Size {
				return nil, fmt.Errorf("tensor \"%s\": %s of shape %v is not %d bytes", termsafe.Escape(t.Name), t.Dtype, t.Shape, t.Size)
			}
		}
	}
	return ranks, nil
}

// saveOrder is the order prepare puts the tensors in: descending dtype
// rank, then name, bytewise.
func (h *Header) saveOrder(ranks []int) []int {
	order := make([]int, len(h.Tensors))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if ranks[a] != ranks[b] {
			return ranks[b] - ranks[a]
		}
		return strings.Compare(h.Tensors[a].Name, h.Tensors[b].Name)
	})
	return order
}

// headerJSON writes the header as serde_json's compact form, the
// metadata first and then the tensors in order, padded with spaces to a
// multiple of 8 bytes; dataSize is the bytes of all the tensors' data.
func (h *Header) headerJSON(order []int) (j *bytes.Buffer, dataSize int64) {
	j = new(bytes.Buffer)
	j.WriteByte('{')
	if h.HasMetadata {
		j.WriteString(`"__metadata__":{`)
		for i, m := range h.Metadata {
			if i > 0 {
				j.WriteByte(',')
			}
			escapeJSON(j, m.Key)
			j.WriteByte(':')
			escapeJSON(j, m.Value)
		}
		j.WriteByte('}')
	}
	var offset int64
	for k, i := range order {
		if k > 0 || h.HasMetadata {
			j.WriteByte(',')
		}
		offset = writeTensorJSON(j, h.Tensors[i], offset)
	}
	j.WriteByte('}')
	for j.Len()%8 != 0 {
		j.WriteByte(' ')
	}
	return j, offset
}

// writeTensorJSON writes t's key and {"dtype":..,"shape":[..],
// "data_offsets":[begin,end]} with its data at offset, and returns the
// offset that follows its data.
func writeTensorJSON(j *bytes.Buffer, t Entry, offset int64) int64 {
	escapeJSON(j, t.Name)
	j.WriteString(`:{"dtype":`)
	escapeJSON(j, t.Dtype)
	j.WriteString(`,"shape":[`)
	for d, n := range t.Shape {
		if d > 0 {
			j.WriteByte(',')
		}
		j.WriteString(strconv.Itoa(n))
	}
	j.WriteString(`],"data_offsets":[`)
	j.WriteString(strconv.FormatInt(offset, 10))
	j.WriteByte(',')
	offset += t.Size
	j.WriteString(strconv.FormatInt(offset, 10))
	j.WriteString("]}")
	return offset
}

// escapeJSON writes s as serde_json writes a string (ser.rs,
// format_escaped_str): '"' and '\' after a backslash, \b \t \n \f \r,
// the other bytes below 0x20 as \u00xx in lowercase hex; everything else,
// DEL and non-ASCII included, as it is.
func escapeJSON(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == '"':
			esc = `\"`
		case c == '\\':
			esc = `\\`
		case c == '\b':
			esc = `\b`
		case c == '\t':
			esc = `\t`
		case c == '\n':
			esc = `\n`
		case c == '\f':
			esc = `\f`
		case c == '\r':
			esc = `\r`
		case c < 0x20:
			esc = `\u00` + string(hex[c>>4]) + string(hex[c&15])
		default:
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// Stored is a tensor of an existing file: its entry and where its data
// lies in the file, [Begin, End).
type Stored struct {
	Entry
	Begin, End int64
}

// File is an existing .safetensors file read for rewriting: its metadata
// in its own order and its tensors, each with its dtype code.
type File struct {
	Metadata    []Meta
	HasMetadata bool
	Tensors     []Stored
}

// ReadFile reads the file b for rewriting: checked as Parse checks it,
// with the metadata in the file's order and every tensor's code, one
// strider does not read included (its bytes are kept as they are), as
// long as the crate knows it.
func ReadFile(b []byte) (*File, error) {
	tf, err := Parse(b)
	if err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(b)
	f := &File{}
	codes := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(b[8 : 8+n]))
	err = decodeObject(dec, "safetensors header", func(key string) error {
		if key == "__metadata__" {
			f.HasMetadata, f.Metadata = true, []Meta{}
			return decodeObject(dec, "safetensors __metadata__", func(k string) error {
				var v string
				if err := dec.Decode(&v); err != nil {
					return jsonError("safetensors __metadata__", err)
				}
				f.Metadata = append(f.Metadata, Meta{k, v})
				return nil
			})
		}
		var info struct {
			Dtype string `json:"dtype"`
		}
		if err := dec.Decode(&info); err != nil {
			return jsonError(fmt.Sprintf("tensor %q", key), err)
		}
		codes[key] = info.Dtype
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, t := range tf.Tensors {
		code := codes[t.Name]
		if _, ok := rank(code); !ok {
			return nil, npy.Unsupported("tensor \"%s\" has dtype %q, which safetensors does not know, so the file cannot be rewritten", termsafe.Escape(t.Name), code)
		}
		f.Tensors = append(f.Tensors, Stored{Entry{t.Name, code, t.Shape, t.Loc.End - t.Loc.Begin}, t.Loc.Begin, t.Loc.End})
	}
	return f, nil
}

// SwapToLittle turns elements of dtype d, stored in d's byte order, into
// little-endian ones in place: each element (each part of a complex one)
// is reversed when d is big-endian.
func SwapToLittle(b []byte, d dtype.Dtype) {
	if !d.BigEndian() {
		return
	}
	size := d.Size
	if d.Kind == 'c' {
		size /= 2
	}
	for i := 0; i+size <= len(b); i += size {
		slices.Reverse(b[i : i+size])
	}
}
