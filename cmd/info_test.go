package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestInfoForgiving: info goes on past bad files, describes what it can,
// and exits 2 at the end.
func TestInfoForgiving(t *testing.T) {
	fromRoot(t)
	tmp := t.TempDir()
	torchLegacy := filepath.Join(tmp, "w.npy")
	os.WriteFile(torchLegacy, append([]byte("\x80\x02"), []byte("\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19rest")...), 0o644)
	r := run(t, nil, "info", "testdata/malformed/unicode_U3.npy", "nosuch.npy", "testdata/archive.npz",
		"testdata/malformed/truncated_data.npy", torchLegacy)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	out, errs := string(r.stdout), string(r.stderr)
	for _, want := range []string{"<U3, shape (2,)", "archive.npz:a: float32", "archive.npz:b: int64", "data truncated: 20 of 48 bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q: %s", want, out)
		}
	}
	for _, want := range []string{"nosuch.npy: cannot open", "this is a PyTorch file", "unicode_U3.npy: strider cannot compute on it", "data truncated"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %s", want, errs)
		}
	}
	if n := strings.Count(errs, "strider: info: "); n != 4 {
		t.Errorf("%d error lines, want 4: %s", n, errs)
	}
	r = run(t, nil, "info", "--json", "testdata/archive.npz")
	if r.code != 0 || strings.Count(string(r.stdout), `"member":`) != 2 || !strings.Contains(string(r.stdout), `"header_bytes":128`) {
		t.Fatalf("info --json of an archive: exit %d %q", r.code, r.stdout)
	}
}

// TestInfoReadsOnlyTheHeader: a header promising 1 GiB with no data after it
// is described from standard input, so info never waits for or reads data.
func TestInfoReadsOnlyTheHeader(t *testing.T) {
	hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 16384), }"
	pad := 64 - (10+len(hdr)+1)%64
	text := hdr + strings.Repeat(" ", pad) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
	b = append(b, text...)
	r := run(t, b, "info", "--json", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(string(r.stdout), `"nbytes":1073741824`) {
		t.Fatalf("unexpected info: %s", r.stdout)
	}
	// Every data-reading command refuses the same bytes.
	wantError(t, run(t, b, "transpose", "-", "-o", filepath.Join(t.TempDir(), "x.npy")), "transpose")
}

// TestInfoMatchesNumPy compares info --json with what NumPy's header reader
// said when the fixtures were written (testdata/expected_info.jsonl).
func TestInfoMatchesNumPy(t *testing.T) {
	fromRoot(t)
	f, err := os.Open("testdata/expected_info.jsonl")
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	// A bare archive has a line per member, all with its path: info of
	// that path must print them all, in order.
	var paths []string
	want := map[string][]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var w map[string]any
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("expected_info.jsonl: %v", err)
		}
		path := w["path"].(string)
		if want[path] == nil {
			paths = append(paths, path)
		}
		want[path] = append(want[path], w)
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			r := run(t, nil, "info", "--json", path)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
			if len(lines) != len(want[path]) {
				t.Fatalf("%d lines, want %d: %q", len(lines), len(want[path]), r.stdout)
			}
			for k, line := range lines {
				var got map[string]any
				if err := json.Unmarshal([]byte(line), &got); err != nil {
					t.Fatalf("output is not JSON: %q", line)
				}
				if !reflect.DeepEqual(got, want[path][k]) {
					t.Fatalf("got %v\nwant %v", got, want[path][k])
				}
			}
		})
	}
	if len(paths) == 0 {
		t.Fatal("expected_info.jsonl is empty")
	}
}

const torchFixtures = "testdata/torch"

func TestTorchInfoLists(t *testing.T) {
	fromRoot(t)
	r := run(t, nil, "info", torchFixtures+"/views.pt")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"views.pt:t: float32 (<f4), shape (6, 4), Fortran order, 24 elements, 96 bytes, torch.save",
		"views.pt:slice: float32 (<f4), shape (3, 3), strides (6, 2), storage offset 6, 9 elements, 36 bytes, torch.save",
		"views.pt:bf16_t: bfloat16 (read as float32) (<f4), shape (6, 4), Fortran order, 24 elements, 96 bytes (48 in the file), torch.save",
	} {
		if !bytes.Contains(r.stdout, []byte(want)) {
			t.Errorf("info output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = run(t, nil, "info", "--json", torchFixtures+"/dtypes.safetensors:x_bf16")
	var rec map[string]any
	if err := json.Unmarshal(r.stdout, &rec); err != nil || r.code != 0 {
		t.Fatalf("info --json: %v, exit %d, %s", err, r.code, r.stderr)
	}
	meta, _ := rec["__metadata__"].(map[string]any)
	if rec["dtype"] != "float32" || rec["stored_dtype"] != "bfloat16" || rec["stored_nbytes"] != 12.0 || meta["format"] != "pt" {
		t.Errorf("info --json = %v", rec)
	}
}
