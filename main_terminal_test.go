//go:build linux

package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// hostileNames are names a file may carry that a terminal would act on:
// clear the screen, set the title (OSC), ring, return, back up, end a
// string, switch to C1 CSI, reorder the line.
var hostileNames = []string{
	"\x1b[2J\x1b[31mX",
	"\x1b]0;pwned\x07",
	"cr\rbs\x08nul\x00",
	"c1\u009b31m",
	"rtl\u202eevil",
	"bad\xffutf8",
}

// wantNoControls fails when b holds a byte or character a terminal acts
// on, other than the newlines that end lines.
func wantNoControls(t *testing.T, what string, b []byte) {
	t.Helper()
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		bad := r == utf8.RuneError && n == 1 || r < 0x20 && r != '\n' || r == 0x7f ||
			r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e
		if bad {
			t.Fatalf("%s holds raw %q at byte %d: %q", what, b[i:i+n], i, b)
		}
		i += n
	}
}

// safetensorsWith writes a safetensors file with one 1-element float32
// tensor per name.
func safetensorsWith(t *testing.T, path string, names ...string) {
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

// TestTerminalSafeNames: names and strings a file controls never reach the
// terminal raw in a human-readable line (issue 27): info's listing, and
// error lines that name or list members.
func TestTerminalSafeNames(t *testing.T) {
	dir := t.TempDir()
	for i, name := range hostileNames {
		t.Run(fmt.Sprintf("name%d", i), func(t *testing.T) {
			npz := filepath.Join(dir, fmt.Sprintf("h%d.npz", i))
			safetyZip(t, npz, safetyMember{name + ".npy", safetyNpy(t, 1, 2)}, safetyMember{"ok.npy", safetyNpy(t, 3)})
			st := filepath.Join(dir, fmt.Sprintf("h%d.safetensors", i))
			safetensorsWith(t, st, name, "ok")
			for _, args := range [][]string{
				{"info", npz},
				{"show", npz},
				{"show", npz + ":nosuch"},
				{"info", st},
				{"show", st},
				{"show", st + ":nosuch"},
				{"stats", st},
			} {
				r := run(t, nil, args...)
				wantNoControls(t, "stdout of "+args[0], r.stdout)
				wantNoControls(t, "stderr of "+args[0], r.stderr)
			}
		})
	}
}
