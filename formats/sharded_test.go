package formats

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// The two sharded checkpoints of testdata/sharded, written by PyTorch as
// transformers' save_pretrained writes them, each with the index's name.
var shardedIndexes = []string{"st/model.safetensors.index.json", "pt/pytorch_model.bin.index.json"}

// TestShardedParity: every tensor of both sharded checkpoints reads as
// NumPy holds it (reference.npz, torch.load(...).numpy() with bfloat16
// widened), through the Archive (compare), Open of INDEX:NAME (every other
// command) and OpenHeader; ListSharded names each tensor's shard as the
// index does. Fails when a member is read from the wrong shard, or the
// index's order or the shard names are lost.
func TestShardedParity(t *testing.T) {
	ref, ok, err := OpenArchive(filepath.Join(shardedFixtures, "reference.npz"))
	if !ok || err != nil {
		t.Fatalf("reference.npz: %v", err)
	}
	defer ref.Close()
	for _, name := range shardedIndexes {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(shardedFixtures, name)
			var index struct {
				WeightMap map[string]string `json:"weight_map"`
			}
			if err := json.Unmarshal(testkit.ReadFile(t, path), &index); err != nil {
				t.Fatal(err)
			}
			a, ok, err := OpenArchive(path)
			if !ok || err != nil {
				t.Fatalf("OpenArchive: %v, %v", ok, err)
			}
			defer a.Close()
			want := slices.Sorted(maps.Keys(index.WeightMap)) // as transformers writes the index: sorted
			if a.Kind != "sharded" || !slices.Equal(a.Names, want) {
				t.Fatalf("kind %q names %q, want sharded %q", a.Kind, a.Names, want)
			}
			listed, ok, err := ListSharded(path)
			if !ok || err != nil || len(listed) != len(want) {
				t.Fatalf("ListSharded: %d tensors, %v, %v", len(listed), ok, err)
			}
			for i, member := range a.Names {
				r, err := ref.Open(member, npy.AccessAll)
				if err != nil {
					t.Fatal(err)
				}
				got, err := a.Open(member, npy.AccessAll)
				if err != nil {
					t.Fatalf("Archive.Open(%q): %v", member, err)
				}
				sameArray(t, "Archive.Open "+member, got, r)
				spec := path + ":" + member
				one, err := Open(spec, nil, npy.AccessAll)
				if err != nil {
					t.Fatalf("Open(%q): %v", spec, err)
				}
				sameArray(t, "Open "+spec, one, r)
				if !one.Mapped() && !listed[i].Widened {
					t.Errorf("Open(%q) does not own its shard's mapping", spec)
				}
				one.Close()
				h, err := OpenHeader(spec, nil)
				if err != nil || !slices.Equal(h.Shape, r.Shape) || h.Dtype != r.Dtype {
					t.Errorf("OpenHeader(%q) = %v %v, %v; want %v %v", spec, h.Shape, h.Dtype, err, r.Shape, r.Dtype)
				}
				if lt := listed[i]; lt.Name != member || lt.Shard != index.WeightMap[member] || !slices.Equal(lt.Shape, r.Shape) {
					t.Errorf("ListSharded[%d] = %q in %q, shape %v; want %q in %q, %v", i, lt.Name, lt.Shard, lt.Shape, member, index.WeightMap[member], r.Shape)
				}
				one1, ok, err := ListSharded(spec)
				if !ok || err != nil || len(one1) != 1 || one1[0].Name != member {
					t.Errorf("ListSharded(%q) = %v, %v, %v", spec, one1, ok, err)
				}
				r.Close()
			}
		})
	}
}

// sameArray fails the test unless a and want have the same dtype, shape
// and C-order bytes.
func sameArray(t *testing.T, what string, a, want *npy.Array) {
	t.Helper()
	if a.Dtype != want.Dtype || !slices.Equal(a.Shape, want.Shape) || a.Strided() || !bytes.Equal(a.Data, want.Data) {
		t.Errorf("%s: %v %v (strided %v) %x, want %v %v %x", what, a.Dtype, a.Shape, a.Strided(), a.Data, want.Dtype, want.Shape, want.Data)
	}
}

// copyCheckpoint copies the safetensors checkpoint of testdata/sharded
// into a new folder, with the index replaced by weightMap (the fixture's
// when nil), and returns the index's path.
func copyCheckpoint(t *testing.T, weightMap map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range testkit.Glob(t, filepath.Join(shardedFixtures, "st", "*")) {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), testkit.ReadFile(t, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := filepath.Join(dir, "model.safetensors.index.json")
	if weightMap != nil {
		writeIndex(t, index, weightMap)
	}
	return index
}

// writeIndex writes an index as transformers writes one.
func writeIndex(t *testing.T, path string, weightMap map[string]string) {
	t.Helper()
	b, err := json.MarshalIndent(map[string]any{"metadata": map[string]int{"total_size": 0}, "weight_map": weightMap}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixtureMap is the weight_map of the safetensors fixture.
func fixtureMap(t *testing.T) map[string]string {
	var index struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(testkit.ReadFile(t, filepath.Join(shardedFixtures, shardedIndexes[0])), &index); err != nil {
		t.Fatal(err)
	}
	return index.WeightMap
}

const (
	shard1 = "model-00001-of-00003.safetensors" // position_ids, embed.weight
	shard2 = "model-00002-of-00003.safetensors" // layers.0.*
	shard3 = "model-00003-of-00003.safetensors" // layers.1.*, head.weight
)

// TestShardedLazy: a member read opens its shard only (a missing other
// shard does not matter), and each shard once: once its header is read,
// its file may go away and the Archive still reads its other tensors.
// Fails when Open or ListSharded open every shard, or when the Archive
// opens a shard again for each tensor.
func TestShardedLazy(t *testing.T) {
	index := copyCheckpoint(t, nil)
	dir := filepath.Dir(index)
	if err := os.Remove(filepath.Join(dir, shard2)); err != nil {
		t.Fatal(err)
	}
	a, err := Open(index+":embed.weight", nil, npy.AccessSparse)
	if err != nil {
		t.Fatalf("a tensor of shard 1, shard 2 missing: %v", err)
	}
	a.Close()
	if _, _, err := ListSharded(index + ":head.weight"); err != nil {
		t.Fatalf("info of a tensor of shard 3, shard 2 missing: %v", err)
	}
	_, err = Open(index+":layers.0.proj.bias", nil, npy.AccessSparse)
	wantMessage(t, err, `shard "model-00002-of-00003.safetensors" is missing: cannot open: no such file or directory`)
	_, _, err = ListSharded(index)
	wantMessage(t, err, `shard "model-00002-of-00003.safetensors" is missing`)

	ar, _, err := OpenArchive(index)
	if err != nil {
		t.Fatal(err)
	}
	defer ar.Close()
	if _, err := ar.Open("head.weight", npy.AccessAll); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, shard3)); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"layers.1.proj.weight", "layers.1.norm.bias", "head.weight"} {
		if _, err := ar.Open(name, npy.AccessAll); err != nil {
			t.Errorf("%s, read again from shard 3 after its file went: %v", name, err)
		}
	}
	_, err = ar.Open("layers.0.norm.weight", npy.AccessAll)
	wantMessage(t, err, `shard "model-00002-of-00003.safetensors" is missing`)
}

// TestShardedRefuses: each inconsistency between an index and its shards
// is a one-line error, for the reads that meet it. Each case fails when
// its check (ParseIndex's or sharded.check) is taken out.
func TestShardedRefuses(t *testing.T) {
	outside := t.TempDir()
	testkit.WriteSafetensorsNames(t, filepath.Join(outside, "secret.safetensors"), "w")
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string, m map[string]string) // edits the folder and the weight_map
		read  string                                              // a tensor whose read fails; "" for the index itself
		want  string
	}{
		{"missing shard", func(t *testing.T, dir string, m map[string]string) {
			os.Remove(filepath.Join(dir, shard3))
		}, "head.weight", `shard "model-00003-of-00003.safetensors" is missing`},
		{"tensor in two shard files", func(t *testing.T, dir string, m map[string]string) {
			testkit.WriteSafetensorsNames(t, filepath.Join(dir, "extra.safetensors"), "embed.weight", "more")
			m["more"] = "extra.safetensors"
		}, "more", `shard "extra.safetensors": it holds tensor "embed.weight", which the index puts in shard "model-00001-of-00003.safetensors": one tensor, two shards`},
		{"tensor the shard lacks", func(t *testing.T, dir string, m map[string]string) {
			m["ghost"] = shard2
		}, "layers.0.proj.weight", `shard "model-00002-of-00003.safetensors": the index lists tensor "ghost" in it, but it has no tensor of that name`},
		{"tensor the index moved", func(t *testing.T, dir string, m map[string]string) {
			m["embed.weight"] = shard2
		}, "embed.weight", `the index lists tensor "embed.weight" in it, but it has no tensor of that name`},
		{"tensor the index does not list", func(t *testing.T, dir string, m map[string]string) {
			delete(m, "position_ids")
		}, "embed.weight", `shard "model-00001-of-00003.safetensors": it holds tensor "position_ids", which the index does not list`},
		{"shard outside the folder", func(t *testing.T, dir string, m map[string]string) {
			rel, _ := filepath.Rel(dir, filepath.Join(outside, "secret.safetensors"))
			m["w"] = filepath.ToSlash(rel)
		}, "", "outside the index's folder"},
		{"shard by absolute path", func(t *testing.T, dir string, m map[string]string) {
			m["w"] = filepath.ToSlash(filepath.Join(outside, "secret.safetensors"))
		}, "", "absolute path"},
		{"shard not a tensor file", func(t *testing.T, dir string, m map[string]string) {
			os.WriteFile(filepath.Join(dir, "x.npy"), append(testkit.SaveHeader("<f4", false, []int{1}), 0, 0, 0, 0), 0o644)
			m["x"] = "x.npy"
		}, "x", `shard "x.npy": not a tensor file`},
		{"shard a folder", func(t *testing.T, dir string, m map[string]string) {
			os.Mkdir(filepath.Join(dir, "d.safetensors"), 0o755)
			m["x"] = "d.safetensors"
		}, "x", `shard "d.safetensors": `},
		{"shard malformed", func(t *testing.T, dir string, m map[string]string) {
			os.WriteFile(filepath.Join(dir, shard2), []byte("\x10\x00\x00\x00\x00\x00\x00\x00{not json}      "), 0o644)
		}, "layers.0.proj.bias", `shard "model-00002-of-00003.safetensors": `},
		{"shard another index", func(t *testing.T, dir string, m map[string]string) {
			writeIndex(t, filepath.Join(dir, "inner.index.json"), map[string]string{"x": shard1})
			m["x"] = "inner.index.json"
		}, "x", `shard "inner.index.json": not a tensor file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fixtureMap(t)
			index := copyCheckpoint(t, nil)
			tc.setup(t, filepath.Dir(index), m)
			writeIndex(t, index, m)
			a, ok, err := OpenArchive(index)
			if !ok {
				t.Fatal("not an archive")
			}
			if tc.read == "" {
				wantMessage(t, err, tc.want)
				_, err = Open(index+":w", nil, npy.AccessAll)
				wantMessage(t, err, tc.want)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			_, err = a.Open(tc.read, npy.AccessAll)
			wantMessage(t, err, tc.want)
			_, err = a.Open(tc.read, npy.AccessAll) // again: the shard's error stays
			wantMessage(t, err, tc.want)
			_, err = Open(index+":"+tc.read, nil, npy.AccessAll)
			wantMessage(t, err, tc.want)
			_, _, err = ListSharded(index)
			wantMessage(t, err, tc.want)
		})
	}
}

// TestShardedIndexErrors: an index that cannot be read is one error line
// from every entry point, and a bare index of several tensors names them.
func TestShardedIndexErrors(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.index.json")
	os.WriteFile(dup, []byte(`{"weight_map": {"a": "s1.safetensors", "a": "s2.safetensors"}}`), 0o644)
	_, ok, err := OpenArchive(dup)
	if !ok {
		t.Error("a malformed index is not an archive")
	}
	wantMessage(t, err, `the index lists tensor "a" twice, in shards "s1.safetensors" and "s2.safetensors"`)
	_, err = Open(dup+":a", nil, npy.AccessAll)
	wantMessage(t, err, "twice")
	_, _, err = ListSharded(dup)
	wantMessage(t, err, "twice")

	_, ok, err = OpenArchive(filepath.Join(dir, "missing.index.json"))
	if !ok {
		t.Error("a missing index is not an archive")
	}
	wantMessage(t, err, "cannot open: no such file or directory")

	_, err = Open(filepath.Join(shardedFixtures, shardedIndexes[0]), nil, npy.AccessAll)
	wantMessage(t, err, "sharded checkpoint holds 11 tensors (embed.weight, head.weight, ")
	_, err = Open(filepath.Join(shardedFixtures, shardedIndexes[0])+":nope", nil, npy.AccessAll)
	wantMessage(t, err, `sharded checkpoint has no tensor named "nope"`)

	one := copyCheckpoint(t, map[string]string{"embed.weight": shard1, "position_ids": shard1})
	os.Remove(filepath.Join(filepath.Dir(one), shard2))
	writeIndex(t, one, map[string]string{"embed.weight": shard1, "position_ids": shard1})
	if _, err := Open(one+":embed.weight", nil, npy.AccessAll); err != nil {
		t.Error(err)
	}
	single := filepath.Join(filepath.Dir(one), "single.index.json")
	testkit.WriteSafetensorsNames(t, filepath.Join(filepath.Dir(one), "only.safetensors"), "w")
	writeIndex(t, single, map[string]string{"w": "only.safetensors"})
	if a, err := Open(single, nil, npy.AccessAll); err != nil || !slices.Equal(a.Shape, []int{1}) {
		t.Errorf("a bare index of one tensor: %v", err)
	}

	// A member of an archive that is named like an index is a member.
	npz := filepath.Join(dir, "a.npz")
	testkit.WriteZip(t, npz, testkit.Member{"x.index.json.npy", testkit.Int8Npy(t, 1, 2)})
	if a, err := Open(npz+":x.index.json", nil, npy.AccessAll); err != nil || !bytes.Equal(a.Data, []byte{1, 2}) {
		t.Errorf("member x.index.json of an .npz: %v", err)
	}
	if _, ok, _ := ListSharded(npz + ":x.index.json"); ok {
		t.Error("member x.index.json of an .npz listed as a sharded checkpoint")
	}
}
