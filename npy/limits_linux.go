package npy

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// MemAvailable returns how many bytes a new allocation can get without
// swapping or the out-of-memory killer: /proc/meminfo's MemAvailable,
// lowered to what a cgroup v2 memory limit leaves. ok is false when the
// figure cannot be read.
func MemAvailable() (n int64, ok bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kb > math.MaxInt64/1024 {
				return 0, false
			}
			n, ok = kb*1024, true
			break
		}
	}
	if !ok {
		return 0, false
	}
	if lim, ok := cgroupRoom(); ok && lim < n {
		n = lim
	}
	return n, true
}

// cgroupRoom is memory.max less memory.current of this process's cgroup
// (v2), when there is a limit.
func cgroupRoom() (int64, bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	// v2: a single line "0::/path".
	var path string
	for _, line := range strings.Split(string(b), "\n") {
		if p, found := strings.CutPrefix(line, "0::"); found {
			path = p
		}
	}
	if path == "" {
		return 0, false
	}
	dir := "/sys/fs/cgroup" + path
	read := func(name string) (int64, bool) {
		b, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			return 0, false
		}
		v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		return v, err == nil // "max" fails to parse: no limit
	}
	max, ok := read("memory.max")
	if !ok {
		return 0, false
	}
	cur, ok := read("memory.current")
	if !ok {
		return 0, false
	}
	return max - min(cur, max), true
}

// FreeSpace returns the bytes a new file in dir can still take: the free
// blocks less those reserved for root, unless this process is root.
func FreeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	blocks := st.Bavail
	if os.Geteuid() == 0 {
		blocks = st.Bfree
	}
	if st.Bsize <= 0 || blocks > uint64(math.MaxInt64/st.Bsize) {
		return math.MaxInt64, true
	}
	return int64(blocks) * st.Bsize, true
}
