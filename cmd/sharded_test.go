package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// The sharded checkpoints of testdata/sharded (scripts/gen_sharded_testdata.py):
// one model's state_dict as transformers shards it, with .safetensors and
// with torch.save shards, and the same tensors unsharded, as NumPy holds
// them (reference.npz) and as a folder of .npy files.
const (
	shardedDir = "testdata/sharded"
	stIndex    = shardedDir + "/st/model.safetensors.index.json"
	ptIndex    = shardedDir + "/pt/pytorch_model.bin.index.json"
)

// weightMap reads an index's weight_map.
func weightMap(t *testing.T, index string) map[string]string {
	t.Helper()
	var v struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(readFile(t, index), &v); err != nil {
		t.Fatal(err)
	}
	return v.WeightMap
}

// TestInfoSharded: info of an index lists every tensor, in the index's
// order, each line as info prints that tensor of its shard file, labelled
// INDEX:NAME and ending ", shard FILE"; --json adds a "shard" key and
// nothing else, and only for sharded checkpoints. Fails when the shard is
// not named, or a tensor is described otherwise than in its shard.
func TestInfoSharded(t *testing.T) {
	fromRoot(t)
	for _, index := range []string{stIndex, ptIndex} {
		t.Run(filepath.Base(index), func(t *testing.T) {
			wm := weightMap(t, index)
			names := slices.Sorted(maps.Keys(wm)) // as transformers writes the index
			r := run(t, nil, "info", index)
			lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
			if r.code != 0 || len(lines) != len(names) {
				t.Fatalf("exit %d, %d lines for %d tensors: %s%s", r.code, len(lines), len(names), r.stdout, r.stderr)
			}
			rj := run(t, nil, "info", "--json", index)
			records := strings.Split(strings.TrimSuffix(string(rj.stdout), "\n"), "\n")
			if rj.code != 0 || len(records) != len(names) {
				t.Fatalf("--json: exit %d: %s%s", rj.code, rj.stdout, rj.stderr)
			}
			for i, name := range names {
				shard := filepath.Join(filepath.Dir(index), wm[name])
				one := run(t, nil, "info", shard+":"+name)
				want := strings.Replace(strings.TrimSuffix(string(one.stdout), "\n"), shard+":"+name, index+":"+name, 1) + ", shard " + wm[name]
				if lines[i] != want {
					t.Errorf("line %d:\n%s\nwant\n%s", i, lines[i], want)
				}
				if alone := run(t, nil, "info", index+":"+name); string(alone.stdout) != want+"\n" {
					t.Errorf("info %s:%s:\n%swant\n%s", index, name, alone.stdout, want)
				}
				var got, ref map[string]any
				if err := json.Unmarshal([]byte(records[i]), &got); err != nil {
					t.Fatal(err)
				}
				listing := run(t, nil, "info", "--json", shard)
				for _, rec := range strings.Split(strings.TrimSuffix(string(listing.stdout), "\n"), "\n") {
					var m map[string]any
					if json.Unmarshal([]byte(rec), &m) == nil && m["member"] == name {
						ref = m
					}
				}
				if ref == nil {
					t.Fatalf("info --json %s lists no %s", shard, name)
				}
				ref["path"], ref["shard"] = index, wm[name]
				if a, b := mustJSON(t, got), mustJSON(t, ref); a != b {
					t.Errorf("--json record %d:\n%s\nwant\n%s", i, a, b)
				}
			}
		})
	}
	r := run(t, nil, "info", "--json", torchFixtures+"/dtypes.safetensors", "testdata/archive.npz")
	if r.code != 0 || bytes.Contains(r.stdout, []byte(`"shard"`)) {
		t.Errorf("an unsharded file's --json has a shard key, or fails (exit %d): %s", r.code, r.stdout)
	}
}

// mustJSON is v as JSON, keys sorted.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestShardedInputs: INDEX:NAME is an input of every command, read from its
// shard: each command's output equals its output for the same tensor of
// reference.npz (NumPy's arrays), byte for byte, for both checkpoints.
func TestShardedInputs(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	ref := shardedDir + "/reference.npz"
	for _, tc := range []struct {
		name string
		args []string // IN stands for the input
	}{
		{"show", []string{"show", "IN"}},
		{"show expr", []string{"show", "IN", "::-1, 1:"}},
		{"slice", []string{"slice", "IN", "..., ::2", "-o", "OUT"}},
		{"transpose", []string{"transpose", "IN", "-o", "OUT"}},
		{"cast", []string{"cast", "IN", "--dtype", "float64", "-o", "OUT"}},
		{"stats", []string{"stats", "--json", "IN"}},
		{"info", []string{"info", "--json", "IN"}},
		{"reshape", []string{"reshape", "IN", "-1", "-o", "OUT"}},
		{"sort", []string{"sort", "IN", "-o", "OUT"}},
		{"gather", []string{"gather", "--index", "0", "--axis", "0", "IN", "-o", "OUT"}},
		{"to-text", []string{"to-text", "IN", "-o", "OUT"}},
		{"compare", []string{"compare", "IN", "IN"}},
	} {
		for _, index := range []string{stIndex, ptIndex} {
			for _, name := range []string{"layers.0.proj.weight", "layers.1.proj.weight", "head.weight", "position_ids"} {
				t.Run(tc.name+"/"+filepath.Base(filepath.Dir(index))+"/"+name, func(t *testing.T) {
					outputs := [2][]byte{}
					for k, in := range []string{index + ":" + name, ref + ":" + name} {
						out := filepath.Join(dir, "out.npy")
						os.Remove(out)
						var args []string
						for _, a := range tc.args {
							args = append(args, strings.NewReplacer("IN", in, "OUT", out).Replace(a))
						}
						r := run(t, nil, args...)
						if r.code != 0 {
							t.Fatalf("%q: exit %d: %s", args, r.code, r.stderr)
						}
						outputs[k] = bytes.ReplaceAll(r.stdout, []byte(in), []byte("IN"))
						if b, err := os.ReadFile(out); err == nil {
							outputs[k] = append(outputs[k], b...)
						}
					}
					if tc.name == "info" { // info also says how the tensor is stored: compare the array's keys
						outputs = [2][]byte{infoArrayKeys(t, outputs[0]), infoArrayKeys(t, outputs[1])}
					}
					if !bytes.Equal(outputs[0], outputs[1]) {
						t.Errorf("sharded:\n%s\nreference.npz:\n%s", outputs[0], outputs[1])
					}
				})
			}
		}
	}
}

// infoArrayKeys is the shape, dtype, descr and count of an info --json line.
func infoArrayKeys(t *testing.T, line []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	return []byte(mustJSON(t, map[string]any{"shape": m["shape"], "dtype": m["dtype"], "descr": m["descr"], "count": m["count"]}))
}

// TestCompareSharded: compare pairs a sharded checkpoint's members with
// those of the same tensors unsharded (.safetensors, torch.save), NumPy's
// .npz, a folder of .npy files and the other sharded checkpoint, either
// side; --exact too (bfloat16 tensors are read widened on both sides).
// A changed value, a missing tensor and a broken shard are reported as for
// any archive.
func TestCompareSharded(t *testing.T) {
	fromRoot(t)
	others := []string{shardedDir + "/model.safetensors", shardedDir + "/pytorch_model.bin", shardedDir + "/reference.npz", shardedDir + "/npy", ptIndex}
	want := "embed.weight: equal\nhead.weight: equal\nlayers.0.norm.bias: equal\nlayers.0.norm.weight: equal\n" +
		"layers.0.proj.bias: equal\nlayers.0.proj.weight: equal\nlayers.1.norm.bias: equal\nlayers.1.norm.weight: equal\n" +
		"layers.1.proj.bias: equal\nlayers.1.proj.weight: equal\nposition_ids: equal\n11 members: 11 equal, 0 differ, 0 only in A, 0 only in B\n"
	for _, other := range others {
		for _, args := range [][]string{{"compare", stIndex, other}, {"compare", "--exact", other, ptIndex}} {
			r := run(t, nil, args...)
			got := string(r.stdout)
			if args[1] == "--exact" && other != ptIndex { // the other side's order
				got = sortedMemberLines(got)
			}
			if r.code != 0 || got != want {
				t.Errorf("%q: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
			}
		}
	}

	dir := t.TempDir()
	for _, p := range glob(t, shardedDir+"/st/*") {
		b := readFile(t, p)
		if strings.HasSuffix(p, "model-00003-of-00003.safetensors") {
			b[len(b)-1] ^= 0x40 // the last byte of the last tensor (save_file's order: head.weight, float16)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(dir, "model.safetensors.index.json")
	r := run(t, nil, "compare", index, shardedDir+"/reference.npz", "--member", "*.weight")
	if r.code != 1 || !strings.Contains(string(r.stdout), "\nlayers.0.norm.weight: equal\n") || !strings.Contains(string(r.stdout), " 1 differ,") {
		t.Errorf("one value changed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	folder := t.TempDir()
	for _, p := range glob(t, shardedDir+"/npy/*.npy") {
		if !strings.Contains(p, "position_ids") {
			os.WriteFile(filepath.Join(folder, filepath.Base(p)), readFile(t, p), 0o644)
		}
	}
	r = run(t, nil, "compare", folder, ptIndex)
	if r.code != 1 || !strings.HasSuffix(string(r.stdout), "position_ids: only in B\n11 members: 10 equal, 0 differ, 0 only in A, 1 only in B\n") {
		t.Errorf("a tensor only in the checkpoint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	os.Remove(filepath.Join(dir, "model-00002-of-00003.safetensors"))
	r = run(t, nil, "compare", index, shardedDir+"/reference.npz")
	testkit.WantOneLine(t, r.code, string(r.stderr), "compare", `shard "model-00002-of-00003.safetensors" is missing`)
}

// sortedMemberLines sorts the member lines of a compare report, keeping
// its summary last.
func sortedMemberLines(report string) string {
	lines := strings.Split(strings.TrimSuffix(report, "\n"), "\n")
	if len(lines) < 2 {
		return report
	}
	slices.Sort(lines[:len(lines)-1])
	return strings.Join(lines, "\n") + "\n"
}

// TestShardedErrors: each broken checkpoint is one error line and exit 2,
// for info (which goes on to the next file), a command and compare; the
// names an index controls reach the terminal escaped.
func TestShardedErrors(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	testkit.WriteSafetensorsNames(t, filepath.Join(dir, "a.safetensors"), "w", "x\x1b[2J")
	testkit.WriteSafetensorsNames(t, filepath.Join(dir, "b.safetensors"), "w")
	other := filepath.Join(dir, "other.safetensors") // the tensors the indexes name, for compare
	testkit.WriteSafetensorsNames(t, other, "w", "v", "x\x1b[2J", "ghost\x1b[31m")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct{ name, index, read, want string }{
		{"missing shard", write("missing.index.json", `{"weight_map": {"w": "gone.safetensors"}}`), "w", `shard "gone.safetensors" is missing`},
		{"duplicate key", write("dup.index.json", `{"weight_map": {"w": "a.safetensors", "w": "b.safetensors"}}`), "w", `lists tensor "w" twice, in shards "a.safetensors" and "b.safetensors"`},
		{"two shard files", write("two.index.json", `{"weight_map": {"w": "a.safetensors", "x\u001b[2J": "a.safetensors", "v": "b.safetensors"}}`), "v",
			`shard "b.safetensors": it holds tensor "w", which the index puts in shard "a.safetensors": one tensor, two shards`},
		{"tensor the shard lacks", write("lacks.index.json", `{"weight_map": {"w": "b.safetensors", "ghost\u001b[31m": "b.safetensors"}}`), "w",
			`shard "b.safetensors": the index lists tensor "ghost\x1b[31m" in it, but it has no tensor of that name`},
		{"escaping shard", write("escape.index.json", `{"weight_map": {"w": "../b.safetensors"}}`), "w", "outside the index's folder"},
		{"not JSON", write("bad.index.json", `{"weight_map": {"w": "a.safetensors",}}`), "w", "the index is not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, args := range [][]string{
				{"info", tc.index},
				{"show", tc.index + ":" + tc.read},
				{"stats", tc.index + ":" + tc.read},
				{"compare", tc.index, other},
			} {
				r := run(t, nil, args...)
				testkit.WantNoControls(t, "stderr", r.stderr)
				testkit.WantOneLine(t, r.code, string(r.stderr), args[0], tc.want)
			}
			r := run(t, nil, "info", tc.index, stIndex+":head.weight")
			if r.code != 2 || !strings.HasPrefix(string(r.stdout), stIndex+":head.weight: float16") || strings.Count(string(r.stderr), "\n") != 1 {
				t.Errorf("info goes on past a bad checkpoint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
	// A tensor name with an escape sequence, and a shard name with a
	// right-to-left override and a C1 control (ParseIndex refuses C0 ones).
	testkit.WriteSafetensorsNames(t, filepath.Join(dir, "r\u202eb\u009b.safetensors"), "v")
	r := run(t, nil, "info", write("esc.index.json", `{"weight_map": {"w": "a.safetensors", "x\u001b[2J": "a.safetensors", "v": "r\u202eb\u009b.safetensors"}}`))
	testkit.WantNoControls(t, "stdout", r.stdout)
	if r.code != 0 || !strings.Contains(string(r.stdout), `esc.index.json:x\x1b[2J: float32`) || !strings.Contains(string(r.stdout), `, shard r\u202eb\u009b.safetensors`) {
		t.Errorf("a tensor with an escape in its name: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestCompleteSharded: completion offers the tensors of an index, from the
// index alone (its shards may be elsewhere: nothing but the index is read).
func TestCompleteSharded(t *testing.T) {
	dir := t.TempDir()
	index := filepath.Join(dir, "model.safetensors.index.json")
	if err := os.WriteFile(index, readFile(t, "../"+stIndex), 0o644); err != nil {
		t.Fatal(err)
	}
	_, words := answer(t, "show", index+":layers.1.p")
	if want := []string{index + ":layers.1.proj.bias", index + ":layers.1.proj.weight"}; !slices.Equal(words, want) {
		t.Errorf("completion of %s:layers.1.p = %q, want %q", index, words, want)
	}
}

// TestScriptSharded: --as-numpy reads a tensor of a sharded checkpoint from
// the shard its index names, and the script computes what strider does.
func TestScriptSharded(t *testing.T) {
	fromRoot(t)
	r := run(t, nil, "compare", "--as-numpy", stIndex, ptIndex)
	script := string(r.stdout)
	if r.code != 0 || !strings.Contains(script, "load_safetensors('testdata/sharded/st/model-00003-of-00003.safetensors', 'head.weight')") ||
		!strings.Contains(script, "load_torch('testdata/sharded/pt/pytorch_model-00001-of-00003.bin', 'embed.weight')") {
		t.Fatalf("exit %d: %s%s", r.code, script, r.stderr)
	}
	r = run(t, nil, "show", "--as-numpy", stIndex+":nope")
	if r.code != 0 || !strings.Contains(string(r.stdout), `raise ValueError('testdata/sharded/st/model.safetensors.index.json: sharded checkpoint has no tensor named "nope" (it holds embed.weight, `) {
		t.Errorf("a tensor the index lacks: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	py := testkit.NumPy(t, "to run the scripts")
	if out, err := exec.Command(py, "-c", "import torch").CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: no torch under %s: %v %s", py, err, out)
	}
	c := exec.Command(py, "-")
	c.Stdin = strings.NewReader(script)
	if out, err := c.CombinedOutput(); err != nil {
		t.Errorf("the script of compare %s %s: %v\n%s", stIndex, ptIndex, err, out)
	}
	r = run(t, nil, "slice", "--as-numpy", ptIndex+":layers.1.proj.weight", "::-1", "-o", "-")
	c = exec.Command(py, "-")
	c.Stdin = bytes.NewReader(r.stdout)
	got, err := c.Output()
	want := run(t, nil, "slice", ptIndex+":layers.1.proj.weight", "::-1", "-o", "-")
	if err != nil || !bytes.Equal(got, want.stdout) {
		t.Errorf("slice --as-numpy of a torch.save shard's tensor: %v, %d bytes, strider's %d", err, len(got), len(want.stdout))
	}
}

// torchLoadShards prints, for every tensor of a torch.save sharded
// checkpoint, what torch.load of its shard holds, as strider reads it
// (bfloat16 widened): {name: [descr, shape, hex of the C-order bytes]}.
const torchLoadShards = `
import json, os, sys
import torch
index = sys.argv[1]
with open(index) as f:
    weight_map = json.load(f)['weight_map']
shards, out = {}, {}
for name, shard in weight_map.items():
    if shard not in shards:
        shards[shard] = torch.load(os.path.join(os.path.dirname(index), shard))
    t = shards[shard][name]
    a = (t.float() if t.dtype == torch.bfloat16 else t).contiguous().numpy()
    out[name] = [a.dtype.str, list(a.shape), a.tobytes().hex()]
print(json.dumps(out))
`

// TestShardedTorchLoad: every tensor of the torch.save checkpoint, read
// through its index, is what torch.load of its shard gives.
func TestShardedTorchLoad(t *testing.T) {
	fromRoot(t)
	py := testkit.NumPy(t, "to run torch.load")
	out, err := exec.Command(py, "-c", torchLoadShards, ptIndex).Output()
	if err != nil {
		t.Skipf("SKIPPED: torch.load under %s: %v", py, err)
	}
	var want map[string][3]any
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, w := range want {
		o := filepath.Join(dir, "t.npy")
		if r := run(t, nil, "slice", ptIndex+":"+name, "...", "-o", o); r.code != 0 {
			t.Fatalf("%s: %s", name, r.stderr)
		}
		r := run(t, nil, "info", "--json", o)
		var h struct {
			Descr       string `json:"descr"`
			Shape       []int  `json:"shape"`
			HeaderBytes int    `json:"header_bytes"`
		}
		if err := json.Unmarshal(r.stdout, &h); err != nil {
			t.Fatal(err)
		}
		data := readFile(t, o)[h.HeaderBytes:]
		if got := [3]any{h.Descr, mustJSON(t, h.Shape), fmt.Sprintf("%x", data)}; got != [3]any{w[0], mustJSON(t, w[1]), w[2]} {
			t.Errorf("%s: strider %v, torch.load %v", name, got, w)
		}
	}
	if len(want) != 11 {
		t.Errorf("torch.load found %d tensors, want 11", len(want))
	}
}
