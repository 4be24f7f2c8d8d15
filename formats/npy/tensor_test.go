package npy

import (
	"strings"
	"testing"
)

// TestWidenF8 checks the float8 decoders on values with known meanings.
func TestWidenF8(t *testing.T) {
	for _, c := range []struct {
		v        byte
		e4m3     uint32
		e5m2     uint32
		e4m3What string
	}{
		{0x00, 0x00000000, 0x00000000, "zero"},
		{0x80, 0x80000000, 0x80000000, "-zero"},
		{0x38, 0x3f800000, 0x3f000000, "1 (e4m3); 0.5 (e5m2)"},
		{0x3c, 0x3fc00000, 0x3f800000, "1.5 (e4m3); 1 (e5m2)"},
		{0x01, 0x3b000000, 0x37800000, "smallest subnormals: 2^-9 and 2^-16"},
		{0x7e, 0x43e00000, 0x7fc00000, "448 (e4m3 max); NaN (e5m2)"},
		{0x7f, 0x7ff00000, 0x7fe00000, "NaN, payload kept"},
		{0x7c, 0x43c00000, 0x7f800000, "384 (e4m3); inf (e5m2)"},
		{0xfc, 0xc3c00000, 0xff800000, "-384; -inf"},
	} {
		if got := f8ToF32(c.v, 4, 3, false); got != c.e4m3 {
			t.Errorf("e4m3 %#02x (%s) = %#08x, want %#08x", c.v, c.e4m3What, got, c.e4m3)
		}
		if got := f8ToF32(c.v, 5, 2, true); got != c.e5m2 {
			t.Errorf("e5m2 %#02x (%s) = %#08x, want %#08x", c.v, c.e4m3What, got, c.e5m2)
		}
	}
}

// TestTensorNameListEscaped: the names an error lists are escaped for the
// terminal.
func TestTensorNameListEscaped(t *testing.T) {
	tf := &TensorFile{Format: "safetensors", Tensors: []Tensor{{Name: "\x1b[2J\x1b[31mX"}, {Name: "b\x07\r"}}}
	for _, member := range []string{"", "nope"} {
		_, err := tf.Pick(member, member != "")
		if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07\r") || !strings.Contains(err.Error(), `\x1b[2J\x1b[31mX, b\x07\r`) {
			t.Errorf("pick(%q): %q, want the names escaped", member, err)
		}
	}
}
