package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/output"
	"strider/internal/pylit"
	"strider/ops"
)

// --as-numpy and --as-torch print, instead of running, a self-contained
// Python script that computes the same result with NumPy or PyTorch and
// saves it where the command would. The script names the inputs as the
// command line does and reads nothing of them here.
var (
	asNumpyFlag = &cli.BoolFlag{Name: "as-numpy", Usage: "print a NumPy script that computes the same result, instead of running"}
	asTorchFlag = &cli.BoolFlag{Name: "as-torch", Usage: "print a PyTorch script that computes the same result, instead of running"}
)

// errScriptPrinted ends a command whose script was printed: exit 0.
var errScriptPrinted = errors.New("script printed")

// scriptLibrary is the library --as-numpy or --as-torch asks a script
// for: "numpy", "torch", or "" to run the command.
func scriptLibrary(c *cli.Context) (string, error) {
	numpy, torch := c.Bool(asNumpyFlag.Name), c.Bool(asTorchFlag.Name)
	switch {
	case numpy && torch:
		return "", usagef("give --as-numpy or --as-torch, not both")
	case numpy:
		return "numpy", nil
	case torch:
		return "torch", nil
	}
	return "", nil
}

// printScript writes j's script for lib and stops the command.
func printScript(c *cli.Context, lib string, j job) error {
	if err := refuseRemoteScript(c, lib); err != nil {
		return err
	}
	s := newScript(c, lib)
	if err := j.script(s); err != nil {
		return err
	}
	if _, err := io.WriteString(c.App.Writer, s.String()); err != nil {
		return err
	}
	return errScriptPrinted
}

// newScript is an empty script for lib that saves where -o says, in the
// order --order asks for.
func newScript(c *cli.Context, lib string) *script {
	return &script{lib: lib, out: c.String(outputFlag.Name), keepOrder: c.String(orderFlag.Name) == "keep"}
}

// script accumulates the lines of a printed script.
type script struct {
	lib       string
	out       string // -o
	keepOrder bool   // --order keep
	imports   []string
	defs      []string // helper functions, each once, printed before the lines
	lines     []string
	indexes   map[string]*formats.Index // the sharded checkpoints' indexes read (script_sharded.go)
}

// define adds a helper function's text once.
func (s *script) define(def string) {
	for _, have := range s.defs {
		if have == def {
			return
		}
	}
	s.defs = append(s.defs, def)
}

func (s *script) importModule(m string) {
	for _, have := range s.imports {
		if have == m {
			return
		}
	}
	s.imports = append(s.imports, m)
}

func (s *script) add(format string, args ...any) {
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func (s *script) String() string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env python3\n")
	b.WriteString("# the same as: " + commandLine(os.Args[1:]) + "\n")
	for _, l := range s.lines {
		if strings.Contains(l, "os.fsdecode(") {
			s.importModule("os")
		}
	}
	for _, m := range s.imports {
		b.WriteString("import " + m + "\n")
	}
	b.WriteString("\n")
	for _, d := range s.defs {
		b.WriteString("\n" + d + "\n\n")
	}
	for _, l := range s.lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// commandLine is args as a shell would read them back, without the
// --as-* flag: one line whatever bytes the arguments hold.
func commandLine(args []string) string {
	parts := []string{"strider"}
	for _, a := range args {
		if a == "--"+asNumpyFlag.Name || a == "--"+asTorchFlag.Name {
			continue
		}
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes a for a POSIX shell: bare when it is plain, '...'
// otherwise, and $'...' with \xNN escapes when it holds control or
// non-ASCII bytes.
func shellQuote(a string) string {
	plain, printable := a != "", true
	for i := 0; i < len(a); i++ {
		c := a[i]
		if c < 0x20 || c >= 0x7f {
			printable = false
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-+=/.,:@%", c) >= 0) {
			plain = false
		}
	}
	switch {
	case plain:
		return a
	case printable:
		return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(a); i++ {
		switch c := a[i]; {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// pyStr is s as a Python str literal in ASCII: printable ASCII as is,
// other characters as \u escapes. Bytes that are not UTF-8 (a path can hold
// any) make os.fsdecode of a bytes literal, which names the same file.
func pyStr(s string) string {
	var b strings.Builder
	esc := func(c byte) bool {
		if c == '\\' || c == '\'' {
			b.WriteByte('\\')
			b.WriteByte(c)
			return true
		}
		return false
	}
	if !utf8.ValidString(s) {
		b.WriteString("os.fsdecode(b'")
		for i := 0; i < len(s); i++ {
			if c := s[i]; !esc(c) {
				if c >= 0x20 && c < 0x7f {
					b.WriteByte(c)
				} else {
					fmt.Fprintf(&b, "\\x%02x", c)
				}
			}
		}
		b.WriteString("')")
		return b.String()
	}
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r < 0x80 && esc(byte(r)):
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r < 0x10000:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// load adds the lines that read input spec into variable name as a NumPy
// array, refusing what strider refuses (dtypes other than bool, integers,
// f2-f8 and c8-c16), and returns name.
func (s *script) load(name, spec string) string {
	s.loadAny(name, spec)
	s.add("if %s.dtype.kind not in 'biufc' or %s.dtype.itemsize > (16 if %s.dtype.kind == 'c' else 8):", name, name, name)
	s.add("    raise TypeError(f'strider computes on numeric dtypes only, not {%s.dtype}')", name)
	return name
}

// loadAny is load without the dtype check.
func (s *script) loadAny(name, spec string) string {
	s.importModule("numpy as np")
	switch path, member, hasMember := formats.SplitSpec(spec); {
	case spec == "-":
		s.importModule("io")
		s.importModule("sys")
		s.add("%s = np.load(io.BytesIO(sys.stdin.buffer.read()))", name)
	case formats.IsIndex(path):
		s.loadSharded(name, path, member, hasMember)
	case formats.TensorFormat(path) != "":
		s.loadTensorFile(name, path, member, hasMember)
	case hasMember:
		s.add("%s = np.load(%s)[%s]", name, pyStr(path), pyStr(member))
	case strings.HasSuffix(strings.ToLower(path), ".npz"):
		s.add("with np.load(%s) as z:", pyStr(path))
		s.add("    (%s,) = [z[k] for k in z.files]  # a bare archive holds exactly one array", name)
	default:
		s.add("%s = np.load(%s)", name, pyStr(path))
	}
	return name
}

// toTorch adds the line that makes tensor t of NumPy array a (torch wants
// native byte order).
func (s *script) toTorch(t, a string) {
	s.importModule("torch")
	s.add("%s = torch.from_numpy(%s.astype(%s.dtype.newbyteorder('=')))", t, a, a)
}

// fromTorch is the NumPy array of tensor expression t in a's dtype, byte
// order included.
func fromTorch(t, a string) string {
	return fmt.Sprintf("%s.numpy().astype(%s.dtype)", t, a)
}

// save adds the lines that write NumPy array r where the command's output
// goes: C order as strider writes (a 0-d array stays 0-d).
func (s *script) save(r string) {
	if s.keepOrder {
		s.add("np.save(%s, %s)  # --order keep: as np.save saves the view, in Fortran order when it is F- but not C-contiguous", s.target(s.out), r)
		return
	}
	s.saveTo(s.out, r)
}

// target is where np.save writes output path out: the path, or standard
// output for "" and "-".
func (s *script) target(out string) string {
	if out == "" || out == "-" {
		s.importModule("sys")
		return "sys.stdout.buffer"
	}
	return pyStr(out)
}

func (s *script) saveTo(out, r string) {
	if archive, member, ok := output.MemberOutput(out); ok && strings.HasSuffix(strings.ToLower(archive), ".safetensors") {
		s.saveTensor(archive, member, r)
		return
	} else if ok {
		s.define(saveMemberDef)
		s.add("save_member(%s, %s, np.ascontiguousarray(%s) if %s.ndim else %s)  # C order; a 0-d result stays 0-d", pyStr(archive), pyStr(member), r, r, r)
		return
	}
	s.add("np.save(%s, np.ascontiguousarray(%s) if %s.ndim else %s)  # C order; a 0-d result stays 0-d", s.target(out), r, r, r)
}

// saveMemberDef writes or replaces one member of an archive as -o
// FILE.npz:NAME does: the archive's other members kept, in their order,
// and the whole written as np.savez writes it (numpy/lib/npyio.py's
// _savez: stored, zip64, FILE.npy entries).
const saveMemberDef = `def save_member(path, name, a):
    import os, zipfile
    from numpy.lib import format as npformat
    members = {}
    if os.path.exists(path):
        with np.load(path) as z:
            members = {k: z[k] for k in z.files}
    members[name] = a
    with zipfile.ZipFile(path, mode='w', compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for k, v in members.items():
            with zf.open(k + '.npy', 'w', force_zip64=True) as f:
                npformat.write_array(f, np.asanyarray(v), allow_pickle=False)`

// pyInts is a Python tuple of ints.
func pyInts(v []int) string { return pylit.ShapeString(v) }

// pyNested writes vals in shape as nested Python lists.
func pyNested(shape []int, vals []int64) string {
	if len(shape) == 0 {
		return strconv.FormatInt(vals[0], 10)
	}
	n := ops.Count(shape[1:])
	parts := make([]string, shape[0])
	for k := range parts {
		parts[k] = pyNested(shape[1:], vals[k*n:(k+1)*n])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
