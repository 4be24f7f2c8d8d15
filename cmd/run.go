// Package cmd holds strider's subcommands: flags, argument checks, and the
// calls into npy (reading and writing) and ops (the work). Errors become exit
// codes and one-line messages in exactly one place, Run.
//
// NewApp builds the app main runs and the tests run in-process: commands
// read standard input from app.Reader and write to app.Writer and
// app.ErrWriter, never to the os globals. Flags that several commands take
// are typed variables declared once in flags.go (outputFlag, axisFlag,
// indicesFlag, ...) and read back by their Name. A command that writes an
// array hands writeResult (or writeOutput) a fill function; writeOutput
// creates the output and gives the fill the command's ops.Options with
// Done already set to the progress counter, so every kernel reports
// progress the same way.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"strider/formats/output"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
)

// Commands is every subcommand, in the order help lists them.
var Commands = []*cli.Command{
	infoCommand,
	transposeCommand,
	diagonalCommand,
	gatherCommand,
	gatherElementsCommand,
	trilIndicesCommand,
	triuIndicesCommand,
	sortCommand,
	sliceCommand,
	reshapeCommand,
	uniqueConsecutiveCommand,
	castCommand,
	concatCommand,
	stackCommand,
	showCommand,
	statsCommand,
	reduceCommand,
	toTextCommand,
	fromTextCommand,
	compareCommand,
	convertCommand,
	completionCommand,
}

// NewApp returns the strider app: every command, reading standard input
// from app.Reader and writing results to app.Writer (os.Stdin and
// os.Stdout; a caller running strider in-process, as the tests do, sets
// other files). Run sets app.ErrWriter.
func NewApp() *cli.App {
	return &cli.App{
		Name:                 "strider",
		Usage:                "one tensor operation on .npy files, byte-identical to NumPy",
		Version:              readVersion().version,
		EnableBashCompletion: true,
		HideHelpCommand:      false,
		Commands:             Commands,
		Reader:               os.Stdin,
		Writer:               os.Stdout,
		ErrWriter:            os.Stderr,
	}
}

// Exit codes of the command-line contract.
const (
	exitOK        = 0
	exitDifferent = 1 // compare: the arrays differ
	exitError     = 2 // anything else that went wrong
)

// errDifferent is returned by compare after printing its report.
var errDifferent = errors.New("arrays differ")

// usageError marks a mistake on the command line (as opposed to in a file).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errorLine writes err as the contract's one line, "strider: <command>:
// <message>", with the message on one line and clipped in the middle.
func errorLine(w io.Writer, command string, err error) {
	// The message may quote what a file holds (a name, a field): whatever
	// a terminal would act on is escaped here too, whoever built it.
	msg := clipMiddle(termsafe.Escape(strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")), maxMessage)
	if command != "" {
		fmt.Fprintf(w, "strider: %s: %s\n", command, msg)
	} else {
		fmt.Fprintf(w, "strider: %s\n", msg)
	}
}

// Run runs the app on argv and returns the process exit status. It reorders
// options that follow positional arguments, turns every error into one line
// "strider: <command>: <message>" on stderr, removes temporary output files
// on SIGINT/SIGTERM/SIGHUP, and never lets a panic reach the user.
//
// A memory fault on a mapped file (another program truncated an input
// while strider read it) panics instead of crashing the process
// (debug.SetPanicOnFault, on this goroutine here and on the engine's
// workers in package ops) and is reported as an error naming the file.
func Run(app *cli.App, argv []string, stderr io.Writer) (code int) {
	name := commandName(app, argv)
	report := func(err error) int { return exitCode(err, name, stderr) }
	app.ErrWriter = stderr // where a command that goes on past errors prints them (info)
	debug.SetPanicOnFault(true)
	defer func() {
		if r := recover(); r != nil {
			output.RemoveTemps()
			code = report(panicError(r))
		}
	}()
	stop := handleSignals()
	defer stop()

	takeErrors(app)
	if n := len(argv); n > 1 && argv[n-1] == completionFlag {
		w := app.Writer
		if w == nil {
			w = os.Stdout
		}
		complete(app, argv, w)
		return exitOK
	}
	if len(argv) == 1 {
		// No command: the command list, on standard error as for any
		// other usage mistake.
		app.Writer = stderr
		_ = app.Run([]string{argv[0], "--help"})
		return exitError
	}
	if err := checkArgs(app, argv); err != nil {
		return report(err)
	}
	if err := runThenDrain(app, argv); err != nil {
		if errors.Is(err, errScriptPrinted) {
			return exitOK
		}
		var coder cli.ExitCoder
		if errors.As(err, &coder) && coder.ExitCode() == 3 {
			// urfave/cli's "No help topic for ..." from `strider help nosuch`.
			err = usagef("%s", err.Error())
		}
		return report(err)
	}
	return exitOK
}

// exitCode is Run's exit code for err, which it reports first: as one
// line on stderr naming the command, except for compare's difference,
// errors already printed, and a broken pipe, which ends the process by
// SIGPIPE.
func exitCode(err error, name string, stderr io.Writer) int {
	if errors.Is(err, errDifferent) {
		return exitDifferent
	}
	if errors.Is(err, errReported) {
		return exitError // each error is on its own line already
	}
	if brokenPipe(err) {
		// The reader went away (strider ... | head -c 10): remove the
		// temporary outputs, then end as other tools do, by SIGPIPE,
		// silently.
		output.RemoveTemps()
		dieOfSIGPIPE()
		err = errors.New("standard output was closed before the result was written (broken pipe)")
	}
	errorLine(stderr, name, err)
	return exitError
}

// takeErrors makes app hand every error to Run, which chooses the exit
// codes: usage mistakes as usageErrors, and an unknown command as one.
func takeErrors(app *cli.App) {
	app.ExitErrHandler = func(*cli.Context, error) {} // we choose exit codes
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return &usageError{err.Error()} }
	app.Action = func(c *cli.Context) error {
		if c.Args().Present() {
			return usagef("unknown command %q (see strider --help)", c.Args().First())
		}
		return cli.ShowAppHelp(c)
	}
	for _, c := range app.Commands {
		c.OnUsageError = app.OnUsageError
	}
}

// runThenDrain runs the command, then drains standard input when the
// command read from it, only after a success: a refused input may be
// endless (`yes | strider info -`), and the writer of a refused one has
// no use for finishing.
func runThenDrain(app *cli.App, argv []string) error {
	stdinUsed.Store(false)
	err := app.Run(reorder(app, argv))
	if err == nil {
		drainStdin(appStdin(app))
	}
	stdinUsed.Store(false)
	return err
}

// maxMessage bounds an error line: a message that quotes a long argument
// (an --index literal, a slice expression, a path) keeps its first and
// last part.
const maxMessage = 1024

// clipMiddle shortens s to about n bytes by cutting out its middle, which
// becomes " ... ", on UTF-8 boundaries.
func clipMiddle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n*2/3, n/3-5
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	from := len(s) - tail
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return s[:head] + " ... " + s[from:]
}

// panicError turns a recovered panic into the error to report: a memory
// fault inside a mapped file is the file's error; anything else is a bug.
func panicError(r any) error {
	if re, ok := r.(runtime.Error); ok {
		if f, ok := re.(interface{ Addr() uintptr }); ok {
			if err := sysmem.FaultError(f.Addr()); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("internal error: %v (please report this)", r)
}

// commandName finds the subcommand in argv, for error messages.
func commandName(app *cli.App, argv []string) string {
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if c := app.Command(a); c != nil {
			return c.Name
		}
		return ""
	}
	return ""
}

// reorder moves a subcommand's options in front of its positional arguments,
// since the standard flag parser stops at the first positional. A token that
// is "-", or "-" followed by a digit, ':' or '.', is an argument (a negative
// number, a slice such as -2:0:-1, or standard input); "--" ends the
// options. The value of a non-boolean option is taken as is, so
// "--offset -2" works.
func reorder(app *cli.App, argv []string) []string {
	out := []string{argv[0]}
	i := 1
	for i < len(argv) && strings.HasPrefix(argv[i], "-") && argv[i] != "--" {
		out = append(out, argv[i])
		i++
	}
	if i >= len(argv) {
		return out
	}
	c := app.Command(argv[i])
	if c == nil {
		return append(out, argv[i:]...)
	}
	out = append(out, argv[i])
	var flags, pos []string
	dangling := ""
	for j := i + 1; j < len(argv); j++ {
		t := argv[j]
		switch {
		case t == "--":
			pos = append(pos, argv[j+1:]...)
			j = len(argv)
		case isArgument(t):
			pos = append(pos, t)
		case strings.HasPrefix(t, "-"):
			flags = append(flags, t)
			name := strings.TrimLeft(t, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if takesValue(c, name) {
				if j+1 == len(argv) {
					// Left as the last token, the parser reports the
					// missing value; before "--" it would take that.
					dangling = t
					flags = flags[:len(flags)-1]
					continue
				}
				flags = append(flags, argv[j+1])
				j++
			}
		default:
			pos = append(pos, t)
		}
	}
	out = append(out, flags...)
	if dangling != "" {
		// An option that ends the line without its value: given last,
		// with nothing after it, the parser reports "flag needs an
		// argument" (a usage error) instead of taking the positional
		// arguments' "--" as its value.
		return append(out, dangling)
	}
	if len(pos) > 0 {
		out = append(out, "--")
		out = append(out, pos...)
	}
	return out
}

func isArgument(t string) bool {
	if t == "-" {
		return true
	}
	if len(t) < 2 || t[0] != '-' {
		return false
	}
	c := t[1]
	return c >= '0' && c <= '9' || c == ':' || c == '.'
}

// takesValue reports whether the named option of c needs a value.
func takesValue(c *cli.Command, name string) bool {
	for _, f := range c.Flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false // unknown options and --help: let the parser report them
}

// handleSignals removes uncommitted temporary outputs on SIGINT, SIGTERM or
// SIGHUP, then dies of the same signal so the shell sees the usual status.
// A signal that was ignored when strider started (nohup, a background job
// of a script) stays ignored. SIGPIPE is caught only so that a write to a
// closed pipe returns EPIPE: Run then removes the temporary files before
// it dies of SIGPIPE, instead of dying with another output's temporary
// file still on disk.
func handleSignals() (stop func()) {
	ch := make(chan os.Signal, 1)
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	signal.Notify(ch, sigs...)
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			output.RemoveTemps()
			signal.Reset(s)
			if sig, ok := s.(syscall.Signal); ok {
				raise(sig)
			}
		case <-done:
		}
	}()
	return func() { signal.Stop(ch); signal.Stop(pipe); close(done) }
}
