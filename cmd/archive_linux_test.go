//go:build linux

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// .npz archives in and out (issues 13, 15 and 27): the member np.load
// reads among duplicates, -o FILE.npz:NAME byte for byte as np.savez, and
// member names that are ambiguous or escape the folder. Linux: names that
// are not UTF-8, and NumPy to compare with. Several processes writing one
// archive at once is the root package's TestArchiveParallelMembers.

// TestSafetyNpzDuplicates (issue 13, item 5): of several members with one
// name, strider reads the one np.load reads: the last. A member named
// exactly NAME is read before NAME.npy, as np.load does. Real NumPy is
// asked too, when it is installed.
func TestSafetyNpzDuplicates(t *testing.T) {
	dir := t.TempDir()
	arc := filepath.Join(dir, "dup.npz")
	testkit.WriteZip(t, arc,
		testkit.Member{"a.npy", testkit.Int8Npy(t, 1, 1)},
		testkit.Member{"b.npy", testkit.Int8Npy(t, 7)},
		testkit.Member{"a.npy", testkit.Int8Npy(t, 2, 2, 2)},
		testkit.Member{"c", testkit.Int8Npy(t, 3)},
		testkit.Member{"c.npy", testkit.Int8Npy(t, 4)},
	)
	cases := []struct {
		member string
		want   []byte
	}{{"a", testkit.Int8Npy(t, 2, 2, 2)}, {"c", testkit.Int8Npy(t, 3)}, {"c.npy", testkit.Int8Npy(t, 4)}, {"b", testkit.Int8Npy(t, 7)}}
	for _, c := range cases {
		r := run(t, nil, "transpose", arc+":"+c.member, "-o", "-")
		if r.code != 0 || !bytes.Equal(r.stdout, c.want) {
			t.Fatalf("%s: exit %d %s: got %d bytes, want the last member's", c.member, r.code, r.stderr, len(r.stdout))
		}
	}
	py := testkit.Python
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

// TestSafetyNpzOutput (issue 15, item 3): -o out.npz:NAME writes or
// replaces member NAME in an archive byte-identical to the one np.savez
// writes for the same members in the same order (a new member last, a
// replaced one in its place, the members of a compressed archive stored),
// keeps the archive's mode, leaves nothing behind, and changes nothing on
// failure. -o out.npz alone is refused with the hint.
func TestSafetyNpzOutput(t *testing.T) {
	fromRoot(t)
	py := testkit.NumPy(t, "to compare with")
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
		testkit.WantNoTemps(t, dir)
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
		testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", bad.want)
	}
	notZip := filepath.Join(dir, "plain.npz")
	os.WriteFile(notZip, readFile(t, ex), 0o644)
	r := run(t, nil, "transpose", ex, "-o", notZip+":x")
	testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "not an .npz archive")
	r = run(t, nil, "sort", ex, "-o", arc+":v", "--indices", arc+":i")
	testkit.WantOneLine(t, r.code, string(r.stderr), "sort", "also the output file")
	if !bytes.Equal(readFile(t, arc), before) || !bytes.Equal(readFile(t, notZip), readFile(t, ex)) {
		t.Fatal("a refused output changed an archive")
	}
	testkit.WantNames(t, dir, "a.npz", "c.npz", "plain.npz", "ref.npz")
	// np.load reads what strider wrote.
	out, err := exec.Command(py, "-c", "import sys, numpy as np; z = np.load(sys.argv[1]); print(sorted(z.files), z['é/z'].tolist())", arc).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "['x', 'y', 'é/z'] [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]" {
		t.Fatalf("np.load: %v %s", err, out)
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
	py := testkit.NumPy(t, "to check archives with")
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
		testkit.WantOneLine(t, r.code, string(r.stderr), "tril-indices", c.want)
		if strings.ContainsAny(string(r.stderr), "\x1b\x7f\r") {
			t.Fatalf("%q: the message holds a control character: %q", c.name, r.stderr)
		}
	}
	if !bytes.Equal(readFile(t, arc), before) {
		t.Fatal("a refused member name changed the archive")
	}
	// A ':' is refused in new archives too, and no file "b.npz:a:b" is made.
	r := run(t, nil, "tril-indices", "3", "-o", filepath.Join(dir, "b.npz:a:b"))
	testkit.WantOneLine(t, r.code, string(r.stderr), "tril-indices", `member name "a:b" holds a ':'`)
	testkit.WantNames(t, dir, "a.npz")

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
