package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"strider/internal/testkit"
)

// The end-to-end tests: strider's built binary, run as users and scripts
// run it, for what an in-process run (cmd's tests, through cmd.Run) cannot
// show: memory limits, endless standard input, the environment read at
// package initialisation (STRIDER_DIRECT_*), the build information, the
// shells' completion calling the binary, and several processes writing one
// archive. main_hostile_test.go holds those that need Linux (tmpfs mounts,
// signals, SIGPIPE, FIFOs, other users, a terminal, peak memory) and the
// hostile pass. docs/testing.md says where every other test lives.

// strider is the binary TestMain builds.
var strider string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "strider-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	strider = filepath.Join(dir, "strider")
	// Built as the releases are (scripts/release.sh): without cgo, so that
	// net/http (remote inputs) links no C resolver, whose threads and
	// malloc arenas would add 83 MB of data and 480 MB of address space at
	// start-up, under the memory limits the tests set.
	build := exec.Command("go", "build", "-o", strider, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary gave.
type result struct {
	code           int
	stdout, stderr []byte
}

// run runs the binary with args under striderCommand's limits, standard
// input from stdin (/dev/null when nil).
func run(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	c := striderCommand(t, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	code := testkit.ExitCode(t, c, c.Run())
	return result{code, out.Bytes(), errb.Bytes()}
}

// wantError checks the contract for failures: exit 2, one line on stderr
// starting with "strider: <command>: ", nothing on stdout.
func wantError(t *testing.T, r result, command string) {
	t.Helper()
	testkit.WantError(t, r.code, r.stdout, r.stderr, command)
}

// Every end-to-end case runs strider under a deadline and a memory limit,
// so that a hang or a runaway allocation fails that case with a message
// instead of stalling the suite or waking the out-of-memory killer.
const (
	// caseDeadline is far above any case's time (the largest, the 6 GiB
	// transposes of TestSizeOver4GiB, take seconds).
	caseDeadline = 3 * time.Minute
	// caseDataLimit is RLIMIT_DATA: the heap and every other private
	// writable mapping. Inputs and outputs are shared file mappings, which
	// it does not count, so the multi-GiB cases run under it.
	caseDataLimit = 3 << 30
)

// striderCommand is exec.Command(strider, args...) under the case's
// deadline and memory limit.
func striderCommand(t testing.TB, args ...string) *exec.Cmd {
	return limitedCommand(t, caseDataLimit, strider, args...)
}

// limitedCommand runs name under the case's deadline and an RLIMIT_DATA of
// dataLimit bytes (testkit.Command). Without prlimit (not Linux) only the
// deadline applies.
func limitedCommand(t testing.TB, dataLimit int64, name string, args ...string) *exec.Cmd {
	return testkit.Command(t, caseDeadline, dataLimit, name, args...)
}

// readFile fails the test when the file cannot be read.
var readFile = testkit.ReadFile

// TestMemoryLimitsHonoured: an input on standard input is read into memory;
// under RLIMIT_DATA or RLIMIT_AS too low for it, strider refuses in one line
// up front instead of dying of Go's "fatal error: out of memory".
func TestMemoryLimitsHonoured(t *testing.T) {
	if testkit.Prlimit == "" {
		t.Skip("needs prlimit (Linux)")
	}
	const n = 64 << 20 // float32 elements: 256 MiB of data
	stream := append(testkit.SaveHeader("<f4", false, []int{n}), make([]byte, 4*n)...)
	for _, c := range []struct {
		name  string
		limit []string
	}{
		{"RLIMIT_DATA", []string{"--data=" + strconv.Itoa(160<<20)}},
		{"RLIMIT_AS", []string{"--as=" + strconv.Itoa(1500<<20)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(c.limit, "--", strider, "transpose", "-", "-o", "-")
			cmd := limitedCommand(t, caseDataLimit, testkit.Prlimit, args...)
			var out, errb bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stream), &out, &errb
			r := result{testkit.ExitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			wantError(t, r, "transpose")
			if !strings.Contains(string(r.stderr), "memory") {
				t.Fatalf("refusal does not say memory: %q", r.stderr)
			}
		})
	}
}

// endless is a stream that never ends, as `yes` writes.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// TestEndlessInputsAnswer: a stream or a character device that is not a
// .npy is refused at once, not drained first (issue 27, item 1); an endless
// stream that looks like an archive is refused once it outgrows the memory
// check.
func TestEndlessInputsAnswer(t *testing.T) {
	for _, c := range []struct {
		name  string
		stdin io.Reader
		args  []string
	}{
		{"yes|info", endless{'y'}, []string{"info", "-"}},
		{"yes|show", endless{'y'}, []string{"show", "-"}},
		{"yes|stats", endless{'y'}, []string{"stats", "-"}},
		{"zero|info", endless{0}, []string{"info", "-"}},
		{"info/dev/urandom", nil, []string{"info", "/dev/urandom"}},
		{"info/dev/zero", nil, []string{"info", "/dev/zero"}},
		{"show/dev/zero", nil, []string{"show", "/dev/zero"}},
		{"zip|info", io.MultiReader(strings.NewReader("PK\x03\x04"), endless{0}), []string{"info", "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.stdin == nil {
				if _, err := os.Stat(c.args[1]); err != nil {
					t.Skip(err)
				}
			}
			// The zip case reads up to half the memory limit first.
			cmd := testkit.Command(t, 20*time.Second, 1<<30, strider, c.args...)
			var out, errb bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = c.stdin, &out, &errb
			r := result{testkit.ExitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			wantError(t, r, c.args[0])
		})
	}
}

// TestStreamArchiveSpilled: an archive on standard input past the 16 MiB
// held on the heap goes to a temporary file, and is read to its end record
// only: a 48 MiB member (a stored zip entry whose size follows its data, as
// Go's and PyTorch's zip writers write them), then endless zeros after the
// archive, under a memory limit the archive would not fit in twice.
func TestStreamArchiveSpilled(t *testing.T) {
	if testkit.Prlimit == "" {
		t.Skip("needs prlimit (Linux)")
	}
	const n = 12 << 20 // float32 elements: 48 MiB
	data := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i%1000)))
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "a.npy", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(append(testkit.SaveHeader("<f4", false, []int{n}), data...))
	zw.Close()
	// 200 MiB, and the 32 MiB that crypto/internal/fips140/drbg.memory
	// (untouched BSS, linked with net/http's TLS for remote inputs) adds to
	// every process's data segment, which RLIMIT_DATA counts.
	cmd := testkit.Command(t, 60*time.Second, (200+32)<<20, strider, "stats", "--json", "-")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.MultiReader(&z, io.LimitReader(endless{0}, 1<<30)), &out, &errb
	r := result{testkit.ExitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(string(r.stdout), `"count":12582912`) || !strings.Contains(string(r.stdout), `"max":999`) {
		t.Fatalf("stats: %s", r.stdout)
	}
}

// TestDirectOutputs: with STRIDER_DIRECT_MIN=1 every file output that can
// be computed in pieces (transpose, slice, diagonal, gather, tri, reshape,
// cast, concat, stack) is written piece by piece with write(2) (the path
// outputs of 128 MiB and more take); its bytes must be those of the mapped
// output, and nothing but the output is left in the folder. (A result whose
// parts, rows of concat --axis 1 or gather, exceed the piece is mapped as
// before: two cases, concat of 128-byte rows and gather of 192-byte ones,
// check that path gives the same bytes too.) The parity
// suite runs whole with the same setting in scripts/test.sh.
func TestDirectOutputs(t *testing.T) {
	cases := [][]string{
		{"transpose", "testdata/roundtrip_f4le_2x3x4_f.npy"},
		{"transpose", "--axes", "0,2,1", "testdata/example_f4_2x3x4_c.npy"},
		{"transpose", "--order", "keep", "testdata/roundtrip_c16be_2x3x4_f.npy"},
		{"slice", "testdata/roundtrip_i2be_2x3x4_c.npy", "::-1, 1:, ::2"},
		{"diagonal", "--offset", "-1", "testdata/roundtrip_u8le_3x4_c.npy"},
		{"gather", "--index", "[2, 0, 2, 1]", "--axis", "1", "testdata/roundtrip_f4be_3x4_f.npy"},
		{"gather", "--index", "1", "testdata/roundtrip_b1_3x4_c.npy"},
		{"tril-indices", "300", "200", "--offset", "-3"},
		{"cast", "--dtype", "c8", "testdata/roundtrip_i4be_3x4_f.npy"},
		{"concat", "--axis", "1", "testdata/roundtrip_f4be_3x4_f.npy", "testdata/roundtrip_i2le_3x4_c.npy"},
		{"concat", "--axis", "0", "testdata/roundtrip_u2be_3x4_c.npy", "testdata/roundtrip_u1_3x4_f.npy"},
		{"stack", "--axis", "-1", "testdata/roundtrip_c8le_3x4_c.npy", "testdata/roundtrip_c16be_3x4_f.npy"},
		{"stack", "testdata/roundtrip_i8be_3x4_f.npy", "testdata/roundtrip_i8le_3x4_c.npy"},
		{"reshape", "--order", "F", "testdata/roundtrip_f8be_3x4_f.npy", "2,6"},
		{"concat", "--axis", "1", "testdata/roundtrip_f8be_3x4_f.npy", "testdata/roundtrip_f8le_3x4_c.npy", "testdata/roundtrip_c16le_3x4_c.npy"},
		{"gather", "--index", "[1, 0, 1]", "--axis", "0", "testdata/roundtrip_c16be_2x3x4_f.npy"},
		{"transpose", "testdata/roundtrip_f8le_0x3_c.npy"},
		{"transpose", "testdata/roundtrip_f8le_scalar_c.npy"},
	}
	dir := t.TempDir()
	for _, args := range cases {
		t.Run(args[0], func(t *testing.T) {
			var outs [2][]byte
			for k, env := range []string{"STRIDER_DIRECT_MIN=", "STRIDER_DIRECT_MIN=1 STRIDER_DIRECT_PIECE=64"} {
				out := filepath.Join(dir, "out.npy")
				if err := os.WriteFile(out, []byte("old"), 0o604); err != nil {
					t.Fatal(err)
				}
				c := striderCommand(t, append(append([]string{}, args...), "-o", out)...)
				c.Env = append(os.Environ(), strings.Fields(env)...)
				var stderr bytes.Buffer
				c.Stderr = &stderr
				if err := c.Run(); err != nil {
					t.Fatalf("%s %v: %v, %s", env, args, err, stderr.Bytes())
				}
				outs[k] = readFile(t, out)
				if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o604 {
					t.Fatalf("%s: mode %v, want 0604 kept", env, fi.Mode().Perm())
				}
				if entries, _ := os.ReadDir(dir); len(entries) != 1 {
					t.Fatalf("%s: the folder holds %d entries, want the output alone", env, len(entries))
				}
			}
			if len(outs[0]) < 128 || !bytes.Equal(outs[0], outs[1]) {
				t.Fatalf("the output written in pieces (%d bytes) differs from the mapped one (%d bytes)", len(outs[1]), len(outs[0]))
			}
		})
	}
}

// versionLines runs a strider binary with --version and returns its lines
// by key ("strider version" for the first), checking their order.
func versionLines(t *testing.T, r result) map[string]string {
	t.Helper()
	if r.code != 0 || len(r.stderr) != 0 {
		t.Fatalf("--version: exit %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
	keys := []string{"strider version", "commit", "modified", "date", "go", "platform"}
	if len(lines) != len(keys) {
		t.Fatalf("--version printed %d lines, want %d: %q", len(lines), len(keys), r.stdout)
	}
	fields := map[string]string{}
	for k, key := range keys {
		value, ok := strings.CutPrefix(lines[k], key+" ")
		if !ok || value == "" {
			t.Fatalf("--version line %d is %q, want %q and a value", k+1, lines[k], key+" ")
		}
		fields[key] = value
	}
	return fields
}

// buildInfo is what `go version -m` reads from a binary: the main module's
// version, the Go version and the build settings.
func buildInfo(t *testing.T, binary string) (module, goVersion string, settings map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	settings = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for first := true; sc.Scan(); first = false {
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		switch {
		case first:
			_, goVersion, _ = strings.Cut(sc.Text(), ": ")
		case f[0] == "mod" && len(f) >= 3:
			module = f[2]
		case f[0] == "build" && len(f) == 2:
			k, v, _ := strings.Cut(f[1], "=")
			settings[k] = v
		}
	}
	return module, goVersion, settings
}

// orUnknown is s, or "unknown" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// TestVersionFromBuildInfo: --version (and -v) of the binary TestMain
// built with a plain go build says what its build information holds: the
// module's version, the commit, whether the tree was modified, the
// commit's time, the Go version and the platform; in a git checkout the
// commit is one of the repository's and the date its commit time.
func TestVersionFromBuildInfo(t *testing.T) {
	got := versionLines(t, run(t, nil, "--version"))
	if short := run(t, nil, "-v"); !bytes.Equal(short.stdout, []byte(strings.Join([]string{
		"strider version " + got["strider version"], "commit " + got["commit"], "modified " + got["modified"],
		"date " + got["date"], "go " + got["go"], "platform " + got["platform"]}, "\n")+"\n")) {
		t.Errorf("-v prints %q, --version %v", short.stdout, got)
	}
	module, goVersion, settings := buildInfo(t, strider)
	version := module
	if version == "" || version == "(devel)" {
		version = "devel"
	}
	want := map[string]string{
		"strider version": version,
		"commit":          orUnknown(settings["vcs.revision"]),
		"modified":        orUnknown(settings["vcs.modified"]),
		"date":            orUnknown(settings["vcs.time"]),
		"go":              goVersion,
		"platform":        settings["GOOS"] + "/" + settings["GOARCH"],
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("--version says %s %q, the build information %q", k, got[k], v)
		}
	}
	if got["platform"] != runtime.GOOS+"/"+runtime.GOARCH || got["go"] != runtime.Version() {
		t.Errorf("--version says go %s on %s; this is %s on %s/%s", got["go"], got["platform"], runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath("git"); err != nil || exec.Command("git", "rev-parse", "--git-dir").Run() != nil {
		t.Skip("SKIPPED: not a git checkout: the commit is not checked against the repository")
	}
	if got["commit"] == "unknown" {
		t.Fatalf("a go build in a git checkout gave no commit: %v", got)
	}
	// Others may commit meanwhile: the commit need not be HEAD, but it must
	// be the repository's, and the date its commit time.
	out, err := exec.Command("git", "show", "-s", "--format=%cI", got["commit"]).Output()
	if err != nil {
		t.Fatalf("git show %s: %v", got["commit"], err)
	}
	when, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	if d := when.UTC().Format(time.RFC3339); got["date"] != d {
		t.Errorf("date %s, the commit's time %s", got["date"], d)
	}
	if got["modified"] != "true" && got["modified"] != "false" {
		t.Errorf("modified %q in a git checkout", got["modified"])
	}
}

// TestVersionReleaseBuilds: a release build's -X strider/cmd.Version is the
// version, and a -trimpath build keeps the commit; a build without VCS
// information says devel and unknown, and still exits 0.
func TestVersionReleaseBuilds(t *testing.T) {
	dir := t.TempDir()
	build := func(name string, args ...string) string {
		out := filepath.Join(dir, name)
		c := exec.Command("go", append(append([]string{"build"}, args...), "-o", out, ".")...)
		if msg, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", args, err, msg)
		}
		return out
	}
	runBinary := func(binary string) result {
		c := limitedCommand(t, caseDataLimit, binary, "--version")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		return result{testkit.ExitCode(t, c, c.Run()), out.Bytes(), errb.Bytes()}
	}

	release := build("strider-release", "-trimpath", "-ldflags=-X strider/cmd.Version=9.8.7-test")
	got := versionLines(t, runBinary(release))
	_, _, settings := buildInfo(t, release)
	if got["strider version"] != "9.8.7-test" {
		t.Errorf("-X strider/cmd.Version=9.8.7-test: version %q", got["strider version"])
	}
	if settings["-trimpath"] != "true" || got["commit"] != orUnknown(settings["vcs.revision"]) || got["date"] != orUnknown(settings["vcs.time"]) {
		t.Errorf("-trimpath build: --version %v, build information %v", got, settings)
	}
	if _, _, plain := buildInfo(t, strider); plain["vcs.revision"] != "" && got["commit"] == "unknown" {
		t.Errorf("-trimpath lost the commit a plain build has (%s)", plain["vcs.revision"])
	}

	noVCS := build("strider-novcs", "-buildvcs=false")
	got = versionLines(t, runBinary(noVCS))
	for k, v := range map[string]string{"strider version": "devel", "commit": "unknown", "modified": "unknown", "date": "unknown"} {
		if got[k] != v {
			t.Errorf("-buildvcs=false: %s %q, want %q", k, got[k], v)
		}
	}
}

// shellQuote is s in single quotes, for a bash command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestBashCompletionEndToEnd sources the script strider prints in bash,
// sets the completion variables as bash sets them when Tab is pressed at
// the end of a line (bash splits x.npz:name into three words at the ':'),
// calls the function and reads COMPREPLY: what bash inserts after the last
// ':' or '=' of the word, quoted for the command line.
func TestBashCompletionEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPED: no bash")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "strider.bash")
	r := run(t, nil, "completion", "bash")
	if r.code != 0 {
		t.Fatalf("completion bash: exit %d %q", r.code, r.stderr)
	}
	if err := os.WriteFile(script, r.stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	os.WriteFile(filepath.Join(work, "m.npy"), nil, 0o644)
	// Member names a shell would run if it evaluated them, and one that
	// needs quoting; strider reads only the archive's directory.
	names := []string{"w.npy", "w2.npy", "$(touch pwned).npy", "`touch pwned2`.npy", "a b.npy", "x:y.npy"}
	testkit.WriteZipNames(t, filepath.Join(work, "a.npz"), names...)
	for _, tc := range []struct {
		name  string
		words []string // as bash splits the line; the line is them joined, a space where one is ""
		want  []string // all of these in COMPREPLY
		miss  []string // none of these
	}{
		{"commands", []string{"strider", " ", "tr"}, []string{"transpose", "tril-indices", "triu-indices"}, []string{"sort"}},
		{"all commands", []string{"strider", " ", ""}, []string{"completion", "compare", "help"}, []string{"--help"}},
		{"app options", []string{"strider", " ", "-"}, []string{"--version", "--help"}, nil},
		{"options", []string{"strider", " ", "sort", " ", "--n"}, []string{"--nans"}, []string{"--axis", "m.npy"}},
		{"options and files", []string{"strider", " ", "sort", " ", ""}, []string{"--axis", "-o", "m.npy", "a.npz"}, []string{"first"}},
		{"values", []string{"strider", " ", "sort", " ", "m.npy", " ", "--nans", " ", ""}, []string{"first", "last"}, []string{"--axis", "m.npy"}},
		{"--device", []string{"strider", " ", "transpose", " ", "--device", " ", "c"}, []string{"cpu", "cuda"}, []string{"--axes"}},
		{"--casting", []string{"strider", " ", "cast", " ", "--casting", " ", "s"}, []string{"safe", "same_kind"}, []string{"unsafe"}},
		{"--dtype", []string{"strider", " ", "cast", " ", "--dtype", " ", "uint"}, []string{"uint8", "uint16", "uint32", "uint64"}, []string{"int8"}},
		{"--dtype=", []string{"strider", " ", "cast", " ", "--dtype", "=", "fl"}, []string{"float16", "float32", "float64"}, []string{"--dtype=float32"}},
		{"--sign", []string{"strider", " ", "show", " ", "--sign", " ", ""}, []string{"-", "+", `\ `}, nil},
		{"a number", []string{"strider", " ", "sort", " ", "--axis", " ", ""}, nil, []string{"m.npy", "--axis"}},
		{"completion", []string{"strider", " ", "completion", " ", ""}, []string{"bash", "zsh", "fish", "powershell"}, nil},
		{"help", []string{"strider", " ", "help", " ", "so"}, []string{"sort"}, nil},
		{"files", []string{"strider", " ", "gather", " ", "--indices", " ", "m"}, []string{"m.npy"}, []string{"--axis"}},
		{"members", []string{"strider", " ", "show", " ", "a.npz", ":"}, []string{"w", "w2", `\$\(touch\ pwned\)`, "\\`touch\\ pwned2\\`", `a\ b`, "x:y"}, []string{"a.npz:w", "m.npy"}},
		{"member prefix", []string{"strider", " ", "show", " ", "a.npz", ":", "w"}, []string{"w", "w2"}, []string{`a\ b`}},
		{"member after a second :", []string{"strider", " ", "show", " ", "a.npz", ":", "x", ":"}, []string{"y"}, []string{"w"}},
		{"members of a quoted path", []string{"strider", " ", "show", " ", "'a.npz'", ":", "a"}, []string{`a\ b`}, []string{"w"}},
		{"members in double quotes", []string{"strider", " ", "show", " ", `"a.npz:$`}, []string{`a.npz:\$(touch pwned)`}, []string{"w"}},
		{"members in single quotes", []string{"strider", " ", "show", " ", `'a.npz:`}, []string{"a.npz:$(touch pwned)", "a.npz:a b"}, nil},
		{"members of an output", []string{"strider", " ", "sort", " ", "-o", " ", "a.npz", ":", ""}, []string{"w", "w2"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var words []string
			line := ""
			for k, p := range tc.words {
				if p == " " {
					line += " "
					if k == len(tc.words)-1 || tc.words[k+1] == " " {
						words = append(words, "")
					}
					continue
				}
				line += p
				words = append(words, p)
			}
			quoted := make([]string, len(words))
			for k, w := range words {
				quoted[k] = shellQuote(w)
			}
			cmdline := `source "$SCRIPT"; PATH="$BIN:$PATH"; cd "$WORK"; ` +
				`COMP_WORDS=(` + strings.Join(quoted, " ") + `); COMP_CWORD=` + strconv.Itoa(len(words)-1) +
				`; COMP_LINE=` + shellQuote(line) + `; COMP_POINT=` + strconv.Itoa(len(line)) +
				`; _strider_complete; printf '%s\n' "${COMPREPLY[@]}"`
			c := limitedCommand(t, caseDataLimit, "bash", "--norc", "--noprofile", "-c", cmdline)
			c.Env = append(os.Environ(), "SCRIPT="+script, "BIN="+filepath.Dir(strider), "WORK="+work)
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if code := testkit.ExitCode(t, c, c.Run()); code != 0 || errb.Len() > 0 {
				t.Fatalf("bash: exit %d, stderr %q", code, errb.String())
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("COMPREPLY %q, want %q among them", got, w)
				}
			}
			for _, w := range tc.miss {
				if slices.Contains(got, w) {
					t.Errorf("COMPREPLY %q, want no %q", got, w)
				}
			}
		})
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(work, f)); err == nil {
			t.Errorf("a member's name was run: %s exists", f)
		}
	}
}

// TestBashCompletion runs scripts/bash_autocomplete's function in bash with
// the built binary as strider.
func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPED: no bash")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.npy"), nil, 0o644)
	for _, tc := range []struct {
		words      []string // the line up to the cursor; the last is the word being completed
		want, miss []string
	}{
		{[]string{""}, []string{"transpose", "sort", "gather-elements", "help"}, []string{"--axis"}},
		{[]string{"tr"}, []string{"transpose", "tril-indices", "triu-indices"}, []string{"sort"}},
		{[]string{"sort", ""}, []string{"--axis", "--descending", "--nans", "-o", "m.npy"}, []string{"help"}},
		{[]string{"sort", "--n"}, []string{"--nans"}, []string{"--axis", "m.npy"}},
		{[]string{"sort", "m.npy", "--nans", ""}, []string{"first", "last"}, []string{"--axis"}},
		{[]string{"transpose", "--device", "c"}, []string{"cpu", "cuda"}, []string{"--axes"}},
		{[]string{"compare", "--"}, []string{"--rtol", "--equal-nan", "--exact"}, []string{"--axis"}},
		{[]string{"gather", "--indices", "m"}, []string{"m.npy"}, []string{"--axis"}},
		{[]string{"help", ""}, []string{"compare"}, nil},
	} {
		t.Run(strings.Join(tc.words, " "), func(t *testing.T) {
			words := append([]string{"strider"}, tc.words...)
			quoted := make([]string, len(words))
			for k, w := range words {
				quoted[k] = "'" + w + "'"
			}
			script := `source scripts/bash_autocomplete; PATH="$BIN:$PATH"; cd "$DIR"; ` +
				`COMP_WORDS=(` + strings.Join(quoted, " ") + `); COMP_CWORD=` + strconv.Itoa(len(words)-1) + `; ` +
				`_strider_complete; printf '%s\n' "${COMPREPLY[@]}"`
			c := exec.Command("bash", "-c", script)
			wd, _ := os.Getwd()
			c.Env = append(os.Environ(), "BIN="+filepath.Dir(strider), "DIR="+dir)
			c.Dir = wd
			out, err := c.CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v %s", err, out)
			}
			got := strings.Fields(string(out))
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("offers %q, want %q among them", got, w)
				}
			}
			for _, w := range tc.miss {
				if slices.Contains(got, w) {
					t.Errorf("offers %q, want no %q", got, w)
				}
			}
		})
	}
}

// TestScriptKnobs: scripts/test.sh refuses an unknown PARITY before doing
// anything, and scripts/cuda-check.sh without nvcc says how to get it and
// installs nothing unless asked (--install).
func TestScriptKnobs(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPED: no bash")
	}
	c := exec.Command("bash", "scripts/test.sh")
	c.Env = append(os.Environ(), "PARITY=huge")
	out, err := c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || string(out) != "PARITY=huge: expected quick, full or deep\n" {
		t.Fatalf("PARITY=huge: %v, %q", err, out)
	}
	c = exec.Command("bash", "scripts/cuda-check.sh")
	c.Env = append(os.Environ(), "NVCC=/nonexistent/nvcc")
	out, err = c.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 ||
		!strings.Contains(string(out), "/nonexistent/nvcc not found") || !strings.Contains(string(out), "STRIDER_SKIP_CUDA=1") || strings.Contains(string(out), "installing") {
		t.Fatalf("cuda-check.sh without nvcc: %v, %q", err, out)
	}
}
