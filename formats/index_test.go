package formats

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// shardedFixtures holds the checkpoints scripts/gen_sharded_testdata.py
// writes with PyTorch.
const shardedFixtures = "../testdata/sharded"

func TestParseIndex(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		names      []string
		shards     []string
		of         []int
	}{
		{"transformers", `{"metadata": {"total_size": 28}, "weight_map": {"a.weight": "m-1.safetensors", "b": "m-2.safetensors", "c": "m-1.safetensors"}}`,
			[]string{"a.weight", "b", "c"}, []string{"m-1.safetensors", "m-2.safetensors"}, []int{0, 1, 0}},
		{"file order, not sorted", `{"weight_map": {"z": "s", "a": "s"}}`, []string{"z", "a"}, []string{"s"}, []int{0, 0}},
		{"weight_map first, other keys skipped", `{"weight_map": {"x": "s"}, "metadata": {"total_size": 4, "nested": [[{"a": null}], true]}, "extra": 1}`,
			[]string{"x"}, []string{"s"}, []int{0}},
		{"empty weight_map", `{"weight_map": {}}`, nil, nil, nil},
		{"subfolder and dot steps", `{"weight_map": {"x": "sub/./s.bin"}}`, []string{"x"}, []string{"sub/./s.bin"}, []int{0}},
		{"escaped control character in a tensor name", `{"weight_map": {"\u001b[2Jx\n": "s"}}`, []string{"\x1b[2Jx\n"}, []string{"s"}, []int{0}},
		{"whitespace after the object", "{\"weight_map\": {\"x\": \"s\"}}\n\n  ", []string{"x"}, []string{"s"}, []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx, err := ParseIndex([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(idx.Names, tc.names) || !slices.Equal(idx.Shards, tc.shards) || !slices.Equal(idx.Shard, tc.of) {
				t.Errorf("got names %q shards %q of %v, want %q %q %v", idx.Names, idx.Shards, idx.Shard, tc.names, tc.shards, tc.of)
			}
		})
	}
}

// TestParseIndexRefuses: every index strider refuses, with a piece of its
// one-line message. Each case fails when its check is taken out of
// ParseIndex, parseWeightMap or checkShardName.
func TestParseIndexRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"duplicate tensor, two shards", `{"weight_map": {"w": "a.safetensors", "v": "a.safetensors", "w": "b.safetensors"}}`, `lists tensor "w" twice, in shards "a.safetensors" and "b.safetensors"`},
		{"duplicate tensor, one shard", `{"weight_map": {"w": "a", "w": "a"}}`, `lists tensor "w" twice`},
		{"duplicate weight_map", `{"weight_map": {"w": "a"}, "weight_map": {"v": "b"}}`, `gives the key "weight_map" twice`},
		{"no weight_map", `{"metadata": {"total_size": 1}}`, "has no weight_map"},
		{"not an object", `["weight_map"]`, "not a JSON object (it is a list)"},
		{"weight_map a list", `{"weight_map": [["w", "a"]]}`, "weight_map is not a JSON object"},
		{"shard a number", `{"weight_map": {"w": 1}}`, `maps tensor "w" to a number, not to a file name`},
		{"shard null", `{"weight_map": {"w": null}}`, "to null"},
		{"shard an object", `{"weight_map": {"w": {"file": "a"}}}`, "to an object"},
		{"parent folder", `{"weight_map": {"w": "../secret.safetensors"}}`, "outside the index's folder"},
		{"parent folder inside", `{"weight_map": {"w": "sub/../../x"}}`, "outside the index's folder"},
		{"parent folder alone", `{"weight_map": {"w": ".."}}`, "outside the index's folder"},
		{"absolute", `{"weight_map": {"w": "/etc/passwd"}}`, "absolute path"},
		{"UNC or root backslash", `{"weight_map": {"w": "\\\\server\\share\\x"}}`, `'\' or ':'`},
		{"backslash parent", `{"weight_map": {"w": "..\\x.bin"}}`, `'\' or ':'`},
		{"drive letter", `{"weight_map": {"w": "C:x.bin"}}`, `'\' or ':'`},
		{"drive letter absolute", `{"weight_map": {"w": "c:/x.bin"}}`, `'\' or ':'`},
		{"NTFS stream", `{"weight_map": {"w": "x.bin:hidden"}}`, `'\' or ':'`},
		{"empty shard", `{"weight_map": {"w": ""}}`, "empty file name"},
		{"control character", `{"weight_map": {"w": "a\u001b[2J.bin"}}`, `"a\x1b[2J.bin", with a control character`},
		{"NUL", `{"weight_map": {"w": "a\u0000.bin"}}`, "control character"},
		{"long shard name", `{"weight_map": {"w": "` + strings.Repeat("a", maxShardName+1) + `"}}`, "more than 4096"},
		{"trailing comma", `{"weight_map": {"w": "a",}}`, "not valid JSON"},
		{"cut short", `{"weight_map": {"w": "a"`, "not valid JSON"},
		{"empty", ``, "not valid JSON"},
		{"two objects", `{"weight_map": {}} {}`, "text after its JSON object"},
		{"garbage after", `{"weight_map": {}} x`, "text after its JSON object"},
		{"deep metadata cut short", `{"metadata": ` + strings.Repeat("[", 100) + `, "weight_map": {}}`, "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseIndex([]byte(tc.text))
			if err == nil {
				t.Fatalf("accepted %.80q", tc.text)
			}
			if !errors.Is(err, npy.ErrFormat) {
				t.Errorf("%v: not an npy.ErrFormat", err)
			}
			wantMessage(t, err, tc.want)
		})
	}
	_, err := ParseIndex(make([]byte, MaxIndexBytes+1))
	wantMessage(t, err, "the index is 67108865 bytes, more than the 67108864 strider reads")
	// The bound on tensors, made small: maxIndexEntries is passed the same way.
	_, err = parseIndex([]byte(`{"weight_map": {"a": "s", "b": "s", "c": "s", "d": "t"}}`), 3)
	wantMessage(t, err, "the index lists more than 3 tensors")
	if _, err := parseIndex([]byte(`{"weight_map": {"a": "s", "b": "s", "c": "s"}}`), 3); err != nil {
		t.Errorf("3 tensors, at most 3: %v", err)
	}
}

func TestIsIndex(t *testing.T) {
	for spec, want := range map[string]bool{
		"model.safetensors.index.json":     true,
		"dir/pytorch_model.bin.index.json": true,
		"X.INDEX.JSON":                     true,
		"model.safetensors":                false,
		"index.json":                       false, // no ".index.json"
		"a.index.json.bak":                 false,
		"https://host/r/model.safetensors.index.json?x=1#f":  true,
		"https://host/r/model.safetensors.index.json/x.json": false,
		"hf://o/r@main/m/model.safetensors.index.json":       true,
	} {
		if got := IsIndex(spec); got != want {
			t.Errorf("IsIndex(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestShardLocation(t *testing.T) {
	for _, tc := range []struct{ index, shard, want string }{
		{"model.safetensors.index.json", "m-1.safetensors", "m-1.safetensors"},
		{"ckpt/model.safetensors.index.json", "m-1.safetensors", filepath.Join("ckpt", "m-1.safetensors")},
		{"/abs/ckpt/i.index.json", "sub/s.bin", filepath.Join("/abs/ckpt", "sub", "s.bin")},
		{"https://host/r/resolve/main/model.safetensors.index.json", "model-00001-of-00002.safetensors",
			"https://host/r/resolve/main/model-00001-of-00002.safetensors"},
		{"https://host/r/i.index.json?X-Amz-Signature=abc#frag", "s.safetensors", "https://host/r/s.safetensors"},
		{"https://host/r/i.index.json?next=/a/b#/c/d", "s.safetensors", "https://host/r/s.safetensors"},
		{"http://host/i.index.json", "a b#?%.bin", "http://host/a%20b%23%3F%25.bin"},
		{"https://host", "s.bin", "https://host/s.bin"},
		{"hf://owner/repo@v1.0/sub/model.safetensors.index.json", "model-00001-of-00002.safetensors",
			"hf://owner/repo@v1.0/sub/model-00001-of-00002.safetensors"},
		{"hf://owner/repo/model.safetensors.index.json", "s/x.safetensors", "hf://owner/repo/s/x.safetensors"},
	} {
		if got := ShardLocation(tc.index, tc.shard); got != tc.want {
			t.Errorf("ShardLocation(%q, %q) = %q, want %q", tc.index, tc.shard, got, tc.want)
		}
	}
}

// TestReadIndexBounds: an index file over MaxIndexBytes is refused from
// its size, before it is read (a sparse file of 64 MiB + 1 takes no disk).
func TestReadIndexBounds(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "model.safetensors.index.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxIndexBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, _, err = OpenArchive(huge)
	wantMessage(t, err, "the index is 67108865 bytes, more than the 67108864 strider reads")
	_, err = readIndex(dir)
	wantMessage(t, err, "is a directory")
}

// wantMessage checks that err is a one-line error that says want.
func wantMessage(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one saying %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	testkit.CheckMessage(t, err.Error())
}

// FuzzIndex feeds arbitrary bytes to ParseIndex: it never panics, its
// errors are one line, and an index it accepts lists each tensor once,
// in a shard that stays in the index's folder.
func FuzzIndex(f *testing.F) {
	for _, p := range []string{"st/model.safetensors.index.json", "pt/pytorch_model.bin.index.json"} {
		b, err := os.ReadFile(filepath.Join(shardedFixtures, p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{"weight_map": {"w": "a", "w": "b"}}`,
		`{"weight_map": {"w": "../a"}}`,
		`{"weight_map": {"w": "C:\\a"}}`,
		`{"metadata": {"total_size": 1e400}, "weight_map": {"\u0000": "s/./t"}}`,
		`{"weight_map": {"w": "a"}} trailing`,
		`{"metadata": [[[[{}]]]], "weight_map": {}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		idx, err := ParseIndex(b)
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
				t.Fatalf("error %q is not one line", msg)
			}
			return
		}
		if len(idx.Names) != len(idx.Shard) {
			t.Fatalf("%d names, %d shard numbers", len(idx.Names), len(idx.Shard))
		}
		seen := map[string]bool{}
		for i, n := range idx.Names {
			if seen[n] {
				t.Fatalf("tensor %q listed twice", n)
			}
			seen[n] = true
			if k := idx.Shard[i]; k < 0 || k >= len(idx.Shards) {
				t.Fatalf("tensor %q in shard %d of %d", n, k, len(idx.Shards))
			}
		}
		dir := filepath.Join("ckpt", "m")
		for _, s := range idx.Shards {
			rel, err := filepath.Rel(dir, ShardLocation(filepath.Join(dir, "i.index.json"), s))
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
				t.Fatalf("shard %q lies outside the index's folder (%q)", s, rel)
			}
		}
	})
}
