package cmd

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeF8 writes a little-endian float64 .npy of the given shape.
func writeF8(t *testing.T, path string, shape []int, vals []float64) {
	t.Helper()
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = fmt.Sprint(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	h := "{'descr': '<f8', 'fortran_order': False, 'shape': " + tuple + ", }"
	for (10+len(h)+1)%64 != 0 {
		h += " "
	}
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(h)+1), byte((len(h)+1)>>8))
	b = append(b, h+"\n"...)
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompareShow: --show N lists the first N mismatches as NumPy 2.4 lays
// them out, each with its absolute and relative difference; the NaN and
// infinity mismatches are counted apart; the worst element says its measure.
func TestCompareShow(t *testing.T) {
	dir := t.TempDir()
	a, d := filepath.Join(dir, "a.npy"), filepath.Join(dir, "d.npy")
	nan, inf := math.NaN(), math.Inf(1)
	writeF8(t, a, []int{2, 3}, []float64{1, 2, nan, 4, inf, 6})
	writeF8(t, d, []int{2, 3}, []float64{1, 2.5, 3, 0, 5, 6})
	r := run(t, nil, "compare", a, d, "--show", "2")
	want := "Not equal to tolerance rtol=1e-07, atol=0\n\n" +
		"x and y nan location mismatch\n" +
		"x and y +inf location mismatch\n" +
		"Mismatched elements: 4 / 6 (66.7%)\n" +
		"Of which with a NaN: 1, with an infinity: 1\n" +
		"First 2 mismatches are at indices:\n" +
		" [0, 1]: 2.0 (ACTUAL), 2.5 (DESIRED), abs 0.5, rel 0.2\n" +
		" [0, 2]: nan (ACTUAL), 3.0 (DESIRED), abs nan, rel nan\n" +
		"Max absolute difference: nan\n" +
		"Max relative difference: nan\n" +
		"Worst mismatch (largest absolute difference) at index (0, 2): x = nan, y = 3.0\n" +
		" x: " + a + ", float64 (2, 3)\n" +
		" y: " + d + ", float64 (2, 3)\n"
	if r.code != 1 || string(r.stdout) != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
	for _, tc := range []struct {
		show, head string
	}{{"1", "First mismatch is at index:"}, {"4", "Mismatch at indices:"}, {"9", "Mismatch at indices:"}} {
		r := run(t, nil, "compare", a, d, "--show="+tc.show)
		listsInf := strings.Contains(string(r.stdout), " [1, 1]: inf (ACTUAL), 5.0 (DESIRED), abs inf, rel inf\n")
		if !strings.Contains(string(r.stdout), "\n"+tc.head+"\n") || listsInf != (tc.show != "1") {
			t.Errorf("--show %s: %s", tc.show, r.stdout)
		}
	}
	r = run(t, nil, "compare", a, d, "--show", "3", "--json")
	var rep struct {
		NaNM       *int   `json:"nan_mismatched"`
		InfM       *int   `json:"inf_mismatched"`
		WorstBy    string `json:"worst_by"`
		Mismatches []struct {
			Index   []int `json:"index"`
			Actual  any   `json:"actual"`
			AbsDiff any   `json:"abs_diff"`
			RelDiff any   `json:"rel_diff"`
		} `json:"mismatches"`
	}
	if err := json.Unmarshal(r.stdout, &rep); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	got := fmt.Sprint(rep.Mismatches)
	if got != "[{[0 1] 2 0.5 0.2} {[0 2] nan nan nan} {[1 0] 4 4 +Inf}]" && got != "[{[0 1] 2 0.5 0.2} {[0 2] nan nan nan} {[1 0] 4 4 inf}]" ||
		rep.NaNM == nil || *rep.NaNM != 1 || *rep.InfM != 1 || rep.WorstBy != "abs_diff" {
		t.Fatalf("json: %s", r.stdout)
	}
	// One mismatch: "Mismatch at index:".
	writeF8(t, a, []int{3}, []float64{1, 2, 3})
	writeF8(t, d, []int{3}, []float64{1, 2, 4})
	r = run(t, nil, "compare", a, d, "--show", "5")
	if !strings.Contains(string(r.stdout), "\nMismatch at index:\n [2]: 3.0 (ACTUAL), 4.0 (DESIRED), abs 1., rel 0.25\n") || strings.Contains(string(r.stdout), "Of which") {
		t.Fatalf("%s", r.stdout)
	}
	for _, args := range [][]string{{"--show", "-1"}, {"--show", "x"}, {"--show", "2", "--exact"}} {
		wantError(t, run(t, nil, append([]string{"compare", a, d}, args...)...), "compare")
	}
}
