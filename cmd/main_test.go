package cmd

import (
	"bytes"
	"fmt"
	"os"
	"runtime/debug"
	"testing"
	"time"

	"strider/internal/testkit"
)

// The command tests run strider in-process: run builds the app as main
// does, gives it standard input, output and error of the test's own, and
// calls Run, so a case costs no process start and no build. What needs a
// real process (memory limits and peak memory, signals, SIGPIPE, a
// terminal, the file descriptors a shell sets up, the environment read at
// package initialisation, several processes at once) stays in the root
// package's end-to-end tests (main_test.go, main_hostile_test.go), which
// run the built binary.
//
// Every in-process case runs under a deadline and, on Linux, the whole
// test process under a memory limit (limitMemory), as every end-to-end
// case runs under both: a hang or a runaway allocation must fail loudly
// instead of stalling the suite or waking the out-of-memory killer.

func TestMain(m *testing.M) {
	limitMemory()
	os.Exit(m.Run())
}

// runDeadline is far above any in-process case's time (the largest take
// a few seconds). A run still going after it is a hang: the test binary
// panics with the command line and every goroutine's stack, since a
// goroutine cannot be stopped from outside and the next case would run
// beside it.
const runDeadline = 2 * time.Minute

// runResult is what one in-process run of strider gave. (The name result
// is taken in package cmd: the output pipeline's.)
type runResult struct {
	code           int
	stdout, stderr []byte
}

// run runs strider with args in-process, as `strider ARGS...` runs it:
// standard input is a pipe fed with stdin (or /dev/null when stdin is
// nil, as exec.Cmd gives a child), standard output and error are buffers.
func run(t testing.TB, stdin []byte, args ...string) runResult {
	t.Helper()
	in, fed := stdinPipe(t, stdin)
	var out, errb bytes.Buffer
	app := NewApp()
	app.Reader, app.Writer = in, &out
	argv := append([]string{"strider"}, args...)
	// The binary's os.Args is its argv: the --as-numpy scripts quote it
	// (script.go's "# the same as:" line reads os.Args, not Run's argv).
	saved := os.Args
	os.Args = argv
	watchdog := time.AfterFunc(runDeadline, func() { stalled(argv) })
	code := Run(app, argv, &errb)
	watchdog.Stop()
	os.Args = saved
	// What strider left unread is dropped, as when a child exits: the
	// feeding goroutine then ends with EPIPE.
	in.Close()
	<-fed
	return runResult{code, out.Bytes(), errb.Bytes()}
}

// stdinPipe is the read end of a pipe that a goroutine fills with b and
// then closes (fed is closed when it has ended), or /dev/null for nil b.
func stdinPipe(t testing.TB, b []byte) (in *os.File, fed chan struct{}) {
	t.Helper()
	fed = make(chan struct{})
	if b == nil {
		close(fed)
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		return f, fed
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(fed)
		_, _ = w.Write(b)
		w.Close()
	}()
	return r, fed
}

// stalled ends the test binary when a run outlives runDeadline.
func stalled(argv []string) {
	debug.SetTraceback("all")
	panic(fmt.Sprintf("%q still running after %v: stopping the test binary (the stacks of every goroutine follow)", argv, runDeadline))
}

// wantError checks the contract for failures: exit 2, one line on stderr
// starting with "strider: <command>: ", nothing on stdout.
func wantError(t testing.TB, r runResult, command string) {
	t.Helper()
	testkit.WantError(t, r.code, r.stdout, r.stderr, command)
}

// fromRoot runs the rest of the test in the repository's root folder, where
// the end-to-end tests ran it: its fixtures are named testdata/... there,
// as the golden scripts, testdata/expected_info.jsonl and the subtests'
// names spell them, and as strider prints them back.
func fromRoot(t testing.TB) {
	t.Helper()
	t.Chdir("..")
}

// readFile and glob fail the test when a fixture cannot be read or none
// matches.
var (
	readFile = testkit.ReadFile
	glob     = testkit.Glob
)
