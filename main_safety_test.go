//go:build linux

package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Output safety (issue 13) and pipelines (issue 15, item 1): -o behaves
// like a shell's ">" and numpy.save. Each test runs the built binary, as
// root and as an unprivileged user where that matters.

const safetyEx = "testdata/example_f4_2x3x4_c.npy"

// safetyUser is an unprivileged user to run strider as: strider's own user
// when the tests do not run as root, else nobody through setpriv, with a
// copy of the binary every user can run. It skips, saying SKIPPED, when
// neither is possible.
type safetyUser struct {
	uid, gid int
	bin      string
	setpriv  string // "" when the tests already run unprivileged
}

func newSafetyUser(t *testing.T) safetyUser {
	t.Helper()
	if os.Geteuid() != 0 {
		return safetyUser{uid: os.Geteuid(), gid: os.Getegid(), bin: strider}
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skipf("SKIPPED: running as root without setpriv, so no unprivileged user to run as: %v", err)
	}
	out, err := exec.Command("id", "-u", "nobody").Output()
	if err != nil {
		t.Skipf("SKIPPED: running as root and there is no user nobody: %v", err)
	}
	var uid int
	fmt.Sscan(string(out), &uid)
	out, err = exec.Command("id", "-g", "nobody").Output()
	if err != nil {
		t.Skipf("SKIPPED: no group for nobody: %v", err)
	}
	var gid int
	fmt.Sscan(string(out), &gid)
	dir := safetyOpenDir(t, 0o755)
	bin := filepath.Join(dir, "strider")
	if err := os.WriteFile(bin, readFile(t, strider), 0o755); err != nil {
		t.Fatal(err)
	}
	return safetyUser{uid: uid, gid: gid, bin: bin, setpriv: setpriv}
}

// command runs name (strider when name is "") with args as the user.
func (u safetyUser) command(name string, args ...string) *exec.Cmd {
	if name == "" {
		name = u.bin
	}
	if u.setpriv == "" {
		return exec.Command(name, args...)
	}
	return exec.Command(u.setpriv, append([]string{"--reuid", fmt.Sprint(u.uid), "--regid", fmt.Sprint(u.gid), "--clear-groups", "--", name}, args...)...)
}

// run runs the command and returns its status and standard error.
func safetyRun(t *testing.T, c *exec.Cmd) (int, string) {
	t.Helper()
	var errb bytes.Buffer
	c.Stderr = &errb
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errb.String()
	} else if err != nil {
		t.Fatalf("%v: %v", c.Args, err)
	}
	return 0, errb.String()
}

// safetyOpenDir is a new folder with the given mode whatever the umask,
// in a folder other users can reach (t.TempDir's parent is private).
func safetyOpenDir(t *testing.T, mode os.FileMode) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "strider-safety-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readableExample is a copy of the example input that another user can
// read: the checkout itself may be in a folder only its owner can enter
// (CI clones into /root).
func readableExample(t *testing.T) string {
	t.Helper()
	p := filepath.Join(safetyOpenDir(t, 0o755), filepath.Base(safetyEx))
	if err := os.WriteFile(p, readFile(t, safetyEx), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// safetyNoTemps fails when a temporary file of strider's is in dir.
func safetyNoTemps(t *testing.T, dir string) {
	t.Helper()
	for _, n := range faultNames(t, dir) {
		if strings.Contains(n, ".strider-") {
			t.Fatalf("temporary file left in %s: %s", dir, n)
		}
	}
}

// shellRefuses reports whether `: > path` fails for the user, with what
// the shell said.
func shellRefuses(t *testing.T, u *safetyUser, path string) (bool, string) {
	t.Helper()
	var c *exec.Cmd
	if u == nil {
		c = exec.Command("sh", "-c", `: > "$0"`, path)
	} else {
		c = u.command("sh", "-c", `: > "$0"`, path)
	}
	code, stderr := safetyRun(t, c)
	return code != 0, stderr
}

// TestSafetyPermissions (issue 13, item 1): a target the user may not
// write is refused with "permission denied", as ">" refuses it, even when
// the folder is writable; root writes it, as ">" does.
func TestSafetyPermissions(t *testing.T) {
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	t.Run("root", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("SKIPPED: not running as root")
		}
		dir := t.TempDir()
		out := filepath.Join(dir, "out.npy")
		os.WriteFile(out, []byte("previous"), 0o444)
		if refused, _ := shellRefuses(t, nil, filepath.Join(dir, "probe")); refused {
			t.Fatal("the shell cannot write here")
		}
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatalf("root could not replace a 0444 file, which > can: %s", r.stderr)
		}
		if !bytes.Equal(readFile(t, out), want) {
			t.Fatal("wrong result")
		}
	})
	t.Run("unprivileged", func(t *testing.T) {
		u := newSafetyUser(t)
		dir := safetyOpenDir(t, 0o777)
		cases := []struct {
			name  string
			mode  os.FileMode
			owner int // -1: the user
		}{
			{"write-protected", 0o444, -1},
			{"another user's", 0o644, 0},
		}
		for _, c := range cases {
			out := filepath.Join(dir, c.name+".npy")
			os.WriteFile(out, []byte("previous"), c.mode)
			os.Chmod(out, c.mode)
			owner := c.owner
			if owner < 0 {
				owner = u.uid
			}
			if os.Geteuid() == 0 {
				os.Chown(out, owner, u.gid)
			} else if owner != u.uid {
				continue // no other user's file can be made without root
			}
			if refused, _ := shellRefuses(t, &u, out); !refused {
				t.Fatalf("%s: the shell's > writes it", c.name)
			}
			code, stderr := safetyRun(t, u.command("", "transpose", readableExample(t), "-o", out))
			faultOneLine(t, code, stderr, "transpose", "permission denied")
			if got := string(readFile(t, out)); got != "previous" {
				t.Fatalf("%s: the file changed", c.name)
			}
			safetyNoTemps(t, dir)
		}
	})
}

func wd(t *testing.T) string {
	t.Helper()
	d, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSafetyKeepsMode (issue 13, item 2): a replaced file keeps its mode,
// and as root its owner and group, as after ">"; a new file gets 0666 less
// the umask.
func TestSafetyKeepsMode(t *testing.T) {
	check := func(t *testing.T, u *safetyUser, dir string, mode os.FileMode, uid, gid int) {
		t.Helper()
		out := filepath.Join(dir, fmt.Sprintf("secret%o.npy", mode))
		os.WriteFile(out, []byte("previous"), mode)
		os.Chmod(out, mode)
		if os.Geteuid() == 0 {
			os.Chown(out, uid, gid)
		}
		var c *exec.Cmd
		if u == nil {
			c = striderCommand(t, "transpose", safetyEx, "-o", out)
		} else {
			c = u.command("", "transpose", readableExample(t), "-o", out)
		}
		if code, stderr := safetyRun(t, c); code != 0 {
			t.Fatalf("exit %d %s", code, stderr)
		}
		fi, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm() != mode || int(st.Uid) != uid || int(st.Gid) != gid {
			t.Fatalf("replaced file is %v %d:%d, want %v %d:%d", fi.Mode().Perm(), st.Uid, st.Gid, mode, uid, gid)
		}
	}
	t.Run("as strider's user", func(t *testing.T) {
		dir := t.TempDir()
		for _, m := range []os.FileMode{0o600, 0o640, 0o755} {
			check(t, nil, dir, m, os.Geteuid(), os.Getegid())
		}
		if os.Geteuid() == 0 {
			// Root replacing another user's file keeps its owner.
			check(t, nil, dir, 0o600, 65534, 65534)
		}
		// A new file: 0666 less the umask.
		out := filepath.Join(dir, "new.npy")
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatal(string(r.stderr))
		}
		old := syscall.Umask(0)
		syscall.Umask(old)
		if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o666&^os.FileMode(old) {
			t.Fatalf("new file mode %v with umask %o", fi.Mode().Perm(), old)
		}
	})
	t.Run("unprivileged", func(t *testing.T) {
		u := newSafetyUser(t)
		dir := safetyOpenDir(t, 0o777)
		check(t, &u, dir, 0o600, u.uid, u.gid)
		check(t, &u, dir, 0o640, u.uid, u.gid)
	})
}

// TestSafetySymlinks (issue 13, item 3): the target is opened as given, so
// the kernel decides whether a link may be followed (fs.protected_symlinks:
// root writing through another user's link in a sticky world-writable
// folder), as it does for ">". Whatever the setting, strider does what ">"
// does; a link that may be followed keeps pointing at the replaced file.
func TestSafetySymlinks(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: needs root to own the folder and give the link to another user")
	}
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	sticky := safetyOpenDir(t, 0o777|os.ModeSticky)
	victim := filepath.Join(t.TempDir(), "victim.npy")
	for _, dangling := range []bool{false, true} {
		os.Remove(victim)
		if !dangling {
			os.WriteFile(victim, []byte("previous"), 0o644)
		}
		link := filepath.Join(sticky, fmt.Sprintf("link%v.npy", dangling))
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(link, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		refused, shellSaid := shellRefuses(t, nil, link)
		os.Remove(victim)
		if !dangling {
			os.WriteFile(victim, []byte("previous"), 0o644)
		}
		r := run(t, nil, "transpose", safetyEx, "-o", link)
		protected := strings.TrimSpace(string(readFileOr(t, "/proc/sys/fs/protected_symlinks")))
		switch {
		case refused:
			faultOneLine(t, r.code, string(r.stderr), "transpose", "permission denied")
			got, err := os.ReadFile(victim)
			if dangling && err == nil || !dangling && string(got) != "previous" {
				t.Fatalf("the link's target changed (dangling %v)", dangling)
			}
		case protected == "1":
			t.Fatalf("fs.protected_symlinks is 1 but > wrote through the link")
		default:
			t.Logf("SKIPPED the refusal check: fs.protected_symlinks is %q here, so > follows the link (%s)", protected, shellSaid)
			if r.code != 0 {
				t.Fatalf("> follows the link and strider refuses: %s", r.stderr)
			}
			if !bytes.Equal(readFile(t, victim), want) {
				t.Fatal("the file the link names does not hold the result")
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link was replaced")
			}
		}
		safetyNoTemps(t, sticky)
		safetyNoTemps(t, filepath.Dir(victim))
	}
}

func readFileOr(t *testing.T, path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// safetyFill writes a .npy of the descr and shape whose data byte i is
// at(i), a MiB at a time: a large slice in the test process would raise
// the peak RSS its later children report (main_size_test.go measures it).
func safetyFill(t *testing.T, path, descr string, shape []int, at func(chunk []byte, off int64)) {
	t.Helper()
	off := faultNpy(t, path, descr, shape, nil)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for pos := off; pos < fi.Size(); pos += int64(len(chunk)) {
		b := chunk[:min(int64(len(chunk)), fi.Size()-pos)]
		at(b, pos-off)
		if _, err := f.WriteAt(b, pos); err != nil {
			t.Fatal(err)
		}
	}
}

// safetyRandom writes a .npy of n random float64s.
func safetyRandom(t *testing.T, path string, n int) {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	safetyFill(t, path, "<f8", []int{n}, func(b []byte, _ int64) {
		for i := 0; i+8 <= len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], math.Float64bits(rng.NormFloat64()))
		}
	})
}

// TestSafetySortBoth (issue 13, item 4): when the second of sort's outputs
// cannot be renamed into place, the first is put back: both are replaced
// or neither, and the message names no temporary file (item 10).
func TestSafetySortBoth(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts 4M elements")
	}
	src := t.TempDir()
	in := filepath.Join(src, "in.npy")
	safetyRandom(t, in, 1<<22)
	for attempt := 0; ; attempt++ {
		dir := t.TempDir()
		vals, idx := filepath.Join(dir, "vals.npy"), filepath.Join(dir, "idx.npy")
		os.WriteFile(vals, []byte("previous values"), 0o644)
		os.WriteFile(idx, []byte("previous indices"), 0o644)
		cmd := striderCommand(t, "sort", "--threads", "1", in, "-o", vals, "--indices", idx)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(time.Millisecond) {
			n := 0
			for _, name := range faultNames(t, dir) {
				if strings.Contains(name, ".strider-") {
					n++
				}
			}
			if n == 2 {
				break
			}
		}
		// The indices' target becomes a folder that is not empty: a
		// rename cannot replace it.
		os.Remove(idx)
		os.Mkdir(idx, 0o755)
		os.WriteFile(filepath.Join(idx, "x"), nil, 0o644)
		cmd.Wait()
		code := cmd.ProcessState.ExitCode()
		if code == 0 && attempt < 3 {
			continue // the sort finished before the swap
		}
		faultOneLine(t, code, errb.String(), "sort", "cannot write "+idx)
		if strings.Contains(errb.String(), ".strider-") {
			t.Fatalf("the message names a temporary file: %s", errb.String())
		}
		if got := string(readFile(t, vals)); got != "previous values" {
			t.Fatalf("the values were replaced although the indices failed: %.20q", got)
		}
		faultWantNames(t, dir, "idx.npy", "vals.npy")
		break
	}
	// Both succeed: both replaced, nothing left behind.
	dir := t.TempDir()
	vals, idx := filepath.Join(dir, "vals.npy"), filepath.Join(dir, "idx.npy")
	os.WriteFile(vals, []byte("previous values"), 0o644)
	if r := run(t, nil, "sort", safetyEx, "-o", vals, "--indices", idx); r.code != 0 {
		t.Fatal(string(r.stderr))
	}
	if !bytes.Equal(readFile(t, vals), run(t, nil, "sort", safetyEx, "-o", "-").stdout) ||
		!bytes.Equal(readFile(t, idx), run(t, nil, "sort", "--argsort", safetyEx, "-o", "-").stdout) {
		t.Fatal("wrong results")
	}
	faultWantNames(t, dir, "idx.npy", "vals.npy")
}

// safetyZip writes an archive of the named members, in order, stored.
func safetyZip(t *testing.T, path string, members ...struct {
	name string
	data []byte
}) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

type safetyMember = struct {
	name string
	data []byte
}

// safetyNpy is a .npy of int8 values.
func safetyNpy(t *testing.T, vals ...byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.npy")
	faultNpy(t, path, "|i1", []int{len(vals)}, vals)
	return readFile(t, path)
}

// TestSafetyNpzDuplicates (issue 13, item 5): of several members with one
// name, strider reads the one np.load reads: the last. A member named
// exactly NAME is read before NAME.npy, as np.load does. Real NumPy is
// asked too, when it is installed.
func TestSafetyNpzDuplicates(t *testing.T) {
	dir := t.TempDir()
	arc := filepath.Join(dir, "dup.npz")
	safetyZip(t, arc,
		safetyMember{"a.npy", safetyNpy(t, 1, 1)},
		safetyMember{"b.npy", safetyNpy(t, 7)},
		safetyMember{"a.npy", safetyNpy(t, 2, 2, 2)},
		safetyMember{"c", safetyNpy(t, 3)},
		safetyMember{"c.npy", safetyNpy(t, 4)},
	)
	cases := []struct {
		member string
		want   []byte
	}{{"a", safetyNpy(t, 2, 2, 2)}, {"c", safetyNpy(t, 3)}, {"c.npy", safetyNpy(t, 4)}, {"b", safetyNpy(t, 7)}}
	for _, c := range cases {
		r := run(t, nil, "transpose", arc+":"+c.member, "-o", "-")
		if r.code != 0 || !bytes.Equal(r.stdout, c.want) {
			t.Fatalf("%s: exit %d %s: got %d bytes, want the last member's", c.member, r.code, r.stderr, len(r.stdout))
		}
	}
	py := "/usr/bin/python3"
	if _, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Logf("SKIPPED the check against np.load: no NumPy under %s", py)
		return
	}
	out, err := exec.Command(py, "-c", `import sys, warnings, numpy as np
warnings.simplefilter("ignore")
z = np.load(sys.argv[1])
print(z["a"].tolist(), z["c"].tolist(), z["c.npy"].tolist(), z["b"].tolist())`, arc).CombinedOutput()
	if err != nil {
		t.Fatalf("np.load: %v %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "[2, 2, 2] [3] [4] [7]" {
		t.Fatalf("np.load reads %s, not what strider reads", got)
	}
}

// TestSafetyTrailingOption (issue 13, item 6): -o or --indices with no
// value is a usage error, and writes nothing (no file named "--").
func TestSafetyTrailingOption(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join(wd(t), safetyEx)
	for _, args := range [][]string{
		{"transpose", ex, "-o"},
		{"transpose", ex, "--output"},
		{"sort", ex, "-o", filepath.Join(dir, "v.npy"), "--indices"},
		{"tril-indices", "3", "--offset"},
	} {
		c := striderCommand(t, args...)
		c.Dir = dir
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		c.Run()
		wantError(t, result{c.ProcessState.ExitCode(), out.Bytes(), errb.Bytes()}, args[0])
		if !strings.Contains(errb.String(), "needs a value") && !strings.Contains(errb.String(), "needs an argument") {
			t.Fatalf("%v: %s", args, errb.String())
		}
		faultWantNames(t, dir)
	}
}

// TestSafetyStdoutPaths (issue 13, item 7): -o /dev/stdout, /dev/fd/1 and
// /proc/self/fd/1 write to standard output whether it is a pipe or a
// file, with no disk space check.
func TestSafetyStdoutPaths(t *testing.T) {
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	for _, p := range []string{"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"} {
		if _, err := os.Stat(p); err != nil {
			t.Logf("SKIPPED %s: %v", p, err)
			continue
		}
		r := run(t, nil, "transpose", safetyEx, "-o", p) // a pipe
		if r.code != 0 || !bytes.Equal(r.stdout, want) {
			t.Fatalf("%s on a pipe: exit %d %s", p, r.code, r.stderr)
		}
		out := filepath.Join(t.TempDir(), "out.npy")
		code, stderr := faultShell(t, `"$S" transpose `+safetyEx+` -o `+p+` > `+out)
		if code != 0 || !bytes.Equal(readFile(t, out), want) {
			t.Fatalf("%s on a file: exit %d %s", p, code, stderr)
		}
		safetyNoTemps(t, filepath.Dir(out))
	}
}

// TestSafetyLongNames (issue 13, item 8): a target name up to the file
// system's limit (255 bytes) is written as NumPy writes it; one byte more
// fails as ">" fails.
func TestSafetyLongNames(t *testing.T) {
	dir := t.TempDir()
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	for _, n := range []int{231, 232, 240, 255} {
		out := filepath.Join(dir, strings.Repeat("x", n-4)+".npy")
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatalf("%d-byte name: %s", n, r.stderr)
		}
		if !bytes.Equal(readFile(t, out), want) {
			t.Fatal("wrong result")
		}
		// And replacing it.
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatalf("%d-byte name, replaced: %s", n, r.stderr)
		}
		os.Remove(out)
	}
	faultWantNames(t, dir)
	r := run(t, nil, "transpose", safetyEx, "-o", filepath.Join(dir, strings.Repeat("x", 252)+".npy"))
	faultOneLine(t, r.code, string(r.stderr), "transpose", "file name too long")
	faultWantNames(t, dir)
}

// safetyPipe runs strider with standard output read by the test, and
// returns the SHA-256 of what came, its length and strider's peak resident
// memory in bytes.
func safetyPipe(t *testing.T, args ...string) ([32]byte, int64, int64) {
	t.Helper()
	c, peak := peakCommand(t, args...)
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	c.Stderr = &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	n, _ := io.Copy(h, stdout)
	if err := c.Wait(); err != nil {
		t.Fatalf("%v: %v %s", args, err, errb.String())
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, n, peak()
}

func safetyFileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// TestSafetyStreamBounded (issue 13, item 9): a result for a pipe is
// computed and written in pieces, so strider's memory stays far below the
// result's size (1 GiB of tril-indices in under 400 MiB), and the bytes
// equal those of the file output; so do a transpose, a slice and a gather
// of 300 MB (two pieces each), a small gather along axis 1 and a diagonal.
func TestSafetyStreamBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1 GiB")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.npy")
	args := []string{"tril-indices", "16384", "--dtype", "int32"}
	sum, n, rss := safetyPipe(t, args...)
	if n < 1<<30 {
		t.Fatalf("only %d bytes", n)
	}
	if rss > 400<<20 {
		t.Fatalf("peak memory %d MiB for a %d MiB result on a pipe", rss>>20, n>>20)
	}
	if r := run(t, nil, append(args, "-o", out)...); r.code != 0 {
		t.Fatal(string(r.stderr))
	}
	if safetyFileSum(t, out) != sum {
		t.Fatal("the streamed result differs from the file")
	}
	os.Remove(out)
	t.Logf("tril-indices: %d MiB streamed with a peak of %d MiB", n>>20, rss>>20)

	in := filepath.Join(dir, "in.npy")
	const rows, cols = 20000, 15000
	safetyFill(t, in, "|u1", []int{rows, cols}, func(b []byte, off int64) {
		for j := range b {
			i := int(off) + j
			b[j] = byte(i*7 + i/cols)
		}
	})
	idx := filepath.Join(dir, "idx.npy")
	order := make([]byte, 8*rows)
	for i := 0; i < rows; i++ {
		binary.LittleEndian.PutUint64(order[8*i:], uint64((i*7919)%rows))
	}
	faultNpy(t, idx, "<i8", []int{rows}, order)
	for _, a := range [][]string{
		{"transpose", in},
		{"slice", in, "::-1, 1::2"},
		{"gather", in, "--indices", idx, "--axis", "0"},
		{"gather", in, "--index", "[14999, 0, 7]", "--axis", "1"},
		{"diagonal", in, "--offset", "-3"},
	} {
		sum, _, _ := safetyPipe(t, a...)
		if r := run(t, nil, append(a, "-o", out)...); r.code != 0 {
			t.Fatal(string(r.stderr))
		}
		if safetyFileSum(t, out) != sum {
			t.Fatalf("%v: the streamed result differs from the file", a)
		}
	}
}

// TestSafetyMessages (issue 13, item 10): an error line quotes at most
// about 1 KiB (the first and last part of a long value), an .npz of 20,000
// members lists a few of them, empty items in --axes are refused, a descr
// written as bytes is refused as NumPy refuses it, and info --json keeps a
// path that is not UTF-8 recoverable in path_escaped.
func TestSafetyMessages(t *testing.T) {
	dir := t.TempDir()
	long := "[" + strings.Repeat("1, ", 20000) + "x]"
	r := run(t, nil, "gather", safetyEx, "--index", long)
	wantError(t, r, "gather")
	if len(r.stderr) > 1100 || !strings.Contains(string(r.stderr), " ... ") {
		t.Fatalf("a %d-byte line: %.200q", len(r.stderr), r.stderr)
	}

	arc := filepath.Join(dir, "many.npz")
	members := make([]safetyMember, 20000)
	one := safetyNpy(t, 1)
	for i := range members {
		members[i] = safetyMember{fmt.Sprintf("m%05d.npy", i), one}
	}
	safetyZip(t, arc, members...)
	r = run(t, nil, "info", arc+":nosuch")
	wantError(t, r, "info")
	if len(r.stderr) > 400 || !strings.Contains(string(r.stderr), "20000 arrays: m00000,") || !strings.Contains(string(r.stderr), "m19999") {
		t.Fatalf("a %d-byte line: %.300q", len(r.stderr), r.stderr)
	}

	for _, axes := range []string{"2,,1,0", ",1,0,2", "1,0,,"} {
		wantError(t, run(t, nil, "transpose", safetyEx, "--axes", axes, "-o", "-"), "transpose")
	}
	if r := run(t, nil, "transpose", safetyEx, "--axes", "(2,1,0,)", "-o", "-"); r.code != 0 {
		t.Fatalf("a trailing comma: %s", r.stderr)
	}

	b := filepath.Join(dir, "bytes.npy")
	hdr := "{'descr': b'<f4', 'fortran_order': False, 'shape': (2,), }"
	hdr += strings.Repeat(" ", 128-10-len(hdr)-1) + "\n"
	os.WriteFile(b, append(append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), 0), append([]byte(hdr), make([]byte, 8)...)...), 0o644)
	r = run(t, nil, "info", b)
	faultOneLine(t, r.code, string(r.stderr), "info", "descr b'<f4' is bytes")
	if out, err := exec.Command("/usr/bin/python3", "-c", "import sys, numpy as np; np.load(sys.argv[1])", b).CombinedOutput(); err == nil {
		t.Fatal("NumPy reads the bytes descr that strider refuses")
	} else if !strings.Contains(string(out), "descr is not a valid dtype descriptor") && !strings.Contains(string(out), "No module named") {
		t.Fatalf("NumPy fails otherwise: %s", out)
	}

	odd := filepath.Join(dir, "a\xff\xfe\xc3\xa9.npy")
	os.WriteFile(odd, readFile(t, safetyEx), 0o644)
	r = run(t, nil, "info", "--json", odd)
	if r.code != 0 {
		t.Fatal(string(r.stderr))
	}
	if !bytes.Contains(r.stdout, []byte(`"path_escaped":"`+dir+`/a\udcff\udcfeé.npy"`)) {
		t.Fatalf("no path_escaped in %s", r.stdout)
	}
	py := exec.Command("/usr/bin/python3", "-c", `import sys, json, os
r = json.loads(sys.stdin.read())
sys.stdout.buffer.write(os.fsencode(r["path_escaped"]))`)
	py.Stdin = bytes.NewReader(r.stdout)
	out, err := py.Output()
	if err == nil {
		if string(out) != odd {
			t.Fatalf("Python recovers %q, not %q", out, odd)
		}
	} else {
		t.Logf("SKIPPED the check with Python's os.fsencode: %v", err)
	}
	// A path that is UTF-8 has no path_escaped.
	if r := run(t, nil, "info", "--json", safetyEx); bytes.Contains(r.stdout, []byte("path_escaped")) {
		t.Fatalf("path_escaped for a UTF-8 path: %s", r.stdout)
	}
}

// TestSafetySortProgress (issue 13, item 10): the progress line of a long
// 1-D sort moves past 0% before the end. script(1) gives standard error a
// terminal.
func TestSafetySortProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts 8M elements")
	}
	scriptCmd, err := exec.LookPath("script")
	if err != nil {
		t.Skipf("SKIPPED: no script(1) to give strider a terminal: %v", err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.npy")
	safetyRandom(t, in, 1<<23)
	line := fmt.Sprintf("%s sort --threads 1 %s -o %s --indices %s", strider, in, filepath.Join(dir, "v.npy"), filepath.Join(dir, "i.npy"))
	out, err := exec.Command(scriptCmd, "-qec", line, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v %q", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "strider: sort:") {
		t.Skipf("SKIPPED: the sort ended before the progress line's delay (%q)", text)
	}
	moved := false
	for _, f := range strings.Split(text, "\r") {
		var pct int
		if _, err := fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f), "strider: sort:")), "%d%%", &pct); err == nil && pct > 0 && pct < 100 {
			moved = true
		}
	}
	if !moved {
		t.Fatalf("progress never moved between 0%% and 100%%: %q", text)
	}
}

// TestSafetyPipefail (issue 15, item 1): under `set -o pipefail`, a
// command that reads only the header of standard input drains the rest, so
// the writer upstream always succeeds; a writer whose reader goes away
// (head -c 10) dies quietly of SIGPIPE (status 141) and leaves no
// temporary file.
func TestSafetyPipefail(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPED: no bash for set -o pipefail")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "m.npy")
	faultNpy(t, in, "<f4", []int{1024, 512}, make([]byte, 2<<20)) // 2 MiB
	bash := func(script string) (int, string) {
		c := exec.Command("bash", "-c", "set -o pipefail; "+script)
		c.Env = append(os.Environ(), "S="+strider, "IN="+in, "D="+dir)
		var errb bytes.Buffer
		c.Stderr = &errb
		c.Stdout = io.Discard
		err := c.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), errb.String()
		}
		return 0, errb.String()
	}
	for i := 0; i < 20; i++ {
		for _, line := range []string{
			`"$S" transpose "$IN" | "$S" info -`,
			`"$S" transpose "$IN" | "$S" info --json -`,
			`"$S" tril-indices 200 | "$S" info -`,
		} {
			if code, stderr := bash(line); code != 0 {
				t.Fatalf("run %d: %s: exit %d %s", i, line, code, stderr)
			}
		}
	}
	for _, line := range []string{
		`"$S" transpose "$IN" | head -c 10`,
		`"$S" transpose "$IN" -o /dev/stdout | head -c 10`,
		`"$S" tril-indices 3000 | head -c 10`,
		// 320 GB, streamed: the first piece goes out, then SIGPIPE.
		`"$S" tril-indices 200000 | head -c 10`,
		`"$S" sort "$IN" --indices "$D/idx.npy" | head -c 10`,
	} {
		code, stderr := bash(line)
		if code != 128+int(syscall.SIGPIPE) || stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q; want 141 and nothing", line, code, stderr)
		}
		faultWantNames(t, dir, "m.npy")
	}
}

// TestSafetyNpzOutput (issue 15, item 3): -o out.npz:NAME writes or
// replaces member NAME in an archive byte-identical to the one np.savez
// writes for the same members in the same order (a new member last, a
// replaced one in its place, the members of a compressed archive stored),
// keeps the archive's mode, leaves nothing behind, and changes nothing on
// failure. -o out.npz alone is refused with the hint.
func TestSafetyNpzOutput(t *testing.T) {
	py := "/usr/bin/python3"
	if out, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: no NumPy under %s to compare with: %v %s", py, err, out)
	}
	dir := t.TempDir()
	ex := filepath.Join(wd(t), safetyEx)
	arc, ref := filepath.Join(dir, "a.npz"), filepath.Join(dir, "ref.npz")
	savez := func(script string) {
		t.Helper()
		c := exec.Command(py, "-c", "import sys, numpy as np\na = np.load(sys.argv[1])\n"+script, ex, ref, filepath.Join(dir, "c.npz"))
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	same := func(what, got string) {
		t.Helper()
		if !bytes.Equal(readFile(t, got), readFile(t, ref)) {
			t.Fatalf("%s: %s differs from np.savez's archive", what, got)
		}
		safetyNoTemps(t, dir)
	}
	steps := []struct {
		args   []string
		savez  string
		member string
	}{
		{[]string{"transpose", ex}, "np.savez(sys.argv[2], x=np.ascontiguousarray(a.T))", "x"},
		{[]string{"diagonal", ex}, "np.savez(sys.argv[2], x=np.ascontiguousarray(a.T), y=np.ascontiguousarray(np.diagonal(a)))", "y"},
		{[]string{"sort", ex}, "np.savez(sys.argv[2], x=np.sort(a, kind='stable'), y=np.ascontiguousarray(np.diagonal(a)))", "x"},
		{[]string{"tril-indices", "3"}, "np.savez(sys.argv[2], x=np.sort(a, kind='stable'), y=np.ascontiguousarray(np.diagonal(a)), **{'é/z': np.stack(np.tril_indices(3))})", "é/z"},
	}
	for _, s := range steps {
		if r := run(t, nil, append(s.args, "-o", arc+":"+s.member)...); r.code != 0 {
			t.Fatalf("%v: %s", s.args, r.stderr)
		}
		savez(s.savez)
		same(s.args[0], arc)
	}
	// The members of a compressed archive are kept, stored.
	savez("np.savez_compressed(sys.argv[3], p=a, q=a[0])\nnp.savez(sys.argv[2], p=a, q=np.ascontiguousarray(a.T))")
	c := filepath.Join(dir, "c.npz")
	os.Chmod(c, 0o640)
	if r := run(t, nil, "transpose", ex, "-o", c+":q"); r.code != 0 {
		t.Fatal(string(r.stderr))
	}
	same("replacing in a compressed archive", c)
	if fi, _ := os.Stat(c); fi.Mode().Perm() != 0o640 {
		t.Fatalf("the archive's mode became %v", fi.Mode().Perm())
	}
	// Refusals, with nothing created or changed.
	before := readFile(t, arc)
	for _, bad := range []struct{ out, want string }{
		{filepath.Join(dir, "new.npz"), "-o " + filepath.Join(dir, "new.npz") + ":NAME"},
		{arc, "-o " + arc + ":NAME"},
		{arc + ":", "no member name"},
		{filepath.Join(dir, "nosuch", "b.npz") + ":x", "no such file or directory"},
	} {
		r := run(t, nil, "transpose", ex, "-o", bad.out)
		faultOneLine(t, r.code, string(r.stderr), "transpose", bad.want)
	}
	notZip := filepath.Join(dir, "plain.npz")
	os.WriteFile(notZip, readFile(t, ex), 0o644)
	r := run(t, nil, "transpose", ex, "-o", notZip+":x")
	faultOneLine(t, r.code, string(r.stderr), "transpose", "not an .npz archive")
	r = run(t, nil, "sort", ex, "-o", arc+":v", "--indices", arc+":i")
	faultOneLine(t, r.code, string(r.stderr), "sort", "also the output file")
	if !bytes.Equal(readFile(t, arc), before) || !bytes.Equal(readFile(t, notZip), readFile(t, ex)) {
		t.Fatal("a refused output changed an archive")
	}
	faultWantNames(t, dir, "a.npz", "c.npz", "plain.npz", "ref.npz")
	// np.load reads what strider wrote.
	out, err := exec.Command(py, "-c", "import sys, numpy as np; z = np.load(sys.argv[1]); print(sorted(z.files), z['é/z'].tolist())", arc).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "['x', 'y', 'é/z'] [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]" {
		t.Fatalf("np.load: %v %s", err, out)
	}
}
