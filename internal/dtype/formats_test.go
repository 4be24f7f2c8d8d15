package dtype

import "testing"

// TestFormats checks the table's NumPy rows against the dtype's own name
// and size, every NumPy dtype's presence, and that no name is given twice.
func TestFormats(t *testing.T) {
	seen := map[string]string{}
	unique := func(what, name, torch string) {
		if name == "" {
			return
		}
		if prev, ok := seen[what+" "+name]; ok {
			t.Errorf("%s %q names both %s and %s", what, name, prev, torch)
		}
		seen[what+" "+name] = torch
	}
	numpy := 0
	for _, f := range Formats {
		unique("torch", f.Torch, f.Torch)
		unique("storage", f.Storage, f.Torch)
		unique("tensor", f.Tensor, f.Torch)
		unique("safetensors", f.Safetensors, f.Torch)
		if f.Size <= 0 {
			t.Errorf("%s: size %d", f.Torch, f.Size)
		}
		if !f.NumPy() {
			if f.Dtype != (Dtype{}) {
				t.Errorf("%s: %+v is not a NumPy dtype", f.Torch, f.Dtype)
			}
			continue
		}
		numpy++
		if d, ok := Parse(f.Torch); !ok || d != f.Dtype || f.Dtype.Name() != f.Torch || f.Size != f.Dtype.Size {
			t.Errorf("%s: %+v, size %d; NumPy's %q is %+v", f.Torch, f.Dtype, f.Size, f.Torch, d)
		}
		if got, ok := TorchFormat(f.Torch); !ok || got != f {
			t.Errorf("TorchFormat(%q) = %+v %v", f.Torch, got, ok)
		}
	}
	if numpy != 14 {
		t.Errorf("%d NumPy dtypes, want 14", numpy)
	}
	if _, ok := TorchFormat("float128"); ok {
		t.Error("TorchFormat found float128")
	}
}
