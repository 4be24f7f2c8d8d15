//go:build linux

package cmd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"strider/internal/testkit"
)

// Outputs against faults and hostile targets (issues 8 and 13): -o into a
// missing, read-only or non-folder, onto a FIFO or a device, through a
// link in a sticky folder, under a name at the file system's limit. They
// need Linux (tmpfs mounts, mknod, fs.protected_symlinks); what needs a
// process of strider's own (a full disk behind a shell's redirection,
// signals, other users) is the root package's main_hostile_test.go.

// safetyEx is the example input, named from the repository root.
const safetyEx = "testdata/example_f4_2x3x4_c.npy"

// TestFaultOutputFolder: a read-only folder (a tmpfs remounted read-only,
// since root ignores mode bits), a missing folder and a "folder" that is a
// regular file each fail up front with one line naming the problem.
func TestFaultOutputFolder(t *testing.T) {
	fromRoot(t)
	ex := "testdata/example_f4_2x3x4_c.npy"
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	cases := []struct{ name, out, want string }{
		{"missing folder", filepath.Join(tmp, "no/such/x.npy"), "no such file or directory"},
		{"folder is a file", filepath.Join(file, "x.npy"), "not a directory"},
		{"output is a folder", tmp, "is a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, nil, "transpose", ex, "-o", c.out)
			testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", c.want)
		})
	}
	t.Run("read-only folder", func(t *testing.T) {
		ro := testkit.Mount(t, "1m", true)
		r := run(t, nil, "transpose", ex, "-o", filepath.Join(ro, "x.npy"))
		testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "read-only file system")
		testkit.WantNames(t, ro)
	})
	if os.Geteuid() != 0 {
		t.Run("mode 0555 folder", func(t *testing.T) {
			dir := t.TempDir()
			os.Chmod(dir, 0o555)
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			r := run(t, nil, "transpose", ex, "-o", filepath.Join(dir, "x.npy"))
			testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "permission denied")
		})
	}
}

// TestFaultDeviceOutput: an output path that is a FIFO or a device is
// written to, never renamed over (which would replace the device node).
func TestFaultDeviceOutput(t *testing.T) {
	fromRoot(t)
	ex := "testdata/example_f4_2x3x4_c.npy"
	want := run(t, nil, "transpose", ex, "-o", "-").stdout
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	if r := run(t, nil, "transpose", ex, "-o", fifo); r.code != 0 {
		t.Fatalf("exit %d %s", r.code, r.stderr)
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("the FIFO's reader got %d bytes, want %d", len(b), len(want))
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v", err)
	}
	if os.Geteuid() != 0 {
		return
	}
	t.Run("devices", func(t *testing.T) {
		null, full := filepath.Join(dir, "null"), filepath.Join(dir, "full")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skipf("SKIPPED: cannot make device nodes here: %v", err)
		}
		if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
			t.Skipf("SKIPPED: cannot make device nodes here: %v", err)
		}
		if r := run(t, nil, "transpose", ex, "-o", null); r.code != 0 {
			t.Fatalf("-o null: exit %d %s", r.code, r.stderr)
		}
		r := run(t, nil, "transpose", ex, "-o", full)
		testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "no space left on device")
		for _, p := range []string{null, full} {
			if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
				t.Fatalf("%s is no longer a character device: %v", p, err)
			}
		}
	})
}

// TestSafetySymlinks (issue 13, item 3): the target is opened as given, so
// the kernel decides whether a link may be followed (fs.protected_symlinks:
// root writing through another user's link in a sticky world-writable
// folder), as it does for ">". Whatever the setting, strider does what ">"
// does; a link that may be followed keeps pointing at the replaced file.
func TestSafetySymlinks(t *testing.T) {
	fromRoot(t)
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: needs root to own the folder and give the link to another user")
	}
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	sticky := testkit.OpenDir(t, 0o777|os.ModeSticky)
	victim := filepath.Join(t.TempDir(), "victim.npy")
	for _, dangling := range []bool{false, true} {
		os.Remove(victim)
		if !dangling {
			os.WriteFile(victim, []byte("previous"), 0o644)
		}
		link := filepath.Join(sticky, fmt.Sprintf("link%v.npy", dangling))
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(link, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		refused, shellSaid := testkit.ShellRefuses(t, exec.Command, link)
		os.Remove(victim)
		if !dangling {
			os.WriteFile(victim, []byte("previous"), 0o644)
		}
		r := run(t, nil, "transpose", safetyEx, "-o", link)
		protected := strings.TrimSpace(string(readFileOr(t, "/proc/sys/fs/protected_symlinks")))
		switch {
		case refused:
			testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "permission denied")
			got, err := os.ReadFile(victim)
			if dangling && err == nil || !dangling && string(got) != "previous" {
				t.Fatalf("the link's target changed (dangling %v)", dangling)
			}
		case protected == "1":
			t.Fatalf("fs.protected_symlinks is 1 but > wrote through the link")
		default:
			t.Logf("SKIPPED the refusal check: fs.protected_symlinks is %q here, so > follows the link (%s)", protected, shellSaid)
			if r.code != 0 {
				t.Fatalf("> follows the link and strider refuses: %s", r.stderr)
			}
			if !bytes.Equal(readFile(t, victim), want) {
				t.Fatal("the file the link names does not hold the result")
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatal("the link was replaced")
			}
		}
		testkit.WantNoTemps(t, sticky)
		testkit.WantNoTemps(t, filepath.Dir(victim))
	}
}

func readFileOr(t *testing.T, path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// TestSafetyLongNames (issue 13, item 8): a target name up to the file
// system's limit (255 bytes) is written as NumPy writes it; one byte more
// fails as ">" fails.
func TestSafetyLongNames(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	want := run(t, nil, "transpose", safetyEx, "-o", "-").stdout
	for _, n := range []int{231, 232, 240, 255} {
		out := filepath.Join(dir, strings.Repeat("x", n-4)+".npy")
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatalf("%d-byte name: %s", n, r.stderr)
		}
		if !bytes.Equal(readFile(t, out), want) {
			t.Fatal("wrong result")
		}
		// And replacing it.
		if r := run(t, nil, "transpose", safetyEx, "-o", out); r.code != 0 {
			t.Fatalf("%d-byte name, replaced: %s", n, r.stderr)
		}
		os.Remove(out)
	}
	testkit.WantNames(t, dir)
	r := run(t, nil, "transpose", safetyEx, "-o", filepath.Join(dir, strings.Repeat("x", 252)+".npy"))
	testkit.WantOneLine(t, r.code, string(r.stderr), "transpose", "file name too long")
	testkit.WantNames(t, dir)
}
