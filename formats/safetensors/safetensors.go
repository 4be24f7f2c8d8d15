package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/termsafe"
)

// The .safetensors format (github.com/huggingface/safetensors): an 8-byte
// little-endian header length N, N bytes of JSON, then the data buffer.
// The JSON maps each tensor name to {"dtype", "shape", "data_offsets":
// [begin, end]}, offsets relative to the data buffer, plus an optional
// "__metadata__" object of strings. strider checks what the reference Rust
// reader checks, and a little more (see docs/pytorch-inputs.md).

// MaxHeader is the reference reader's limit on N (100 MB).
const MaxHeader = 100_000_000

// safetensorsDtype describes one dtype name of the format.
type safetensorsDtype struct {
	size  int         // bytes per element in the file
	dtype dtype.Dtype // as strider reads it
	widen func(dst, src []byte)
	name  string // PyTorch's name, for a dtype NumPy lacks
}

// safetensorsDtypes are the dtype codes strider reads, from dtype.Formats.
var safetensorsDtypes = func() map[string]safetensorsDtype {
	m := make(map[string]safetensorsDtype)
	for _, f := range dtype.Formats {
		if r := npy.ReadFormat(f); f.Safetensors != "" && r.Size != 0 {
			d := safetensorsDtype{r.Size, r.Dtype, r.Widen, ""}
			if !f.NumPy() {
				d.name = f.Torch
			}
			m[f.Safetensors] = d
		}
	}
	return m
}()

// Parse indexes a whole .safetensors file.
func Parse(b []byte) (*npy.TensorFile, error) {
	if len(b) < 8 {
		return nil, npy.Malformed("safetensors file of %d bytes is shorter than its 8-byte header length", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > MaxHeader {
		return nil, npy.Malformed("safetensors header length %d is over the limit of %d bytes", n, MaxHeader)
	}
	if 8+n > uint64(len(b)) {
		return nil, npy.Malformed("safetensors header length %d runs past the end of the file (%d bytes)", n, len(b))
	}
	text := b[8 : 8+n]
	if !utf8.Valid(text) {
		return nil, npy.Malformed("safetensors header is not valid UTF-8")
	}
	// JSON's whitespace may come before the object: the safetensors crate
	// reads the header with serde_json::from_str, which skips it (its
	// check that the header starts with '{' is commented out, for a later
	// version).
	tf, err := DecodeHeader(text)
	if err != nil {
		return nil, err
	}
	if err := checkLayout(tf, int64(len(b))-8-int64(n)); err != nil {
		return nil, err
	}
	for i := range tf.Tensors {
		tf.Tensors[i].Loc.Begin += 8 + int64(n)
		tf.Tensors[i].Loc.End += 8 + int64(n)
	}
	return tf, nil
}

// checkLayout sorts tf's tensors by their offsets and checks them against
// a data buffer of data bytes: in order, from 0, without holes or
// overlap, ending at the end of the file; each tensor's size matching
// dtype x shape.
func checkLayout(tf *npy.TensorFile, data int64) error {
	sort.SliceStable(tf.Tensors, func(i, j int) bool {
		a, b := tf.Tensors[i], tf.Tensors[j]
		return a.Loc.Begin < b.Loc.Begin || a.Loc.Begin == b.Loc.Begin && a.Loc.End < b.Loc.End
	})
	at := int64(0)
	for i := range tf.Tensors {
		t := &tf.Tensors[i]
		switch {
		case t.Loc.Begin != at && t.Loc.Begin < at:
			return npy.Malformed("tensor %q: data_offsets [%d, %d] overlap the tensor before it, which ends at %d", t.Name, t.Loc.Begin, t.Loc.End, at)
		case t.Loc.Begin != at:
			return npy.Malformed("tensor %q: data_offsets [%d, %d] leave a hole after byte %d", t.Name, t.Loc.Begin, t.Loc.End, at)
		case t.Loc.End < t.Loc.Begin:
			return npy.Malformed("tensor %q: data_offsets [%d, %d] end before they begin", t.Name, t.Loc.Begin, t.Loc.End)
		case t.Loc.End > data:
			return npy.Malformed("tensor %q: data_offsets [%d, %d] run past the end of the data (%d bytes)", t.Name, t.Loc.Begin, t.Loc.End, data)
		}
		if t.Err == nil {
			want, ok := npy.CheckedNBytes(t.Shape, t.Loc.ItemSize)
			if !ok {
				return npy.Malformed("tensor %q: shape %v overflows", t.Name, t.Shape)
			}
			if want != t.Loc.End-t.Loc.Begin {
				return npy.Malformed("tensor %q: %s of shape %v is %d bytes, but data_offsets [%d, %d] hold %d", t.Name, t.Stored, t.Shape, want, t.Loc.Begin, t.Loc.End, t.Loc.End-t.Loc.Begin)
			}
		}
		at = t.Loc.End
	}
	if at != data {
		return npy.Malformed("safetensors file has %d bytes after its last tensor", data-at)
	}
	return nil
}

// DecodeHeader parses the JSON header strictly: one object,
// nothing after it but whitespace, no duplicate keys at any level.
func DecodeHeader(text []byte) (*npy.TensorFile, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	tf := &npy.TensorFile{Format: "safetensors"}
	seen := map[string]bool{}
	err := decodeObject(dec, "safetensors header", func(key string) error {
		if seen[key] {
			return npy.Malformed("safetensors header has the key %q twice", key)
		}
		seen[key] = true
		if key == "__metadata__" {
			return decodeMetadata(dec, tf)
		}
		t, err := decodeTensorInfo(dec, key)
		if err != nil {
			return err
		}
		tf.Tensors = append(tf.Tensors, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, npy.Malformed("safetensors header has text after its JSON object")
	}
	return tf, nil
}

// jsonError turns a decoder error into a one-line malformed error.
func jsonError(where string, err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if errors.Is(err, npy.ErrFormat) {
		return err
	}
	return npy.Malformed("%s is not valid JSON: %v", where, err)
}

// decodeObject reads one JSON object from dec, calling field for each key
// with the decoder positioned at its value.
func decodeObject(dec *json.Decoder, where string, field func(key string) error) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(where, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return npy.Malformed("%s is not a JSON object", where)
	}
	for dec.More() {
		key, ok, err := nextString(dec, where)
		if err != nil {
			return err
		}
		if !ok {
			return npy.Malformed("%s is not valid JSON", where)
		}
		if err := field(key); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return jsonError(where, err)
	}
	return nil
}

// nextString reads dec's next token; ok is false when it is not a string.
func nextString(dec *json.Decoder, where string) (s string, ok bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return "", false, jsonError(where, err)
	}
	s, ok = tok.(string)
	return s, ok, nil
}

// decodeMetadata reads __metadata__: an object of strings.
func decodeMetadata(dec *json.Decoder, tf *npy.TensorFile) error {
	tf.Metadata = map[string]string{}
	return decodeObject(dec, "safetensors __metadata__", func(key string) error {
		if _, dup := tf.Metadata[key]; dup {
			return npy.Malformed("safetensors __metadata__ has the key %q twice", key)
		}
		s, ok, err := nextString(dec, "safetensors __metadata__")
		if err != nil {
			return err
		}
		if !ok {
			return npy.Malformed("safetensors __metadata__ %q is not a string", key)
		}
		tf.Metadata[key] = s
		return nil
	})
}

// decodeTensorInfo reads one tensor's {"dtype", "shape", "data_offsets"}.
// Other keys are skipped, as the reference reader skips them.
func decodeTensorInfo(dec *json.Decoder, name string) (npy.Tensor, error) {
	t := npy.Tensor{Name: name}
	where := fmt.Sprintf("tensor %q", name)
	seen := map[string]bool{}
	var offsets []int
	err := decodeObject(dec, where, func(key string) error {
		if seen[key] {
			return npy.Malformed("%s has the key %q twice", where, key)
		}
		seen[key] = true
		switch key {
		case "dtype":
			s, ok, err := nextString(dec, where)
			if err != nil {
				return err
			}
			if !ok {
				return npy.Malformed("%s: dtype is not a string", where)
			}
			t.Stored = s // the format's name until it is known
			return nil
		case "shape":
			shape, err := decodeUints(dec, where, "shape")
			t.Shape = shape
			return err
		case "data_offsets":
			var err error
			offsets, err = decodeUints(dec, where, "data_offsets")
			return err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return jsonError(where, err)
		}
		return nil
	})
	if err != nil {
		return npy.Tensor{}, err
	}
	for _, k := range []string{"dtype", "shape", "data_offsets"} {
		if !seen[k] {
			return npy.Tensor{}, npy.Malformed("%s has no %s", where, k)
		}
	}
	if len(offsets) != 2 {
		return npy.Tensor{}, npy.Malformed("%s: data_offsets has %d numbers, not 2", where, len(offsets))
	}
	t.Loc.Begin, t.Loc.End = int64(offsets[0]), int64(offsets[1])
	if len(t.Shape) > npy.MaxDims {
		return npy.Tensor{}, npy.Malformed("%s has %d dimensions; NumPy allows at most %d", where, len(t.Shape), npy.MaxDims)
	}
	setDtype(&t, where)
	return t, nil
}

// setDtype turns t.Stored, the format's dtype code, into the dtype strider
// reads it as, or sets t.Err for a code strider does not read.
func setDtype(t *npy.Tensor, where string) {
	d, ok := safetensorsDtypes[t.Stored]
	if !ok {
		t.Err = npy.Unsupported("%s has dtype %q, which strider does not read (it reads BOOL, U8-U64, I8-I64, F16, F32, F64, C64, and BF16, F8_E4M3, F8_E5M2 widened to float32)", where, t.Stored)
		return
	}
	t.Dtype, t.Loc.ItemSize, t.Loc.Widen, t.Widened = d.dtype, d.size, d.widen, d.widen != nil
	if t.Stored = d.name; t.Stored == "" {
		t.Stored = d.dtype.Name()
	}
	t.Major, t.Minor = 1, 0
}

// tokenText is a JSON token as a header might have written it, escaped
// for a terminal (a string of the file's may hold any control character).
func tokenText(tok json.Token) string {
	switch v := tok.(type) {
	case string:
		return `"` + termsafe.Escape(v) + `"`
	case nil:
		return "null"
	case json.Delim:
		return string(v)
	}
	return fmt.Sprint(tok)
}

// decodeUints reads a JSON array of integers in [0, MaxInt64]: no
// fractions, exponents or signs, as Rust's usize.
func decodeUints(dec *json.Decoder, where, what string) ([]int, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(where, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, npy.Malformed("%s: %s is not a list", where, what)
	}
	out := []int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, jsonError(where, err)
		}
		num, ok := tok.(json.Number)
		if !ok {
			return nil, npy.Malformed("%s: %s holds %s, not an integer", where, what, tokenText(tok))
		}
		v, err := strconv.ParseUint(string(num), 10, 64)
		if err != nil || v > math.MaxInt64 {
			return nil, npy.Malformed("%s: %s holds %s, not an integer in 0..%d", where, what, num, int64(math.MaxInt64))
		}
		out = append(out, int(v))
		if len(out) > npy.MaxDims+2 && what == "shape" {
			return nil, npy.Malformed("%s has more than %d dimensions; NumPy allows at most %d", where, npy.MaxDims, npy.MaxDims)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, jsonError(where, err)
	}
	return out, nil
}
