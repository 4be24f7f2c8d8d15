//go:build linux

package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests cover -o FILE.npz:NAME against what issue 27's hostile suite
// tried: parallel writers of one archive, archives that are not regular
// files, and member names that are ambiguous or escape the folder.

// archivePython is the NumPy interpreter the archives are checked with; the
// test is skipped without it.
func archivePython(t *testing.T) string {
	t.Helper()
	py := "/usr/bin/python3"
	if out, err := exec.Command(py, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: no NumPy under %s to check archives with: %v %s", py, err, out)
	}
	return py
}

// TestArchiveParallelMembers (issue 27, item 11): writers of different
// members of one archive, all running at once, each leave their member:
// every round starts 12 strider processes on res.npz, half the rounds with
// no archive there yet (all of them create it), the other half replacing
// every member of the archive the previous round left. np.load then finds
// every member, with the values np.tril_indices gives. Without the lock
// beside the archive, a round keeps only some of the members.
func TestArchiveParallelMembers(t *testing.T) {
	py := archivePython(t)
	const writers, rounds = 12, 6
	dir := t.TempDir()
	arc := filepath.Join(dir, "res.npz")
	for round := range rounds {
		if round%2 == 0 {
			os.Remove(arc)
		}
		// Member i holds np.tril_indices(n) for an n of its own, about
		// 1 MiB, so that copying the other members takes a while.
		sizes := make([]int, writers)
		cmds := make([]*exec.Cmd, writers)
		stderrs := make([]bytes.Buffer, writers)
		for i := range writers {
			sizes[i] = 250 + 3*i + round
			c := striderCommand(t, "tril-indices", strconv.Itoa(sizes[i]), "-o", fmt.Sprintf("%s:m%d", arc, i))
			c.Stderr = &stderrs[i]
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds[i] = c
		}
		for i, c := range cmds {
			if code := exitCode(t, c, c.Wait()); code != 0 {
				t.Fatalf("round %d, writer %d: exit %d: %s", round, i, code, stderrs[i].String())
			}
		}
		check := `import sys, numpy as np
z = np.load(sys.argv[1])
sizes = [int(s) for s in sys.argv[2:]]
want = ['m%d' % i for i in range(len(sizes))]
missing = sorted(set(want) - set(z.files), key=want.index)
wrong = [m for m, n in zip(want, sizes) if m in z.files and not (z[m].dtype == np.int64 and np.array_equal(z[m], np.stack(np.tril_indices(n))))]
print('missing', missing, 'wrong', wrong, 'extra', sorted(set(z.files) - set(want)))
`
		args := []string{"-c", check, arc}
		for _, n := range sizes {
			args = append(args, strconv.Itoa(n))
		}
		out, err := exec.Command(py, args...).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "missing [] wrong [] extra []" {
			t.Fatalf("round %d: np.load of the archive %d writers wrote: %v %s", round, writers, err, out)
		}
	}
	// Neither a temporary file nor the lock file stays.
	faultWantNames(t, dir, "res.npz")
}

// archiveRun runs strider with args, failing the test when it has not
// ended after a minute (a member output to a FIFO used to wait for a reader
// forever).
func archiveRun(t *testing.T, args ...string) result {
	t.Helper()
	c := striderCommand(t, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Minute, func() { c.Process.Kill() })
	err := c.Wait()
	if !timer.Stop() {
		t.Fatalf("%v: still running after a minute, killed", args)
	}
	return result{exitCode(t, c, err), out.Bytes(), errb.Bytes()}
}

// TestArchiveNotRegular (issue 27, item 5): a member output whose archive
// is there but is not a regular file (a FIFO, a socket, a directory, a
// link to a character device) is refused at once, in one line, and so is
// one that an input spec reads as a member of an existing file that is not
// an archive named .npz (/dev/stdout:x, data.npy:x): nothing is created.
func TestArchiveNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.npz")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.npz")
	os.Mkdir(folder, 0o755)
	null := filepath.Join(dir, "null.npz")
	os.Symlink("/dev/null", null)
	data := filepath.Join(dir, "data.npy")
	if r := run(t, nil, "tril-indices", "3", "-o", data); r.code != 0 {
		t.Fatal(string(r.stderr))
	}
	// A socket path must be short (108 bytes): it goes in a folder of its own.
	sdir, err := os.MkdirTemp("", "sock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sdir) })
	sock := filepath.Join(sdir, "s.npz")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	before := readFile(t, data)
	for _, c := range []struct{ out, want string }{
		{fifo + ":x", "is a named pipe (FIFO), not an .npz archive"},
		{folder + ":x", "is a directory, not an .npz archive"},
		{null + ":x", "is a character device, not an .npz archive"},
		{sock + ":x", "is a socket, not an .npz archive"},
		{"/dev/stdout:x", `/dev/stdout is a named pipe (FIFO), so no member "x" can be written in it`},
		{data + ":x", `data.npy is a file not named .npz, so no member "x" can be written in it`},
	} {
		r := archiveRun(t, "tril-indices", "3", "-o", c.out)
		faultOneLine(t, r.code, string(r.stderr), "tril-indices", c.want)
	}
	faultWantNames(t, dir, "data.npy", "fifo.npz", "folder.npz", "null.npz")
	faultWantNames(t, folder)
	faultWantNames(t, sdir, "s.npz")
	if !bytes.Equal(readFile(t, data), before) {
		t.Fatal("a refused output changed data.npy")
	}
}

// TestArchiveMemberNames (issue 27, items 12 and 13): a member name that a
// later unzip would write outside its folder, that holds a control
// character, a backslash or a ':', that is empty or has an empty, "." or
// ".." component, or that is too long for a zip entry is refused in one
// line naming it escaped, and the archive is left as it was; no file named
// after the whole path is made. Ordinary names (a folder, non-ASCII, a
// space, a dot) are written, np.load reads them, and strider reads each
// back as the input ARCHIVE:NAME, as it reads a ':' in a member np.savez
// wrote.
func TestArchiveMemberNames(t *testing.T) {
	py := archivePython(t)
	dir := t.TempDir()
	arc := filepath.Join(dir, "a.npz")
	good := []string{"layer.0/weight", "é/z", "a b", "x.y", "..x", "x..", ".hidden"}
	for i, name := range good {
		if r := run(t, nil, "tril-indices", strconv.Itoa(i+2), "-o", arc+":"+name); r.code != 0 {
			t.Fatalf("%q: %s", name, r.stderr)
		}
	}
	before := readFile(t, arc)
	long := strings.Repeat("n", 65532)
	for _, c := range []struct{ name, want string }{
		{"../x", `member name "../x" has a ".." component`},
		{"a/../../x", `member name "a/../../x" has a ".." component`},
		{"a/..", `member name "a/.." has a ".." component`},
		{"/abs", `member name "/abs" is an absolute path`},
		{`..\x`, `member name "..\x" holds a backslash`},
		{`a\b`, `member name "a\b" holds a backslash`},
		{"a\x1b[2Jb", `member name "a\x1b[2Jb" holds a control character`},
		{"a\nb", `member name "a\nb" holds a control character`},
		{"a\x7fb", `member name "a\x7fb" holds a control character`},
		{"a\u0085b", `member name "a\u0085b" holds a control character`},
		{"a\xffb", `member name "a\xffb" is not UTF-8`},
		{"", "no member name after the ':'"},
		{".", `member name "." has a "." component`},
		{"a/./b", `member name "a/./b" has a "." component`},
		{"a//b", `member name "a//b" has an empty folder component`},
		{"a/", `member name "a/" has an empty folder component`},
		{"a:b", `member name "a:b" holds a ':'`},
		{"b.npz:c", `member name "b.npz:c" holds a ':'`},
		{"C:x", `member name "C:x" holds a ':'`},
		{long, "is 65532 bytes long, more than a zip entry name may be"},
	} {
		r := run(t, nil, "tril-indices", "3", "-o", arc+":"+c.name)
		faultOneLine(t, r.code, string(r.stderr), "tril-indices", c.want)
		if strings.ContainsAny(string(r.stderr), "\x1b\x7f\r") {
			t.Fatalf("%q: the message holds a control character: %q", c.name, r.stderr)
		}
	}
	if !bytes.Equal(readFile(t, arc), before) {
		t.Fatal("a refused member name changed the archive")
	}
	// A ':' is refused in new archives too, and no file "b.npz:a:b" is made.
	r := run(t, nil, "tril-indices", "3", "-o", filepath.Join(dir, "b.npz:a:b"))
	faultOneLine(t, r.code, string(r.stderr), "tril-indices", `member name "a:b" holds a ':'`)
	faultWantNames(t, dir, "a.npz")

	check := "import sys, numpy as np\nz = np.load(sys.argv[1])\nprint(all(np.array_equal(z[n], np.stack(np.tril_indices(i + 2))) for i, n in enumerate(sys.argv[2:])), len(z.files))"
	out, err := exec.Command(py, append([]string{"-c", check, arc}, good...)...).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != fmt.Sprintf("True %d", len(good)) {
		t.Fatalf("np.load: %v %s", err, out)
	}
	// Input and output read "ARCHIVE:NAME" alike: what -o wrote is read
	// back, and a member "a:b" that np.savez wrote is read as "ARCHIVE:a:b".
	colon := filepath.Join(dir, "colon.npz")
	if out, err := exec.Command(py, "-c", "import sys, numpy as np; np.savez(sys.argv[1], **{'a:b': np.arange(3)})", colon).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for _, in := range []string{arc + ":é/z", arc + ":layer.0/weight", colon + ":a:b"} {
		if r := run(t, nil, "info", in); r.code != 0 {
			t.Fatalf("info %s: %s", in, r.stderr)
		}
	}
}
