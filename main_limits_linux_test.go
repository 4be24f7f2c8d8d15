package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// gnuTime runs a command in a process of its own and writes its peak
// resident memory; see peakCommand.
var gnuTime, _ = exec.LookPath("/usr/bin/time")

// peakCommand is striderCommand with a way to read strider's peak resident
// memory once it has ended. The rusage of the process exec.Cmd starts does
// not tell it: Go starts a child with clone(CLONE_VM|CLONE_VFORK), so the
// child's peak includes the test process's own resident memory at the
// exec (hundreds of MiB once the hostile cases have run). GNU time forks
// strider from its own small process and reports strider's peak alone.
func peakCommand(t testing.TB, args ...string) (*exec.Cmd, func() int64) {
	t.Helper()
	if gnuTime == "" {
		c := striderCommand(t, args...)
		return c, func() int64 { return maxRSS(c) }
	}
	out := filepath.Join(t.TempDir(), "maxrss")
	c := limitedCommand(t, caseDataLimit, gnuTime, append([]string{"-f", "%M", "-o", out, strider}, args...)...)
	return c, func() int64 {
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("peak memory of %v: %v", args, err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			t.Fatalf("peak memory of %v: %q", args, b)
		}
		return kb * 1024
	}
}

// maxRSS is the peak resident memory rusage gives for c, in bytes (KiB on
// Linux); see peakCommand for why it overstates.
func maxRSS(c *exec.Cmd) int64 {
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
