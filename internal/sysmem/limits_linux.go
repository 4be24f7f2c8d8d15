package sysmem

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// MemAvailable returns how many bytes a new allocation can get without
// swapping, the out-of-memory killer or a failed mmap: the least of
// /proc/meminfo's MemAvailable, the room a cgroup memory limit leaves (v2
// or v1, this process's group and every group above it), and the room
// RLIMIT_AS and RLIMIT_DATA leave. ok is false when no figure can be read.
func MemAvailable() (n int64, ok bool) {
	n, ok = meminfoAvailable("/proc/meminfo")
	cg, _ := os.ReadFile("/proc/self/cgroup")
	status, _ := os.ReadFile("/proc/self/status")
	for _, room := range []func() (int64, bool){
		func() (int64, bool) { return cgroupRoom(string(cg), "/sys/fs/cgroup") },
		func() (int64, bool) { return rlimitRoom(string(status), getrlimit) },
	} {
		if r, rok := room(); rok && (!ok || r < n) {
			n, ok = r, true
		}
	}
	return n, ok
}

// meminfoAvailable reads MemAvailable from a meminfo file.
func meminfoAvailable(file string) (int64, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if kb, found := kbField(s.Text(), "MemAvailable:"); found {
			return kb, kb >= 0
		}
	}
	return 0, false
}

// kbField parses a "Name:   1234 kB" line of /proc, in bytes; -1 when the
// number is bad or too large.
func kbField(line, name string) (int64, bool) {
	rest, found := strings.CutPrefix(line, name)
	if !found {
		return 0, false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return -1, true
	}
	kb, err := strconv.ParseInt(fields[0], 10, 64)
	if err != nil || kb < 0 || kb > math.MaxInt64/1024 {
		return -1, true
	}
	return kb * 1024, true
}

// noLimit is the smallest figure read as "no limit": cgroup v1 writes an
// unlimited group as the largest page multiple below 2^63.
const noLimit = 1 << 62

// cgroupRoom is the least room left under a memory limit of this
// process's cgroup or of any group above it, v2 ("0::/path" in
// /proc/self/cgroup, memory.max) or v1 ("N:...memory...:/path",
// memory.limit_in_bytes), read below root (/sys/fs/cgroup). The memory a
// group uses is counted without its inactive file pages, which the kernel
// reclaims before it kills: otherwise reading a large file would fill the
// group with page cache and every later allocation would be refused.
func cgroupRoom(procCgroup, root string) (int64, bool) {
	var best int64
	found := false
	consider := func(r int64, ok bool) {
		if ok && (!found || r < best) {
			best, found = r, true
		}
	}
	for _, line := range strings.Split(procCgroup, "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			consider(groupRoom(path.Join(root, "unified"), parts[2], "memory.max", "memory.current", "inactive_file"))
			consider(groupRoom(root, parts[2], "memory.max", "memory.current", "inactive_file"))
		case hasController(parts[1], "memory"):
			// A group's own limit applies to its descendants, and
			// memory.stat's hierarchical_memory_limit folds in the groups
			// above: both are walked.
			consider(groupRoom(path.Join(root, "memory"), parts[2], "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"))
		}
	}
	return best, found
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// groupRoom walks from the group at rel (below mount) up to the mount's
// root and returns the least limit less usage found. Inside a container
// the mount's root is often the container's own group while
// /proc/self/cgroup still names the host's path: a path that is not there
// is skipped, and the root is always read.
func groupRoom(mount, rel, limitFile, usageFile, inactiveKey string) (int64, bool) {
	var best int64
	found := false
	for p := path.Clean("/" + rel); ; p = path.Dir(p) {
		dir := path.Join(mount, p)
		if limit, ok := readCgroupInt(path.Join(dir, limitFile)); ok && limit < noLimit {
			if usage, ok := readCgroupInt(path.Join(dir, usageFile)); ok {
				usage -= min(usage, statField(path.Join(dir, "memory.stat"), inactiveKey))
				if r := limit - min(usage, limit); !found || r < best {
					best, found = r, true
				}
			}
		}
		if p == "/" {
			return best, found
		}
	}
}

// readCgroupInt reads a file holding one number; "max" (no limit) and
// anything unreadable give ok false.
func readCgroupInt(file string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	return v, err == nil && v >= 0
}

// statField is one "key value" line of a memory.stat file, 0 when absent.
func statField(file, key string) int64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, found := strings.CutPrefix(line, key+" "); found {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err == nil && n >= 0 {
				return n
			}
		}
	}
	return 0
}

// getrlimit is the soft limit of a resource; ok is false when unlimited.
func getrlimit(resource int) (uint64, bool) {
	var r unix.Rlimit
	if err := unix.Getrlimit(resource, &r); err != nil || r.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return r.Cur, true
}

// rlimitRoom is the room left under RLIMIT_AS (all address space: VmSize
// in /proc/self/status) and RLIMIT_DATA (private writable memory, the
// heap among it: VmData), the lesser of the two. A process over either
// gets a failed mmap, which the Go runtime turns into a fatal error.
func rlimitRoom(status string, limit func(resource int) (uint64, bool)) (int64, bool) {
	var best int64
	found := false
	for _, l := range []struct {
		resource int
		field    string
	}{{unix.RLIMIT_AS, "VmSize:"}, {unix.RLIMIT_DATA, "VmData:"}} {
		lim, ok := limit(l.resource)
		if !ok {
			continue
		}
		used := int64(-1)
		for _, line := range strings.Split(status, "\n") {
			if v, found := kbField(line, l.field); found {
				used = v
			}
		}
		if used < 0 {
			continue
		}
		r := int64(0)
		if lim > uint64(used) {
			r = int64(min(lim-uint64(used), math.MaxInt64))
		}
		if !found || r < best {
			best, found = r, true
		}
	}
	return best, found
}

// FreeSpace returns the bytes a new file in dir can still take: the free
// blocks less those reserved for root, unless this process is root.
func FreeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return freeBytes(st.Bavail, st.Bfree, st.Bsize), true
}
