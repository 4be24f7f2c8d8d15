package testkit

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"testing"
)

// WriteSafetensorsNames writes a .safetensors file with one 1-element
// float32 tensor (0.0) per name, in the order given.
func WriteSafetensorsNames(t testing.TB, path string, names ...string) {
	t.Helper()
	header := map[string]any{}
	for i, name := range names {
		header[name] = map[string]any{"dtype": "F32", "shape": []int{1}, "data_offsets": []int{4 * i, 4*i + 4}}
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	b = append(append(b, h...), make([]byte, 4*len(names))...)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
