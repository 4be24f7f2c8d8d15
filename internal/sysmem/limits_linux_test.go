package sysmem

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// writeTree writes files (path relative to root → content) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCgroupRoom(t *testing.T) {
	const gib = 1 << 30
	for _, c := range []struct {
		name   string
		proc   string
		files  map[string]string
		want   int64
		wantOK bool
	}{
		{"v1/container-root", "4:memory:/process_api/abc\n0::/\n", map[string]string{
			"memory/memory.limit_in_bytes": "2147483648\n",
			"memory/memory.usage_in_bytes": "1073741824\n",
			"memory/memory.stat":           "cache 5\ntotal_inactive_file 536870912\n",
		}, gib + gib/2, true},
		{"v1/unlimited", "4:memory:/\n", map[string]string{
			"memory/memory.limit_in_bytes": "9223372036854771712\n",
			"memory/memory.usage_in_bytes": "1073741824\n",
		}, 0, false},
		{"v1/joined-controllers/parent-tighter", "7:cpu,memory:/a/b\n", map[string]string{
			"memory/a/b/memory.limit_in_bytes": "4294967296\n",
			"memory/a/b/memory.usage_in_bytes": "1073741824\n",
			"memory/a/memory.limit_in_bytes":   "2147483648\n",
			"memory/a/memory.usage_in_bytes":   "1610612736\n",
		}, gib / 2, true},
		{"v2/nested", "0::/user/job\n", map[string]string{
			"user/job/memory.max":     "max\n",
			"user/job/memory.current": "100\n",
			"user/memory.max":         "1073741824\n",
			"user/memory.current":     "1073741824\n",
			"user/memory.stat":        "anon 1\ninactive_file 268435456\n",
		}, gib / 4, true},
		{"v2/hybrid-unified", "0::/x\n", map[string]string{
			"unified/x/memory.max":     "1000\n",
			"unified/x/memory.current": "4000\n",
		}, 0, true},
		{"none", "0::/\n", map[string]string{}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, c.files)
			got, ok := cgroupRoom(c.proc, root)
			if ok != c.wantOK || got != c.want {
				t.Fatalf("cgroupRoom = %d, %v; want %d, %v", got, ok, c.want, c.wantOK)
			}
		})
	}
}

func TestRlimitRoom(t *testing.T) {
	status := "Name:\tstrider\nVmSize:\t  1000 kB\nVmData:\t   200 kB\n"
	limits := func(as, data uint64) func(int) (uint64, bool) {
		return func(r int) (uint64, bool) {
			switch {
			case r == unix.RLIMIT_AS && as > 0:
				return as, true
			case r == unix.RLIMIT_DATA && data > 0:
				return data, true
			}
			return 0, false
		}
	}
	for _, c := range []struct {
		name     string
		as, data uint64
		want     int64
		ok       bool
	}{
		{"none", 0, 0, 0, false},
		{"as", 1000*1024 + 50, 0, 50, true},
		{"data", 0, 300 * 1024, 100 * 1024, true},
		{"both/data-tighter", 1 << 40, 201 * 1024, 1024, true},
		{"over", 10, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := rlimitRoom(status, limits(c.as, c.data))
			if ok != c.ok || got != c.want {
				t.Fatalf("rlimitRoom = %d, %v; want %d, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
