package cmd

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{"axes", "perm", "dims", "axis1", "axis2", "output", "o", "device", "descending", "help", "h"}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"axis", []string{"axes", "axis1", "axis2"}},
		{"AXES", []string{"axes"}},
		{"ouptut", []string{"output"}}, // a swap is one edit
		{"desc", []string{"descending"}},
		{"x", nil},
		{"hh", []string{"h"}},
		{"zzzzzz", nil},
	} {
		if got := nearest(tc.in, names); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"tranpose", "transpose", 1}, {"ab", "ba", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := editDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

// FuzzCheckArgs: any command line gets a verdict (or completion words),
// never a panic; a refusal is a usage error.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{
		"transpose --axis 1,0 x.npy", "compare a b --equal-nan false", "compare a b --rtol=1e-5x",
		"tranpose", "sort -- --axis", "-", "--", "help sort", "diagonal --offset -2 x --axis1", "-=", "--=x",
	} {
		f.Add(s)
	}
	app := NewApp()
	f.Fuzz(func(t *testing.T, line string) {
		argv := append([]string{"strider"}, strings.Split(line, " ")...)
		if err := checkArgs(app, argv); err != nil {
			if _, ok := err.(*usageError); !ok {
				t.Fatalf("%q: %T %v", line, err, err)
			}
		}
		complete(app, append(argv, completionFlag), io.Discard)
	})
}

// TestUsageMessages: command-line mistakes get one line in the contract's
// form that says what to write instead, and exit 2.
func TestUsageMessages(t *testing.T) {
	fromRoot(t)
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
