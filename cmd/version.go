package cmd

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
)

// Version is strider's version as a release build sets it:
// -ldflags "-X strider/cmd.Version=0.2.0". Left empty, the version comes
// from the binary's build information (see readVersion).
var Version string

// buildVersion is where a binary came from, as --version prints it.
type buildVersion struct {
	version  string // the release's, the module's (go install strider@v0.2.0), or "devel"
	commit   string // vcs.revision, or "unknown"
	modified string // vcs.modified: "true" when the tree had uncommitted changes; or "unknown"
	date     string // vcs.time, the commit's time (so a rebuild gives the same bytes), or "unknown"
	goVer    string // the Go toolchain that built it
	platform string // GOOS/GOARCH
}

// readVersion is the running binary's buildVersion: go build stamps the
// VCS fields into every binary built in a git checkout (-trimpath too),
// so a plain build carries them as a release build does.
func readVersion() buildVersion {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionOf(Version, bi)
}

// versionOf is the buildVersion of a binary whose -X version is stamped
// (maybe empty) and whose build information is bi (nil where it has none).
func versionOf(stamped string, bi *debug.BuildInfo) buildVersion {
	v := buildVersion{version: "devel", commit: "unknown", modified: "unknown", date: "unknown",
		goVer: runtime.Version(), platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if bi.GoVersion != "" {
			v.goVer = bi.GoVersion
		}
		// "(devel)" is what go build wrote before Go 1.24 and still writes
		// outside a VCS checkout; since 1.24 a checkout gives a
		// pseudo-version, with +dirty for a modified tree.
		if m := bi.Main.Version; m != "" && m != "(devel)" {
			v.version = m
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.commit = s.Value
			case "vcs.modified":
				v.modified = s.Value
			case "vcs.time":
				v.date = s.Value
			}
		}
	}
	if stamped != "" {
		v.version = stamped
	}
	return v
}

// write prints v as --version does: "strider version VERSION", then one
// "KEY VALUE" line each for commit, modified, date, go and platform. Each
// value is one line: a script reads a field as the rest of its line.
func (v buildVersion) write(w io.Writer) error {
	one := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	_, err := fmt.Fprintf(w, "strider version %s\ncommit %s\nmodified %s\ndate %s\ngo %s\nplatform %s\n",
		one(v.version), one(v.commit), one(v.modified), one(v.date), one(v.goVer), one(v.platform))
	return err
}

// urfave/cli v2 has one version printer for all apps, a package variable:
// set once here, before any app runs, so --version and -v print the build
// information instead of "strider version VERSION" alone.
func init() {
	cli.VersionPrinter = func(c *cli.Context) { _ = readVersion().write(c.App.Writer) }
}
