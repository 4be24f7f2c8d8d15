package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTextWideLine: one line of tens of millions of columns, from a pipe
// or a file, is parsed as it is read, under a memory limit far below the
// 24 bytes a column that splitting the row into a slice took (issue 27,
// item 9: a 2 GiB line was once killed at 24 GB). A pipe longer than the
// block held in memory goes through a temporary file, which is removed.
func TestTextWideLine(t *testing.T) {
	tmp := t.TempDir()
	// Bounded by the output plus a working block: the peak resident memory
	// (which counts the mapped input and output pages too) may exceed the
	// input and output by at most this. Splitting the row into a slice of
	// fields first (the old way) took 24 bytes a field, 288 MB for the
	// 12M columns. The slack is the runtime, the parse's block and standard
	// input's first 16 MiB, held on the heap (twice while it grows) before
	// a longer stream goes to a temporary file. A tight RLIMIT_DATA is no
	// measure here: the Go runtime maps its heap 64 MiB at a time and fails
	// at random below ~128 MiB.
	const slack = 96 << 20
	for _, c := range []struct {
		name   string
		row    string
		cols   int
		pipe   bool
		args   []string
		elem   int
		outLen int
	}{
		{"pipe/int8", "1 ", 12_000_000, true, []string{"--dtype", "int8"}, 1, 12_000_000},
		{"pipe/f4/usecols", "2\t", 10_000_000, true, []string{"--dtype", "float32", "--usecols=-1,0"}, 4, 2},
		{"file/f8", "3 ", 10_000_000, false, nil, 8, 10_000_000},
		{"file/c16/usecols", "4\u3000", 5_000_000, false, []string{"--dtype", "complex128", "--usecols=7,-2"}, 16, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := append(bytes.Repeat([]byte(c.row), c.cols), '\n')
			out := filepath.Join(tmp, "w.npy")
			args := append([]string{"from-text", "-q", "-o", out}, c.args...)
			if c.pipe {
				args = append(args, "-")
			} else {
				in := filepath.Join(tmp, "w.txt")
				if err := os.WriteFile(in, text, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, in)
			}
			cmd, peak := peakCommand(t, args...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if c.pipe {
				cmd.Stdin = bytes.NewReader(text)
			}
			if code := exitCode(t, cmd, cmd.Run()); code != 0 {
				t.Fatalf("exit %d: %.500s", code, errb.String())
			}
			fi, err := os.Stat(out)
			if err != nil || fi.Size() != 128+int64(c.elem*c.outLen) {
				t.Fatalf("output %v (%v), want a header and %d elements", fi, err, c.outLen)
			}
			if rss, bound := peak(), int64(len(text))+fi.Size()+slack; rss > bound {
				t.Fatalf("peak resident memory %d MiB, over the %d MiB of the text, the output and a working block", rss>>20, bound>>20)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "strider-stdin-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
