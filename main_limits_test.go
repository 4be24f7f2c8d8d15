package main

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// Every end-to-end case runs strider under a deadline and a memory limit,
// so that a hang or a runaway allocation fails that case with a message
// instead of stalling the suite or waking the out-of-memory killer.
const (
	// caseDeadline is far above any case's time (the largest, the 6 GiB
	// transposes of main_size_test.go, take seconds).
	caseDeadline = 3 * time.Minute
	// caseDataLimit is RLIMIT_DATA: the heap and every other private
	// writable mapping. Inputs and outputs are shared file mappings, which
	// it does not count, so the multi-GiB cases run under it.
	caseDataLimit = 3 << 30
)

// prlimit sets the limit and then executes the command in its own place
// (same process, same pid), so signals and resource usage reach strider.
var prlimit, _ = exec.LookPath("prlimit")

// striderCommand is exec.Command(strider, args...) under the case's
// deadline and memory limit.
func striderCommand(t testing.TB, args ...string) *exec.Cmd {
	return limitedCommand(t, caseDataLimit, strider, args...)
}

// limitedCommand runs name under a deadline and an RLIMIT_DATA of dataLimit
// bytes. Without prlimit (not Linux) only the deadline applies.
func limitedCommand(t testing.TB, dataLimit int64, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	t.Cleanup(cancel)
	var c *exec.Cmd
	if prlimit != "" {
		c = exec.CommandContext(ctx, prlimit, append([]string{"--data=" + strconv.FormatInt(dataLimit, 10), "--", name}, args...)...)
	} else {
		c = exec.CommandContext(ctx, name, args...)
	}
	c.WaitDelay = 10 * time.Second
	return c
}

// exitCode is the exit status of a finished command; it fails the test when
// the command could not run or ran past its deadline.
func exitCode(t testing.TB, c *exec.Cmd, err error) int {
	t.Helper()
	if c.ProcessState != nil && c.ProcessState.ExitCode() >= 0 {
		return c.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("%v: killed (%v): past the %v deadline or out of memory", c.Args, ee, caseDeadline)
	}
	t.Fatalf("%v: %v", c.Args, err)
	return -1
}
