package safetensors

import (
	"testing"

	"strider/internal/testkit"
)

// torchTestdata holds the fixtures PyTorch 1.13 and the safetensors writer
// of scripts/gen_torch_testdata.py wrote.
const torchTestdata = "../../testdata/torch"

// FuzzSafetensors feeds arbitrary bytes to the safetensors reader. It must
// never panic; a file it accepts must satisfy the format's invariants, and
// every tensor it lists must read within the file.
func FuzzSafetensors(f *testing.F) {
	for _, b := range testkit.ReadFixtures(f, torchTestdata, "*.safetensors", "malformed/st_*") {
		f.Add(b)
	}
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":{\"dtype\":\"F8_E5M2\",\"shape\":[2],\"data_offsets\":[0,2]}}\x7c\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tf, err := Parse(b)
		if err != nil {
			testkit.OneLine(t, err)
			return
		}
		at := int64(-1)
		for i := range tf.Tensors {
			tn := &tf.Tensors[i]
			if at >= 0 && tn.Loc.Begin != at {
				t.Fatalf("tensor %q begins at %d, the one before ends at %d", tn.Name, tn.Loc.Begin, at)
			}
			at = tn.Loc.End
			if tn.Err != nil {
				testkit.OneLine(t, tn.Err)
				continue
			}
			a, _, err := tn.Open(b, false)
			if err != nil {
				t.Fatalf("tensor %q listed but not read: %v", tn.Name, err)
			}
			data := a.Data
			if int64(len(data)) != tn.NBytes() {
				t.Fatalf("tensor %q: %d bytes, want %d", tn.Name, len(data), tn.NBytes())
			}
		}
		if len(tf.Tensors) > 0 && at != int64(len(b)) {
			t.Fatalf("last tensor ends at %d of %d bytes", at, len(b))
		}
	})
}
