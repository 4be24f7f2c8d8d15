package cmd

import (
	"io"
	"os"

	"github.com/urfave/cli/v2"
)

// A command is one value in its own file: its definition (name, usage,
// flags) and parse, which reads the command line into the command's typed
// options, a job. newCommand makes the action that runs the job, or prints
// its reference script with --as-numpy or --as-torch. Nothing below the
// action sees the flag library: the job's run and script methods take
// plain values.
//
// Adding a command: a file cmd/<name>.go with the definition, its options
// type, parse, run and script; one line in Commands (run.go).

// job is a command line read into a command's options: it runs with the
// shared settings and streams (env), or writes the NumPy or PyTorch script
// that computes the same result.
type job interface {
	run(e *env) error
	script(s *script) error
}

// newCommand completes def with the action that parses the command line
// into a job and runs it (or prints its script).
func newCommand(def *cli.Command, parse func(c *cli.Context) (job, error)) *cli.Command {
	def.Action = func(c *cli.Context) error {
		lib, err := scriptLibrary(c)
		if err != nil {
			return err
		}
		j, err := parse(c)
		if err != nil {
			return err
		}
		if lib != "" {
			return printScript(c, lib, j)
		}
		e, err := newEnv(c)
		if err != nil {
			return err
		}
		return j.run(e)
	}
	return def
}

// env is what every job runs with, read from the shared flags and the
// app by the action: the streams, the output the command line names, the
// progress line's settings, and the engine and its options.
type env struct {
	settings
	name   string    // the command's name, for the progress line
	stdin  *os.File  // standard input, as npy reads it
	stdout io.Writer // results and printed text
	stderr io.Writer // progress, warnings, and errors a command goes on past
	// output is -o's value; outputSet says it was given.
	output    string
	outputSet bool
	quiet     bool
	hook      func(command string, done, total int64) // see progressHook
}

// newEnv reads the shared flags (--threads, --device, --order, -o,
// --quiet) and the app's streams.
func newEnv(c *cli.Context) (*env, error) {
	e := &env{
		name:      c.Command.Name,
		stdin:     appStdin(c.App),
		stdout:    c.App.Writer,
		stderr:    c.App.ErrWriter,
		output:    c.String(outputFlag.Name),
		outputSet: c.IsSet(outputFlag.Name),
		quiet:     c.Bool(quietFlag.Name),
	}
	e.hook, _ = c.App.Metadata[progressHook].(func(command string, done, total int64))
	if err := refuseRemoteOutput(e.output); err != nil {
		return nil, err
	}
	var err error
	if e.settings, err = options(c); err != nil {
		return nil, err
	}
	e.watchTransfers()
	return e, nil
}

// stdinFor returns standard input for formats.Open, noting its use when spec
// names it.
func (e *env) stdinFor(spec string) *os.File {
	if spec == "-" {
		stdinUsed.Store(true)
	}
	return e.stdin
}
