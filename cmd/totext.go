package cmd

import (
	"io"

	"github.com/urfave/cli/v2"

	"strider/npy"
	"strider/ops"
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

var toTextCommand = &cli.Command{
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
		textCommentsFlag, textJSONFlag, outputFlag, deviceFlag, threadsFlag, asNumpyFlag,
	},
	Action: runToText,
}

func runToText(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	opt, err := cpuOptions(c)
	if err != nil {
		return err
	}
	st := ops.SaveTxt{
		Fmt: c.String("fmt"), Delimiter: " ", Newline: c.String("newline"),
		Header: c.String("header"), Footer: c.String("footer"), Comments: "# ",
	}
	if c.IsSet(textDelimiterFlag.Name) {
		st.Delimiter = c.String(textDelimiterFlag.Name)
	}
	if c.Bool(textCSVFlag.Name) {
		if c.IsSet(textDelimiterFlag.Name) && st.Delimiter != "," {
			return usagef("--csv and --delimiter %q disagree", st.Delimiter)
		}
		st.Delimiter = ","
	}
	if c.IsSet(textCommentsFlag.Name) {
		st.Comments = c.String(textCommentsFlag.Name)
	}
	in, err := openInput(c, spec, npy.AccessAll)
	if err != nil {
		return err
	}
	defer in.Close()
	if c.Bool(textJSONFlag.Name) {
		j, err := ops.JSONText(in.view, in.Dtype)
		if err != nil {
			return err
		}
		return writeText(c, func(w io.Writer) error { _, err := w.Write(j); return err })
	}
	return writeText(c, func(w io.Writer) error { return st.Write(w, in.view, in.Dtype, opt.Options) })
}

// writeText lets write produce the text into -o PATH, atomically, or onto
// standard output (a terminal too: text is what it is for).
func writeText(c *cli.Context, write func(io.Writer) error) error {
	path := "-"
	if c.IsSet(outputFlag.Name) {
		if path = c.String(outputFlag.Name); path == "" {
			return usagef("--output needs a path (or - for standard output)")
		}
	}
	out, err := npy.CreateRaw(path, c.App.Writer, 0)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := write(out); err != nil {
		return err
	}
	return out.Commit()
}

// cpuOptions is options for a command that has no GPU kernel: --device
// cuda is refused rather than silently run on the CPU.
func cpuOptions(c *cli.Context) (settings, error) {
	opt, err := options(c)
	if err != nil {
		return settings{}, err
	}
	if _, onCPU := opt.eng.(cpu); !onCPU {
		return settings{}, usagef("--device cuda: %s has no GPU kernel yet; use --device cpu", c.Command.Name)
	}
	return opt, nil
}
