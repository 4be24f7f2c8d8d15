package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// versionLines runs a strider binary with --version and returns its lines
// by key ("strider version" for the first), checking their order.
func versionLines(t *testing.T, r result) map[string]string {
	t.Helper()
	if r.code != 0 || len(r.stderr) != 0 {
		t.Fatalf("--version: exit %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(r.stdout), "\n"), "\n")
	keys := []string{"strider version", "commit", "modified", "date", "go", "platform"}
	if len(lines) != len(keys) {
		t.Fatalf("--version printed %d lines, want %d: %q", len(lines), len(keys), r.stdout)
	}
	fields := map[string]string{}
	for k, key := range keys {
		value, ok := strings.CutPrefix(lines[k], key+" ")
		if !ok || value == "" {
			t.Fatalf("--version line %d is %q, want %q and a value", k+1, lines[k], key+" ")
		}
		fields[key] = value
	}
	return fields
}

// buildInfo is what `go version -m` reads from a binary: the main module's
// version, the Go version and the build settings.
func buildInfo(t *testing.T, binary string) (module, goVersion string, settings map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", binary).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	settings = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for first := true; sc.Scan(); first = false {
		f := strings.Split(strings.TrimSpace(sc.Text()), "\t")
		switch {
		case first:
			_, goVersion, _ = strings.Cut(sc.Text(), ": ")
		case f[0] == "mod" && len(f) >= 3:
			module = f[2]
		case f[0] == "build" && len(f) == 2:
			k, v, _ := strings.Cut(f[1], "=")
			settings[k] = v
		}
	}
	return module, goVersion, settings
}

// orUnknown is s, or "unknown" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// TestVersionFromBuildInfo: --version (and -v) of the binary TestMain
// built with a plain go build says what its build information holds: the
// module's version, the commit, whether the tree was modified, the
// commit's time, the Go version and the platform; in a git checkout the
// commit is one of the repository's and the date its commit time.
func TestVersionFromBuildInfo(t *testing.T) {
	got := versionLines(t, run(t, nil, "--version"))
	if short := run(t, nil, "-v"); !bytes.Equal(short.stdout, []byte(strings.Join([]string{
		"strider version " + got["strider version"], "commit " + got["commit"], "modified " + got["modified"],
		"date " + got["date"], "go " + got["go"], "platform " + got["platform"]}, "\n")+"\n")) {
		t.Errorf("-v prints %q, --version %v", short.stdout, got)
	}
	module, goVersion, settings := buildInfo(t, strider)
	version := module
	if version == "" || version == "(devel)" {
		version = "devel"
	}
	want := map[string]string{
		"strider version": version,
		"commit":          orUnknown(settings["vcs.revision"]),
		"modified":        orUnknown(settings["vcs.modified"]),
		"date":            orUnknown(settings["vcs.time"]),
		"go":              goVersion,
		"platform":        settings["GOOS"] + "/" + settings["GOARCH"],
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("--version says %s %q, the build information %q", k, got[k], v)
		}
	}
	if got["platform"] != runtime.GOOS+"/"+runtime.GOARCH || got["go"] != runtime.Version() {
		t.Errorf("--version says go %s on %s; this is %s on %s/%s", got["go"], got["platform"], runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath("git"); err != nil || exec.Command("git", "rev-parse", "--git-dir").Run() != nil {
		t.Skip("SKIPPED: not a git checkout: the commit is not checked against the repository")
	}
	if got["commit"] == "unknown" {
		t.Fatalf("a go build in a git checkout gave no commit: %v", got)
	}
	// Others may commit meanwhile: the commit need not be HEAD, but it must
	// be the repository's, and the date its commit time.
	out, err := exec.Command("git", "show", "-s", "--format=%cI", got["commit"]).Output()
	if err != nil {
		t.Fatalf("git show %s: %v", got["commit"], err)
	}
	when, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	if d := when.UTC().Format(time.RFC3339); got["date"] != d {
		t.Errorf("date %s, the commit's time %s", got["date"], d)
	}
	if got["modified"] != "true" && got["modified"] != "false" {
		t.Errorf("modified %q in a git checkout", got["modified"])
	}
}

// TestVersionReleaseBuilds: a release build's -X strider/cmd.Version is the
// version, and a -trimpath build keeps the commit; a build without VCS
// information says devel and unknown, and still exits 0.
func TestVersionReleaseBuilds(t *testing.T) {
	dir := t.TempDir()
	build := func(name string, args ...string) string {
		out := filepath.Join(dir, name)
		c := exec.Command("go", append(append([]string{"build"}, args...), "-o", out, ".")...)
		if msg, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", args, err, msg)
		}
		return out
	}
	runBinary := func(binary string) result {
		c := limitedCommand(t, caseDataLimit, binary, "--version")
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		return result{exitCode(t, c, c.Run()), out.Bytes(), errb.Bytes()}
	}

	release := build("strider-release", "-trimpath", "-ldflags=-X strider/cmd.Version=9.8.7-test")
	got := versionLines(t, runBinary(release))
	_, _, settings := buildInfo(t, release)
	if got["strider version"] != "9.8.7-test" {
		t.Errorf("-X strider/cmd.Version=9.8.7-test: version %q", got["strider version"])
	}
	if settings["-trimpath"] != "true" || got["commit"] != orUnknown(settings["vcs.revision"]) || got["date"] != orUnknown(settings["vcs.time"]) {
		t.Errorf("-trimpath build: --version %v, build information %v", got, settings)
	}
	if _, _, plain := buildInfo(t, strider); plain["vcs.revision"] != "" && got["commit"] == "unknown" {
		t.Errorf("-trimpath lost the commit a plain build has (%s)", plain["vcs.revision"])
	}

	noVCS := build("strider-novcs", "-buildvcs=false")
	got = versionLines(t, runBinary(noVCS))
	for k, v := range map[string]string{"strider version": "devel", "commit": "unknown", "modified": "unknown", "date": "unknown"} {
		if got[k] != v {
			t.Errorf("-buildvcs=false: %s %q, want %q", k, got[k], v)
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

// shellQuote is s in single quotes, for a bash command line.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// TestBashCompletionEndToEnd sources the script strider prints in bash,
// sets the completion variables as bash sets them when Tab is pressed at
// the end of a line (bash splits x.npz:name into three words at the ':'),
// calls the function and reads COMPREPLY: what bash inserts after the last
// ':' or '=' of the word, quoted for the command line.
func TestBashCompletionEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("SKIPPED: no bash")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "strider.bash")
	r := run(t, nil, "completion", "bash")
	if r.code != 0 {
		t.Fatalf("completion bash: exit %d %q", r.code, r.stderr)
	}
	if err := os.WriteFile(script, r.stdout, 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	os.WriteFile(filepath.Join(work, "m.npy"), nil, 0o644)
	// Member names a shell would run if it evaluated them, and one that
	// needs quoting; strider reads only the archive's directory.
	names := []string{"w.npy", "w2.npy", "$(touch pwned).npy", "`touch pwned2`.npy", "a b.npy", "x:y.npy"}
	writeNpzNames(t, filepath.Join(work, "a.npz"), names)
	for _, tc := range []struct {
		name  string
		words []string // as bash splits the line; the line is them joined, a space where one is ""
		want  []string // all of these in COMPREPLY
		miss  []string // none of these
	}{
		{"commands", []string{"strider", " ", "tr"}, []string{"transpose", "tril-indices", "triu-indices"}, []string{"sort"}},
		{"all commands", []string{"strider", " ", ""}, []string{"completion", "compare", "help"}, []string{"--help"}},
		{"app options", []string{"strider", " ", "-"}, []string{"--version", "--help"}, nil},
		{"options", []string{"strider", " ", "sort", " ", "--n"}, []string{"--nans"}, []string{"--axis", "m.npy"}},
		{"options and files", []string{"strider", " ", "sort", " ", ""}, []string{"--axis", "-o", "m.npy", "a.npz"}, []string{"first"}},
		{"values", []string{"strider", " ", "sort", " ", "m.npy", " ", "--nans", " ", ""}, []string{"first", "last"}, []string{"--axis", "m.npy"}},
		{"--device", []string{"strider", " ", "transpose", " ", "--device", " ", "c"}, []string{"cpu", "cuda"}, []string{"--axes"}},
		{"--casting", []string{"strider", " ", "cast", " ", "--casting", " ", "s"}, []string{"safe", "same_kind"}, []string{"unsafe"}},
		{"--dtype", []string{"strider", " ", "cast", " ", "--dtype", " ", "uint"}, []string{"uint8", "uint16", "uint32", "uint64"}, []string{"int8"}},
		{"--dtype=", []string{"strider", " ", "cast", " ", "--dtype", "=", "fl"}, []string{"float16", "float32", "float64"}, []string{"--dtype=float32"}},
		{"--sign", []string{"strider", " ", "show", " ", "--sign", " ", ""}, []string{"-", "+", `\ `}, nil},
		{"a number", []string{"strider", " ", "sort", " ", "--axis", " ", ""}, nil, []string{"m.npy", "--axis"}},
		{"completion", []string{"strider", " ", "completion", " ", ""}, []string{"bash", "zsh", "fish", "powershell"}, nil},
		{"help", []string{"strider", " ", "help", " ", "so"}, []string{"sort"}, nil},
		{"files", []string{"strider", " ", "gather", " ", "--indices", " ", "m"}, []string{"m.npy"}, []string{"--axis"}},
		{"members", []string{"strider", " ", "show", " ", "a.npz", ":"}, []string{"w", "w2", `\$\(touch\ pwned\)`, "\\`touch\\ pwned2\\`", `a\ b`, "x:y"}, []string{"a.npz:w", "m.npy"}},
		{"member prefix", []string{"strider", " ", "show", " ", "a.npz", ":", "w"}, []string{"w", "w2"}, []string{`a\ b`}},
		{"member after a second :", []string{"strider", " ", "show", " ", "a.npz", ":", "x", ":"}, []string{"y"}, []string{"w"}},
		{"members of a quoted path", []string{"strider", " ", "show", " ", "'a.npz'", ":", "a"}, []string{`a\ b`}, []string{"w"}},
		{"members in double quotes", []string{"strider", " ", "show", " ", `"a.npz:$`}, []string{`a.npz:\$(touch pwned)`}, []string{"w"}},
		{"members in single quotes", []string{"strider", " ", "show", " ", `'a.npz:`}, []string{"a.npz:$(touch pwned)", "a.npz:a b"}, nil},
		{"members of an output", []string{"strider", " ", "sort", " ", "-o", " ", "a.npz", ":", ""}, []string{"w", "w2"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var words []string
			line := ""
			for k, p := range tc.words {
				if p == " " {
					line += " "
					if k == len(tc.words)-1 || tc.words[k+1] == " " {
						words = append(words, "")
					}
					continue
				}
				line += p
				words = append(words, p)
			}
			quoted := make([]string, len(words))
			for k, w := range words {
				quoted[k] = shellQuote(w)
			}
			cmdline := `source "$SCRIPT"; PATH="$BIN:$PATH"; cd "$WORK"; ` +
				`COMP_WORDS=(` + strings.Join(quoted, " ") + `); COMP_CWORD=` + strconv.Itoa(len(words)-1) +
				`; COMP_LINE=` + shellQuote(line) + `; COMP_POINT=` + strconv.Itoa(len(line)) +
				`; _strider_complete; printf '%s\n' "${COMPREPLY[@]}"`
			c := limitedCommand(t, caseDataLimit, "bash", "--norc", "--noprofile", "-c", cmdline)
			c.Env = append(os.Environ(), "SCRIPT="+script, "BIN="+filepath.Dir(strider), "WORK="+work)
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if code := exitCode(t, c, c.Run()); code != 0 || errb.Len() > 0 {
				t.Fatalf("bash: exit %d, stderr %q", code, errb.String())
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("COMPREPLY %q, want %q among them", got, w)
				}
			}
			for _, w := range tc.miss {
				if slices.Contains(got, w) {
					t.Errorf("COMPREPLY %q, want no %q", got, w)
				}
			}
		})
	}
	for _, f := range []string{"pwned", "pwned2"} {
		if _, err := os.Stat(filepath.Join(work, f)); err == nil {
			t.Errorf("a member's name was run: %s exists", f)
		}
	}
}

// writeNpzNames writes a zip with empty members of the given names: the
// completion lists an archive from its directory alone.
func writeNpzNames(t *testing.T, path string, names []string) {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, n := range names {
		if _, err := z.Create(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
