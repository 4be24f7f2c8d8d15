//go:build linux

package cmd

import (
	"encoding/binary"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"strider/internal/testkit"
)

// Expanded tensors (issue 27, items 4 and 7): a torch.save tensor may have
// stride 0 (torch's expand) or overlapping strides, and so name far more
// elements than it stores: (2**40,) on 4 bytes. strider reads it as a view.
// Every command must answer within seconds or refuse up front with one
// line, before any allocation, long loop or output file. The test process
// runs under TestMain's memory limit, so that a regression that allocates
// the whole view fails instead of filling the machine.

// torchTensor is one float32 tensor of a torch.save file that expandedFile
// writes: its storage's bytes, and its shape and strides in elements.
type torchTensor struct {
	storage        []byte
	shape, strides []int
}

// expandedFile writes a torch.save file (zip format, as torch 1.13 writes
// it) of the tensors under their names, with the strides as given: what
// torch.save({'a': torch.tensor([1.5]).expand(2**40)}, path) writes, for
// any shape and strides, without PyTorch.
func expandedFile(t *testing.T, tensors map[string]torchTensor) string {
	t.Helper()
	names := make([]string, 0, len(tensors))
	for name := range tensors {
		names = append(names, name)
	}
	sort.Strings(names)
	p := testkit.NewPickle().Op("}")
	members := []testkit.Member{}
	for key, name := range names {
		tn := tensors[name]
		p.Str(name).Global("torch._utils", "_rebuild_tensor_v2").Op("(")
		p.Op("(").Str("storage").Global("torch", "FloatStorage").Str(fmt.Sprint(key)).Str("cpu")
		p.Op(pickleLong(len(tn.storage)/4) + "tQ" + pickleLong(0))
		for _, ns := range [][]int{tn.shape, tn.strides} {
			p.Op("(")
			for _, n := range ns {
				p.Op(pickleLong(n))
			}
			p.Op("t")
		}
		p.Op("\x89").Global("collections", "OrderedDict").Op(")RtRs")
		members = append(members, testkit.Member{fmt.Sprintf("archive/data/%d", key), tn.storage})
	}
	members = append(members, testkit.Member{"archive/data.pkl", p.Done()}, testkit.Member{"archive/version", []byte("3\n")})
	path := filepath.Join(t.TempDir(), "expanded.pt")
	testkit.WriteZip(t, path, members...)
	return path
}

// pickleLong is the LONG1 opcode of n >= 0: torch.save's sizes and
// strides past testkit's 32-bit ints.
func pickleLong(n int) string {
	b := binary.LittleEndian.AppendUint64(nil, uint64(n))
	for len(b) > 1 && b[len(b)-1] == 0 && b[len(b)-2] < 0x80 {
		b = b[:len(b)-1]
	}
	return "\x8a" + string(rune(len(b))) + string(b)
}

// f32s is the bytes of float32 values.
func f32s(xs ...float32) []byte {
	var b []byte
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// hostileFile holds the hostile tensors of issue 27: (2**40,) and
// (2**28, 2**28) of 1.5 with stride 0; (2, 2**39) of 1.5 and NaN, expanded
// along its columns; (2**40, 0), empty but for its 2**40 rows; (2**16, 2**14)
// over 2**16 + 2**14 elements with strides (1, 1) (torch's as_strided);
// (2**24,) of 1.5, small enough to write, whose text is 64 MiB or more.
func hostileFile(t *testing.T) string {
	one := f32s(1.5)
	return expandedFile(t, map[string]torchTensor{
		"e40":     {storage: one, shape: []int{1 << 40}, strides: []int{0}},
		"e56":     {storage: one, shape: []int{1 << 28, 1 << 28}, strides: []int{0, 0}},
		"cols":    {storage: f32s(1.5, float32(math.NaN())), shape: []int{2, 1 << 39}, strides: []int{1, 0}},
		"rows":    {storage: nil, shape: []int{1 << 40, 0}, strides: []int{1, 1}},
		"overlap": {storage: make([]byte, 4<<16+4<<14), shape: []int{1 << 16, 1 << 14}, strides: []int{1, 1}},
		"e24":     {storage: one, shape: []int{1 << 24}, strides: []int{0}},
		"small":   {storage: f32s(1.5, -2), shape: []int{2, 3}, strides: []int{1, 0}},
	})
}

// wantRefusal checks the contract's one line and that it names the count.
func wantRefusal(t *testing.T, r runResult, command string, count string) {
	t.Helper()
	wantError(t, r, command)
	if !strings.Contains(string(r.stderr), count) {
		t.Fatalf("the refusal does not name %s: %s", count, r.stderr)
	}
}

// caseName is args as a subtest's name: the tensor names without the
// fixture's path, the output's file name without its folder.
func caseName(args []string) string {
	var parts []string
	for _, a := range args {
		if i := strings.LastIndexByte(a, '/'); i >= 0 {
			a = a[i+1:]
		}
		parts = append(parts, strings.TrimPrefix(a, "expanded.pt:"))
	}
	return strings.Join(parts, " ")
}

// timed runs strider and fails when it takes more than a few seconds.
func timed(t *testing.T, args ...string) runResult {
	t.Helper()
	start := time.Now()
	r := run(t, nil, args...)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("%v took %v: more than seconds", args, d)
	}
	return r
}

// TestExpandedStats: stats of a view with stride 0 reads each stored
// element once and counts it as often as it repeats: (2**40,) crashed out
// of memory, (2**28, 2**28) was "internal error: makeslice", and an EXPR
// ('::2') hung. What still has to be gathered or walked element by element
// is refused with its count.
func TestExpandedStats(t *testing.T) {
	pt := hostileFile(t)
	for _, tc := range []struct {
		args []string
		want []string // pieces of standard output
	}{
		{[]string{pt + ":e40"}, []string{"count   1099511627776\n", "nan     0\n", "min     1.5\n", "max     1.5\n", "mean    1.5\n", "std     0.0\n"}},
		{[]string{"--json", pt + ":e56"}, []string{`"shape":[268435456,268435456]`, `"count":72057594037927936`, `"mean":1.5,"std":0.0}`}},
		{[]string{"--json", pt + ":cols"}, []string{`"count":1099511627776,"nan":549755813888,"posinf":0,"neginf":0,"zero":0,"min":1.5,"max":1.5,"mean":1.5,"std":0.0}`}},
		{[]string{pt + ":e40", "::2"}, []string{"shape   (549755813888,)\n", "count   549755813888\n"}},
		{[]string{pt + ":cols", "1, 5:"}, []string{"count   549755813883\n", "nan     549755813883\n", "min     undefined\n"}},
		// np.nanmean and np.nanstd of [[1.5]*3, [-2]*3]
		{[]string{pt + ":small"}, []string{"count   6\n", "min     -2.0\n", "max     1.5\n", "mean    -0.25\n", "std     1.75\n"}},
		{[]string{pt + ":rows"}, []string{"count   0\n", "min     undefined\n"}},
	} {
		t.Run(caseName(tc.args), func(t *testing.T) {
			r := timed(t, append([]string{"stats"}, tc.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(r.stdout), w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
	for _, tc := range []struct {
		args  []string
		count string
	}{
		{[]string{pt + ":cols", "[0, 1]"}, "1099511627776 elements to gather"},
		{[]string{"--json", pt + ":overlap"}, "1073741824 elements to read"},
		{[]string{pt + ":overlap", "::-1"}, "1073741824 elements to read"},
	} {
		t.Run("refused "+caseName(tc.args), func(t *testing.T) {
			wantRefusal(t, timed(t, append([]string{"stats"}, tc.args...)...), "stats", tc.count)
		})
	}
}

// TestExpandedShow: a summarized view prints its edges as NumPy prints
// np.broadcast_to; printing or gathering every element of a view larger
// than its storage (--full and --edgeitems 0 crashed out of memory) is
// refused with the count.
func TestExpandedShow(t *testing.T) {
	pt := hostileFile(t)
	row := "[1.5 1.5 1.5 ... 1.5 1.5 1.5]"
	for _, tc := range []struct {
		args []string
		want string // str(np.broadcast_to(...)) of NumPy 1.24
	}{
		{[]string{pt + ":e40"}, row},
		{[]string{pt + ":e56"}, "[" + row + "\n " + row + "\n " + row + "\n ...\n " + row + "\n " + row + "\n " + row + "]"},
		{[]string{"--repr", pt + ":e40", "::3"}, "array([1.5, 1.5, 1.5, ..., 1.5, 1.5, 1.5], dtype=float32)"},
		{[]string{"--full", pt + ":small"}, "[[ 1.5  1.5  1.5]\n [-2.  -2.  -2. ]]"},
		{[]string{"--full", pt + ":rows"}, "[]"},
		{[]string{pt + ":cols", "[1, 0], :2"}, "[[nan nan]\n [1.5 1.5]]"},
	} {
		t.Run(caseName(tc.args), func(t *testing.T) {
			r := timed(t, append([]string{"show"}, tc.args...)...)
			if r.code != 0 || string(r.stdout) != tc.want+"\n" {
				t.Fatalf("exit %d, stdout %q, want %q (stderr %s)", r.code, r.stdout, tc.want+"\n", r.stderr)
			}
		})
	}
	for _, tc := range []struct {
		args  []string
		count string
	}{
		{[]string{"--full", pt + ":e40"}, "1099511627776 elements to format"},
		{[]string{"--edgeitems", "0", pt + ":e40"}, "1099511627776 elements to format"},
		{[]string{"--threshold", "9223372036854775807", "--repr", pt + ":e56"}, "72057594037927936 elements to format"},
		{[]string{"--edgeitems", "1000000", pt + ":e56"}, "4000000000000 elements to format"},
		{[]string{pt + ":cols", "[0, 1]"}, "1099511627776 elements to gather"},
		{[]string{"--full", pt + ":overlap"}, "1073741824 elements to format"},
	} {
		t.Run("refused "+caseName(tc.args), func(t *testing.T) {
			wantRefusal(t, timed(t, append([]string{"show"}, tc.args...)...), "show", tc.count)
		})
	}
}

// TestExpandedToText: to-text and to-text --json of a view larger than its
// storage ran forever (or, at 2**56, crashed and left its temporary file);
// they are refused with the count before the output exists, to standard
// output and to a file alike. A small expanded view is written as
// np.savetxt and json.dumps write it.
func TestExpandedToText(t *testing.T) {
	pt := hostileFile(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.txt")
	for _, tc := range []struct {
		args  []string
		count string
	}{
		{[]string{pt + ":e40"}, "1099511627776 elements to write"},
		{[]string{"--json", pt + ":e40"}, "1099511627776 elements to write"},
		{[]string{pt + ":e56", "-o", out}, "72057594037927936 elements to write"},
		{[]string{"--json", pt + ":e56", "-o", out}, "72057594037927936 elements to write"},
		{[]string{"--fmt", "%.0s", "--newline", "", pt + ":cols", "-o", out}, "1099511627776 elements to write"},
		{[]string{pt + ":rows", "-o", out}, "1099511627776 empty rows to write"},
		{[]string{"--json", pt + ":rows"}, "1099511627777 empty lists to write"},
		{[]string{pt + ":overlap", "-o", out}, "1073741824 elements to write"},
	} {
		t.Run(caseName(tc.args), func(t *testing.T) {
			wantRefusal(t, timed(t, append([]string{"to-text"}, tc.args...)...), "to-text", tc.count)
			if names := testkit.Names(t, dir); len(names) != 0 {
				t.Fatalf("left behind: %v", names)
			}
		})
	}
	r := timed(t, "to-text", pt+":small")
	want := "1.500000000000000000e+00 1.500000000000000000e+00 1.500000000000000000e+00\n" +
		"-2.000000000000000000e+00 -2.000000000000000000e+00 -2.000000000000000000e+00\n"
	if r.code != 0 || string(r.stdout) != want {
		t.Fatalf("to-text small: exit %d, %q (stderr %s)", r.code, r.stdout, r.stderr)
	}
	r = timed(t, "to-text", "--json", pt+":small", "-o", out)
	if r.code != 0 || string(readFile(t, out)) != "[[1.5, 1.5, 1.5], [-2.0, -2.0, -2.0]]" {
		t.Fatalf("to-text --json small: exit %d, %q (stderr %s)", r.code, readFile(t, out), r.stderr)
	}
}

// TestExpandedToTextDisk: a text that cannot fit the output's file system
// (2**24 values: 64 MiB of text at the least, 48 MiB of JSON, onto 1 MiB) is refused before the
// output is created, with the least size.
func TestExpandedToTextDisk(t *testing.T) {
	pt := hostileFile(t)
	full := testkit.Mount(t, "1m", false)
	for _, args := range [][]string{
		{pt + ":e24", "-o", filepath.Join(full, "out.txt")},
		{"--json", pt + ":e24", "-o", filepath.Join(full, "out.txt")},
	} {
		r := timed(t, append([]string{"to-text"}, args...)...)
		wantRefusal(t, r, "to-text", "disk space")
		if !strings.Contains(string(r.stderr), "at least 64.0 MiB") && !strings.Contains(string(r.stderr), "at least 48.0 MiB (50331648 bytes)") {
			t.Errorf("the refusal does not give the least size: %s", r.stderr)
		}
		if names := testkit.Names(t, full); len(names) != 0 {
			t.Fatalf("left behind: %v", names)
		}
	}
}
