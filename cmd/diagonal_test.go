package cmd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagonalReadAt: a diagonal whose elements lie a page or more apart is
// read with pread instead of a mapping; its output must equal the mapped
// path's (standard input from a pipe, which parity checks against NumPy),
// for C and Fortran files and every offset sign.
func TestDiagonalReadAt(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		shape   []int
		fortran bool
		offset  string
	}{
		{"c/1500x1100/k0", []int{1500, 1100}, false, "0"},
		{"c/1500x1100/k7", []int{1500, 1100}, false, "7"},
		{"c/1500x1100/k-9", []int{1500, 1100}, false, "-9"},
		{"f/1100x1500/k3", []int{1100, 1500}, true, "3"},
		{"c/2x700x1200/k-2", []int{2, 700, 1200}, false, "-2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			count := 1
			for _, d := range c.shape {
				count *= d
			}
			data := make([]byte, 8*count)
			for i := 0; i < count; i++ {
				binary.LittleEndian.PutUint64(data[8*i:], uint64(i)*2654435761)
			}
			hdr := fmt.Sprintf("{'descr': '<u8', 'fortran_order': %s, 'shape': %s, }", map[bool]string{false: "False", true: "True"}[c.fortran], pyShape(c.shape))
			pad := 64 - (10+len(hdr)+1)%64
			text := hdr + strings.Repeat(" ", pad) + "\n"
			file := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
			file = append(append(file, text...), data...)
			in := filepath.Join(dir, "in.npy")
			if err := os.WriteFile(in, file, 0o644); err != nil {
				t.Fatal(err)
			}
			axes := []string{"--axis1", "-2", "--axis2", "-1"}
			args := append([]string{"diagonal", "--offset", c.offset}, axes...)
			viaFile := run(t, nil, append(args, in, "-o", "-")...)
			viaPipe := run(t, file, append(args, "-")...)
			if viaFile.code != 0 || viaPipe.code != 0 {
				t.Fatalf("exit %d / %d: %s %s", viaFile.code, viaPipe.code, viaFile.stderr, viaPipe.stderr)
			}
			if !bytes.Equal(viaFile.stdout, viaPipe.stdout) {
				t.Fatal("pread and mapped paths differ")
			}
			if len(viaFile.stdout) <= 128 {
				t.Fatalf("diagonal is empty: %d bytes", len(viaFile.stdout))
			}
		})
	}
}

func pyShape(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	if len(s) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
