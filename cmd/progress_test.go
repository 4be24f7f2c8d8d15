package cmd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strider/formats/output"
	"strider/internal/dtype"
)

// writeTestArray writes a .npy of dtype d and shape whose bytes count up.
func writeTestArray(t *testing.T, path string, d dtype.Dtype, shape []int) {
	t.Helper()
	o, err := output.Create(path, nil, d, shape)
	if err != nil {
		t.Fatal(err)
	}
	for i := range o.Data {
		o.Data[i] = byte(i % 7)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestProgressReachesTotal runs every command that shows progress, on the
// CPU, into a file and into standard output, and checks through the app's
// progress hook that the work reported every byte of its total: gather
// with and without --axis, with one element per index, gather-elements and
// the rest, whichever kernel ran. stats reads a float32 array whose
// standard deviation takes a second pass, one with an infinity, where it
// does not, and a gathered EXPR; unique-consecutive reports its search and
// its outputs apart, the search over a strided view with --axis.
func TestProgressReachesTotal(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.npy")     // 6x5 float32
	m3 := filepath.Join(dir, "m3.npy")   // 3x4x5 int16
	idx := filepath.Join(dir, "idx.npy") // 6x2 int64, values 0..4
	text := filepath.Join(dir, "m.txt")
	json := filepath.Join(dir, "m.json")
	inf := filepath.Join(dir, "inf.npy") // float32 1, +inf, 2, 3
	writeTestArray(t, m, dtype.Dtype{Kind: 'f', Size: 4}, []int{6, 5})
	writeTestArray(t, m3, dtype.Dtype{Kind: 'i', Size: 2}, []int{3, 4, 5})
	o, err := output.Create(idx, nil, dtype.Int64, []int{6, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 12; i++ {
		o.Data[8*i] = byte(i % 5)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(text, []byte("1 2 3\n4 5 6\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(json, []byte("[[1, 2.5], [NaN, -Infinity]]"), 0o666); err != nil {
		t.Fatal(err)
	}
	if o, err = output.Create(inf, nil, dtype.Dtype{Kind: 'f', Size: 4}, []int{4}); err != nil {
		t.Fatal(err)
	}
	for i, bits := range []uint32{0x3f800000, 0x7f800000, 0x40000000, 0x40400000} {
		binary.LittleEndian.PutUint32(o.Data[4*i:], bits)
	}
	if err := o.Commit(); err != nil {
		t.Fatal(err)
	}
	cases := []string{
		"transpose M", "transpose --axes 1,0,2 M3", "diagonal M", "diagonal --axis1 1 --axis2 2 M3",
		"gather --index [4,0,2] M", "gather --index [1,0] --axis 0 M", "gather --index [3,3] --axis 1 M",
		"gather --index [2,0] --axis 2 M3", "gather --index 2 --axis 1 M3", "gather --indices IDX --axis 1 M",
		"gather-elements --indices IDX --axis 1 M", "gather-elements --indices IDX --axis 0 M",
		"tril-indices 5", "triu-indices 4 6 --offset 1", "sort M", "sort --argsort --axis 0 M3",
		"sort --indices OUT2 M", "slice M ::2,1:", "slice M3 [0,2],:,::-1", "from-text TEXT", "from-text --json JSON",
		"reduce sum M", "reduce std --axis 0 M3", "reduce argmax --axis 1 M", "reduce nanvar INF", "reduce ptp --axis 0,2 --keepdims M3", "stats M", "stats INF", "stats --json M3", "stats M3 [0,2],:,::-1", "to-text M", "to-text --csv --fmt %d IDX",
		"to-text --json M3", "unique-consecutive M", "unique-consecutive --axis 1 M3 --inverse OUT2 --counts OUT3",
		"unique-consecutive M3 --counts OUT2",
		"compare M M", "compare --exact M3 M3", "reshape M 3,10", "reshape --order F M3 4,15", "cast --dtype >f8 M",
		"stack --axis 1 M M", "stack --axis -1 M M M", "stack M M", "concat --axis 1 M M", "concat --axis none M M3",
	}
	for _, line := range cases {
		for _, out := range []string{"file", "stream"} {
			t.Run(strings.ReplaceAll(line, " ", "_")+"/"+out, func(t *testing.T) {
				r := strings.NewReplacer("M3", m3, "M", m, "IDX", idx, "TEXT", text, "JSON", json, "INF", inf,
					"OUT2", filepath.Join(t.TempDir(), "i.npy"), "OUT3", filepath.Join(t.TempDir(), "c.npy"))
				args := append([]string{"strider"}, strings.Fields(r.Replace(line))...)
				target := filepath.Join(t.TempDir(), "out.npy")
				if out == "stream" && !strings.Contains(line, "OUT2") {
					target = "-"
				}
				args = append(args, "--threads", "2")
				// compare and stats print a report: they take no -o.
				if !strings.HasPrefix(line, "compare") && !strings.HasPrefix(line, "stats") {
					args = append(args, "-o", target)
				}
				checkProgress(t, args)
			})
		}
	}
}

// checkProgress runs args with standard output on a file and the progress
// hook set, and fails unless every progress reached its total.
func checkProgress(t *testing.T, args []string) {
	t.Helper()
	stdout, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	var reports []string
	app := NewApp()
	app.Writer = stdout
	app.Metadata = map[string]any{progressHook: func(command string, done, total int64) {
		if done != total {
			reports = append(reports, fmt.Sprintf("%s: progress %d of %d", command, done, total))
		} else {
			reports = append(reports, "")
		}
	}}
	var stderr bytes.Buffer
	if code := Run(app, args, &stderr); code != 0 {
		t.Fatalf("%v: exit %d: %s", args[1:], code, stderr.String())
	}
	if len(reports) == 0 {
		t.Fatalf("%v: no progress was reported", args[1:])
	}
	for _, r := range reports {
		if r != "" {
			t.Errorf("%v: %s", args[1:], r)
		}
	}
}
