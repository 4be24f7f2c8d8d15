package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommandLine(t *testing.T) {
	fromRoot(t)
	ex := "testdata/example_f4_2x3x4_c.npy"
	tmp := t.TempDir()
	ref := filepath.Join(tmp, "ref.npy")
	if r := run(t, nil, "transpose", "--axes", "0,2,1", ex, "-o", ref); r.code != 0 {
		t.Fatalf("transpose: %s", r.stderr)
	}
	t.Run("options after positionals", func(t *testing.T) {
		out := filepath.Join(tmp, "a.npy")
		r := run(t, nil, "transpose", ex, "-o", out, "--axes", "0,-1,1")
		if r.code != 0 || !bytes.Equal(readFile(t, out), readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("negative axes as a separate value", func(t *testing.T) {
		r := run(t, nil, "transpose", ex, "--axes", "-3,-1,-2", "-o", "-")
		if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("double dash ends options", func(t *testing.T) {
		r := run(t, nil, "transpose", "--axes=0,2,1", "--", ex)
		if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("version", func(t *testing.T) {
		r := run(t, nil, "--version")
		if r.code != 0 || !strings.Contains(string(r.stdout), "strider version") {
			t.Fatalf("exit %d %q", r.code, r.stdout)
		}
	})
	t.Run("help lists commands", func(t *testing.T) {
		r := run(t, nil, "--help")
		for _, c := range []string{"info", "transpose"} {
			if !strings.Contains(string(r.stdout), "   "+c+" ") {
				t.Fatalf("help does not list %s:\n%s", c, r.stdout)
			}
		}
		r = run(t, nil, "transpose", "--help")
		if r.code != 0 || !strings.Contains(string(r.stdout), "Examples:") || !strings.Contains(string(r.stdout), "--axes") {
			t.Fatalf("transpose --help: %s", r.stdout)
		}
	})
	errs := []struct {
		name, command string
		args          []string
		want          string
	}{
		{"repeated axis", "transpose", []string{"transpose", ex, "--axes", "0,0,1"}, "repeated axis 0"},
		{"wrong length", "transpose", []string{"transpose", ex, "--axes", "1,0"}, "axes don't match array"},
		{"axis out of range", "transpose", []string{"transpose", ex, "--axes", "0,1,3"}, "axis 3 is out of bounds for array of dimension 3"},
		{"bad axes text", "transpose", []string{"transpose", ex, "--axes", "0,x"}, `--axes "0,x" is not a list of integers`},
		{"threads zero", "transpose", []string{"transpose", ex, "--threads", "0"}, "--threads 0 is out of range"},
		{"bad device", "transpose", []string{"transpose", ex, "--device", "tpu"}, `--device "tpu"`},
		{"cuda without cuda build", "transpose", []string{"transpose", ex, "--device", "cuda"}, "go build -tags cuda"},
		{"missing input", "transpose", []string{"transpose", "nosuch.npy"}, "nosuch.npy"},
		{"two inputs", "transpose", []string{"transpose", ex, ex}, "expected one input"},
		{"unknown flag", "transpose", []string{"transpose", "--bogus", ex}, "bogus"},
		{"missing output folder", "transpose", []string{"transpose", ex, "-o", filepath.Join(tmp, "no/such/dir/x.npy")}, filepath.FromSlash("no/such/dir")},
		{"npz member missing", "info", []string{"info", "testdata/archive.npz:nosuch"}, "nosuch"},
		{"npz needs a member", "transpose", []string{"transpose", "testdata/archive.npz"}, "archive.npz"},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			r := run(t, nil, e.args...)
			wantError(t, r, e.command)
			if !strings.Contains(string(r.stderr), e.want) {
				t.Fatalf("stderr %q does not mention %q", r.stderr, e.want)
			}
		})
	}
	t.Run("unknown command", func(t *testing.T) {
		r := run(t, nil, "frobnicate")
		if r.code != 2 || !strings.Contains(string(r.stderr), "unknown command") {
			t.Fatalf("exit %d %q", r.code, r.stderr)
		}
	})
	t.Run("failed run keeps the previous output", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "keep.npy")
		os.WriteFile(out, []byte("previous"), 0o644)
		wantError(t, run(t, nil, "transpose", ex, "--axes", "9,0,1", "-o", out), "transpose")
		if got := readFile(t, out); string(got) != "previous" {
			t.Fatalf("output changed to %q", got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("folder holds %d files, want 1", len(entries))
		}
	})
	t.Run("output over the input", func(t *testing.T) {
		in := filepath.Join(tmp, "inplace.npy")
		os.WriteFile(in, readFile(t, ex), 0o644)
		if r := run(t, nil, "transpose", "--axes", "0,2,1", in, "-o", in); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		if !bytes.Equal(readFile(t, in), readFile(t, ref)) {
			t.Fatal("in-place result differs")
		}
	})
}
