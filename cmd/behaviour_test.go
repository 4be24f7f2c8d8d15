package cmd

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"strider/internal/testkit"
)

// TestDocumentedChoices holds strider to the choices docs/behaviour.md
// writes down where NumPy and PyTorch differ (found by PyTorch's OpInfo
// samples): 0-d inputs to sort and gather-elements are refused as NumPy
// refuses them, gather-elements takes int32 indices as
// np.take_along_axis does, and concat --axis 32 is refused where NumPy
// 1.24 reads it as axis=None.
func TestDocumentedChoices(t *testing.T) {
	dir := t.TempDir()
	write := func(name, descr string, shape []int, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, append(testkit.SaveHeader(descr, false, shape), data...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	f32 := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b
	}
	scalar := write("s.npy", "<f4", []int{}, f32(3))
	index0 := write("i0.npy", "<i8", []int{}, make([]byte, 8))
	vec := write("v.npy", "<f4", []int{4}, f32(0, 10, 20, 30))
	idx32 := write("i32.npy", "<i4", []int{3}, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0})
	for _, c := range []struct {
		name string
		args []string
	}{
		{"sort/0-d", []string{"sort", scalar}},
		{"argsort/0-d", []string{"sort", "--argsort", scalar}},
		{"gather-elements/0-d", []string{"gather-elements", "--indices", index0, scalar}},
		{"concat/axis=32", []string{"concat", "--axis", "32", vec, vec}},
		{"concat/axis=-33", []string{"concat", "--axis", "-33", vec, vec}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, nil, append(c.args, "-o", filepath.Join(dir, "out.npy"))...)
			wantError(t, r, c.args[0])
			if !bytes.Contains(r.stderr, []byte("out of bounds")) {
				t.Fatalf("refusal does not name the axis: %q", r.stderr)
			}
		})
	}
	t.Run("gather-elements/int32", func(t *testing.T) {
		r := run(t, nil, "gather-elements", "--indices", idx32, vec, "-o", "-")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		want := append(testkit.SaveHeader("<f4", false, []int{3}), f32(10, 30, 30)...)
		if !bytes.Equal(r.stdout, want) {
			t.Fatalf("got %q, want %q", r.stdout, want)
		}
		py := testkit.Python
		ref := exec.Command(py, "-c", `import sys, numpy as np
a, i = np.load(sys.argv[1]), np.load(sys.argv[2])
np.save(sys.stdout.buffer, np.take_along_axis(a, i, -1))`, vec, idx32)
		out, err := ref.Output()
		if err != nil {
			t.Fatalf("NumPy reference (%s): %v", py, err)
		}
		if !bytes.Equal(out, r.stdout) {
			t.Fatalf("NumPy gives %q, strider %q", out, r.stdout)
		}
	})
}
