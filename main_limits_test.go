package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
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
	return commandWithin(t, caseDeadline, dataLimit, name, args...)
}

// commandWithin is limitedCommand with a deadline of its own, for the cases
// that must answer within seconds (a hang there is the bug under test).
func commandWithin(t testing.TB, deadline time.Duration, dataLimit int64, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
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
		t.Fatalf("%v: killed (%v): past its deadline or out of memory", c.Args, ee)
	}
	t.Fatalf("%v: %v", c.Args, err)
	return -1
}

// TestMemoryLimitsHonoured: an input on standard input is read into memory;
// under RLIMIT_DATA or RLIMIT_AS too low for it, strider refuses in one line
// up front instead of dying of Go's "fatal error: out of memory".
func TestMemoryLimitsHonoured(t *testing.T) {
	if prlimit == "" {
		t.Skip("needs prlimit (Linux)")
	}
	const n = 64 << 20 // float32 elements: 256 MiB of data
	stream := append(npyHeader("<f4", false, []int{n}), make([]byte, 4*n)...)
	for _, c := range []struct {
		name  string
		limit []string
	}{
		{"RLIMIT_DATA", []string{"--data=" + strconv.Itoa(160<<20)}},
		{"RLIMIT_AS", []string{"--as=" + strconv.Itoa(1500<<20)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(c.limit, "--", strider, "transpose", "-", "-o", "-")
			cmd := limitedCommand(t, caseDataLimit, prlimit, args...)
			var out, errb bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stream), &out, &errb
			r := result{exitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			wantError(t, r, "transpose")
			if !strings.Contains(string(r.stderr), "memory") {
				t.Fatalf("refusal does not say memory: %q", r.stderr)
			}
		})
	}
}

// endless is a stream that never ends, as `yes` writes.
type endless struct{ b byte }

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	return len(p), nil
}

// TestEndlessInputsAnswer: a stream or a character device that is not a
// .npy is refused at once, not drained first (issue 27, item 1); an endless
// stream that looks like an archive is refused once it outgrows the memory
// check.
func TestEndlessInputsAnswer(t *testing.T) {
	for _, c := range []struct {
		name  string
		stdin io.Reader
		args  []string
	}{
		{"yes|info", endless{'y'}, []string{"info", "-"}},
		{"yes|show", endless{'y'}, []string{"show", "-"}},
		{"yes|stats", endless{'y'}, []string{"stats", "-"}},
		{"zero|info", endless{0}, []string{"info", "-"}},
		{"info/dev/urandom", nil, []string{"info", "/dev/urandom"}},
		{"info/dev/zero", nil, []string{"info", "/dev/zero"}},
		{"show/dev/zero", nil, []string{"show", "/dev/zero"}},
		{"zip|info", io.MultiReader(strings.NewReader("PK\x03\x04"), endless{0}), []string{"info", "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.stdin == nil {
				if _, err := os.Stat(c.args[1]); err != nil {
					t.Skip(err)
				}
			}
			// The zip case reads up to half the memory limit first.
			cmd := commandWithin(t, 20*time.Second, 1<<30, strider, c.args...)
			var out, errb bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = c.stdin, &out, &errb
			r := result{exitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			wantError(t, r, c.args[0])
		})
	}
}

// TestStreamArchiveSpilled: an archive on standard input past the 16 MiB
// held on the heap goes to a temporary file, and is read to its end record
// only: a 48 MiB member (a stored zip entry whose size follows its data, as
// Go's and PyTorch's zip writers write them), then endless zeros after the
// archive, under a memory limit the archive would not fit in twice.
func TestStreamArchiveSpilled(t *testing.T) {
	if prlimit == "" {
		t.Skip("needs prlimit (Linux)")
	}
	const n = 12 << 20 // float32 elements: 48 MiB
	data := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i%1000)))
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "a.npy", Method: zip.Store})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(append(npyHeader("<f4", false, []int{n}), data...))
	zw.Close()
	cmd := commandWithin(t, 60*time.Second, 200<<20, strider, "stats", "--json", "-")
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.MultiReader(&z, io.LimitReader(endless{0}, 1<<30)), &out, &errb
	r := result{exitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(string(r.stdout), `"count":12582912`) || !strings.Contains(string(r.stdout), `"max":999`) {
		t.Fatalf("stats: %s", r.stdout)
	}
}
