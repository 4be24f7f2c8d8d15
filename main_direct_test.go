package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirectOutputs: with STRIDER_DIRECT_MIN=1 every file output that can
// be computed in pieces (transpose, slice, diagonal, gather, tri, reshape,
// cast, concat, stack) is written piece by piece with write(2) (the path
// outputs of 128 MiB and more take); its bytes must be those of the mapped
// output, and nothing but the output is left in the folder. (A result whose
// parts, rows of concat --axis 1 or gather, exceed the piece is mapped as
// before: two cases, concat of 128-byte rows and gather of 192-byte ones,
// check that path gives the same bytes too.) The parity
// suite runs whole with the same setting in scripts/test.sh.
func TestDirectOutputs(t *testing.T) {
	cases := [][]string{
		{"transpose", "testdata/roundtrip_f4le_2x3x4_f.npy"},
		{"transpose", "--axes", "0,2,1", "testdata/example_f4_2x3x4_c.npy"},
		{"transpose", "--order", "keep", "testdata/roundtrip_c16be_2x3x4_f.npy"},
		{"slice", "testdata/roundtrip_i2be_2x3x4_c.npy", "::-1, 1:, ::2"},
		{"diagonal", "--offset", "-1", "testdata/roundtrip_u8le_3x4_c.npy"},
		{"gather", "--index", "[2, 0, 2, 1]", "--axis", "1", "testdata/roundtrip_f4be_3x4_f.npy"},
		{"gather", "--index", "1", "testdata/roundtrip_b1_3x4_c.npy"},
		{"tril-indices", "300", "200", "--offset", "-3"},
		{"cast", "--dtype", "c8", "testdata/roundtrip_i4be_3x4_f.npy"},
		{"concat", "--axis", "1", "testdata/roundtrip_f4be_3x4_f.npy", "testdata/roundtrip_i2le_3x4_c.npy"},
		{"concat", "--axis", "0", "testdata/roundtrip_u2be_3x4_c.npy", "testdata/roundtrip_u1_3x4_f.npy"},
		{"stack", "--axis", "-1", "testdata/roundtrip_c8le_3x4_c.npy", "testdata/roundtrip_c16be_3x4_f.npy"},
		{"stack", "testdata/roundtrip_i8be_3x4_f.npy", "testdata/roundtrip_i8le_3x4_c.npy"},
		{"reshape", "--order", "F", "testdata/roundtrip_f8be_3x4_f.npy", "2,6"},
		{"concat", "--axis", "1", "testdata/roundtrip_f8be_3x4_f.npy", "testdata/roundtrip_f8le_3x4_c.npy", "testdata/roundtrip_c16le_3x4_c.npy"},
		{"gather", "--index", "[1, 0, 1]", "--axis", "0", "testdata/roundtrip_c16be_2x3x4_f.npy"},
		{"transpose", "testdata/roundtrip_f8le_0x3_c.npy"},
		{"transpose", "testdata/roundtrip_f8le_scalar_c.npy"},
	}
	dir := t.TempDir()
	for _, args := range cases {
		t.Run(args[0], func(t *testing.T) {
			var outs [2][]byte
			for k, env := range []string{"STRIDER_DIRECT_MIN=", "STRIDER_DIRECT_MIN=1 STRIDER_DIRECT_PIECE=64"} {
				out := filepath.Join(dir, "out.npy")
				if err := os.WriteFile(out, []byte("old"), 0o604); err != nil {
					t.Fatal(err)
				}
				c := striderCommand(t, append(append([]string{}, args...), "-o", out)...)
				c.Env = append(os.Environ(), strings.Fields(env)...)
				var stderr bytes.Buffer
				c.Stderr = &stderr
				if err := c.Run(); err != nil {
					t.Fatalf("%s %v: %v, %s", env, args, err, stderr.Bytes())
				}
				outs[k] = readFile(t, out)
				if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o604 {
					t.Fatalf("%s: mode %v, want 0604 kept", env, fi.Mode().Perm())
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Fatalf("%s: the folder holds %d entries, want the output alone", env, len(entries))
				}
			}
			if len(outs[0]) < 128 || !bytes.Equal(outs[0], outs[1]) {
				t.Fatalf("the output written in pieces (%d bytes) differs from the mapped one (%d bytes)", len(outs[1]), len(outs[0]))
			}
		})
	}
}
