package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// These tests run the real binary, as users and scripts do.
var strider string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "strider-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	strider = filepath.Join(dir, "strider")
	if out, err := exec.Command("go", "build", "-o", strider, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	code           int
	stdout, stderr []byte
}

func run(t *testing.T, stdin []byte, args ...string) result {
	t.Helper()
	c := striderCommand(t, args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	code := exitCode(t, c, c.Run())
	return result{code, out.Bytes(), errb.Bytes()}
}

// wantError checks the contract for failures: exit 2, one line on stderr
// starting with "strider: <command>: ", nothing on stdout.
func wantError(t *testing.T, r result, command string) {
	t.Helper()
	if r.code != 2 {
		t.Fatalf("exit %d, want 2 (stderr %q)", r.code, r.stderr)
	}
	if len(r.stdout) != 0 {
		t.Fatalf("stdout not empty on error: %q", r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.stderr), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: "+command+": ") || !strings.HasSuffix(string(r.stderr), "\n") {
		t.Fatalf("stderr is not one 'strider: %s: ...' line: %q", command, r.stderr)
	}
	if strings.Contains(string(r.stderr), "goroutine") || strings.Contains(string(r.stderr), "panic") {
		t.Fatalf("stderr shows a panic: %q", r.stderr)
	}
}

// wantInfoRefusal checks info on a file it cannot fully accept: exit 2,
// one "strider: info: " line on stderr, and on stdout at most the one line
// that describes the header it could read (a refused dtype).
func wantInfoRefusal(t *testing.T, r result) {
	t.Helper()
	if r.code != 2 {
		t.Fatalf("exit %d, want 2 (stderr %q)", r.code, r.stderr)
	}
	if n := strings.Count(string(r.stdout), "\n"); n > 1 || n == 1 && !strings.Contains(string(r.stdout), "cannot compute on it") {
		t.Fatalf("stdout is not one description of a refused dtype: %q", r.stdout)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.stderr), "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: info: ") || strings.Contains(string(r.stderr), "panic") {
		t.Fatalf("stderr is not one 'strider: info: ...' line: %q", r.stderr)
	}
}

// TestInfoForgiving: info goes on past bad files, describes what it can,
// and exits 2 at the end.
func TestInfoForgiving(t *testing.T) {
	tmp := t.TempDir()
	torchLegacy := filepath.Join(tmp, "w.npy")
	os.WriteFile(torchLegacy, append([]byte("\x80\x02"), []byte("\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19rest")...), 0o644)
	r := run(t, nil, "info", "testdata/malformed/unicode_U3.npy", "nosuch.npy", "testdata/archive.npz",
		"testdata/malformed/truncated_data.npy", torchLegacy)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2", r.code)
	}
	out, errs := string(r.stdout), string(r.stderr)
	for _, want := range []string{"<U3, shape (2,)", "archive.npz:a: float32", "archive.npz:b: int64", "data truncated: 20 of 48 bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q: %s", want, out)
		}
	}
	for _, want := range []string{"nosuch.npy: cannot open", "this is a PyTorch file", "unicode_U3.npy: strider cannot compute on it", "data truncated"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q: %s", want, errs)
		}
	}
	if n := strings.Count(errs, "strider: info: "); n != 4 {
		t.Errorf("%d error lines, want 4: %s", n, errs)
	}
	r = run(t, nil, "info", "--json", "testdata/archive.npz")
	if r.code != 0 || strings.Count(string(r.stdout), `"member":`) != 2 || !strings.Contains(string(r.stdout), `"header_bytes":128`) {
		t.Fatalf("info --json of an archive: exit %d %q", r.code, r.stdout)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return b
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("no files match %s (run scripts/gen_testdata.py): %v", pattern, err)
	}
	return m
}

// identityAxes is "0,1,...,n-1" for the number of axes in a fixture name's
// shape token (3x4 → 2, scalar → 0).
func identityAxes(name string) string {
	parts := strings.Split(filepath.Base(name), "_")
	shape := parts[2]
	if shape == "scalar" {
		return ""
	}
	n := len(strings.Split(shape, "x"))
	ax := make([]string, n)
	for i := range ax {
		ax[i] = fmt.Sprint(i)
	}
	return strings.Join(ax, ",")
}

// TestRoundTrip: every fixture, read and written back in C order, is
// byte-identical to NumPy's own C-order save of the same values.
func TestRoundTrip(t *testing.T) {
	for _, f := range glob(t, "testdata/roundtrip_*.npy") {
		twin := strings.TrimSuffix(f, "_f.npy") + "_c.npy"
		if strings.HasSuffix(f, "_c.npy") {
			twin = f
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.npy")
			r := run(t, nil, "transpose", "--axes="+identityAxes(f), f, "-o", out)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !bytes.Equal(readFile(t, out), readFile(t, twin)) {
				t.Fatalf("output differs from %s", twin)
			}
			// The same through standard input and standard output.
			r = run(t, readFile(t, f), "transpose", "--axes="+identityAxes(f), "-")
			if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, twin)) {
				t.Fatalf("stdin/stdout: exit %d, %s", r.code, r.stderr)
			}
		})
	}
}

type manifestEntry struct {
	File          string `json:"file"`
	Problem       string `json:"problem"`
	InfoMayAccept bool   `json:"info_may_accept"`
}

// TestMalformed: every malformed file is refused with exit 2 and one line,
// from a path and from standard input, and leaves no output.
func TestMalformed(t *testing.T) {
	var manifest []manifestEntry
	if err := json.Unmarshal(readFile(t, "testdata/malformed/manifest.json"), &manifest); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	if len(manifest) < 20 {
		t.Fatalf("manifest lists only %d files", len(manifest))
	}
	for _, m := range manifest {
		path := filepath.Join("testdata/malformed", m.File)
		t.Run(m.File, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out.npy")
			wantError(t, run(t, nil, "transpose", path, "-o", out), "transpose")
			if strings.HasSuffix(m.File, ".npy") {
				wantError(t, run(t, readFile(t, path), "transpose", "-", "-o", out), "transpose")
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Fatalf("left %d files behind (%s)", len(entries), entries[0].Name())
			}
			if !m.InfoMayAccept {
				wantInfoRefusal(t, run(t, nil, "info", path))
			}
		})
	}
}

// TestInfoMatchesNumPy compares info --json with what NumPy's header reader
// said when the fixtures were written (testdata/expected_info.jsonl).
func TestInfoMatchesNumPy(t *testing.T) {
	f, err := os.Open("testdata/expected_info.jsonl")
	if err != nil {
		t.Fatalf("%v", err)
	}
	defer f.Close()
	// A bare archive has a line per member, all with its path: info of
	// that path must print them all, in order.
	var paths []string
	want := map[string][]map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var w map[string]any
		if err := json.Unmarshal(sc.Bytes(), &w); err != nil {
			t.Fatalf("expected_info.jsonl: %v", err)
		}
		path := w["path"].(string)
		if want[path] == nil {
			paths = append(paths, path)
		}
		want[path] = append(want[path], w)
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			r := run(t, nil, "info", "--json", path)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
			if len(lines) != len(want[path]) {
				t.Fatalf("%d lines, want %d: %q", len(lines), len(want[path]), r.stdout)
			}
			for k, line := range lines {
				var got map[string]any
				if err := json.Unmarshal([]byte(line), &got); err != nil {
					t.Fatalf("output is not JSON: %q", line)
				}
				if !reflect.DeepEqual(got, want[path][k]) {
					t.Fatalf("got %v\nwant %v", got, want[path][k])
				}
			}
		})
	}
	if len(paths) == 0 {
		t.Fatal("expected_info.jsonl is empty")
	}
}

func TestCommandLine(t *testing.T) {
	ex := "testdata/example_f4_2x3x4_c.npy"
	tmp := t.TempDir()
	ref := filepath.Join(tmp, "ref.npy")
	if r := run(t, nil, "transpose", "--axes", "0,2,1", ex, "-o", ref); r.code != 0 {
		t.Fatalf("transpose: %s", r.stderr)
	}
	t.Run("options after positionals", func(t *testing.T) {
		out := filepath.Join(tmp, "a.npy")
		r := run(t, nil, "transpose", ex, "-o", out, "--axes", "0,-1,1")
		if r.code != 0 || !bytes.Equal(readFile(t, out), readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("negative axes as a separate value", func(t *testing.T) {
		r := run(t, nil, "transpose", ex, "--axes", "-3,-1,-2", "-o", "-")
		if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("double dash ends options", func(t *testing.T) {
		r := run(t, nil, "transpose", "--axes=0,2,1", "--", ex)
		if r.code != 0 || !bytes.Equal(r.stdout, readFile(t, ref)) {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("version", func(t *testing.T) {
		r := run(t, nil, "--version")
		if r.code != 0 || !strings.Contains(string(r.stdout), "strider version") {
			t.Fatalf("exit %d %q", r.code, r.stdout)
		}
	})
	t.Run("help lists commands", func(t *testing.T) {
		r := run(t, nil, "--help")
		for _, c := range []string{"info", "transpose"} {
			if !strings.Contains(string(r.stdout), "   "+c+" ") {
				t.Fatalf("help does not list %s:\n%s", c, r.stdout)
			}
		}
		r = run(t, nil, "transpose", "--help")
		if r.code != 0 || !strings.Contains(string(r.stdout), "Examples:") || !strings.Contains(string(r.stdout), "--axes") {
			t.Fatalf("transpose --help: %s", r.stdout)
		}
	})
	errs := []struct {
		name, command string
		args          []string
		want          string
	}{
		{"repeated axis", "transpose", []string{"transpose", ex, "--axes", "0,0,1"}, "repeated axis 0"},
		{"wrong length", "transpose", []string{"transpose", ex, "--axes", "1,0"}, "axes don't match array"},
		{"axis out of range", "transpose", []string{"transpose", ex, "--axes", "0,1,3"}, "axis 3 is out of bounds for array of dimension 3"},
		{"bad axes text", "transpose", []string{"transpose", ex, "--axes", "0,x"}, `--axes "0,x" is not a list of integers`},
		{"threads zero", "transpose", []string{"transpose", ex, "--threads", "0"}, "--threads 0 is out of range"},
		{"bad device", "transpose", []string{"transpose", ex, "--device", "tpu"}, `--device "tpu"`},
		{"cuda without cuda build", "transpose", []string{"transpose", ex, "--device", "cuda"}, "go build -tags cuda"},
		{"missing input", "transpose", []string{"transpose", "nosuch.npy"}, "nosuch.npy"},
		{"two inputs", "transpose", []string{"transpose", ex, ex}, "expected one input"},
		{"unknown flag", "transpose", []string{"transpose", "--bogus", ex}, "bogus"},
		{"missing output folder", "transpose", []string{"transpose", ex, "-o", filepath.Join(tmp, "no/such/dir/x.npy")}, "no/such/dir"},
		{"npz member missing", "info", []string{"info", "testdata/archive.npz:nosuch"}, "nosuch"},
		{"npz needs a member", "transpose", []string{"transpose", "testdata/archive.npz"}, "archive.npz"},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			r := run(t, nil, e.args...)
			wantError(t, r, e.command)
			if !strings.Contains(string(r.stderr), e.want) {
				t.Fatalf("stderr %q does not mention %q", r.stderr, e.want)
			}
		})
	}
	t.Run("unknown command", func(t *testing.T) {
		r := run(t, nil, "frobnicate")
		if r.code != 2 || !strings.Contains(string(r.stderr), "unknown command") {
			t.Fatalf("exit %d %q", r.code, r.stderr)
		}
	})
	t.Run("failed run keeps the previous output", func(t *testing.T) {
		dir := t.TempDir()
		out := filepath.Join(dir, "keep.npy")
		os.WriteFile(out, []byte("previous"), 0o644)
		wantError(t, run(t, nil, "transpose", ex, "--axes", "9,0,1", "-o", out), "transpose")
		if got := readFile(t, out); string(got) != "previous" {
			t.Fatalf("output changed to %q", got)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Fatalf("folder holds %d files, want 1", len(entries))
		}
	})
	t.Run("output over the input", func(t *testing.T) {
		in := filepath.Join(tmp, "inplace.npy")
		os.WriteFile(in, readFile(t, ex), 0o644)
		if r := run(t, nil, "transpose", "--axes", "0,2,1", in, "-o", in); r.code != 0 {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
		if !bytes.Equal(readFile(t, in), readFile(t, ref)) {
			t.Fatal("in-place result differs")
		}
	})
}

// TestInfoReadsOnlyTheHeader: a header promising 1 GiB with no data after it
// is described from standard input, so info never waits for or reads data.
func TestInfoReadsOnlyTheHeader(t *testing.T) {
	hdr := "{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 16384), }"
	pad := 64 - (10+len(hdr)+1)%64
	text := hdr + strings.Repeat(" ", pad) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
	b = append(b, text...)
	r := run(t, b, "info", "--json", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(string(r.stdout), `"nbytes":1073741824`) {
		t.Fatalf("unexpected info: %s", r.stdout)
	}
	// Every data-reading command refuses the same bytes.
	wantError(t, run(t, b, "transpose", "-", "-o", filepath.Join(t.TempDir(), "x.npy")), "transpose")
}

// TestGatherDiagonalOptions covers fixes found by scripts/parity.py: gather
// on a 0-d input with --axis 0 or -1 (numpy.take ravels it to shape (1,)),
// and integer options read as decimal (an IntFlag read --offset 010 as 8 and
// took 0x10).
func TestGatherDiagonalOptions(t *testing.T) {
	scalar := "testdata/roundtrip_f8le_scalar_c.npy"
	ex := "testdata/example_f4_2x3x4_c.npy"
	same := func(t *testing.T, a, b []string) {
		t.Helper()
		ra, rb := run(t, nil, append(a, "-o", "-")...), run(t, nil, append(b, "-o", "-")...)
		if ra.code != 0 || rb.code != 0 || !bytes.Equal(ra.stdout, rb.stdout) {
			t.Fatalf("%v (exit %d %s) differs from %v (exit %d %s)", a, ra.code, ra.stderr, b, rb.code, rb.stderr)
		}
	}
	same(t, []string{"gather", "--index", "[0,-1]", "--axis", "-1", scalar}, []string{"gather", "--index", "[0,-1]", scalar})
	same(t, []string{"gather", "--index", "0", "--axis", "0", scalar}, []string{"gather", "--index", "0", scalar})
	same(t, []string{"diagonal", "--offset", "010", "--axis1", "+1", "--dim2", " 2", ex}, []string{"diagonal", "--offset", "10", "--axis1", "1", "--axis2", "2", ex})
	same(t, []string{"diagonal", "--offset=-01", "--axis1=-1", "--axis2=0", ex}, []string{"diagonal", "--offset", "-1", "--axis1", "2", "--axis2", "0", ex})
	errs := []struct {
		command string
		args    []string
		want    string
	}{
		{"gather", []string{"--index", "0", "--axis", "1", scalar}, "axis 1 is out of bounds for array of dimension 1"},
		{"diagonal", []string{"--offset", "0x1", ex}, `--offset "0x1" is not an integer`},
		{"diagonal", []string{"--axis2", "1.0", ex}, `--axis2 "1.0" is not an integer`},
		{"gather-elements", []string{"--indices", "testdata/roundtrip_i4be_3x4_c.npy", "--dim", "0x0", ex}, `--axis "0x0" is not an integer`},
	}
	for _, e := range errs {
		r := run(t, nil, append([]string{e.command}, e.args...)...)
		wantError(t, r, e.command)
		if !strings.Contains(string(r.stderr), e.want) {
			t.Fatalf("%v: stderr %q does not mention %q", e.args, r.stderr, e.want)
		}
	}
}

// TestDiagonalReadAt: a diagonal whose elements lie a page or more apart is
// read with pread instead of a mapping; its output must equal the mapped
// path's (standard input from a pipe, which parity checks against NumPy),
// for C and Fortran files and every offset sign.
func TestDiagonalReadAt(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		shape   []int
		fortran bool
		offset  string
	}{
		{"c/1500x1100/k0", []int{1500, 1100}, false, "0"},
		{"c/1500x1100/k7", []int{1500, 1100}, false, "7"},
		{"c/1500x1100/k-9", []int{1500, 1100}, false, "-9"},
		{"f/1100x1500/k3", []int{1100, 1500}, true, "3"},
		{"c/2x700x1200/k-2", []int{2, 700, 1200}, false, "-2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			count := 1
			for _, d := range c.shape {
				count *= d
			}
			data := make([]byte, 8*count)
			for i := 0; i < count; i++ {
				binary.LittleEndian.PutUint64(data[8*i:], uint64(i)*2654435761)
			}
			hdr := fmt.Sprintf("{'descr': '<u8', 'fortran_order': %s, 'shape': %s, }", map[bool]string{false: "False", true: "True"}[c.fortran], pyShape(c.shape))
			pad := 64 - (10+len(hdr)+1)%64
			text := hdr + strings.Repeat(" ", pad) + "\n"
			file := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
			file = append(append(file, text...), data...)
			in := filepath.Join(dir, "in.npy")
			if err := os.WriteFile(in, file, 0o644); err != nil {
				t.Fatal(err)
			}
			axes := []string{"--axis1", "-2", "--axis2", "-1"}
			args := append([]string{"diagonal", "--offset", c.offset}, axes...)
			viaFile := run(t, nil, append(args, in, "-o", "-")...)
			viaPipe := run(t, file, append(args, "-")...)
			if viaFile.code != 0 || viaPipe.code != 0 {
				t.Fatalf("exit %d / %d: %s %s", viaFile.code, viaPipe.code, viaFile.stderr, viaPipe.stderr)
			}
			if !bytes.Equal(viaFile.stdout, viaPipe.stdout) {
				t.Fatal("pread and mapped paths differ")
			}
			if len(viaFile.stdout) <= 128 {
				t.Fatalf("diagonal is empty: %d bytes", len(viaFile.stdout))
			}
		})
	}
}

func pyShape(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	if len(s) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
