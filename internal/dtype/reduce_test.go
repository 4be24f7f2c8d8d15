package dtype

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReduceRulesMatchNumPy asks NumPy 1.24 for the dtypes of np.sum,
// np.mean, np.var, of its true_divide by a count and of its scalar
// division, for every dtype (byte-swapped), and compares them with the
// rules. (The float32 sum inside np.mean of float16 shows only in the
// bits: ops' NumPy tests check it.)
func TestReduceRulesMatchNumPy(t *testing.T) {
	if testing.Short() {
		t.Skip("runs NumPy")
	}
	py := "/usr/bin/python3"
	if p := os.Getenv("PYTHON"); p != "" {
		py = p
	}
	if exec.Command(py, "-c", "import numpy; assert numpy.__version__.startswith('1.24.')").Run() != nil {
		t.Skipf("%s has no NumPy 1.24", py)
	}
	codes := []string{"b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"}
	counts := []int64{1, 200, 300, 70000, 1 << 40}
	script := `
import sys, numpy as np, warnings
warnings.simplefilter("ignore")
counts = [int(c) for c in sys.argv[1].split(",")]
for code in sys.argv[2].split(","):
    a = np.ones((2, 2), ">" + code if code not in ("b1", "i1", "u1") else code)
    row = [np.sum(a, axis=0).dtype.str, np.mean(a, axis=0).dtype.str, np.var(a, axis=0).dtype.str]
    row += [np.true_divide(np.ones(2, code), np.intp(n)).dtype.str for n in counts]
    row.append(type(np.ones(1, code)[0] / np.intp(3)).__name__)
    print(code, " ".join(row))
`
	cs := make([]string, len(counts))
	for i, n := range counts {
		cs[i] = fmt.Sprint(n)
	}
	out, err := exec.Command(py, "-c", script, strings.Join(cs, ","), strings.Join(codes, ",")).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		d, _ := Parse(">" + f[0])
		if d.Size == 1 {
			d, _ = Parse(f[0])
		}
		_, res := MeanDtypes(d)
		got := []string{AddReduceDtype(d).Descr(), res.Descr(), RealOf(VarSumDtype(d)).Descr()}
		if d.Kind == 'c' {
			got[2] = RealOf(d).Descr()
		}
		for _, n := range counts {
			got = append(got, TrueDivideLoop(d, n).Descr())
		}
		got = append(got, map[string]string{"f8": "float64", "c16": "complex128"}[ScalarDivideDtype(d).Descr()[1:]])
		want := f[1:]
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: rules give %v, NumPy %v", f[0], got, want)
		}
	}
}
