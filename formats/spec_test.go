package formats

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSplitSpecRules runs the spec grammar against a made-up file system,
// under both the Unix and the Windows rule, on every system: a ':' in a
// Windows volume name ("C:", "\\?\C:") never separates a member.
func TestSplitSpecRules(t *testing.T) {
	files := map[string]bool{
		`C:\data\w.npz`:          true,
		`C:\data\odd:name.npy`:   true,
		`Z:/tmp/z.npz`:           true,
		`\\?\C:\long\w.npz`:      true,
		`//./D:/dev.npz`:         true,
		`\\server\share\s.npz`:   true,
		`C`:                      true, // a file named C in the working folder
		`data/w.npz`:             true,
		`a.npz:b.npz`:            true,
		`/tmp/x.npz`:             true,
		`/tmp/odd:name.npy`:      true,
		`/tmp/has:colon.npz`:     true,
		`/tmp/has:colon.npz:m:n`: false,
	}
	exists := func(p string) bool { return files[p] }
	tests := []struct {
		name    string
		spec    string
		windows bool
		path    string
		member  string
		has     bool
	}{
		{"windows/drive/member", `C:\data\w.npz:layer0`, true, `C:\data\w.npz`, "layer0", true},
		{"windows/drive/no-member", `C:\data\w.npz`, true, `C:\data\w.npz`, "", false},
		{"windows/drive/forward-slashes", `Z:/tmp/z.npz:a`, true, `Z:/tmp/z.npz`, "a", true},
		{"windows/drive/missing-file", `C:\nope.npy`, true, `C:\nope.npy`, "", false},
		{"windows/drive/missing-archive", `C:\nope.npz:a`, true, `C:\nope.npz:a`, "", false},
		{"windows/drive/relative", `C:x.npy`, true, `C:x.npy`, "", false},
		{"windows/drive/existing-colon-name", `C:\data\odd:name.npy`, true, `C:\data\odd:name.npy`, "", false},
		{"windows/drive/member-with-colon", `C:\data\w.npz:a:b`, true, `C:\data\w.npz`, "a:b", true},
		{"windows/device-path", `\\?\C:\long\w.npz:m`, true, `\\?\C:\long\w.npz`, "m", true},
		{"windows/device-path/slashes", `//./D:/dev.npz:m`, true, `//./D:/dev.npz`, "m", true},
		{"windows/device-path/missing", `\\?\C:\nope.npy`, true, `\\?\C:\nope.npy`, "", false},
		{"windows/unc", `\\server\share\s.npz:m`, true, `\\server\share\s.npz`, "m", true},
		{"windows/relative", `data/w.npz:m`, true, `data/w.npz`, "m", true},
		// Under the Unix rule "C" is a file and "C:\nope.npy" names member
		// "\nope.npy" of it; under the Windows rule it is a drive.
		{"unix/file-named-C", `C:\nope.npy`, false, "C", `\nope.npy`, true},
		{"windows/file-named-C", `C:\nope.npy`, true, `C:\nope.npy`, "", false},
		{"unix/member", "/tmp/x.npz:a", false, "/tmp/x.npz", "a", true},
		{"unix/no-member", "/tmp/x.npz", false, "/tmp/x.npz", "", false},
		{"unix/existing-colon-name", "/tmp/odd:name.npy", false, "/tmp/odd:name.npy", "", false},
		{"unix/colon-in-folder-and-member", "/tmp/has:colon.npz:m:n", false, "/tmp/has:colon.npz", "m:n", true},
		{"unix/longest-existing-prefix", "a.npz:b.npz:c", false, "a.npz:b.npz", "c", true},
		{"unix/relative", "data/w.npz:m", false, "data/w.npz", "m", true},
		{"unix/leading-colon", ":x", false, ":x", "", false},
		{"unix/missing", "/nope.npz:a", false, "/nope.npz:a", "", false},
		{"unix/empty-member", "/tmp/x.npz:", false, "/tmp/x.npz", "", true},
		{"unix/stdin", "-", false, "-", "", false},
		{"windows/empty", "", true, "", "", false},
		{"windows/drive-only", "C:", true, "C:", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path, member, has := splitSpecFor(tc.spec, tc.windows, exists)
			if path != tc.path || member != tc.member || has != tc.has {
				t.Fatalf("splitSpecFor(%q, windows=%v) = %q, %q, %v; want %q, %q, %v",
					tc.spec, tc.windows, path, member, has, tc.path, tc.member, tc.has)
			}
		})
	}
}

func TestVolumeLen(t *testing.T) {
	for _, tc := range []struct {
		path    string
		windows bool
		want    int
	}{
		{`C:\x`, true, 2}, {`c:`, true, 2}, {`C:x`, true, 2}, {`Z:/tmp`, true, 2},
		{`\\?\C:\x`, true, 6}, {`\\.\C:`, true, 6}, {`//?/c:/x`, true, 6},
		{`\\server\share\x`, true, 0}, {`1:\x`, true, 0}, {`:x`, true, 0}, {`C`, true, 0}, {``, true, 0},
		{`\\?\UNC\server\share`, true, 0}, {`C:\x`, false, 0},
	} {
		if got := volumeLen(tc.path, tc.windows); got != tc.want {
			t.Errorf("volumeLen(%q, windows=%v) = %d, want %d", tc.path, tc.windows, got, tc.want)
		}
	}
}

// TestSplitSpecHere holds SplitSpec to the rule of the system it runs on,
// with real files: absolute paths (drive letters on Windows), the native
// separator, and a member after them.
func TestSplitSpecHere(t *testing.T) {
	dir := t.TempDir()
	archive := filepath.Join(dir, "w.npz")
	if err := os.WriteFile(archive, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec, path, member string
		has                bool
	}{
		{archive + ":layer0", archive, "layer0", true},
		{archive, archive, "", false},
		{filepath.Join(dir, "nope.npy"), filepath.Join(dir, "nope.npy"), "", false},
		{filepath.Join(dir, "nope.npz") + ":a", filepath.Join(dir, "nope.npz") + ":a", "", false},
	} {
		path, member, has := SplitSpec(tc.spec)
		if path != tc.path || member != tc.member || has != tc.has {
			t.Errorf("SplitSpec(%q) = %q, %q, %v; want %q, %q, %v", tc.spec, path, member, has, tc.path, tc.member, tc.has)
		}
	}
	if runtime.GOOS == "windows" && volumeLen(dir, true) != 2 {
		t.Errorf("t.TempDir() = %q has no drive letter; the Windows cases above prove less", dir)
	}
}
