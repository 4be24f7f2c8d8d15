package formats

import (
	"encoding/binary"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// TestShardedRemote: an index and its shards served over HTTP (a loopback
// server that counts requests and bytes) read as the local files are; a
// tensor is read from its shard alone, shard names are resolved against
// the index's URL (its query dropped), and reading every tensor fetches no
// byte twice: each shard is one remote file, its header fetched once (a
// torch.save shard once whole). The same from a server without Range,
// which sends each file once, whole.
func TestShardedRemote(t *testing.T) {
	for _, noRange := range []bool{false, true} {
		t.Run(map[bool]string{false: "ranges", true: "no ranges"}[noRange], func(t *testing.T) {
			shardedRemote(t, noRange)
		})
	}
}

func shardedRemote(t *testing.T, noRange bool) {
	srv := testkit.NewServer(t)
	srv.NoRange(noRange)
	size := map[string]int64{} // each checkpoint's bytes: its index and shards
	for _, dir := range []string{"st", "pt"} {
		for _, p := range testkit.Glob(t, filepath.Join(shardedFixtures, dir, "*")) {
			b := testkit.ReadFile(t, p)
			srv.PutBytes("/repo/"+dir+"/"+filepath.Base(p), b)
			size[dir] += int64(len(b))
		}
	}
	ref, _, err := OpenArchive(filepath.Join(shardedFixtures, "reference.npz"))
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, name := range shardedIndexes {
		t.Run(name, func(t *testing.T) {
			local := filepath.Join(shardedFixtures, name)
			url := srv.URL + "/repo/" + name + "?download=true"
			want, _, err := ListSharded(local)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := ListSharded(url)
			if !ok || err != nil || len(got) != len(want) {
				t.Fatalf("ListSharded(%s): %d tensors, %v, %v", url, len(got), ok, err)
			}
			for i := range got {
				if got[i].Name != want[i].Name || got[i].Shard != want[i].Shard || !slices.Equal(got[i].Shape, want[i].Shape) {
					t.Errorf("tensor %d: %q in %q, want %q in %q", i, got[i].Name, got[i].Shard, want[i].Name, want[i].Shard)
				}
			}
			srv.Reset()
			a, err := Open(url+":embed.weight", nil, npy.AccessAll)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ref.Open("embed.weight", npy.AccessAll)
			if err != nil {
				t.Fatal(err)
			}
			sameArray(t, "embed.weight", a, r)
			a.Close()
			requests, _ := srv.Counts()
			for _, req := range requests {
				if !strings.HasSuffix(req.Path, ".index.json") && !strings.Contains(req.Path, "00001-of-00003") {
					t.Errorf("reading embed.weight (shard 1) asked for %s", req.Path)
				}
			}
			srv.Reset()
			ar, ok, err := OpenArchive(url)
			if !ok || err != nil {
				t.Fatalf("OpenArchive(%s): %v %v", url, ok, err)
			}
			defer ar.Close()
			for _, member := range ar.Names {
				got, err := ar.Open(member, npy.AccessAll)
				if err != nil {
					t.Fatalf("%s: %v", member, err)
				}
				r, err := ref.Open(member, npy.AccessAll)
				if err != nil {
					t.Fatal(err)
				}
				sameArray(t, member, got, r)
				got.Close()
			}
			requests, sent := srv.Counts()
			if dir := filepath.Dir(name); sent > size[dir] {
				t.Errorf("every tensor read: %d bytes in %d requests, more than the %d bytes of the index and its shards", sent, len(requests), size[dir])
			}
		})
	}
}

// TestShardedRemoteLazy: INDEX:NAME opened with npy.AccessFetch (show,
// slice) fetches the index and the shard's header, not the tensor: a
// 256 MiB float32 tensor of a remote shard costs a few KiB until the
// caller fetches the spans it reads.
func TestShardedRemoteLazy(t *testing.T) {
	const n = 64 << 20 // float32 elements
	header := `{"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[8192,8192],"data_offsets":[0,268435456]}}`
	header += strings.Repeat(" ", -len(header)&7)
	head := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	head = append(head, header...)
	srv := testkit.NewServer(t)
	srv.Put("/m/model-00001-of-00001.safetensors", testkit.Body{R: testkit.Sparse{Size: int64(len(head)) + 4*n, Patches: map[int64][]byte{0: head}}, Size: int64(len(head)) + 4*n})
	srv.PutBytes("/m/model.safetensors.index.json", []byte(`{"metadata": {"total_size": 268435456}, "weight_map": {"w": "model-00001-of-00001.safetensors"}}`))
	a, err := Open(srv.URL+"/m/model.safetensors.index.json:w", nil, npy.AccessFetch)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, sent := srv.Counts(); !a.Lazy() || sent > 64<<10 {
		t.Errorf("lazy %v, %d bytes fetched at Open", a.Lazy(), sent)
	}
	if err := a.Fetch([]npy.Span{{Off: 0, Len: 20}}); err != nil {
		t.Fatal(err)
	}
	if _, sent := srv.Counts(); sent > 1<<20 {
		t.Errorf("%d bytes fetched for 20", sent)
	}
}
