package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/testkit"
)

// answer runs a completion request for the words (the last is the word
// being completed) and returns its directive and words.
func answer(t *testing.T, words ...string) (directive string, out []string) {
	t.Helper()
	var b bytes.Buffer
	complete(NewApp(), append(append([]string{"strider"}, words...), completionFlag), &b)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	return lines[0], lines[1:]
}

// TestComplete: the words offered at each kind of place on a command line,
// and whether file names are offered there too.
func TestComplete(t *testing.T) {
	dir := t.TempDir()
	zipped := filepath.Join(dir, "odd names.npz")
	testkit.WriteZipNames(t, zipped, "w.npy", "w2.npy", "$(touch pwned).npy", "a\nb.npy", "\x1b[2J.npy", "x:y.npy")
	for _, tc := range []struct {
		name       string
		words      []string
		files      bool
		want, miss []string
	}{
		{"commands", []string{""}, false, []string{"transpose", "gather-elements", "completion", "help"}, []string{"--help", "-o"}},
		{"app options", []string{"-"}, false, []string{"--version", "-v", "--help", "-h"}, []string{"transpose"}},
		{"after app options", []string{"-q", ""}, false, []string{"transpose"}, nil},
		{"help", []string{"help", ""}, false, []string{"sort", "compare"}, []string{"help"}},
		{"unknown command", []string{"frobnicate", ""}, false, nil, []string{"--axis", "transpose"}},
		{"options", []string{"sort", "--"}, false, []string{"--axis", "--dim", "--nans", "--descending", "-o", "--output", "--help"}, []string{"--axes", "sort"}},
		{"options after input", []string{"sort", "x.npy", "-"}, false, []string{"--nans"}, nil},
		{"empty argument", []string{"sort", ""}, true, []string{"--axis", "-o"}, []string{"first"}},
		{"argument", []string{"sort", "x"}, true, nil, []string{"--axis"}},
		{"after --", []string{"sort", "--", ""}, true, nil, []string{"--axis"}},
		{"negative number", []string{"slice", "x.npy", "-1"}, true, nil, []string{"--help"}},
		{"--device", []string{"transpose", "--device", ""}, false, []string{"cpu", "cuda"}, []string{"--axes"}},
		{"--mode", []string{"gather", "x.npy", "--mode", "c"}, false, []string{"raise", "wrap", "clip"}, nil},
		{"--nans", []string{"sort", "--nans", ""}, false, []string{"first", "last"}, nil},
		{"--casting", []string{"cast", "--casting", ""}, false, []string{"no", "equiv", "safe", "same_kind", "unsafe"}, nil},
		{"cast --dtype", []string{"cast", "--dtype", ""}, false, []string{"bool", "int8", "uint64", "float16", "complex128"}, nil},
		{"from-text --dtype", []string{"from-text", "--dtype", ""}, false, []string{"float32", "int64"}, nil},
		{"tril-indices --dtype", []string{"tril-indices", "--dtype", ""}, false, []string{"int64", "int32"}, []string{"float32"}},
		{"--order", []string{"transpose", "--order", ""}, false, []string{"C", "keep"}, []string{"F"}},
		{"reshape --order", []string{"reshape", "--order", ""}, false, []string{"C", "F"}, []string{"keep"}},
		{"--floatmode", []string{"show", "--floatmode", ""}, false, []string{"maxprec", "fixed", "unique", "maxprec_equal"}, nil},
		{"--sign", []string{"show", "--sign", ""}, false, []string{"-", "+", " "}, nil},
		{"--ndmin", []string{"from-text", "--ndmin", ""}, false, []string{"0", "1", "2"}, nil},
		{"--name=value", []string{"cast", "--dtype=fl"}, false, []string{"--dtype=float32", "--dtype=float64"}, []string{"float32"}},
		{"-o=value", []string{"sort", "-o=x"}, false, nil, nil},
		{"a number", []string{"sort", "--axis", ""}, false, nil, []string{"--axis", "first"}},
		{"a switch takes no value", []string{"sort", "--descending", ""}, true, []string{"--nans"}, nil},
		{"output", []string{"sort", "-o", ""}, true, nil, []string{"--axis"}},
		{"indices", []string{"gather", "--indices", "i"}, true, nil, nil},
		{"completion SHELL", []string{"completion", ""}, false, []string{"bash", "zsh", "fish", "powershell"}, nil},
		{"npz members", []string{"show", "../testdata/archive.npz:"}, false, []string{"../testdata/archive.npz:a", "../testdata/archive.npz:b"}, nil},
		{"npz member prefix", []string{"show", "../testdata/archive.npz:b"}, false, []string{"../testdata/archive.npz:b"}, []string{"../testdata/archive.npz:a"}},
		{"npz members of an output", []string{"sort", "-o", "../testdata/archive.npz:"}, false, []string{"../testdata/archive.npz:a"}, nil},
		{"npz members after --indices=", []string{"gather", "--indices=../testdata/archive.npz:"}, false, []string{"--indices=../testdata/archive.npz:a"}, nil},
		{"safetensors tensors", []string{"show", "../testdata/torch/dtypes.safetensors:x_u"}, false, []string{"../testdata/torch/dtypes.safetensors:x_u8"}, []string{"../testdata/torch/dtypes.safetensors:x_i8"}},
		{"torch.save tensors", []string{"stats", "../testdata/torch/nested.pt:model.0."}, false, []string{"../testdata/torch/nested.pt:model.0.weight", "../testdata/torch/nested.pt:model.0.bias"}, nil},
		{"not an archive", []string{"show", "../testdata/example_f4_2x3x4_c.npy:"}, false, nil, nil},
		{"members, names as data", []string{"show", zipped + ":"}, false,
			[]string{zipped + ":w", zipped + ":w2", zipped + ":$(touch pwned)", zipped + ":x:y"}, nil},
		{"member name with :", []string{"show", zipped + ":x:"}, false, []string{zipped + ":x:y"}, []string{zipped + ":w"}},
		{"remote", []string{"show", "https://example.com/x.npz:"}, true, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			directive, got := answer(t, tc.words...)
			if want := map[bool]string{true: ":files", false: ":words"}[tc.files]; directive != want {
				t.Errorf("directive %q, want %q", directive, want)
			}
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
			for _, w := range got {
				if w == "" || strings.ContainsAny(w, "\n\x1b") {
					t.Errorf("offers %q, which a line-a-word answer or a terminal cannot carry", w)
				}
			}
		})
	}
}

// TestCompleteMembersSkipsUntypeable: a member whose name holds a newline
// or an escape sequence is not offered (it could not be carried a line a
// word, and a terminal would act on it); the others are.
func TestCompleteMembersSkipsUntypeable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.npz")
	testkit.WriteZipNames(t, path, "ok.npy", "a\nb.npy", "\x1b[2J.npy", "bidi\u202e.npy")
	_, got := answer(t, "show", path+":")
	if want := []string{path + ":ok"}; !slices.Equal(got, want) {
		t.Fatalf("offers %q, want %q", got, want)
	}
}

// TestFlagValues: every key of flagValues names an option some command
// takes, every value offered is one the option's help names (or, for a
// dtype, one npy.ParseDescr reads), and every path option exists.
func TestFlagValues(t *testing.T) {
	app := NewApp()
	find := func(command, name string) []cli.Flag {
		var out []cli.Flag
		for _, c := range app.Commands {
			if command != "" && c.Name != command {
				continue
			}
			if _, overridden := flagValues[c.Name+" --"+name]; command == "" && overridden {
				continue // its own list is checked under its own key
			}
			if f := findFlag(c.Flags, name); f != nil {
				out = append(out, f)
			}
		}
		return out
	}
	for key, values := range flagValues {
		command, name, ok := strings.Cut(key, " --")
		if !ok {
			command, name = "", key
		}
		flags := find(command, name)
		if len(flags) == 0 {
			t.Errorf("flagValues[%q]: no command takes --%s", key, name)
		}
		for _, f := range flags {
			usage := f.(cli.DocGenerationFlag).GetUsage()
			for _, v := range values {
				if name == "dtype" && command == "" {
					if _, err := npy.ParseDescr(v); err != nil {
						t.Errorf("flagValues[%q]: %q: %v", key, v, err)
					}
				} else if !strings.Contains(usage, strings.TrimSpace(v)) {
					t.Errorf("flagValues[%q]: %q is not in --%s's help %q", key, v, name, usage)
				}
			}
		}
	}
	for _, name := range pathFlags {
		if len(find("", name)) == 0 {
			t.Errorf("pathFlags: no command takes --%s", name)
		}
	}
	for name := range argValues {
		if app.Command(name) == nil {
			t.Errorf("argValues: no command %s", name)
		}
	}
}

// TestCompletionScripts: each script is valid for its shell (where the
// shell is installed), and scripts/bash_autocomplete is the bash script.
func TestCompletionScripts(t *testing.T) {
	for _, shell := range shells {
		t.Run(shell, func(t *testing.T) {
			var out bytes.Buffer
			app := NewApp()
			app.Writer = &out
			if code := Run(app, []string{"strider", "completion", shell}, &out); code != 0 || out.Len() == 0 {
				t.Fatalf("exit %d: %q", code, out.String())
			}
			if strings.Contains(out.String(), "\t") {
				t.Errorf("the %s script holds a tab", shell)
			}
			check := map[string][]string{
				"bash":       {"bash", "-n"},
				"zsh":        {"zsh", "-n"},
				"fish":       {"fish", "--no-execute"},
				"powershell": {"pwsh", "-NoProfile", "-NonInteractive", "-Command", "$null = [scriptblock]::Create([Console]::In.ReadToEnd())"},
			}[shell]
			if _, err := exec.LookPath(check[0]); err != nil {
				t.Skipf("SKIPPED: %s is not installed: the %s script's syntax is unchecked", check[0], shell)
			}
			c := exec.Command(check[0], check[1:]...)
			c.Stdin = bytes.NewReader(out.Bytes())
			if msg, err := c.CombinedOutput(); err != nil || len(msg) > 0 {
				t.Fatalf("%s: %v %s", strings.Join(check, " "), err, msg)
			}
		})
	}
	file, err := os.ReadFile(filepath.Join("..", "scripts", "bash_autocomplete"))
	if err != nil {
		t.Fatal(err)
	}
	if string(file) != bashCompletion {
		t.Errorf("scripts/bash_autocomplete is not what strider completion bash prints: go run . completion bash > scripts/bash_autocomplete")
	}
}

// TestCompletionUsage: a shell strider has no script for, or none, is a
// usage error in the contract's one line.
func TestCompletionUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "nosuch"}, `strider: completion: unknown shell "nosuch"; expected bash, zsh, fish or powershell` + "\n"},
		{[]string{"completion"}, "strider: completion: missing SHELL (bash, zsh, fish or powershell) (see strider completion --help)\n"},
		{[]string{"completion", "bash", "zsh"}, "strider: completion: expected one SHELL (bash, zsh, fish or powershell), got 2 arguments: bash zsh\n"},
	} {
		var out, errb bytes.Buffer
		app := NewApp()
		app.Writer = &out
		if code := Run(app, append([]string{"strider"}, tc.args...), &errb); code != 2 || out.Len() != 0 || errb.String() != tc.want {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out.String(), errb.String(), tc.want)
		}
	}
}

// TestCompletionCommand: each shell's script is printed, parses in that
// shell where it is installed, and an unknown shell is a usage error.
func TestCompletionCommand(t *testing.T) {
	for _, tc := range []struct{ shell, check, mark string }{
		{"bash", "bash", "complete -F _strider_complete strider"},
		{"zsh", "zsh", "compdef _strider strider"},
		{"fish", "fish", "complete -c strider"},
		{"powershell", "pwsh", "Register-ArgumentCompleter -Native -CommandName 'strider'"},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			r := run(t, nil, "completion", tc.shell)
			if r.code != 0 || len(r.stderr) != 0 || !bytes.Contains(r.stdout, []byte(tc.mark)) {
				t.Fatalf("exit %d, stderr %q, script without %q", r.code, r.stderr, tc.mark)
			}
			if _, err := exec.LookPath(tc.check); err != nil {
				t.Skipf("SKIPPED: %s is not installed: the %s script's syntax is unchecked", tc.check, tc.shell)
			}
			args := map[string][]string{"bash": {"-n"}, "zsh": {"-n"}, "fish": {"--no-execute"},
				"pwsh": {"-NoProfile", "-NonInteractive", "-Command", "$null = [scriptblock]::Create([Console]::In.ReadToEnd())"}}[tc.check]
			c := exec.Command(tc.check, args...)
			c.Stdin = bytes.NewReader(r.stdout)
			if msg, err := c.CombinedOutput(); err != nil || len(msg) > 0 {
				t.Fatalf("%s %v: %v %s", tc.check, args, err, msg)
			}
		})
	}
	wantError(t, run(t, nil, "completion", "nosuch"), "completion")
	wantError(t, run(t, nil, "completion"), "completion")
}
