package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestUsageMessages: command-line mistakes get one line in the contract's
// form that says what to write instead, and exit 2.
func TestUsageMessages(t *testing.T) {
	in := filepath.Join("testdata", "example_f4_2x3x4_c.npy")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"transpose", "--axis", "1,0", in}, "strider: transpose: unknown option --axis; did you mean --axes?"},
		{"unknown flag after input", []string{"transpose", in, "--axis=1,0"}, "strider: transpose: unknown option --axis; did you mean --axes?"},
		{"two near flags", []string{"diagonal", "--axis", "0", in}, "strider: diagonal: unknown option --axis; did you mean --axis1 or --axis2?"},
		{"prefix", []string{"sort", "--desc", in}, "strider: sort: unknown option --desc; did you mean --descending?"},
		{"far flag", []string{"sort", "--zzzzzz", in}, "strider: sort: unknown option --zzzzzz (an argument that starts with - can follow --)"},
		{"unknown command", []string{"tranpose", in}, `strider: unknown command "tranpose"; did you mean transpose? (see strider --help)`},
		{"unknown command far", []string{"frobnicate", in}, `strider: unknown command "frobnicate" (see strider --help)`},
		{"unknown global option", []string{"--verison"}, "strider: unknown option --verison; did you mean --version?"},
		{"switch with separate value", []string{"compare", in, in, "--equal-nan", "false"}, "strider: compare: --equal-nan is a switch and takes no separate value: write --equal-nan=false"},
		{"switch with bad value", []string{"compare", in, in, "--exact=maybe"}, "strider: compare: --exact=maybe: a switch is true or false (--exact=true, --exact=false)"},
		{"bad float", []string{"compare", in, in, "--rtol", "1e-5x"}, `strider: compare: --rtol "1e-5x" is not a number`},
		{"bad float with =", []string{"compare", "--atol=abc", in, in}, `strider: compare: --atol "abc" is not a number`},
		{"bad integer", []string{"diagonal", "--offset", "1.5", in}, `strider: diagonal: --offset "1.5" is not an integer`},
		{"value flag twice", []string{"compare", in, in, "--rtol", "1e-5", "--rtol=1e-6"}, `strider: compare: --rtol is given twice ("1e-5", then "1e-6"); give it once`},
		{"alias twice", []string{"transpose", "--axes", "1,0", "--perm", "0,1", in}, `strider: transpose: --axes is given twice ("1,0", then "0,1"); give it once`},
		{"switch twice", []string{"sort", "-q", "--quiet", in}, "strider: sort: --quiet is given twice; give it once"},
		{"missing value", []string{"transpose", in, "--axes"}, "strider: transpose: --axes needs a value (see strider transpose --help)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, tc.args...)
			if r.code != 2 || string(r.stdout) != "" || string(r.stderr) != tc.want+"\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", r.code, r.stdout, r.stderr, tc.want)
			}
		})
	}
	// What still works: a switch's value after =, an option's value that
	// looks like a negative number, options after the inputs.
	for _, args := range [][]string{
		{"compare", in, in, "--equal-nan=false", "--rtol", "1e-5"},
		{"diagonal", in, "--offset", "-1", "-o", os.DevNull},
		{"transpose", in, "--perm=2,0,1", "-q", "-o", os.DevNull},
		{"help", "transpose"},
		{"--version"},
	} {
		if r := run(t, nil, args...); r.code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}

// TestNoCommand: strider alone lists the commands on standard error and
// exits 2; strider --help lists them on standard output and exits 0.
func TestNoCommand(t *testing.T) {
	r := run(t, nil)
	if r.code != 2 || len(r.stdout) != 0 || !strings.Contains(string(r.stderr), "COMMANDS:") || !strings.Contains(string(r.stderr), "transpose") {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = run(t, nil, "--help")
	if r.code != 0 || !strings.Contains(string(r.stdout), "COMMANDS:") {
		t.Fatalf("--help: exit %d, stdout %q", r.code, r.stdout)
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
