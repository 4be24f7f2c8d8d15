package output

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strider/formats/npy"
)

func TestSplitMemberOutput(t *testing.T) {
	for _, c := range []struct {
		path, archive, member string
		ok                    bool
	}{
		{"out.npz:x", "out.npz", "x", true},
		{"OUT.NPZ:x", "OUT.NPZ", "x", true},
		{"out.npz:layer.0/weight", "out.npz", "layer.0/weight", true},
		{"out.npz:a:b", "out.npz", "a:b", true}, // checkMemberName refuses it
		{"a.npz:b.npz:c", "a.npz", "b.npz:c", true},
		{"a:b.npz:x", "a:b.npz", "x", true},
		{"dir/out.npz:", "dir/out.npz", "", true},
		{"out.npz", "", "", false},
		{"out.npy:x", "", "", false},
		{"/dev/stdout:x", "", "", false},
		{`C:\out.npy`, "", "", false},
	} {
		archive, member, ok := splitMemberOutput(c.path)
		if archive != c.archive || member != c.member || ok != c.ok {
			t.Errorf("splitMemberOutput(%q) = %q, %q, %v; want %q, %q, %v", c.path, archive, member, ok, c.archive, c.member, c.ok)
		}
	}
}

func TestCheckMemberName(t *testing.T) {
	for _, name := range []string{"x", "layer.0/weight", "é/z", "a b", "..x", "x..", ".hidden", "a.b/c.d", strings.Repeat("n", npy.ZipNameMax-4)} {
		if err := checkMemberName(name); err != nil {
			t.Errorf("%.40q: %v", name, err)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"", "no member name"},
		{"../x", `"../x" has a ".." component`},
		{"a/../../x", `has a ".." component`},
		{"..", `has a ".." component`},
		{".", `has a "." component`},
		{"a/./b", `has a "." component`},
		{"/abs", "is an absolute path"},
		{"//x", "is an absolute path"},
		{`..\x`, `"..\x" holds a backslash`},
		{"a\x00b", `"a\x00b" holds a control character`},
		{"a\tb", `"a\tb" holds a control character`},
		{"a\x1bb", `"a\x1bb" holds a control character`},
		{"a\u009bb", `"a\u009bb" holds a control character`},
		{"a\xc3", `"a\xc3" is not UTF-8`},
		{"a//b", "empty folder component"},
		{"a/", "empty folder component"},
		{"a:b", "holds a ':'"},
		{strings.Repeat("n", npy.ZipNameMax-3), "more than a zip entry name may be"},
	} {
		err := checkMemberName(c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestLockBeside: a lock is taken, refused a second time from the same
// process (where it would wait forever), and let go with its lock file
// removed.
func TestLockBeside(t *testing.T) {
	if !canLock {
		t.Skip("no file locks here")
	}
	target := filepath.Join(t.TempDir(), "res.npz")
	l, err := lockBeside(target)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lockPath(target)); err != nil {
		t.Fatalf("no lock file while held: %v", err)
	}
	if _, err := lockBeside(target); err == nil || !strings.Contains(err.Error(), "already writes to it") {
		t.Fatalf("a second lock from this process: %v", err)
	}
	l.unlock()
	if _, err := os.Stat(lockPath(target)); removeLockFile && err == nil {
		t.Fatal("the lock file stays after unlock")
	}
	l, err = lockBeside(target)
	if err != nil {
		t.Fatal(err)
	}
	l.unlock()
}

func TestLockPath(t *testing.T) {
	if got := lockPath(filepath.Join("d", "res.npz")); got != filepath.Join("d", ".res.npz.strider-lock") {
		t.Errorf("lockPath = %q", got)
	}
	long := strings.Repeat("n", 250) + ".npz"
	got := filepath.Base(lockPath(long))
	if len(got) > 255 || !strings.HasPrefix(got, tempPrefix) || got != filepath.Base(lockPath(long)) {
		t.Errorf("lockPath of a %d-byte name = %q", len(long), got)
	}
}

// lockHolderEnv names the target a helper process locks (see
// TestLockHolderProcess).
const lockHolderEnv = "STRIDER_TEST_LOCK_HOLDER"

// TestLockHolderProcess is the helper of TestLockWaits: it locks the target
// named in the environment, says "locked", and lets go when a line comes on
// standard input (or never, until killed).
func TestLockHolderProcess(t *testing.T) {
	target := os.Getenv(lockHolderEnv)
	if target == "" {
		t.Skip("helper process of TestLockWaits")
	}
	l, err := lockBeside(target)
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	l.unlock()
	os.Stdout.WriteString("unlocked\n")
}

// TestLockWaits: a lock held by another process is waited for, and taken
// when that process lets go (removing the lock file the waiter may have
// opened, so the waiter must take the new one) or is killed with SIGKILL,
// which leaves the lock file but not the lock.
func TestLockWaits(t *testing.T) {
	if !canLock {
		t.Skip("no file locks here")
	}
	for _, kill := range []bool{false, true} {
		target := filepath.Join(t.TempDir(), "res.npz")
		holder := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
		holder.Env = append(os.Environ(), lockHolderEnv+"="+target)
		stdin, err := holder.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := holder.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := holder.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { holder.Process.Kill(); holder.Wait() })
		lines := bufio.NewReader(stdout)
		if line, err := lines.ReadString('\n'); line != "locked\n" {
			t.Fatalf("helper: %q %v", line, err)
		}
		got := make(chan *fileLock, 1)
		go func() {
			l, err := lockBeside(target)
			if err != nil {
				t.Error(err)
			}
			got <- l
		}()
		select {
		case <-got:
			t.Fatal("the lock was taken while another process held it")
		case <-time.After(300 * time.Millisecond):
		}
		if kill {
			holder.Process.Kill()
		} else {
			stdin.Write([]byte("\n"))
		}
		var l *fileLock
		select {
		case l = <-got:
		case <-time.After(30 * time.Second):
			t.Fatalf("kill %v: the lock was not taken once its holder let go", kill)
		}
		if l == nil {
			t.FailNow()
		}
		// The lock held is on the file now at the lock path.
		fi, err := l.f.Stat()
		now, serr := os.Stat(lockPath(target))
		if err != nil || serr != nil || !os.SameFile(fi, now) {
			t.Fatalf("kill %v: the lock held is not the lock file's (%v, %v)", kill, err, serr)
		}
		l.unlock()
		if _, err := os.Stat(lockPath(target)); removeLockFile && err == nil {
			t.Fatalf("kill %v: the lock file stays after unlock", kill)
		}
	}
}
