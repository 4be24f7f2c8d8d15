package dtype

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readTable returns the fields of each line of testdata/name that is not
// a comment: a table scripts/gen_dtype_tables.py wrote with NumPy.
func readTable(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("fixture: %v (run scripts/gen_dtype_tables.py)", err)
	}
	t.Cleanup(func() { f.Close() })
	var rows [][]string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := s.Text(); line != "" && line[0] != '#' {
			rows = append(rows, strings.Fields(line))
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("testdata/%s has no rows", name)
	}
	return rows
}

// TestGeneratedTables checks that scripts/gen_dtype_tables.py, run again,
// leaves testdata unchanged: the tables are NumPy's answers, not edits.
func TestGeneratedTables(t *testing.T) {
	if testing.Short() {
		t.Skip("runs NumPy")
	}
	py := "/usr/bin/python3"
	if p := os.Getenv("PYTHON"); p != "" {
		py = p
	}
	if exec.Command(py, "-c", "import numpy; assert numpy.__version__.startswith('1.24.')").Run() != nil {
		t.Skipf("%s has no NumPy 1.24, which wrote the tables", py)
	}
	out, err := exec.Command(py, "../../scripts/gen_dtype_tables.py", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("gen_dtype_tables.py --check: %v\n%s", err, out)
	}
}
