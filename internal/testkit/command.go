package testkit

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Prlimit is prlimit(1), or "" where there is none (not Linux). It sets a
// limit and then executes the command in its own place (same process,
// same pid), so signals and resource usage reach the command itself.
var Prlimit, _ = exec.LookPath("prlimit")

// Command is exec.Command(name, args...) under a deadline and an
// RLIMIT_DATA of dataLimit bytes (through Prlimit; without it only the
// deadline applies), so that a hang or a runaway allocation fails its case
// with a message instead of stalling the suite or waking the out-of-memory
// killer.
func Command(t testing.TB, deadline time.Duration, dataLimit int64, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	var c *exec.Cmd
	if Prlimit != "" {
		c = exec.CommandContext(ctx, Prlimit, append([]string{"--data=" + strconv.FormatInt(dataLimit, 10), "--", name}, args...)...)
	} else {
		c = exec.CommandContext(ctx, name, args...)
	}
	c.WaitDelay = 10 * time.Second
	return c
}

// ExitCode is the exit status of a finished command; it fails the test
// when the command could not run or ran past its deadline.
func ExitCode(t testing.TB, c *exec.Cmd, err error) int {
	t.Helper()
	if c.ProcessState != nil && c.ProcessState.ExitCode() >= 0 {
		return c.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("%v: killed (%v): past its deadline or out of memory", c.Args, ee)
	}
	t.Fatalf("%v: %v", c.Args, err)
	return -1
}

// Python is the interpreter with NumPy (and PyTorch) that the tests check
// strider's outputs with, as scripts/test.sh installs them.
const Python = "/usr/bin/python3"

// NumPy returns Python, or skips the test, saying SKIPPED and why (what it
// would have checked: "to check archives with"), when NumPy cannot be
// imported there.
func NumPy(t testing.TB, what string) string {
	t.Helper()
	if out, err := exec.Command(Python, "-c", "import numpy").CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: no NumPy under %s %s: %v %s", Python, what, err, out)
	}
	return Python
}

// RunStderr runs c and returns its exit status and standard error; it
// fails the test when c cannot run.
func RunStderr(t testing.TB, c *exec.Cmd) (int, string) {
	t.Helper()
	var errb bytes.Buffer
	c.Stderr = &errb
	err := c.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errb.String()
	} else if err != nil {
		t.Fatalf("%v: %v", c.Args, err)
	}
	return 0, errb.String()
}

// ShellRefuses reports whether the shell's `: > path` fails, with what the
// shell said: what strider's -o must do alike. command builds the shell's
// command line: exec.Command, or one that runs it as another user.
func ShellRefuses(t testing.TB, command func(name string, args ...string) *exec.Cmd, path string) (bool, string) {
	t.Helper()
	code, stderr := RunStderr(t, command("sh", "-c", `: > "$0"`, path))
	return code != 0, stderr
}
