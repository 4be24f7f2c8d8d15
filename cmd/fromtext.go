package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
	"strider/ops"
	"strider/text"
)

var fromTextCommand = newCommand(&cli.Command{
	Name:      "from-text",
	Usage:     "read a text table into .npy, as np.loadtxt (or JSON lists)",
	ArgsUsage: "IN|-",
	Description: `Writes what np.save(out, np.loadtxt(IN, dtype=D, delimiter=..., comments=...,
skiprows=N, usecols=..., ndmin=K)) writes, byte for byte (NumPy 1.24's C
reader): fields split at runs of whitespace (Python's, Unicode's included:
U+00A0, U+2003, U+3000, ...) or at each --delimiter byte, comments from the
marker to the end of the line, empty lines skipped, lines ending in \n, \r\n
or \r. Numbers as Python's float() reads them (nan, inf,
infinity in any case, exponents, no underscores, no hexadecimal); integer
dtypes read integers, and (as NumPy 1.23+ does, with a deprecation warning)
fall back to a float cast as C casts it on x86-64. The shape is loadtxt's:
one row or one column gives a 1-d array, a single number a 0-d one, unless
--ndmin asks for more. - reads standard input:

   seq 1 100 | strider from-text - | strider sort - -o s.npy

An input without data rows gives NumPy's empty array ((0,), or
(0, len(usecols)), or (0, 1) with --ndmin 2) and its warning, one line on
standard error. A ragged row or a field that is not a number is an error
naming the line (and column). As in NumPy, a line break cannot be the
delimiter or the comment marker, and without --delimiter a one-character
whitespace marker (--comments ' ') is refused.

--json reads nested lists instead (what to-text --json writes, NaN and
Infinity included), as np.array(json.load(f), dtype=D): ragged lists are
refused; out-of-range integers too.

Examples:
   strider from-text data.txt -o a.npy
   strider from-text --csv --skiprows 1 --usecols 0,2 --dtype float32 t.csv -o a.npy
   strider from-text --json lists.json -o a.npy`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "dtype", Value: "float64", Usage: "element type `D` (a NumPy dtype: float32, <i8, >f4, bool, complex128, ...)"},
		textDelimiterFlag, textCSVFlag, textCommentsFlag,
		&cli.StringFlag{Name: "skiprows", Value: "0", Usage: "skip the first `N` lines (comments and blank lines included)"},
		&cli.StringFlag{Name: "usecols", Usage: "read only columns `A,B,...` (0-based; negative ones count from the end)"},
		&cli.StringFlag{Name: "ndmin", Value: "0", Usage: "at least `K` dimensions: 0, 1 or 2"},
		textJSONFlag, outputFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag,
	},
}, parseFromText)

// fromTextJob is from-text's command line.
type fromTextJob struct {
	in        string
	dtypeName string // --dtype as given: the script names it so
	d         dtype.Dtype
	json      bool
	lt        text.LoadTxt
	// given says which of loadtxt's options the command line sets: the
	// script passes those.
	given struct{ delimiter, comments, skiprows, usecols, ndmin bool }
}

func parseFromText(c *cli.Context) (job, error) {
	j := fromTextJob{dtypeName: c.String("dtype"), json: c.Bool(textJSONFlag.Name)}
	var err error
	if j.in, err = oneInput(c, "input IN (or - for standard input)"); err != nil {
		return nil, err
	}
	if j.d, err = npy.ParseDescr(j.dtypeName); err != nil {
		return nil, usagef("--dtype: %v", err)
	}
	if j.lt, err = loadTxtFlags(c); err != nil {
		return nil, err
	}
	j.given.delimiter = c.IsSet(textDelimiterFlag.Name) || c.Bool(textCSVFlag.Name)
	j.given.comments, j.given.skiprows = c.IsSet(textCommentsFlag.Name), c.IsSet("skiprows")
	j.given.usecols, j.given.ndmin = c.IsSet("usecols"), c.IsSet("ndmin")
	return j, nil
}

func (j fromTextJob) run(e *env) error {
	if err := e.cpuOnly(); err != nil {
		return err
	}
	spec, d := j.in, j.d
	input, release, err := j.readText(e)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(spec), err)
	}
	defer release()
	named := func(err error) error {
		var te *text.TextError
		if errors.As(err, &te) {
			return fmt.Errorf("%s: %w", displayName(spec), err)
		}
		return err
	}
	if j.json {
		data, shape, err := text.LoadJSON(input, d)
		if err != nil {
			return named(err)
		}
		return e.writeResult(d, shape, func(dst []byte, o ops.Options) error {
			o.Done.Add(int64(copy(dst, data)))
			return nil
		})
	}
	// Rows are counted first, then parsed straight into the output: an
	// error in them aborts the output, so none is left behind.
	plan, err := j.lt.Plan(input, d, e.Options)
	if err != nil {
		return named(err)
	}
	if len(plan.Shape) > 0 && plan.Shape[0] == 0 {
		// NumPy's UserWarning, and its empty array.
		fmt.Fprintf(e.stderr, "strider: from-text: warning: loadtxt: input contained no data: \"%s\"\n", termsafe.Escape(displayName(spec)))
	}
	filled := false
	err = e.writeResult(d, plan.Shape, func(dst []byte, o ops.Options) error {
		filled = true
		if err := plan.Fill(dst); err != nil {
			return named(err)
		}
		o.Done.Add(int64(len(dst)))
		return nil
	})
	if err != nil && !filled && sysmem.CheckMemory("the rows", int64(plan.Bytes())) == nil {
		// The output failed before the rows were parsed: a bad row is
		// still the error to report, as when the text was parsed first,
		// where memory can hold the rows.
		if ferr := plan.Fill(make([]byte, plan.Bytes())); ferr != nil {
			return named(ferr)
		}
	}
	return err
}

// loadTxtFlags reads from-text's options for np.loadtxt: --comments,
// --delimiter, --csv, --skiprows, --usecols and --ndmin.
func loadTxtFlags(c *cli.Context) (text.LoadTxt, error) {
	lt := text.LoadTxt{Comments: "#"}
	var err error
	if c.IsSet(textCommentsFlag.Name) {
		lt.Comments = c.String(textCommentsFlag.Name)
	}
	if c.IsSet(textDelimiterFlag.Name) {
		del := c.String(textDelimiterFlag.Name)
		if len(del) != 1 {
			return lt, usagef("--delimiter %q: one character (byte) is needed; leave it out to split at whitespace", del)
		}
		lt.Delimiter = del[0]
	}
	if c.Bool(textCSVFlag.Name) {
		if lt.Delimiter != 0 && lt.Delimiter != ',' {
			return lt, usagef("--csv and --delimiter %q disagree", string(lt.Delimiter))
		}
		lt.Delimiter = ','
	}
	if err := lt.Check(); err != nil {
		return lt, usagef("%v", err)
	}
	if lt.SkipRows, err = parseInt("skiprows", c.String("skiprows")); err != nil {
		return lt, err
	}
	if lt.SkipRows < 0 {
		return lt, usagef("--skiprows %d is negative", lt.SkipRows)
	}
	if c.IsSet("usecols") {
		if lt.UseCols, err = parseInts("usecols", c.String("usecols")); err != nil {
			return lt, err
		}
	}
	if lt.NDMin, err = parseInt("ndmin", c.String("ndmin")); err != nil {
		return lt, err
	}
	if lt.NDMin < 0 || lt.NDMin > 2 {
		return lt, usagef("--ndmin %d: only 0, 1 and 2 are allowed", lt.NDMin)
	}
	return lt, nil
}

// readText reads a whole text input: a file, mapped, or standard input,
// held on the heap when short and on a mapped temporary file when long (a
// pipe of gigabytes, in one line or many: formats.ReadStream), so the heap
// holds one block of it whatever its size. The caller calls release when
// done with the bytes.
func (j fromTextJob) readText(e *env) (text []byte, release func(), err error) {
	if j.in != "-" {
		return formats.MapBytes(j.in)
	}
	return formats.ReadStream(e.stdin, "standard input")
}

// script writes np.loadtxt, or np.array of json.load with --json.
func (j fromTextJob) script(s *script) error {
	s.importModule("numpy as np")
	src := pyStr(j.in)
	if j.in == "-" {
		s.importModule("sys")
		src = "sys.stdin"
	}
	dtype := pyStr(j.dtypeName)
	if j.json {
		s.importModule("json")
		if j.in == "-" {
			s.add("r = np.array(json.load(sys.stdin), dtype=%s)", dtype)
		} else {
			s.add("with open(%s) as f:", src)
			s.add("    r = np.array(json.load(f), dtype=%s)", dtype)
		}
		s.save("r")
		return nil
	}
	kw := []string{"dtype=" + dtype}
	if j.given.delimiter {
		kw = append(kw, "delimiter="+pyStr(string([]byte{j.lt.Delimiter})))
	}
	if j.given.comments {
		kw = append(kw, "comments="+pyStr(j.lt.Comments))
	}
	if j.given.skiprows {
		kw = append(kw, fmt.Sprintf("skiprows=%d", j.lt.SkipRows))
	}
	if j.given.ndmin {
		kw = append(kw, fmt.Sprintf("ndmin=%d", j.lt.NDMin))
	}
	if j.given.usecols {
		kw = append(kw, "usecols="+pyInts(j.lt.UseCols))
	}
	s.add("r = np.loadtxt(%s, %s)", src, strings.Join(kw, ", "))
	s.save("r")
	return nil
}
