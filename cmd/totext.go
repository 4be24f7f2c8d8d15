package cmd

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats/npy"
	"strider/internal/sysmem"
	"strider/ops"
	"strider/text"
)

// Flags of the text commands, shared by to-text and from-text. Their
// defaults differ (NumPy's savetxt and loadtxt differ), so they have no
// Value here: each command applies its own when the flag is not set.
var (
	textDelimiterFlag = &cli.StringFlag{Name: "delimiter", Usage: "column separator `TEXT` (to-text default ' '; from-text default: any whitespace)"}
	textCSVFlag       = &cli.BoolFlag{Name: "csv", Usage: "--delimiter ','"}
	textCommentsFlag  = &cli.StringFlag{Name: "comments", Usage: "comment marker `TEXT` (to-text default '# ', before --header and --footer; from-text default '#')"}
	textJSONFlag      = &cli.BoolFlag{Name: "json", Usage: "nested lists, as Python's json.dumps(a.tolist()) / json.load"}
)

var toTextCommand = newCommand(&cli.Command{
	Name:      "to-text",
	Usage:     "write an array as text, as np.savetxt (or JSON lists)",
	ArgsUsage: "IN",
	Description: `Writes a 1-D or 2-D array byte for byte as
np.savetxt(out, a, fmt=FMT, delimiter=D, newline=NL, header=H, footer=F, comments=C)
does (a 1-D array is one column; 0-d and 3-d or more are refused, as
NumPy refuses them). --fmt takes Python %-formatting: one conversion for
every column, or one per column (two per column for complex): d i u x X o
e E f F g G s r with the flags - + space # 0, a width and a precision; the
digits are correctly rounded, as Python's. Complex numbers are written as
NumPy writes them: " (re+imj)" per column. No escapes are interpreted: pass
a tab as $'\t'.

--json writes json.dumps(a.tolist()) instead, for any number of
dimensions: floats as Python's shortest repr of their float64 value, NaN,
Infinity, -Infinity as Python's json writes them, and no newline at the
end (as json.dumps); complex arrays are refused, as json refuses them.

The text goes to -o PATH (written atomically) or standard output.

Examples:
   strider to-text x.npy -o x.txt
   strider to-text --csv --fmt '%.6g' --header 'a,b,c' x.npy
   strider to-text --json x.npy`,
	Flags: []cli.Flag{
		&cli.StringFlag{Name: "fmt", Value: "%.18e", Usage: "Python %-format `FMT` of each column (or of a whole row)"},
		textDelimiterFlag, textCSVFlag,
		&cli.StringFlag{Name: "newline", Value: "\n", Usage: "row terminator `TEXT`", DefaultText: `"\n"`},
		&cli.StringFlag{Name: "header", Usage: "`TEXT` written first, after the comment marker"},
		&cli.StringFlag{Name: "footer", Usage: "`TEXT` written last, after the comment marker"},
		textCommentsFlag, textJSONFlag, outputFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag,
	},
}, parseToText)

// toTextJob is to-text's command line.
type toTextJob struct {
	in   string
	st   text.SaveTxt
	json bool
	// given says which of savetxt's options the command line sets: the
	// script passes those.
	given struct{ delimiter, newline, header, footer, comments bool }
}

func parseToText(c *cli.Context) (job, error) {
	j := toTextJob{json: c.Bool(textJSONFlag.Name)}
	var err error
	if j.in, err = oneInput(c, "input IN"); err != nil {
		return nil, err
	}
	j.st = text.SaveTxt{
		Fmt: c.String("fmt"), Delimiter: " ", Newline: c.String("newline"),
		Header: c.String("header"), Footer: c.String("footer"), Comments: "# ",
	}
	if j.given.delimiter = c.IsSet(textDelimiterFlag.Name); j.given.delimiter {
		j.st.Delimiter = c.String(textDelimiterFlag.Name)
	}
	if c.Bool(textCSVFlag.Name) {
		if j.given.delimiter && j.st.Delimiter != "," {
			return nil, usagef("--csv and --delimiter %q disagree", j.st.Delimiter)
		}
		j.st.Delimiter, j.given.delimiter = ",", true
	}
	if j.given.comments = c.IsSet(textCommentsFlag.Name); j.given.comments {
		j.st.Comments = c.String(textCommentsFlag.Name)
	}
	j.given.newline, j.given.header, j.given.footer = c.IsSet("newline"), c.IsSet("header"), c.IsSet("footer")
	return j, nil
}

func (j toTextJob) run(e *env) error {
	if err := e.cpuOnly(); err != nil {
		return err
	}
	return e.withInput(j.in, npy.AccessAll, func(in input) error {
		// Bounded before the output is created: the work (a view larger than
		// its storage), the memory of a row, the disk for the text.
		const maxWrites = 1 << 24 // about a second of savetxt on 2 cores (20 M elements/s), 5 s of JSON (3.4 M/s)
		name, v := displayName(j.in), in.view
		// The progress counts the input's bytes as their text is written.
		total := int64(v.Count()) * int64(v.Elem)
		if j.json {
			lists, numbers := jsonItems(v.Shape)
			visits, what := numbers, "elements to write"
			if numbers == 0 {
				visits, what = lists, "empty lists to write" // shape (2**40, 0)
			}
			if err := checkVisits(name, v, visits, what, maxWrites); err != nil {
				return err
			}
			// Each list takes "[]", each number a digit, and all numbers but
			// the first follow a ", ".
			least := int64(2*lists + numbers + 2*max(numbers-1, 0))
			if err := checkTextRoom(e, least); err != nil {
				return err
			}
			return e.writeText(total, func(w io.Writer, o ops.Options) error { return text.WriteJSON(w, v, in.Dtype, o) })
		}
		least, memory, err := j.st.Needs(v, in.Dtype, e.Options)
		if err != nil {
			return err
		}
		visits, what := v.Count(), "elements to write"
		if visits == 0 {
			visits, what = v.Shape[0], "empty rows to write" // shape (2**40, 0): a newline each
		}
		if err := checkVisits(name, v, visits, what, maxWrites); err != nil {
			return err
		}
		if err := sysmem.CheckMemory("the format and the text of a row", memory); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := checkTextRoom(e, least); err != nil {
			return err
		}
		return e.writeText(total, func(w io.Writer, o ops.Options) error { return j.st.Write(w, v, in.Dtype, o) })
	})
}

// jsonItems is how many lists and numbers json.dumps(a.tolist()) writes
// for an array of shape, each at most math.MaxInt/8: a shape (2**40, 0)
// holds no number but 2**40 + 1 lists.
func jsonItems(shape []int) (lists, numbers int) {
	const most = math.MaxInt / 8
	n := 1
	for _, d := range shape {
		lists = min(lists+n, most)
		if d != 0 && n > most/d {
			n = most
			continue
		}
		n *= d
	}
	return lists, n
}

// checkTextRoom refuses a text of at least n bytes for -o PATH when PATH's
// file system has less free space, before the output is created. npy's own
// check needs the exact size, which a text does not have before it is
// written. A device or FIFO as PATH (-o /dev/null) is written, not
// created, and takes any size; standard output is a stream.
func checkTextRoom(e *env, n int64) error {
	path := e.output
	if !e.outputSet || path == "-" || path == "" {
		return nil
	}
	target := path
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil
		}
		if t, err := filepath.EvalSymlinks(path); err == nil {
			target = t
		}
	}
	dir := filepath.Dir(target)
	if free, ok := sysmem.FreeSpace(dir); ok && n > free {
		return fmt.Errorf("cannot create %s: the text takes at least %s (%d bytes) of disk space, but the file system of %s has %s free", path, sysmem.HumanBytes(n), n, dir, sysmem.HumanBytes(free))
	}
	return nil
}

// textTarget is where a text result goes: a path literal, or standard
// output.
func (s *script) textTarget() string {
	if s.out != "" && s.out != "-" {
		return pyStr(s.out)
	}
	s.importModule("sys")
	return "sys.stdout.buffer"
}

// nonASCII reports whether the text may hold more than ASCII: an option
// that does, or a %c conversion (an integer's character).
func (j toTextJob) nonASCII() bool {
	for _, o := range []string{j.st.Fmt, j.st.Delimiter, j.st.Newline, j.st.Header, j.st.Footer, j.st.Comments} {
		for i := 0; i < len(o); i++ {
			if o[i] >= 0x80 {
				return true
			}
		}
	}
	p, err := text.ParsePyFormat(j.st.Fmt)
	return err == nil && p.Converts('c')
}

// script writes np.savetxt, or json.dumps of the nested lists.
func (j toTextJob) script(s *script) error {
	a := s.load("a", j.in)
	out := s.textTarget()
	if j.json {
		s.importModule("json")
		if out == "sys.stdout.buffer" {
			s.add("sys.stdout.buffer.write(json.dumps(%s.tolist()).encode())", a)
		} else {
			s.add("with open(%s, 'w') as f:", out)
			s.add("    f.write(json.dumps(%s.tolist()))", a)
		}
		return nil
	}
	kw := []string{"fmt=" + pyStr(j.st.Fmt)}
	if j.given.delimiter {
		kw = append(kw, "delimiter="+pyStr(j.st.Delimiter))
	}
	for _, o := range []struct {
		name, value string
		given       bool
	}{{"newline", j.st.Newline, j.given.newline}, {"header", j.st.Header, j.given.header}, {"footer", j.st.Footer, j.given.footer}} {
		if o.given {
			kw = append(kw, o.name+"="+pyStr(o.value))
		}
	}
	if j.given.comments {
		kw = append(kw, "comments="+pyStr(j.st.Comments))
	}
	if j.nonASCII() {
		// strider writes UTF-8; np.savetxt encodes latin-1 into a binary
		// stream and the locale's encoding into a file.
		kw = append(kw, "encoding='utf-8'")
	}
	s.add("np.savetxt(%s, %s, %s)", out, a, strings.Join(kw, ", "))
	return nil
}
