package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs strider must refuse: malformed .npy files and the malformed
// .safetensors and torch.save files of testdata/torch/malformed.

type manifestEntry struct {
	File          string `json:"file"`
	Problem       string `json:"problem"`
	InfoMayAccept bool   `json:"info_may_accept"`
}

// wantInfoRefusal checks info on a file it cannot fully accept: exit 2,
// one "strider: info: " line on stderr, and on stdout at most the one line
// that describes the header it could read (a refused dtype).
func wantInfoRefusal(t *testing.T, r runResult) {
	t.Helper()
	if r.code != 2 {
		t.Fatalf("exit %d, want 2 (stderr %q)", r.code, r.stderr)
	}
	if n := strings.Count(string(r.stdout), "\n"); n > 1 || n == 1 && !strings.Contains(string(r.stdout), "cannot compute on it") {
		t.Fatalf("stdout is not one description of a refused dtype: %q", r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.stderr), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: info: ") || strings.Contains(string(r.stderr), "panic") {
		t.Fatalf("stderr is not one 'strider: info: ...' line: %q", r.stderr)
	}
}

// TestMalformed: every malformed file is refused with exit 2 and one line,
// from a path and from standard input, and leaves no output.
func TestMalformed(t *testing.T) {
	fromRoot(t)
	var manifest []manifestEntry
	if err := json.Unmarshal(readFile(t, "testdata/malformed/manifest.json"), &manifest); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	if len(manifest) < 20 {
		t.Fatalf("manifest lists only %d files", len(manifest))
	}
	for _, m := range manifest {
		path := filepath.Join("testdata/malformed", m.File)
		t.Run(m.File, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			wantError(t, run(t, nil, "transpose", path, "-o", out), "transpose")
			if strings.HasSuffix(m.File, ".npy") {
				wantError(t, run(t, readFile(t, path), "transpose", "-", "-o", out), "transpose")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("left %d files behind (%s)", len(entries), entries[0].Name())
			}
			if !m.InfoMayAccept {
				wantInfoRefusal(t, run(t, nil, "info", path))
			}
		})
	}
}

func TestTorchMalformedRefused(t *testing.T) {
	fromRoot(t)
	files, _ := filepath.Glob(torchFixtures + "/malformed/*.*")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".md") {
			continue
		}
		n++
		out := filepath.Join(t.TempDir(), "out.npy")
		wantError(t, run(t, nil, "transpose", f, "-o", out), "transpose")
		if _, err := os.Stat(out); err == nil {
			t.Errorf("transpose %s left %s", f, out)
		}
	}
	if n < 30 {
		t.Fatalf("only %d malformed fixtures", n)
	}
	if _, err := os.Stat("/tmp/strider-pwned"); err == nil {
		t.Error("/tmp/strider-pwned exists: did the os.system pickle run?")
	}
}
