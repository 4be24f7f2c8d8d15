//go:build linux

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// Run's side of the contract (issue 13): an option left without its value
// writes nothing, and an error line stays short, escaped and exact however
// long or odd the value it quotes. Linux: paths that are not UTF-8.

func wd(t *testing.T) string {
	t.Helper()
	d, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSafetyTrailingOption (issue 13, item 6): -o or --indices with no
// value is a usage error, and writes nothing (no file named "--").
func TestSafetyTrailingOption(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	ex := filepath.Join(wd(t), safetyEx)
	// strider runs in dir, where a file named "--" would appear.
	t.Chdir(dir)
	for _, args := range [][]string{
		{"transpose", ex, "-o"},
		{"transpose", ex, "--output"},
		{"sort", ex, "-o", filepath.Join(dir, "v.npy"), "--indices"},
		{"tril-indices", "3", "--offset"},
	} {
		r := run(t, nil, args...)
		wantError(t, r, args[0])
		if !strings.Contains(string(r.stderr), "needs a value") && !strings.Contains(string(r.stderr), "needs an argument") {
			t.Fatalf("%v: %s", args, r.stderr)
		}
		testkit.WantNames(t, dir)
	}
}

// TestSafetyMessages (issue 13, item 10): an error line quotes at most
// about 1 KiB (the first and last part of a long value), an .npz of 20,000
// members lists a few of them, empty items in --axes are refused, a descr
// written as bytes is refused as NumPy refuses it, and info --json keeps a
// path that is not UTF-8 recoverable in path_escaped.
func TestSafetyMessages(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	long := "[" + strings.Repeat("1, ", 20000) + "x]"
	r := run(t, nil, "gather", safetyEx, "--index", long)
	wantError(t, r, "gather")
	if len(r.stderr) > 1100 || !strings.Contains(string(r.stderr), " ... ") {
		t.Fatalf("a %d-byte line: %.200q", len(r.stderr), r.stderr)
	}

	arc := filepath.Join(dir, "many.npz")
	members := make([]testkit.Member, 20000)
	one := testkit.Int8Npy(t, 1)
	for i := range members {
		members[i] = testkit.Member{fmt.Sprintf("m%05d.npy", i), one}
	}
	testkit.WriteZip(t, arc, members...)
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
	testkit.WantOneLine(t, r.code, string(r.stderr), "info", "descr b'<f4' is bytes")
	if out, err := exec.Command(testkit.Python, "-c", "import sys, numpy as np; np.load(sys.argv[1])", b).CombinedOutput(); err == nil {
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
	py := exec.Command(testkit.Python, "-c", `import sys, json, os
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
