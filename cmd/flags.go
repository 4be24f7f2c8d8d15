package cmd

import (
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/ops"
)

// Flags every operation shares, declared once.
var (
	outputFlag = &cli.StringFlag{
		Name: "output", Aliases: []string{"o"}, Usage: "write the result to `PATH` (- for standard output, FILE.npz:NAME for a member of an archive, FILE.safetensors:NAME for a tensor; default: standard output unless it is a terminal)",
	}
	deviceFlag = &cli.StringFlag{
		Name: "device", Value: "cpu", Usage: "run on `DEV`: cpu or cuda",
	}
	// A string read by parseInt: decimal, as every integer option (an
	// IntFlag would read 010 as 8).
	threadsFlag = &cli.StringFlag{
		Name: "threads", Usage: "use `N` threads", DefaultText: "all cores",
	}
	quietFlag = &cli.BoolFlag{
		Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on standard error",
	}
	// axisFlag is the axis sort and gather-elements work along: the last
	// by default, and --dim as torch names it. Read it with axisValue.
	axisFlag = &cli.StringFlag{
		Name: "axis", Aliases: []string{"dim"}, Value: "-1", Usage: "axis `A` to work along",
	}
	// takeAxisFlag is gather's --axis: numpy.take flattens the input
	// without one, and the contract gives gather no --dim.
	takeAxisFlag = &cli.StringFlag{
		Name: axisFlag.Name, Usage: "axis `A` to take along (default: the flattened array)",
	}
	// indicesFlag is the index array of gather and gather-elements.
	indicesFlag = &cli.StringFlag{
		Name: "indices", Usage: "read the indices from `IDX.npy`",
	}
	// The commands whose result is a view of the input (transpose, slice,
	// diagonal) take --order.
	orderFlag = &cli.StringFlag{
		Name: "order", Value: "C", Usage: "`ORDER` of the output file: C, or keep: Fortran order where numpy.save(view) writes it (F- but not C-contiguous), so cmp against it works",
	}
)

// withShared appends the shared flags to a command's own.
func withShared(own ...cli.Flag) []cli.Flag {
	return append(own, outputFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag, asTorchFlag)
}

// maxThreads bounds --threads: more goroutines than this only cost memory.
const maxThreads = 4096

// settings is what a command runs with: the engine --device picks and the
// options its kernels take.
type settings struct {
	ops.Options
	eng engine
	// readAhead, when set, is an input opened with npy.AccessAllLater that
	// writeView reads in once its output exists, when it reads it out of
	// order (see readAhead).
	readAhead *npy.Array
	// keepOrder is --order keep: a view NumPy would save in Fortran order
	// is written in Fortran order.
	keepOrder bool
}

// options reads --device and --threads.
func options(c *cli.Context) (settings, error) {
	opt := settings{Options: ops.Options{Threads: runtime.GOMAXPROCS(0)}, eng: cpu{}}
	if c.IsSet("threads") {
		n, err := parseInt("threads", c.String("threads"))
		if err != nil {
			return settings{}, err
		}
		if n < 1 || n > maxThreads {
			return settings{}, usagef("--threads %d is out of range 1..%d", n, maxThreads)
		}
		opt.Threads = n
	}
	switch o := c.String("order"); {
	case !slices.Contains(c.Command.Flags, cli.Flag(orderFlag)):
		// A command's own --order (reshape's index order) is its own.
	case o == "" || o == "C" || o == "c":
	case o == "keep":
		opt.keepOrder = true
	default:
		return settings{}, usagef("--order %q is not C or keep", o)
	}
	switch d := c.String("device"); {
	case d == "cpu":
	case !slices.Contains(c.Command.Flags, cli.Flag(deviceFlag)):
		// A command without --device (show, info) runs on the CPU.
	case d == "cuda":
		eng, err := gpu()
		if err != nil {
			return settings{}, err
		}
		opt.eng = eng
	default:
		return settings{}, usagef("--device %q is not cpu or cuda", d)
	}
	return opt, nil
}

// parseInts reads a comma-separated integer list such as "1,0,-1"; brackets
// or parentheses around it are accepted, as NumPy users write tuples.
func parseInts(flag, s string) ([]int, error) { return parseIntList("--"+flag, s) }

// parseIntList is parseInts for the value of what (a flag, or an argument).
func parseIntList(what, s string) ([]int, error) {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && (t[0] == '(' && t[len(t)-1] == ')' || t[0] == '[' && t[len(t)-1] == ']') {
		t = t[1 : len(t)-1]
	}
	out := []int{}
	if strings.TrimSpace(t) == "" {
		return out, nil
	}
	items := strings.Split(t, ",")
	for i, f := range items {
		f = strings.TrimSpace(f)
		if f == "" && i == len(items)-1 && i > 0 {
			continue // a trailing comma, as in (1,)
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, usagef("%s %q is not a list of integers", what, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// axisValue reads --axis (or its alias) as an integer, not yet checked
// against the array's dimensions.
func axisValue(c *cli.Context) (int, error) {
	return parseInt(axisFlag.Name, c.String(axisFlag.Name))
}

// parseInt reads one integer option value.
func parseInt(flag, s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, usagef("--%s %q is not an integer", flag, s)
	}
	return n, nil
}
