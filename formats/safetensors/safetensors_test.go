package safetensors

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

// file is a safetensors file of the header text and data bytes as given.
func file(header string, data int) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, data)...)
}

// TestParseHeaderWhitespace: JSON's whitespace before the header's object
// is read as the safetensors crate reads it (serde_json skips it), the
// tensors the same as without; what is not an object after it is refused
// in one line.
func TestParseHeaderWhitespace(t *testing.T) {
	const obj = `{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"__metadata__":{"k":"v"}}`
	want, err := Parse(file(obj, 8))
	if err != nil {
		t.Fatal(err)
	}
	for _, lead := range []string{" ", "\n", "\t\r\n  "} {
		got, err := Parse(file(lead+obj+"   ", 8))
		if err != nil {
			t.Fatalf("%q before the object: %v", lead, err)
		}
		for i := range got.Tensors {
			got.Tensors[i].Loc.Begin -= int64(len(lead) + 3)
			got.Tensors[i].Loc.End -= int64(len(lead) + 3)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q before the object:\n%+v\nwant\n%+v", lead, got, want)
		}
	}
	for header, msg := range map[string]string{
		"":         "not valid JSON",
		"   ":      "not valid JSON",
		" []":      "not a JSON object",
		"\f{}":     "not valid JSON",
		"\ufeff{}": "not valid JSON",
		" {} {}":   "text after its JSON object",
	} {
		_, err := Parse(file(header, 0))
		if err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("header %q: %v, want one line with %q", header, err, msg)
		}
	}
}
