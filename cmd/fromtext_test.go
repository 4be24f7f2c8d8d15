package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextCommands runs from-text, stats and to-text from the command line;
// the expected texts are what NumPy 1.24 prints for the same calls.
func TestTextCommands(t *testing.T) {
	fromRoot(t)
	tmp := t.TempDir()
	a := filepath.Join(tmp, "a.npy")
	if r := run(t, []byte("# table\n1.5 -2\n\n3 4 # end\n"), "from-text", "-", "-o", a); r.code != 0 {
		t.Fatalf("from-text: exit %d %s", r.code, r.stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"to-text", a}, "1.500000000000000000e+00 -2.000000000000000000e+00\n3.000000000000000000e+00 4.000000000000000000e+00\n"},
		{[]string{"to-text", "--csv", "--fmt", "%g", "--header", "x,y", a}, "# x,y\n1.5,-2\n3,4\n"},
		{[]string{"to-text", "--json", a}, "[[1.5, -2.0], [3.0, 4.0]]"},
	} {
		r := run(t, nil, c.args...)
		if r.code != 0 || string(r.stdout) != c.want {
			t.Errorf("%v: exit %d %q %s; want %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}

	r := run(t, nil, "stats", "--json", a, "::-1")
	var got map[string]any
	if r.code != 0 || json.Unmarshal(r.stdout, &got) != nil {
		t.Fatalf("stats: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	// np.nanstd([1.5, -2, 3, 4]) = 2.2741756748325317 (NumPy 1.24)
	want := map[string]any{"shape": []any{2.0, 2.0}, "dtype": "float64", "count": 4.0, "nan": 0.0, "posinf": 0.0,
		"neginf": 0.0, "zero": 0.0, "min": -2.0, "max": 4.0, "mean": 1.625, "std": 2.2741756748325317}
	for k, v := range want {
		if g, ok := got[k]; !ok || !jsonEqual(g, v) {
			t.Errorf("stats %s = %v, want %v", k, got[k], v)
		}
	}
	if r := run(t, nil, "stats", a); r.code != 0 || !strings.Contains(string(r.stdout), "mean    1.625\n") {
		t.Errorf("stats text: %q", r.stdout)
	}

	// seq 1 100 | strider from-text - | strider sort -
	var seq strings.Builder
	for i := 100; i >= 1; i-- {
		seq.WriteString(strings.Repeat(" ", i%3) + itoa(i) + "\n")
	}
	v := filepath.Join(tmp, "v.npy")
	if r := run(t, []byte(seq.String()), "from-text", "-", "-o", v); r.code != 0 {
		t.Fatalf("from-text of a column: %s", r.stderr)
	}
	if r := run(t, nil, "stats", "--json", v); !strings.Contains(string(r.stdout), `"shape":[100]`) ||
		!strings.Contains(string(r.stdout), `"mean":50.5`) {
		t.Errorf("a column of 100 numbers: %s", r.stdout)
	}

	bad := filepath.Join(tmp, "bad.npy")
	for _, c := range []struct {
		stdin []byte
		args  []string
		want  string
	}{
		{[]byte("1 2\n3\n"), []string{"from-text", "-", "-o", bad}, "line 2"},
		{[]byte("1 2\n3 x\n"), []string{"from-text", "-", "-o", bad}, "line 2, column 2"},
		{[]byte("[[1, 2], [3]]"), []string{"from-text", "--json", "-", "-o", bad}, "ragged"},
		{nil, []string{"to-text", "testdata/example_f4_2x3x4_c.npy"}, "Expected 1D or 2D array, got 3D array instead"},
		{nil, []string{"to-text", "--fmt", "%d %d %d", a}, "fmt has wrong number of % formats"},
		{nil, []string{"stats", a, "5"}, "out of bounds"},
	} {
		r := run(t, c.stdin, c.args...)
		wantError(t, r, c.args[0])
		if !strings.Contains(string(r.stderr), c.want) {
			t.Errorf("%v: %q does not say %q", c.args, r.stderr, c.want)
		}
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failed from-text left %s", bad)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// TestTextEmptyInput: an input without data rows gives what np.loadtxt
// returns, with its warning as one line on standard error and exit 0
// (issue 27, item 14). The shapes are NumPy 1.24's.
func TestTextEmptyInput(t *testing.T) {
	tmp := t.TempDir()
	comments := filepath.Join(tmp, "comments.txt")
	if err := os.WriteFile(comments, []byte("# only a comment\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "e.npy")
	for _, c := range []struct {
		stdin       string
		args        []string
		descr, shap string
	}{
		{"", nil, "<f8", "(0,)"},
		{"", []string{"--ndmin", "2"}, "<f8", "(0, 1)"},
		{"\n\n", []string{"--usecols", "0,2"}, "<f8", "(0, 2)"},
		{"  \n\t\n", []string{"--usecols", "0", "--ndmin", "2", "--dtype", "int8"}, "|i1", "(0, 1)"},
		{"1 2\n", []string{"--skiprows", "1", "--ndmin", "1"}, "<f8", "(0,)"},
		{"\u00a0\n\u3000\r\n", nil, "<f8", "(0,)"},
		{"", []string{"--csv", "--usecols", "1,0,1", "--dtype", "complex64"}, "<c8", "(0, 3)"},
		{"# c\n", []string{"--usecols=-1", "--ndmin", "2"}, "<f8", "(0, 1)"},
		{"", []string{comments}, "<f8", "(0,)"},
	} {
		args := append([]string{"from-text"}, c.args...)
		name := "standard input"
		if len(c.args) == 0 || c.args[0] != comments {
			args = append(args, "-")
		} else {
			name = comments
		}
		r := run(t, []byte(c.stdin), append(args, "-o", out)...)
		warning := "strider: from-text: warning: loadtxt: input contained no data: \"" + name + "\"\n"
		if r.code != 0 || string(r.stderr) != warning {
			t.Errorf("%q %v: exit %d, stderr %q; want 0 and %q", c.stdin, c.args, r.code, r.stderr, warning)
			continue
		}
		header := string(readFile(t, out))
		if want := "{'descr': '" + c.descr + "', 'fortran_order': False, 'shape': " + c.shap + ", }"; !strings.Contains(header, want) {
			t.Errorf("%q %v: %q, want the header %s", c.stdin, c.args, header, want)
		}
	}
}

// TestTextOptionRefusals: the option combinations np.loadtxt refuses with
// a TypeError are refused with one line (issue 27, item 17).
func TestTextOptionRefusals(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.npy")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--comments", " "}, `comment marker " " is whitespace`},
		{[]string{"--comments", "\t"}, `comment marker "\t" is whitespace`},
		{[]string{"--comments", "\u3000"}, `comment marker "\u3000" is whitespace`},
		{[]string{"--comments", "\u00a0"}, `comment marker "\u00a0" is whitespace`},
		{[]string{"--delimiter", "\n"}, `delimiter '\n': a line break cannot be the delimiter`},
		{[]string{"--delimiter", "\r"}, `delimiter '\r': a line break`},
		{[]string{"--comments", "\n"}, `comment marker "\n": a line break cannot start a comment`},
		{[]string{"--csv", "--comments", ","}, `comment marker "," is the delimiter too`},
	} {
		r := run(t, []byte("1 2\n"), append(append([]string{"from-text", "-"}, c.args...), "-o", out)...)
		wantError(t, r, "from-text")
		if !strings.Contains(string(r.stderr), c.want) {
			t.Errorf("%q: %q does not say %s", c.args, r.stderr, c.want)
		}
	}
	// A marker of several characters may hold whitespace, and a
	// whitespace marker goes with a delimiter, as in NumPy.
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"1\t2 # x\n", []string{"--comments", " #"}},
		{"1 2\n", []string{"--comments", "\r\n"}},
		{"1\t2 # x\n", []string{"--delimiter", "\t", "--comments", " "}},
	} {
		if r := run(t, []byte(c.stdin), append(append([]string{"from-text", "-"}, c.args...), "-o", out)...); r.code != 0 {
			t.Errorf("%q: exit %d %s", c.args, r.code, r.stderr)
		}
	}
}

// TestTextTerminalSafety: the field an error quotes reaches the terminal as
// visible escapes, never as the ESC, BEL, CR or NUL the file holds.
func TestTextTerminalSafety(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.npy")
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"1 \x1b[2J\x07\x00\n", nil, `could not convert string '\x1b[2J\x07\x00' to float64`},
		{"1,\x1b]0;title\x07\r\n", []string{"--csv", "--dtype", "int8"}, `could not convert string '\x1b]0;title\x07' to int8`},
		{"(1+2j) \u202e9\xff\n", []string{"--dtype", "complex64"}, `could not convert string '\u202e9\xff' to complex64`},
		{"[1, \x1b[31m]", []string{"--json"}, `not a number: '\x1b[31m'`},
	} {
		r := run(t, []byte(c.stdin), append(append([]string{"from-text", "-"}, c.args...), "-o", out)...)
		wantError(t, r, "from-text")
		msg := strings.TrimSuffix(string(r.stderr), "\n")
		if strings.ContainsAny(msg, "\x1b\x07\x00\r\u202e") || !strings.Contains(msg, c.want) {
			t.Errorf("%q: %q, want %s and no control character", c.stdin, msg, c.want)
		}
	}
}
