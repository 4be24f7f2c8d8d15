package cmd

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOf: the version comes from -X, else the module's version,
// else "devel"; the VCS fields from the build settings, else "unknown".
func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "-trimpath", Value: "true"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-25T10:11:12Z"},
		{Key: "vcs.modified", Value: "false"},
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    buildVersion
	}{
		{"no build information", "", nil,
			buildVersion{"devel", "unknown", "unknown", "unknown", runtime.Version(), platform}},
		{"outside a checkout", "", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "strider", Version: "(devel)"}},
			buildVersion{"devel", "unknown", "unknown", "unknown", "go1.99", platform}},
		{"go install strider@v1.2.3", "", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Path: "strider", Version: "v1.2.3"}},
			buildVersion{"v1.2.3", "unknown", "unknown", "unknown", "go1.99", platform}},
		{"go build in a checkout", "", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v0.0.0-20261125101112-0123456789ab+dirty"}, Settings: vcs},
			buildVersion{"v0.0.0-20261125101112-0123456789ab+dirty", "0123456789abcdef0123456789abcdef01234567", "false", "2026-11-25T10:11:12Z", "go1.99", platform}},
		{"release build", "0.2.0", &debug.BuildInfo{GoVersion: "go1.99", Main: debug.Module{Version: "v0.0.0-20261125101112-0123456789ab"}, Settings: vcs},
			buildVersion{"0.2.0", "0123456789abcdef0123456789abcdef01234567", "false", "2026-11-25T10:11:12Z", "go1.99", platform}},
		{"release build outside a checkout", "0.2.0", nil,
			buildVersion{"0.2.0", "unknown", "unknown", "unknown", runtime.Version(), platform}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionOf(tc.stamped, tc.bi); got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestVersionLines: --version's lines, in their order, one value each;
// a value with a newline in it stays on its line.
func TestVersionLines(t *testing.T) {
	var b bytes.Buffer
	v := buildVersion{"0.2.0\nplatform evil", "abc", "true", "2026-11-25T10:11:12Z", "go1.99", "linux/amd64"}
	if err := v.write(&b); err != nil {
		t.Fatal(err)
	}
	want := "strider version 0.2.0 platform evil\ncommit abc\nmodified true\ndate 2026-11-25T10:11:12Z\ngo go1.99\nplatform linux/amd64\n"
	if b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}

// TestVersionFlag: --version and -v print the running binary's lines on
// standard output and exit 0; help shows the version.
func TestVersionFlag(t *testing.T) {
	var want bytes.Buffer
	if err := readVersion().write(&want); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--version", "-v"} {
		var out, errb bytes.Buffer
		app := NewApp()
		app.Writer = &out
		if code := Run(app, []string{"strider", flag}, &errb); code != 0 || out.String() != want.String() || errb.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", flag, code, out.String(), errb.String(), want.String())
		}
	}
	var out bytes.Buffer
	app := NewApp()
	app.Writer = &out
	Run(app, []string{"strider", "--help"}, &out)
	if v := readVersion().version; !strings.Contains(out.String(), "VERSION:\n   "+v+"\n") {
		t.Errorf("--help does not show the version %q:\n%s", v, out.String())
	}
}
