//go:build linux

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"strider/internal/testkit"
)

// The end-to-end tests that need Linux: the hostile pass, and what needs
// the binary in a process of its own there: tmpfs mounts and full disks,
// signals, SIGPIPE under pipefail, FIFOs and the file descriptors a shell
// opens, other users (setpriv), a terminal (script(1)), peak memory (GNU
// time), several processes writing one archive. main_test.go holds the
// harness (striderCommand, run) and the portable end-to-end tests.

// The hostile pass (issue 27): every parser of user bytes is given inputs
// built to hang it, exhaust its memory, crash it or smuggle control bytes
// to the terminal. Each case runs under a short deadline and a tight
// memory limit, and must end in a success or a clean refusal: exit 0 or 2
// (1 for compare), one "strider: <command>: " line on an error, no panic,
// no raw control byte in any human-readable output, no temporary file
// left. No case only waits: each one ends on its own or is killed.
const (
	hostileDeadline = 20 * time.Second
	hostileData     = 1 << 30 // RLIMIT_DATA
)

type hostileCase struct {
	name  string
	files map[string][]byte // written into the case's folder
	stdin []byte
	args  []string // "@x" is the path of file x in the case's folder
}

// rawHeader is a .npy version 1.0 with the header text as given.
func rawHeader(text string) []byte {
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(text)))
	return append(b, text...)
}

// safetensorsRaw is a safetensors file with the header as given and n
// zero data bytes.
func safetensorsRaw(header string, n int) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, n)...)
}

func hostileCases(t *testing.T) []hostileCase {
	ok := append(testkit.SaveHeader("<f4", false, []int{2, 2}), make([]byte, 16)...)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	zeros := make([]byte, 64<<20)
	var cases []hostileCase
	add := func(name string, files map[string][]byte, stdin []byte, args ...string) {
		cases = append(cases, hostileCase{name, files, stdin, args})
	}
	file := func(name string, b []byte) map[string][]byte { return map[string][]byte{name: b} }

	// .npy headers.
	for name, h := range map[string][]byte{
		"npy/v2-len-4GiB":      append([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"), "{'descr'"...),
		"npy/v3-len-1MiB+1":    binary.LittleEndian.AppendUint32([]byte("\x93NUMPY\x03\x00"), 1<<20+1),
		"npy/shape-overflow":   rawHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }\n"),
		"npy/shape-2^62":       rawHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (4611686018427387904,), }\n"),
		"npy/descr-escape":     rawHeader("{'descr': '\x1b[2J\x07', 'fortran_order': False, 'shape': (1,), }\n"),
		"npy/descr-deep":       rawHeader("{'descr': " + strings.Repeat("[", 30000) + "}\n"),
		"npy/int-100k-digits":  rawHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (" + strings.Repeat("9", 60000) + ",), }\n"),
		"npy/33-dims":          rawHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (" + strings.Repeat("1, ", 33) + "), }\n"),
		"npy/truncated":        testkit.SaveHeader("<f8", false, []int{1 << 20})[:40],
		"npy/data-short":       append(testkit.SaveHeader("<f8", false, []int{1 << 20}), 1, 2, 3),
		"npy/structured-names": rawHeader("{'descr': [('\x1b]0;x\x07', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"),
	} {
		for _, c := range []string{"info", "show", "stats", "transpose", "to-text"} {
			add(name+"/"+c, file("a.npy", h), nil, c, "@a.npy")
		}
		add(name+"/stdin-show", nil, h, "show", "-")
	}

	// .npz archives.
	zbomb := testkit.ZipOf(t, true, testkit.Member{"a.npy", append(testkit.SaveHeader("<f4", false, []int{16 << 20}), zeros...)})
	lie := testkit.ZipOf(t, true, testkit.Member{"a.npy", append(testkit.SaveHeader("<f4", false, []int{1 << 40}), zeros[:1<<20]...)})
	members := make([]testkit.Member, 20000)
	for i := range members {
		members[i] = testkit.Member{fmt.Sprintf("m%05d\x1b[2J.npy", i), ok}
	}
	manyZip := testkit.ZipOf(t, false, members...)
	longName := testkit.ZipOf(t, false, testkit.Member{strings.Repeat("n", 60000) + ".npy", ok})
	for name, z := range map[string][]byte{"npz/bomb-64MiB": zbomb, "npz/lying-shape": lie, "npz/20k-members": manyZip, "npz/60k-name": longName} {
		for _, args := range [][]string{{"info", "@z.npz"}, {"show", "@z.npz"}, {"show", "@z.npz:a"}, {"stats", "@z.npz:a"}, {"compare", "@z.npz", "@z.npz"}} {
			add(name+"/"+strings.Join(args, " "), file("z.npz", z), nil, args...)
		}
		add(name+"/stdin-info", nil, z, "info", "-")
	}

	// safetensors headers.
	for name, st := range map[string][]byte{
		"st/len-2^63":       binary.LittleEndian.AppendUint64(nil, 1<<63),
		"st/len-past-end":   binary.LittleEndian.AppendUint64(nil, 1<<30),
		"st/offsets-out":    safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,1099511627776]}}`, 16),
		"st/offsets-neg":    safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[-16,0]}}`, 16),
		"st/offsets-swap":   safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[16,0]}}`, 16),
		"st/overlap":        safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"b":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/shape-overflow": safetensorsRaw(`{"a":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,16]}}`, 16),
		"st/shape-neg":      safetensorsRaw(`{"a":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}}`, 16),
		"st/dtype-escape":   safetensorsRaw(`{"a":{"dtype":"\u001b[2J\u0007","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/json-deep":      safetensorsRaw(`{"a":`+deep+`}`, 0),
		"st/metadata-esc":   safetensorsRaw(`{"__metadata__":{"\u001b]0;t\u0007":"\u001b[31m"},"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/name-bidi":      safetensorsRaw(`{"a\u202eb":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/offsets-text":   safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,"\r\u001b[2J\u0007"]}}`, 16),
	} {
		for _, args := range [][]string{{"info", "@m.safetensors"}, {"info", "--json", "@m.safetensors"}, {"show", "@m.safetensors"}, {"show", "@m.safetensors:a"}, {"stats", "@m.safetensors:a"}, {"compare", "@m.safetensors", "@m.safetensors"}} {
			add(name+"/"+strings.Join(args, " "), file("m.safetensors", st), nil, args...)
		}
	}

	// A safetensors file of 20,000 tensors: compare opens each member, and
	// must not parse the header again for each (O(n²): minutes).
	var many strings.Builder
	many.WriteString("{")
	for i := range 20000 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `"t%05d":{"dtype":"F32","shape":[1],"data_offsets":[%d,%d]}`, i, 4*i, 4*i+4)
	}
	many.WriteString("}")
	manyST := safetensorsRaw(many.String(), 4*20000)
	add("st/20k-tensors/compare", file("m.safetensors", manyST), nil, "compare", "@m.safetensors", "@m.safetensors")
	add("st/20k-tensors/info", file("m.safetensors", manyST), nil, "info", "@m.safetensors")

	// torch.save files: legacy magic then junk, a zip with a junk data.pkl.
	junkPkl := testkit.ZipOf(t, false, testkit.Member{"archive/data.pkl", []byte("\x80\x02}q\x00(X\x01\x00\x00\x00a" + strings.Repeat("(", 100000))}, testkit.Member{"archive/version", []byte("3\n")})
	for name, pt := range map[string][]byte{
		"pt/legacy-junk": append([]byte("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19."), zeros[:4096]...),
		"pt/deep-marks":  junkPkl,
	} {
		for _, c := range []string{"info", "show", "stats"} {
			add(name+"/"+c, file("m.pt", pt), nil, c, "@m.pt")
		}
	}

	// Text.
	longLine := bytes.Repeat([]byte("1 "), 20<<20)
	add("text/20M-columns", nil, longLine, "from-text", "-", "-o", "@o.npy")
	add("text/json-deep", nil, []byte(deep), "from-text", "--json", "-", "-o", "@o.npy")
	add("text/escape-field", nil, []byte("1 2\n3 \x1b[2Jx\x07\n"), "from-text", "-", "-o", "@o.npy")
	add("text/nul-field", nil, []byte("1,\x00\n"), "from-text", "--delimiter", ",", "-", "-o", "@o.npy")
	add("text/bad-utf8", nil, []byte("1 \xff\xfe\n"), "from-text", "-", "-o", "@o.npy")

	// Expressions and literals from the command line.
	arr := file("a.npy", ok)
	for name, expr := range map[string]string{
		"parens":  strings.Repeat("(", 100000),
		"lists":   strings.Repeat("[", 100000),
		"digits":  strings.Repeat("9", 100000),
		"colons":  strings.Repeat(":", 100000),
		"commas":  strings.Repeat("0,", 50000),
		"ellipsi": strings.Repeat("...,", 1000),
		"nones":   strings.Repeat("None,", 20000),
	} {
		add("expr/"+name+"/slice", arr, nil, "slice", "@a.npy", expr)
		add("expr/"+name+"/show", arr, nil, "show", "@a.npy", expr)
		add("expr/"+name+"/stats", arr, nil, "stats", "@a.npy", expr)
		add("expr/"+name+"/gather", arr, nil, "gather", "--index", expr, "@a.npy")
	}
	// One argument may not exceed 128 KiB (MAX_ARG_STRLEN): 60k indices.
	add("expr/gather-60k-indices", arr, nil, "gather", "--index", "["+strings.Repeat("-1,", 30000)+"0]", "@a.npy", "-o", "@o.npy")
	add("shape/reshape-huge", arr, nil, "reshape", "@a.npy", "4611686018427387904,4611686018427387904")
	add("shape/reshape-digits", arr, nil, "reshape", "@a.npy", strings.Repeat("9", 100000))
	add("tri/huge", nil, nil, "tril-indices", "4000000000", "-o", "@o.npy")
	add("tri/digits", nil, nil, "tril-indices", strings.Repeat("9", 100000))
	add("cast/dtype-escape", arr, nil, "cast", "@a.npy", "--dtype", "\x1b[2J")
	return cases
}

func TestHostilePass(t *testing.T) {
	for _, c := range hostileCases(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				if p, found := strings.CutPrefix(a, "@"); found && !strings.HasPrefix(a, "@@") {
					a = filepath.Join(dir, p)
				}
				args[i] = a
			}
			cmd := testkit.Command(t, hostileDeadline, hostileData, strider, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if c.stdin != nil {
				cmd.Stdin = bytes.NewReader(c.stdin)
			}
			start := time.Now()
			r := result{testkit.ExitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			if d := time.Since(start); d > hostileDeadline/2 {
				t.Errorf("took %v", d)
			}
			switch {
			case r.code == 2 && args[0] == "info":
				// info describes what it can (a refused dtype, data cut
				// short) on stdout before its one error line.
				lines := strings.Split(strings.TrimSuffix(string(r.stderr), "\n"), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: info: ") {
					t.Fatalf("stderr is not one 'strider: info: ...' line: %q", r.stderr)
				}
			case r.code == 2:
				wantError(t, r, args[0])
			case r.code == 1 && args[0] == "compare":
			case r.code != 0:
				t.Fatalf("exit %d: %q", r.code, r.stderr)
			}
			for _, bad := range []string{"panic", "goroutine", "fatal error", "internal error"} {
				if bytes.Contains(r.stderr, []byte(bad)) {
					t.Fatalf("stderr shows %q: %.300q", bad, r.stderr)
				}
			}
			testkit.WantNoControls(t, "stderr", r.stderr)
			// --json keeps the exact names, JSON-escaped: a bidi override
			// stays as it is there.
			switch {
			case args[0] == "info" && args[1] == "--json":
			case args[0] == "info", args[0] == "show", args[0] == "stats", args[0] == "compare":
				testkit.WantNoControls(t, "stdout", r.stdout)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") || strings.Contains(e.Name(), "strider-") {
					t.Fatalf("left behind: %s", e.Name())
				}
			}
		})
	}
}

// Archives (issue 27): -o FILE.npz:NAME from parallel writers of one
// archive, and archives that are not regular files. The member names that
// are ambiguous or escape the folder are cmd's (TestArchiveMemberNames).

// TestArchiveParallelMembers (issue 27, item 11): writers of different
// members of one archive, all running at once, each leave their member:
// every round starts 12 strider processes on res.npz, half the rounds with
// no archive there yet (all of them create it), the other half replacing
// every member of the archive the previous round left. np.load then finds
// every member, with the values np.tril_indices gives. Without the lock
// beside the archive, a round keeps only some of the members.
func TestArchiveParallelMembers(t *testing.T) {
	py := testkit.NumPy(t, "to check archives with")
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
			if code := testkit.ExitCode(t, c, c.Wait()); code != 0 {
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
	testkit.WantNames(t, dir, "res.npz")
}

// TestSafetensorsParallelTensors (issue 30, item 3): -o FILE.safetensors:NAME
// takes the lock -o FILE.npz:NAME takes, so 12 writers of different tensors
// of one .safetensors file at once each leave their tensor, and the file
// is save_file's layout of them all: read back here from its header with
// NumPy (the safetensors package is not needed).
func TestSafetensorsParallelTensors(t *testing.T) {
	py := testkit.NumPy(t, "to check .safetensors files with")
	const writers, rounds = 12, 3
	dir := t.TempDir()
	file := filepath.Join(dir, "res.safetensors")
	for round := range rounds {
		if round%2 == 0 {
			os.Remove(file)
		}
		sizes := make([]int, writers)
		cmds := make([]*exec.Cmd, writers)
		stderrs := make([]bytes.Buffer, writers)
		for i := range writers {
			sizes[i] = 250 + 3*i + round
			c := striderCommand(t, "tril-indices", strconv.Itoa(sizes[i]), "-o", fmt.Sprintf("%s:m%d", file, i))
			c.Stderr = &stderrs[i]
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			cmds[i] = c
		}
		for i, c := range cmds {
			if code := testkit.ExitCode(t, c, c.Wait()); code != 0 {
				t.Fatalf("round %d, writer %d: exit %d: %s", round, i, code, stderrs[i].String())
			}
		}
		check := `import json, sys, numpy as np
b = open(sys.argv[1], 'rb').read()
n = int.from_bytes(b[:8], 'little')
h = json.loads(b[8:8 + n])
sizes = [int(s) for s in sys.argv[2:]]
want = ['m%d' % i for i in range(len(sizes))]
order = sorted(h, key=lambda k: h[k]['data_offsets'])
wrong = [m for m, k in zip(want, sizes) if m not in h or not np.array_equal(
    np.frombuffer(b[8 + n + h[m]['data_offsets'][0]:8 + n + h[m]['data_offsets'][1]], '<i8').reshape(h[m]['shape']), np.stack(np.tril_indices(k)))]
print('wrong', wrong, 'order', order == sorted(want), 'extra', sorted(set(h) - set(want)))
`
		args := []string{"-c", check, file}
		for _, n := range sizes {
			args = append(args, strconv.Itoa(n))
		}
		out, err := exec.Command(py, args...).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "wrong [] order True extra []" {
			t.Fatalf("round %d: the file %d writers wrote: %v %s", round, writers, err, out)
		}
	}
	testkit.WantNames(t, dir, "res.safetensors")
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
	return result{testkit.ExitCode(t, c, err), out.Bytes(), errb.Bytes()}
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
		testkit.WantOneLine(t, r.code, string(r.stderr), "tril-indices", c.want)
	}
	testkit.WantNames(t, dir, "data.npy", "fifo.npz", "folder.npz", "null.npz")
	testkit.WantNames(t, folder)
	testkit.WantNames(t, sdir, "s.npz")
	if !bytes.Equal(readFile(t, data), before) {
		t.Fatal("a refused output changed data.npy")
	}
}

// Faults (issue 8): a full disk, the output naming the input, standard
// input that stops or fails, signals mid-write, and an input truncated
// while it is mapped. Each must end with exit 2 (or death by the signal),
// one line on stderr, the input untouched, no partial or temporary file,
// and any previous output unchanged. The faults an in-process run shows
// (output folders, devices and FIFOs as the output, bad flags) are cmd's.

// faultFree is the free space of dir's file system in bytes.
func faultFree(t *testing.T, dir string) int64 {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bfree) * st.Bsize
}

// faultShell runs a shell command line (for redirections) with the binary
// as $S, returning the exit status and stderr.
func faultShell(t *testing.T, script string) (int, string) {
	t.Helper()
	c := exec.Command("sh", "-c", script)
	c.Env = append(os.Environ(), "S="+strider)
	var errb bytes.Buffer
	c.Stderr = &errb
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), errb.String()
	case err != nil:
		t.Fatalf("sh -c %q: %v", script, err)
	}
	return 0, errb.String()
}

// TestFaultFullDisk: outputs larger than a 1 MiB tmpfs fail before any
// byte is stored, for a file, for standard output redirected to a file
// (truncating or appending), and for sort's two outputs; the folder is left
// as it was and the free space is unchanged.
func TestFaultFullDisk(t *testing.T) {
	full := testkit.Mount(t, "1m", false)
	src := t.TempDir()
	big := filepath.Join(src, "big.npy") // 2 MiB of int64
	if r := run(t, nil, "tril-indices", "512", "-o", big); r.code != 0 {
		t.Fatalf("tril-indices: %s", r.stderr)
	}
	mid := filepath.Join(src, "mid.npy") // 585 KiB: one fits, two do not
	if r := run(t, nil, "tril-indices", "270", "-o", mid); r.code != 0 {
		t.Fatalf("tril-indices: %s", r.stderr)
	}
	inBefore := readFile(t, big)
	prev := filepath.Join(full, "prev.npy")
	if err := os.WriteFile(prev, []byte("previous"), 0o644); err != nil {
		t.Fatal(err)
	}
	free := faultFree(t, full)
	check := func(t *testing.T, names ...string) {
		t.Helper()
		testkit.WantNames(t, full, names...)
		if got := string(readFile(t, prev)); got != "previous" {
			t.Fatalf("previous output changed to %q", got)
		}
		if got := faultFree(t, full); got != free {
			t.Fatalf("free space %d after the failure, %d before: blocks were left allocated", got, free)
		}
		if !bytes.Equal(readFile(t, big), inBefore) {
			t.Fatal("input changed")
		}
	}

	t.Run("file", func(t *testing.T) {
		r := run(t, nil, "transpose", big, "-o", filepath.Join(full, "out.npy"))
		testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "disk space")
		check(t, "prev.npy")
	})
	t.Run("file over the previous output", func(t *testing.T) {
		r := run(t, nil, "transpose", big, "-o", prev)
		testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "disk space")
		check(t, "prev.npy")
	})
	t.Run("stdout to a file", func(t *testing.T) {
		code, stderr := faultShell(t, `"$S" transpose `+big+` > `+full+`/out.npy`)
		testkit.WantOneLine(t, code, stderr, "transpose", "no space left on device")
		if fi, err := os.Stat(filepath.Join(full, "out.npy")); err != nil || fi.Size() != 0 {
			t.Fatalf("the shell's output file should stay empty: %v %v", fi.Size(), err)
		}
		os.Remove(filepath.Join(full, "out.npy"))
		check(t, "prev.npy")
	})
	t.Run("stdout appended to a file", func(t *testing.T) {
		code, stderr := faultShell(t, `"$S" transpose `+big+` >> `+prev)
		testkit.WantOneLine(t, code, stderr, "transpose", "no space left on device")
		check(t, "prev.npy")
	})
	t.Run("sort with two outputs", func(t *testing.T) {
		r := run(t, nil, "sort", mid, "-o", filepath.Join(full, "vals.npy"), "--indices", filepath.Join(full, "idx.npy"))
		testkit.WantOneLine(t, r.code, string(r.stderr), "sort", "idx.npy")
		check(t, "prev.npy")
	})
	t.Run("sort values on stdout to a file, indices to a file", func(t *testing.T) {
		code, stderr := faultShell(t, `"$S" sort `+mid+` -o - --indices `+full+`/idx.npy > `+full+`/vals.npy`)
		if code != 2 || !strings.Contains(stderr, "strider: sort: ") {
			t.Fatalf("exit %d %q", code, stderr)
		}
		os.Remove(filepath.Join(full, "vals.npy"))
		check(t, "prev.npy")
	})
	t.Run("an output that fits is written", func(t *testing.T) {
		out := filepath.Join(full, "ok.npy")
		if r := run(t, nil, "transpose", mid, "-o", out); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		os.Remove(out)
		check(t, "prev.npy")
	})
}

// TestFaultOutputIsInput: -o naming the input, however spelled, writes a
// temporary file and renames it over the input on success; the input stays
// mapped (or open, for diagonal's pread path) until then. Through a
// symbolic link the file the link names is replaced and the link is kept;
// through a hard link the other name keeps the old contents (the rename
// replaces one directory entry, as every atomic writer does).
func TestFaultOutputIsInput(t *testing.T) {
	ex := "testdata/example_f4_2x3x4_c.npy"
	want := func(t *testing.T, args ...string) []byte {
		t.Helper()
		r := run(t, nil, append(args, "-o", "-")...)
		if r.code != 0 {
			t.Fatalf("%v: %s", args, r.stderr)
		}
		return r.stdout
	}
	original := readFile(t, ex)
	// Each command as args, IN, after.
	cases := []struct {
		name        string
		args, after []string
	}{
		{"transpose", []string{"transpose", "--axes", "2,0,1"}, nil},
		{"slice", []string{"slice"}, []string{"::-1, 1:, None"}},
		{"diagonal", []string{"diagonal", "--axis1", "1", "--axis2", "2", "--offset", "1"}, nil},
		{"sort", []string{"sort", "--axis", "0", "--descending"}, nil},
		{"gather", []string{"gather", "--index", "[2,0,1,1]", "--axis", "2"}, nil},
	}
	spellings := []struct {
		name string
		out  func(dir string) string // -o for IN = dir/in.npy
	}{
		{"same path", func(dir string) string { return filepath.Join(dir, "in.npy") }},
		{"dot spelling", func(dir string) string { return dir + "/./../" + filepath.Base(dir) + "/in.npy" }},
		{"symlink", func(dir string) string {
			os.Symlink("in.npy", filepath.Join(dir, "link.npy"))
			return filepath.Join(dir, "link.npy")
		}},
	}
	for _, c := range cases {
		line := func(in string) []string {
			return append(append(append([]string{}, c.args...), in), c.after...)
		}
		expect := want(t, line(ex)...)
		for _, sp := range spellings {
			t.Run(c.name+"/"+sp.name, func(t *testing.T) {
				dir := t.TempDir()
				in := filepath.Join(dir, "in.npy")
				os.WriteFile(in, original, 0o644)
				out := sp.out(dir)
				if r := run(t, nil, append(line(in), "-o", out)...); r.code != 0 {
					t.Fatalf("exit %d %s", r.code, r.stderr)
				}
				if got := readFile(t, in); !bytes.Equal(got, expect) {
					t.Fatal("result written over the input differs from the result on stdout")
				}
				if sp.name == "symlink" {
					if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeSymlink == 0 {
						t.Fatalf("the symbolic link was replaced: %v", err)
					}
				}
				for _, n := range testkit.Names(t, dir) {
					if strings.Contains(n, ".strider-") {
						t.Fatalf("temporary file left: %s", n)
					}
				}
			})
		}
	}
	t.Run("hard link", func(t *testing.T) {
		dir := t.TempDir()
		in, other := filepath.Join(dir, "in.npy"), filepath.Join(dir, "other.npy")
		os.WriteFile(in, original, 0o644)
		os.Link(in, other)
		if r := run(t, nil, "transpose", in, "-o", in); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		if !bytes.Equal(readFile(t, other), original) {
			t.Fatal("the other hard link changed: the input was written in place")
		}
		if !bytes.Equal(readFile(t, in), want(t, "transpose", ex)) {
			t.Fatal("wrong result")
		}
	})
	t.Run("stdin redirected from the output file", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join(dir, "in.npy")
		os.WriteFile(in, original, 0o644)
		code, stderr := faultShell(t, `"$S" transpose - -o `+in+` < `+in)
		if code != 0 {
			t.Fatalf("exit %d %s", code, stderr)
		}
		if !bytes.Equal(readFile(t, in), want(t, "transpose", ex)) {
			t.Fatal("wrong result")
		}
	})
	t.Run("sort indices over the input", func(t *testing.T) {
		dir := t.TempDir()
		in := filepath.Join(dir, "in.npy")
		os.WriteFile(in, original, 0o644)
		vals := filepath.Join(dir, "vals.npy")
		if r := run(t, nil, "sort", in, "-o", vals, "--indices", in); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		if r := run(t, nil, "sort", "--argsort", ex, "-o", "-"); !bytes.Equal(readFile(t, in), r.stdout) {
			t.Fatal("indices differ from --argsort's")
		}
		testkit.WantNames(t, dir, "in.npy", "vals.npy")
	})
}

// TestFaultShortStdin: standard input that ends inside the header or the
// data, after a pause (a writer that stops mid-stream), or that cannot be
// read at all, is one line naming the shortfall, and no output appears.
func TestFaultShortStdin(t *testing.T) {
	ex := readFile(t, "testdata/example_f4_2x3x4_c.npy") // 128-byte header, 96 data bytes
	cases := []struct {
		name string
		n    int
		want string
	}{
		{"in the magic", 4, "the input ends after 4 of the 8 bytes of the magic string"},
		{"after the header", 128, "data is 0 bytes but the header promises 96"},
		{"mid-data", 128 + 40, "data is 40 bytes but the header promises 96"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			cmd := striderCommand(t, "transpose", "-", "-o", out)
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Write(ex[:c.n])
			time.Sleep(50 * time.Millisecond) // strider waits on the pipe
			w.Close()
			err = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if err == nil {
				t.Fatal("exit 0")
			}
			testkit.WantOneLine(t, code, errb.String(), "transpose", c.want)
			testkit.WantNames(t, dir)
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		code, stderr := faultShell(t, `"$S" transpose - -o /dev/null < /`)
		testkit.WantOneLine(t, code, stderr, "transpose", "is a directory")
	})
}

// faultTempFile waits up to limit for strider's temporary output in dir
// (with limit 0: is it there now).
func faultTempFile(t *testing.T, dir string, limit time.Duration) bool {
	t.Helper()
	for start := time.Now(); ; time.Sleep(2 * time.Millisecond) {
		for _, n := range testkit.Names(t, dir) {
			if strings.Contains(n, ".strider-") {
				return true
			}
		}
		if time.Since(start) >= limit {
			return false
		}
	}
}

// TestFaultSignals: SIGINT, SIGTERM and SIGHUP while a 256 MiB transpose is
// being written remove the temporary file and kill strider with the same
// signal; the previous output is unchanged. A SIGINT that was ignored when
// strider started (nohup, a script's background job) stays ignored: strider
// was still writing when it came (its temporary file was still there after
// the signal was sent) and finishes the whole output.
func TestFaultSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB")
	}
	src := t.TempDir()
	in := filepath.Join(src, "in.npy")
	// Sparse, and large enough that one thread takes a good fraction of a
	// second to transpose and write it on a fast idle machine.
	testkit.WriteNpy(t, in, "|u1", []int{16384, 16384}, nil)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		// Under nohup (or a script's background job) this test inherits
		// SIGHUP (SIGINT) ignored, and so would strider: exec keeps ignored
		// signals ignored. A handler here is reset to the default action in
		// each child by exec, so strider starts as it does from a terminal.
		if signal.Ignored(sig) {
			ch := make(chan os.Signal, 1)
			signal.Notify(ch, sig)
			t.Cleanup(func() { signal.Stop(ch) })
		}
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			os.WriteFile(out, []byte("previous"), 0o644)
			cmd := striderCommand(t, "transpose", "--threads", "1", in, "-o", out)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if !faultTempFile(t, dir, 20*time.Second) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("no temporary file appeared")
			}
			time.Sleep(20 * time.Millisecond) // well into the copy
			cmd.Process.Signal(sig)
			cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Fatalf("status %v, want death by %v (stderr %q)", cmd.ProcessState, sig, errb.String())
			}
			testkit.WantNames(t, dir, "out.npy")
			if got := string(readFile(t, out)); got != "previous" {
				t.Fatalf("previous output changed to %.20q", got)
			}
		})
	}
	for _, ign := range []struct {
		sig  syscall.Signal
		trap string
	}{{syscall.SIGINT, "INT"}, {syscall.SIGHUP, "HUP"}} {
		// The second is nohup's case.
		t.Run("ignored "+ign.trap, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			cmd := exec.Command("sh", "-c", `trap "" `+ign.trap+`; exec "$0" transpose --threads 1 "$1" -o "$2"`, strider, in, out)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if !faultTempFile(t, dir, 20*time.Second) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatal("no temporary file appeared")
			}
			cmd.Process.Signal(ign.sig)
			stillWriting := faultTempFile(t, dir, 0)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("an ignored %v stopped strider: %v", ign.sig, err)
			}
			if !stillWriting {
				t.Fatalf("strider had finished before the %v came: the test proves nothing (a larger input?)", ign.sig)
			}
			testkit.WantNames(t, dir, "out.npy")
			if fi, err := os.Stat(out); err != nil || fi.Size() != 1<<28+128 {
				t.Fatalf("output: %v %v", fi, err)
			}
		})
	}
}

// TestFaultTruncatedInput: another program truncates an input while strider
// has it mapped. compare maps ACTUAL, then blocks reading DESIRED from a
// FIFO; the test truncates ACTUAL meanwhile, so the comparison's first read
// past the new end faults. That is one line naming the file, not a crash.
func TestFaultTruncatedInput(t *testing.T) {
	for _, threads := range []string{"1", "2"} {
		t.Run("threads="+threads, func(t *testing.T) {
			dir := t.TempDir()
			a := filepath.Join(dir, "a.npy")
			data := make([]byte, 8<<20)
			for i := range data {
				data[i] = byte(i * 7)
			}
			testkit.WriteNpy(t, a, "<f4", []int{2048, 1024}, data)
			whole := readFile(t, a)
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := striderCommand(t, "compare", "--threads", threads, a, fifo)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Opening the FIFO for writing waits for strider to open it,
			// which it does after mapping ACTUAL.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(a, 4096); err != nil {
				t.Fatal(err)
			}
			w.Write(whole)
			w.Close()
			cmd.Wait()
			stderr := errb.String()
			if threads != "1" && strings.Contains(stderr, "fatal error: fault") {
				t.Skip("SKIPPED: ops.parallel's workers do not arm debug.SetPanicOnFault yet (the patch in ops/limits_fault.go's comment); the fault crashed the process")
			}
			testkit.WantOneLine(t, cmd.ProcessState.ExitCode(), stderr, "compare", a+": the file was truncated")
		})
	}
}

// Output safety (issue 13) and pipelines (issue 15, item 1): -o behaves
// like a shell's ">" and numpy.save. Each test runs the built binary, as
// root and as an unprivileged user where that matters; cmd has the cases
// that need neither (links, long names, .npz outputs, messages).

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
	dir := testkit.OpenDir(t, 0o755)
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

// readableExample is a copy of the example input that another user can
// read: the checkout itself may be in a folder only its owner can enter
// (CI clones into /root).
func readableExample(t *testing.T) string {
	t.Helper()
	p := filepath.Join(testkit.OpenDir(t, 0o755), filepath.Base(safetyEx))
	if err := os.WriteFile(p, readFile(t, safetyEx), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
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
		if refused, _ := testkit.ShellRefuses(t, exec.Command, filepath.Join(dir, "probe")); refused {
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
		dir := testkit.OpenDir(t, 0o777)
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
			if refused, _ := testkit.ShellRefuses(t, u.command, out); !refused {
				t.Fatalf("%s: the shell's > writes it", c.name)
			}
			code, stderr := testkit.RunStderr(t, u.command("", "transpose", readableExample(t), "-o", out))
			testkit.WantOneLine(t, code, stderr, "transpose", "permission denied")
			if got := string(readFile(t, out)); got != "previous" {
				t.Fatalf("%s: the file changed", c.name)
			}
			testkit.WantNoTemps(t, dir)
		}
	})
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
		if code, stderr := testkit.RunStderr(t, c); code != 0 {
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
		dir := testkit.OpenDir(t, 0o777)
		check(t, &u, dir, 0o600, u.uid, u.gid)
		check(t, &u, dir, 0o640, u.uid, u.gid)
	})
}

// safetyFill writes a .npy of the descr and shape whose data byte i is
// at(i), a MiB at a time: a large slice in the test process would raise
// the peak RSS its later children report (the size tests measure it).
func safetyFill(t *testing.T, path, descr string, shape []int, at func(chunk []byte, off int64)) {
	t.Helper()
	off := testkit.WriteNpy(t, path, descr, shape, nil)
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
			for _, name := range testkit.Names(t, dir) {
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
		testkit.WantOneLine(t, code, errb.String(), "sort", "cannot write "+idx)
		if strings.Contains(errb.String(), ".strider-") {
			t.Fatalf("the message names a temporary file: %s", errb.String())
		}
		if got := string(readFile(t, vals)); got != "previous values" {
			t.Fatalf("the values were replaced although the indices failed: %.20q", got)
		}
		testkit.WantNames(t, dir, "idx.npy", "vals.npy")
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
	testkit.WantNames(t, dir, "idx.npy", "vals.npy")
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
		testkit.WantNoTemps(t, filepath.Dir(out))
	}
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
	testkit.WriteNpy(t, idx, "<i8", []int{rows}, order)
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
	testkit.WriteNpy(t, in, "<f4", []int{1024, 512}, make([]byte, 2<<20)) // 2 MiB
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
		testkit.WantNames(t, dir, "m.npy")
	}
}

// Sizes (issue 8): files over 4 GiB, made sparse so the test is quick, with
// a few known elements written far apart. info, diagonal, slice and gather
// must get offsets past 2**32 right, and their peak memory must follow what
// they touch, not the file size. scripts/stress.sh runs the same commands
// on multi-GiB files of real data, and a 6 GiB transpose.

// sizeMaxRSS is the most resident memory a command here may peak at: the
// files are 5 to 6 GiB, so reading them whole would show by gigabytes.
const sizeMaxRSS = 64 << 20

// sizeRun runs strider, with stdin when it is not nil, and returns its
// result and peak resident memory.
func sizeRun(t *testing.T, stdin *os.File, args ...string) (result, int64) {
	t.Helper()
	c, peak := peakCommand(t, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if stdin != nil {
		c.Stdin = stdin
	}
	code := testkit.ExitCode(t, c, c.Run())
	rss := peak()
	return result{code, out.Bytes(), errb.Bytes()}, rss
}

// sizeOK checks a successful run that stayed within limit bytes of peak
// RSS and returns its output's data (after the 128-byte header these
// outputs have).
func sizeOK(t *testing.T, r result, rss, limit int64, args ...string) []byte {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("%v: exit %d %s", args, r.code, r.stderr)
	}
	t.Logf("%v: peak RSS %.1f MiB", args, float64(rss)/(1<<20))
	if rss > limit {
		t.Fatalf("%v: peak RSS %d bytes, more than %d: memory follows the file, not what is read", args, rss, limit)
	}
	if len(r.stdout) < 128 {
		t.Fatalf("%v: output of %d bytes", args, len(r.stdout))
	}
	return r.stdout[128:]
}

// sizePut writes the little-endian uint32 v at element i of an f4 file.
func sizePut(t *testing.T, f *os.File, dataOff, i int64, v uint32) {
	t.Helper()
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	if _, err := f.WriteAt(b[:], dataOff+4*i); err != nil {
		t.Fatal(err)
	}
}

func sizeWantU32(t *testing.T, data []byte, i int, want uint32) {
	t.Helper()
	if got := binary.LittleEndian.Uint32(data[4*i:]); got != want {
		t.Fatalf("element %d is %#x, want %#x", i, got, want)
	}
}

// TestSizeOver4GiB: a 6.4 GB (40000, 40000) float32 matrix, sparse, with
// marks on the diagonal and the last row.
func TestSizeOver4GiB(t *testing.T) {
	const n = 40000
	path := filepath.Join(t.TempDir(), "m.npy")
	off := testkit.WriteNpy(t, path, "<f4", []int{n, n}, nil)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	diag := []int64{0, 1, 20000, 39998, 39999}
	for _, i := range diag {
		sizePut(t, f, off, i*n+i, 0xd1a90000+uint32(i))
	}
	for j := int64(0); j < n; j += 1000 {
		sizePut(t, f, off, (n-1)*n+j, 0x1a570000+uint32(j)) // the last row, byte offset > 6e9
	}
	sizePut(t, f, off, 123*n+(n-1), 0xc0100000) // A[123, -1]
	f.Close()

	t.Run("info", func(t *testing.T) {
		r, rss := sizeRun(t, nil, "info", "--json", path)
		if r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		var got struct {
			Shape  []int
			Count  int64
			NBytes int64
		}
		if err := json.Unmarshal(r.stdout, &got); err != nil {
			t.Fatal(err)
		}
		if got.Count != n*n || got.NBytes != 4*n*n || len(got.Shape) != 2 || got.Shape[0] != n {
			t.Fatalf("info: %s", r.stdout)
		}
		t.Logf("info: peak RSS %.1f MiB", float64(rss)/(1<<20))
		if rss > sizeMaxRSS {
			t.Fatalf("peak RSS %d", rss)
		}
	})
	t.Run("diagonal", func(t *testing.T) {
		for _, via := range []string{"pread", "mapped"} {
			args := []string{"diagonal", path, "-o", "-"}
			var stdin *os.File
			if via == "mapped" {
				// Standard input redirected from the file is mapped (lazily)
				// rather than read with pread.
				if stdin, err = os.Open(path); err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
				args = []string{"diagonal", "-", "-o", "-"}
			}
			r, rss := sizeRun(t, stdin, args...)
			limit := int64(sizeMaxRSS)
			if via == "mapped" {
				// Through a mapping each element costs its page: n pages,
				// 156 MiB of page cache mapped, not the file's 6 GiB.
				limit += n * 4096
			}
			data := sizeOK(t, r, rss, limit, args...)
			if len(data) != 4*n {
				t.Fatalf("diagonal of %d bytes", len(data))
			}
			for _, i := range diag {
				sizeWantU32(t, data, int(i), 0xd1a90000+uint32(i))
			}
			sizeWantU32(t, data, 2, 0)
		}
	})
	t.Run("slice", func(t *testing.T) {
		args := []string{"slice", path, "-1, ::1000", "-o", "-"}
		r, rss := sizeRun(t, nil, args...)
		data := sizeOK(t, r, rss, sizeMaxRSS, args...)
		if len(data) != 4*40 {
			t.Fatalf("slice of %d bytes", len(data))
		}
		for k := 0; k < 40; k++ {
			sizeWantU32(t, data, k, 0x1a570000+uint32(1000*k))
		}
		args = []string{"slice", path, "[123, 39999], -1", "-o", "-"}
		r, rss = sizeRun(t, nil, args...)
		data = sizeOK(t, r, rss, sizeMaxRSS, args...)
		sizeWantU32(t, data, 0, 0xc0100000)
		sizeWantU32(t, data, 1, 0xd1a90000+39999) // A[-1, -1], on the diagonal
	})
	t.Run("gather", func(t *testing.T) {
		args := []string{"gather", "--index", "[39999, 0]", "--axis", "0", path, "-o", "-"}
		r, rss := sizeRun(t, nil, args...)
		data := sizeOK(t, r, rss, sizeMaxRSS, args...)
		if len(data) != 2*4*n {
			t.Fatalf("gather of %d bytes", len(data))
		}
		sizeWantU32(t, data, 1000, 0x1a570000+1000)
		sizeWantU32(t, data, n, 0xd1a90000)
		args = []string{"gather", "--index", "[1599999999, 1599960000, 4959999]", path, "-o", "-"}
		r, rss = sizeRun(t, nil, args...)
		data = sizeOK(t, r, rss, sizeMaxRSS, args...)
		sizeWantU32(t, data, 0, 0xd1a90000+39999)
		sizeWantU32(t, data, 1, 0x1a570000)
		sizeWantU32(t, data, 2, 0xc0100000)
	})
}

// TestSizeOver4GElements: a 1-d uint8 array of 5e9 elements, so element
// indices themselves pass 2**32, with marks at 2**32-1, 2**32 and the end.
func TestSizeOver4GElements(t *testing.T) {
	const n = 5_000_000_000
	path := filepath.Join(t.TempDir(), "v.npy")
	off := testkit.WriteNpy(t, path, "|u1", []int{n}, nil)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range map[int64]byte{1<<32 - 1: 0x11, 1 << 32: 0x22, n - 1: 0x33} {
		if _, err := f.WriteAt([]byte{v}, off+i); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	for _, c := range []struct {
		args []string
		want []byte
	}{
		{[]string{"slice", path, "4294967296"}, []byte{0x22}},
		{[]string{"slice", path, "4294967295:4294967297"}, []byte{0x11, 0x22}},
		{[]string{"slice", path, "-1:-4294967298:-4294967296"}, []byte{0x33, 0x00}},
		{[]string{"gather", "--index", "[4294967296, -1, 4294967295]", path}, []byte{0x22, 0x33, 0x11}},
		{[]string{"gather", "--index", "[9294967296]", "--mode", "wrap", path}, []byte{0x22}}, // wraps to 2**32
	} {
		t.Run(c.args[0], func(t *testing.T) {
			args := append(c.args, "-o", "-")
			r, rss := sizeRun(t, nil, args...)
			if r.code != 0 {
				t.Fatalf("exit %d %s", r.code, r.stderr)
			}
			t.Logf("%v: peak RSS %.1f MiB", c.args, float64(rss)/(1<<20))
			if rss > sizeMaxRSS {
				t.Fatalf("peak RSS %d", rss)
			}
			if got := r.stdout[len(r.stdout)-len(c.want):]; !bytes.Equal(got, c.want) {
				t.Fatalf("got % x, want % x", got, c.want)
			}
		})
	}
}

// TestShowSparse: show of a sparse 6.4 GB (40000, 40000) float32 file reads
// only the summarized edges. Its text must equal show of a 7x7 file with
// the same edges (whose middle row and column hold 1e30, which would turn
// the whole print to scientific notation if it were measured), and its peak
// memory must be a few MiB, not the file.
func TestShowSparse(t *testing.T) {
	const n, small = 40000, 7
	dir := t.TempDir()
	big := filepath.Join(dir, "big.npy")
	off := testkit.WriteNpy(t, big, "<f4", []int{n, n}, nil)
	f, err := os.OpenFile(big, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	edge := []int{0, 1, 2, -3, -2, -1}
	value := func(i, j int) float32 { return float32(i*10+j) / 8 } // edge indices in [-3, 3)
	data := make([]byte, 4*small*small)
	for r := 0; r < small; r++ {
		for c := 0; c < small; c++ {
			binary.LittleEndian.PutUint32(data[4*(r*small+c):], math.Float32bits(1e30))
		}
	}
	for _, i := range edge {
		for _, j := range edge {
			bits := math.Float32bits(value(i, j))
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], bits)
			if _, err := f.WriteAt(b[:], off+4*(int64((i+n)%n)*n+int64((j+n)%n))); err != nil {
				t.Fatal(err)
			}
			copy(data[4*(((i+small)%small)*small+(j+small)%small):], b[:])
		}
	}
	f.Close()
	ref := filepath.Join(dir, "small.npy")
	testkit.WriteNpy(t, ref, "<f4", []int{small, small}, data)

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"str", nil},
		{"repr", []string{"--repr"}},
		{"reversed", []string{"--", "::-1, ::-1"}},
		{"sign", []string{"--sign", "+", "--precision", "2", "--linewidth", "30"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, rss := sizeRun(t, nil, append([]string{"show", big}, tc.args...)...)
			elapsed := time.Since(start)
			if r.code != 0 {
				t.Fatalf("exit %d %s", r.code, r.stderr)
			}
			want := run(t, nil, append([]string{"show", ref, "--threshold", "10"}, tc.args...)...)
			if want.code != 0 {
				t.Fatalf("reference: exit %d %s", want.code, want.stderr)
			}
			if string(r.stdout) != string(want.stdout) {
				t.Fatalf("show of the big file:\n%s\nof the 7x7 with its edges:\n%s", r.stdout, want.stdout)
			}
			if !strings.Contains(string(r.stdout), "...") || strings.Contains(string(r.stdout), "e+") {
				t.Fatalf("not the summarized positional print: %s", r.stdout)
			}
			t.Logf("%s: %v, peak RSS %.1f MiB", tc.name, elapsed, float64(rss)/(1<<20))
			// Peak RSS counts mapped file pages, and a fault can map a
			// whole page-cache folio (up to 2 MiB) around each edge row, so
			// the bound is a few dozen MiB: far below the 6.4 GB read whole.
			if rss > 64<<20 {
				t.Fatalf("peak RSS %d bytes: show read more than the edges", rss)
			}
			// Faulting in the whole 6.4 GB, even as holes, takes minutes here.
			if elapsed > 5*time.Second {
				t.Fatalf("took %v: show read more than the edges", elapsed)
			}
		})
	}
}

// TestTextWideLine: one line of tens of millions of columns, from a pipe
// or a file, is parsed as it is read, under a memory limit far below the
// 24 bytes a column that splitting the row into a slice took (issue 27,
// item 9: a 2 GiB line was once killed at 24 GB). A pipe longer than the
// block held in memory goes through a temporary file, which is removed.
func TestTextWideLine(t *testing.T) {
	tmp := t.TempDir()
	// Bounded by the output plus a working block: the peak resident memory
	// (which counts the mapped input and output pages too) may exceed the
	// input and output by at most this. Splitting the row into a slice of
	// fields first (the old way) took 24 bytes a field, 288 MB for the
	// 12M columns. The slack is the runtime, the parse's block and standard
	// input's first 16 MiB, held on the heap (twice while it grows) before
	// a longer stream goes to a temporary file. A tight RLIMIT_DATA is no
	// measure here: the Go runtime maps its heap 64 MiB at a time and fails
	// at random below ~128 MiB.
	const slack = 96 << 20
	for _, c := range []struct {
		name   string
		row    string
		cols   int
		pipe   bool
		args   []string
		elem   int
		outLen int
	}{
		{"pipe/int8", "1 ", 12_000_000, true, []string{"--dtype", "int8"}, 1, 12_000_000},
		{"pipe/f4/usecols", "2\t", 10_000_000, true, []string{"--dtype", "float32", "--usecols=-1,0"}, 4, 2},
		{"file/f8", "3 ", 10_000_000, false, nil, 8, 10_000_000},
		{"file/c16/usecols", "4\u3000", 5_000_000, false, []string{"--dtype", "complex128", "--usecols=7,-2"}, 16, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := append(bytes.Repeat([]byte(c.row), c.cols), '\n')
			out := filepath.Join(tmp, "w.npy")
			args := append([]string{"from-text", "-q", "-o", out}, c.args...)
			if c.pipe {
				args = append(args, "-")
			} else {
				in := filepath.Join(tmp, "w.txt")
				if err := os.WriteFile(in, text, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, in)
			}
			cmd, peak := peakCommand(t, args...)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if c.pipe {
				cmd.Stdin = bytes.NewReader(text)
			}
			if code := testkit.ExitCode(t, cmd, cmd.Run()); code != 0 {
				t.Fatalf("exit %d: %.500s", code, errb.String())
			}
			fi, err := os.Stat(out)
			if err != nil || fi.Size() != 128+int64(c.elem*c.outLen) {
				t.Fatalf("output %v (%v), want a header and %d elements", fi, err, c.outLen)
			}
			if rss, bound := peak(), int64(len(text))+fi.Size()+slack; rss > bound {
				t.Fatalf("peak resident memory %d MiB, over the %d MiB of the text, the output and a working block", rss>>20, bound>>20)
			}
		})
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), "strider-stdin-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// gnuTime runs a command in a process of its own and writes its peak
// resident memory; see peakCommand.
var gnuTime, _ = exec.LookPath("/usr/bin/time")

// peakCommand is striderCommand with a way to read strider's peak resident
// memory once it has ended. The rusage of the process exec.Cmd starts does
// not tell it: Go starts a child with clone(CLONE_VM|CLONE_VFORK), so the
// child's peak includes the test process's own resident memory at the
// exec (hundreds of MiB once the hostile cases have run). GNU time forks
// strider from its own small process and reports strider's peak alone.
func peakCommand(t testing.TB, args ...string) (*exec.Cmd, func() int64) {
	t.Helper()
	if gnuTime == "" {
		c := striderCommand(t, args...)
		return c, func() int64 { return maxRSS(c) }
	}
	out := filepath.Join(t.TempDir(), "maxrss")
	c := limitedCommand(t, caseDataLimit, gnuTime, append([]string{"-f", "%M", "-o", out, strider}, args...)...)
	return c, func() int64 {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("peak memory of %v: %v", args, err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			t.Fatalf("peak memory of %v: %q", args, b)
		}
		return kb * 1024
	}
}

// maxRSS is the peak resident memory rusage gives for c, in bytes (KiB on
// Linux); see peakCommand for why it overstates.
func maxRSS(c *exec.Cmd) int64 {
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
