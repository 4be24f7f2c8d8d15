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
	"strider/formats/npy"
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

// printScript is every computing command's Before: with --as-numpy or
// --as-torch it prints the script and stops the command.
func printScript(c *cli.Context) error {
	numpy, torch := c.Bool(asNumpyFlag.Name), c.Bool(asTorchFlag.Name)
	if !numpy && !torch {
		return nil
	}
	if numpy && torch {
		return usagef("give --as-numpy or --as-torch, not both")
	}
	lib := "numpy"
	if torch {
		lib = "torch"
	}
	s := &script{lib: lib}
	if err := s.build(c); err != nil {
		return err
	}
	if _, err := io.WriteString(c.App.Writer, s.String()); err != nil {
		return err
	}
	return errScriptPrinted
}

// script accumulates the lines of a printed script.
type script struct {
	lib     string
	imports []string
	defs    []string // helper functions, each once, printed before the lines
	lines   []string
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
func (s *script) save(c *cli.Context, r string) {
	out := c.String(outputFlag.Name)
	if c.String(orderFlag.Name) == "keep" {
		s.add("np.save(%s, %s)  # --order keep: as np.save saves the view, in Fortran order when it is F- but not C-contiguous", s.target(out), r)
		return
	}
	s.saveTo(out, r)
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
	if archive, member, ok := output.MemberOutput(out); ok {
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

// build writes the command's script: each command's lines come from its
// own method (most in the command's file), which also saves the result.
func (s *script) build(c *cli.Context) error {
	name := c.Command.Name
	b, ok := scriptBuilders[name]
	if !ok {
		return usagef("--as-%s is not available for %s", s.lib, name)
	}
	return b(s, c)
}

// scriptBuilders are the commands that print scripts, and how.
var scriptBuilders = map[string]func(*script, *cli.Context) error{
	"transpose":          (*script).transpose,
	"reshape":            (*script).reshape,
	"diagonal":           (*script).diagonal,
	"unique-consecutive": (*script).uniqueConsecutive,
	"concat":             func(s *script, c *cli.Context) error { return s.join(c, false) },
	"stack":              func(s *script, c *cli.Context) error { return s.join(c, true) },
	"cast":               (*script).cast,
	"gather":             (*script).gather,
	"gather-elements":    (*script).gatherElements,
	"tril-indices":       (*script).tri,
	"triu-indices":       (*script).tri,
	"sort":               (*script).sort,
	"slice":              (*script).slice,
	"compare":            (*script).compare,
	"show":               (*script).show,
	"to-text":            (*script).toText,
	"from-text":          (*script).fromText,
	"stats":              (*script).stats,
}

// transpose writes np.transpose / torch.permute.
func (s *script) transpose(c *cli.Context) error {
	torch := s.lib == "torch"
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	axes := "None"
	if c.IsSet("axes") {
		p, err := parseInts("axes", c.String("axes"))
		if err != nil {
			return err
		}
		axes = pyInts(p)
	}
	a := s.load("a", spec)
	if torch {
		s.toTorch("t", a)
		if axes == "None" {
			axes = "tuple(reversed(range(t.dim())))"
		}
		s.add("r = %s", fromTorch("t.permute("+axes+")", a))
	} else {
		s.add("r = np.transpose(%s, axes=%s)", a, axes)
	}
	s.save(c, "r")
	return nil
}

// diagonal writes np.diagonal / torch.diagonal.
func (s *script) diagonal(c *cli.Context) error {
	torch := s.lib == "torch"
	intFlag := func(name string) (int, error) { return parseInt(name, c.String(name)) }
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	k, err := intFlag("offset")
	if err != nil {
		return err
	}
	a1, err := intFlag("axis1")
	if err != nil {
		return err
	}
	a2, err := intFlag("axis2")
	if err != nil {
		return err
	}
	a := s.load("a", spec)
	off := strconv.Itoa(k)
	if k >= 1<<31-1 || k <= -(1<<31-1) {
		// NumPy's offset is a C int; any offset past a corner gives the same empty diagonal.
		off = fmt.Sprintf("max(-%s.shape[%d], min(%s.shape[%d], %d))", a, a1, a, a2, k)
		s.add("# the offset is clamped to the corners: NumPy takes a 32-bit offset, and any offset past a corner is empty")
	}
	if torch {
		s.toTorch("t", a)
		s.add("r = %s", fromTorch(fmt.Sprintf("torch.diagonal(t, offset=%s, dim1=%d, dim2=%d)", off, a1, a2), a))
	} else {
		s.add("r = np.diagonal(%s, offset=%s, axis1=%d, axis2=%d)", a, off, a1, a2)
	}
	s.save(c, "r")
	return nil
}

// tri writes tril-indices and triu-indices: np.tril_indices / torch.tril_indices.
func (s *script) tri(c *cli.Context) error {
	torch := s.lib == "torch"
	name := c.Command.Name
	rows, cols, k, d, err := triArgs(c)
	if err != nil {
		return err
	}
	fn := strings.TrimSuffix(name, "-indices")
	s.importModule("numpy as np")
	if kc := max(-rows, min(cols, k)); kc != k {
		s.add("# offset %d clamped to %d: any offset past a corner gives the same triangle, and NumPy's is a C long", k, kc)
		k = kc
	}
	if torch {
		s.importModule("torch")
		s.add("r = torch.%s_indices(%d, %d, %d, dtype=torch.%s).numpy()", fn, rows, cols, k, d.Name())
	} else {
		s.add("r = np.stack(np.%s_indices(%d, %d, %d)).astype(np.%s)", fn, rows, k, cols, d.Name())
	}
	s.save(c, "r")
	return nil
}

// slice writes a[EXPR] (NumPy only).
func (s *script) slice(c *cli.Context) error {
	torch := s.lib == "torch"
	if torch {
		return usagef("--as-torch: PyTorch's indexing is not NumPy's in every case (boolean scalars, lists apart); use --as-numpy")
	}
	if c.NArg() != 2 {
		return usagef("expected IN and one EXPR, got %d arguments (see strider slice --help)", c.NArg())
	}
	expr := c.Args().Get(1)
	// Only a valid expression is pasted into the script: its grammar
	// admits integers, names of constants and punctuation, nothing to run.
	items, err := pylit.ParseIndex(expr)
	if err != nil {
		return usagef("%v", err)
	}
	for _, it := range items {
		if c.String(orderFlag.Name) == "keep" && (it.Kind == pylit.IndexArray || it.Kind == pylit.IndexBoolArray) {
			return keepOrderLists(expr)
		}
	}
	a := s.load("a", c.Args().Get(0))
	s.sliceNames(expr)
	s.add("r = np.asarray(%s[%s], dtype=%s.dtype)  # a scalar result stays a 0-d array of the input's dtype", a, strings.Join(strings.Fields(expr), " "), a)
	s.save(c, "r")
	return nil
}

// sliceNames defines the names an index expression may use besides np.
func (s *script) sliceNames(expr string) {
	if strings.Contains(strings.ReplaceAll(strings.ReplaceAll(expr, "np.newaxis", ""), "numpy.newaxis", ""), "newaxis") {
		s.add("newaxis = np.newaxis")
	}
	if strings.Contains(expr, "numpy.newaxis") {
		s.add("numpy = np")
	}
}

// indexScript adds the lines that make idx, the indices of gather or
// gather-elements: a file, or a --index literal.
func (s *script) indices(c *cli.Context, literalAllowed bool) error {
	switch file, lit := c.IsSet(indicesFlag.Name), literalAllowed && c.IsSet("index"); {
	case file && lit:
		return usagef("give --indices or --index, not both")
	case file:
		s.load("idx", c.String(indicesFlag.Name))
		s.add("if idx.dtype.kind not in 'iu':  # strider takes integer indices only (NumPy would take bools as 0 and 1)")
		s.add("    raise TypeError(f'indices of dtype {idx.dtype} are not integers')")
	case lit:
		ix, err := pylit.ParseIndexArray(c.String("index"))
		if err != nil {
			return usagef("--index: %v", err)
		}
		s.importModule("numpy as np")
		s.add("idx = np.array(%s, dtype=np.int64).reshape(%s)", pyNested(ix.Shape, ix.Ints), pyInts(ix.Shape))
	case literalAllowed:
		return usagef("missing --indices IDX.npy or --index LITERAL")
	default:
		return usagef("missing --indices IDX.npy")
	}
	return nil
}

func (s *script) gather(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	mode, err := ops.ParseMode(c.String("mode"))
	if err != nil {
		return usagef("--%v", err)
	}
	modeName := c.String("mode")
	axis, hasAxis := "None", c.IsSet(takeAxisFlag.Name)
	if hasAxis {
		a, err := axisValue(c)
		if err != nil {
			return err
		}
		axis = strconv.Itoa(a)
	}
	if s.lib == "torch" && mode != ops.Raise {
		return usagef("--as-torch: PyTorch has no take with mode=%s; use --as-numpy", modeName)
	}
	a := s.load("a", spec)
	if err := s.indices(c, true); err != nil {
		return err
	}
	n := a + ".size"
	if hasAxis {
		n = fmt.Sprintf("%s.reshape(-1).shape[0] if %s.ndim == 0 else %s.shape[%s]", a, a, a, axis)
	}
	s.add("n = %s", n)
	s.add("if idx.dtype.kind == 'u' and idx.dtype.itemsize == 8:  # NumPy will not cast uint64 indices; strider uses their exact values")
	if mode == ops.Wrap {
		s.add("    idx = (idx %% np.uint64(max(n, 1))).astype(np.int64)")
	} else {
		s.add("    idx = np.minimum(idx, np.uint64(2**63 - 1)).astype(np.int64)")
	}
	switch mode {
	case ops.Raise:
		s.add("if ((idx < -n) | (idx >= n)).any():  # strider checks the indices even when the result is empty")
		s.add("    raise IndexError('index out of range')")
	case ops.Wrap:
		s.add("idx = idx %% max(n, 1)  # the same indices; NumPy's wrap subtracts n one step at a time")
	}
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("i = torch.from_numpy(np.where(idx < 0, idx + n, idx).astype(np.int64))  # index_select takes no negative indices")
		if !hasAxis {
			s.add("r = %s", fromTorch("torch.take(t, i)", a))
		} else {
			s.add("ax = %s %% max(t.dim(), 1)", axis)
			s.add("t = t.reshape(1) if t.dim() == 0 else t  # np.take ravels a 0-d array")
			s.add("r = %s", fromTorch("torch.index_select(t, ax, i.reshape(-1)).reshape(t.shape[:ax] + i.shape + t.shape[ax + 1:])", a))
		}
	} else {
		s.add("r = np.asarray(np.take(%s, idx, axis=%s, mode=%s), dtype=%s.dtype)  # a scalar result stays a 0-d array of the input's dtype", a, axis, pyStr(modeName), a)
	}
	s.save(c, "r")
	return nil
}

func (s *script) gatherElements(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	axis, err := axisValue(c)
	if err != nil {
		return err
	}
	a := s.load("a", spec)
	if err := s.indices(c, false); err != nil {
		return err
	}
	s.add("if not -%s.ndim <= %d < %s.ndim:", a, axis, a)
	s.add("    raise np.AxisError(%d, %s.ndim)", axis, a)
	s.add("ax = %d %% %s.ndim", axis, a)
	s.add("if idx.ndim != %s.ndim or any(k > m for d, (k, m) in enumerate(zip(idx.shape, %s.shape)) if d != ax):", a, a)
	s.add("    raise IndexError(f'index shape {idx.shape} does not fit input shape {%s.shape}')  # torch.gather's rule", a)
	s.add("n = %s.shape[ax]", a)
	s.add("if ((idx < -n) | (idx >= n)).any():  # strider checks the indices even when the result is empty")
	s.add("    raise IndexError('index out of range')")
	s.add("# torch.gather's shape rule: off the axis the indices may be shorter than the input")
	s.add("a = a[tuple(slice(None) if d == ax else slice(0, k) for d, k in enumerate(idx.shape))]")
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("i = torch.from_numpy(np.where(idx < 0, idx + n, idx).astype(np.int64))  # torch.gather takes no negative indices")
		s.add("r = %s", fromTorch("torch.gather(t, ax, i)", a))
	} else {
		s.add("r = np.take_along_axis(a, idx, axis=ax)")
	}
	s.save(c, "r")
	return nil
}

func (s *script) sort(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	axis, ord, idxPath, err := sortFlags(c)
	if err != nil {
		return err
	}
	desc, nans := ord.Descending, map[ops.NaNs]string{ops.NaNsFirst: "first", ops.NaNsLast: "last"}[ord.NaNs]
	a := s.load("a", spec)
	s.add("if %s.ndim == 0:  # no axis to sort along (np.argsort would answer 0)", a)
	s.add("    raise np.AxisError(%d, 0)", axis)
	if s.lib == "torch" {
		s.toTorch("t", a)
		s.add("idx = torch.sort(t, dim=%d, descending=%s, stable=True).indices.numpy()", axis, pyBool(desc))
	} else if desc {
		s.add("# stable descending, as torch.sort(descending=True, stable=True): equal elements keep their order")
		s.add("n = %s.shape[%d]", a, axis)
		s.add("idx = n - 1 - np.flip(np.argsort(np.flip(%s, axis=%d), axis=%d, kind='stable'), axis=%d)", a, axis, axis, axis)
	} else {
		s.add("idx = np.argsort(%s, axis=%d, kind='stable')", a, axis)
	}
	if nans == "first" && !desc || nans == "last" && desc {
		key := "~nan"
		if nans == "last" {
			key = "nan"
		}
		s.add("# NaNs (in either part of a complex) moved %s, in the order the sort gave them", nans)
		s.add("nan = np.take_along_axis(np.isnan(%s), idx, axis=%d)", a, axis)
		s.add("idx = np.take_along_axis(idx, np.argsort(%s, axis=%d, kind='stable'), axis=%d)", key, axis, axis)
	}
	if c.Bool("argsort") {
		s.save(c, "idx")
		return nil
	}
	s.add("r = np.take_along_axis(%s, idx, axis=%d)", a, axis)
	s.save(c, "r")
	if idxPath != "" {
		s.saveTo(idxPath, "idx")
	}
	return nil
}

func (s *script) compare(c *cli.Context) error {
	if s.lib == "torch" {
		return usagef("--as-torch: compare is numpy.testing.assert_allclose; use --as-numpy")
	}
	if c.NArg() != 2 {
		return usagef("expected ACTUAL and DESIRED, got %d arguments (see strider compare --help)", c.NArg())
	}
	if done, err := s.compareArchives(c); done {
		return err
	}
	x := s.load("x", c.Args().Get(0))
	y := s.load("y", c.Args().Get(1))
	if c.Bool("exact") {
		s.add("# --exact: equal shape, dtype and bytes; an AssertionError exits 1, as strider does")
		s.add("assert %s, 'the arrays differ'", exactTest(x, y))
		return nil
	}
	s.add("# an AssertionError exits 1, as strider does when the arrays differ")
	s.add("%s", allclose(c, x, y))
	return nil
}

// exactTest is compare --exact's test of arrays x and y in Python.
func exactTest(x, y string) string {
	return fmt.Sprintf("%s.shape == %s.shape and %s.dtype == %s.dtype and %s.tobytes() == %s.tobytes()", x, y, x, y, x, y)
}

// allclose is compare's assertion on arrays x and y with the command's
// tolerances.
func allclose(c *cli.Context, x, y string) string {
	return fmt.Sprintf("np.testing.assert_allclose(%s, %s, rtol=%s, atol=%s, equal_nan=%s)", x, y,
		strconv.FormatFloat(c.Float64("rtol"), 'g', -1, 64), strconv.FormatFloat(c.Float64("atol"), 'g', -1, 64), pyBool(c.Bool("equal-nan")))
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// show prints a (or a[EXPR]) under np.printoptions with the options given.
func (s *script) show(c *cli.Context) error {
	if c.NArg() < 1 || c.NArg() > 2 {
		return usagef("expected IN and at most one EXPR, got %d arguments (see strider show --help)", c.NArg())
	}
	if _, err := printOptions(c); err != nil {
		return err
	}
	a := s.load("a", c.Args().Get(0))
	if c.NArg() == 2 {
		expr := c.Args().Get(1)
		if _, err := pylit.ParseIndex(expr); err != nil {
			return usagef("%v", err)
		}
		s.sliceNames(expr)
		a = fmt.Sprintf("a[%s]", strings.Join(strings.Fields(expr), " "))
	}
	var kw []string
	for _, f := range []*cli.StringFlag{precisionFlag, thresholdFlag, edgeItemsFlag, lineWidthFlag} {
		if c.IsSet(f.Name) {
			n, _ := parseInt(f.Name, c.String(f.Name))
			kw = append(kw, fmt.Sprintf("%s=%d", f.Name, n))
		}
	}
	if c.Bool(fullFlag.Name) {
		s.importModule("sys")
		kw = append(kw, "threshold=sys.maxsize")
	}
	if c.Bool(suppressFlag.Name) {
		kw = append(kw, "suppress=True")
	}
	for _, f := range []*cli.StringFlag{floatModeFlag, signFlag, nanStrFlag, infStrFlag} {
		if c.IsSet(f.Name) {
			kw = append(kw, fmt.Sprintf("%s=%s", f.Name, pyStr(c.String(f.Name))))
		}
	}
	what := a
	if c.Bool(reprFlag.Name) {
		what = "repr(" + a + ")"
	}
	s.add("with np.printoptions(%s):", strings.Join(kw, ", "))
	s.add("    print(%s)", what)
	return nil
}

// textTarget is where a text result goes: a path literal, or standard
// output.
func (s *script) textTarget(c *cli.Context) string {
	if out := c.String(outputFlag.Name); out != "" && out != "-" {
		return pyStr(out)
	}
	s.importModule("sys")
	return "sys.stdout.buffer"
}

func (s *script) toText(c *cli.Context) error {
	spec, err := oneInput(c, "input IN")
	if err != nil {
		return err
	}
	a := s.load("a", spec)
	out := s.textTarget(c)
	if c.Bool(textJSONFlag.Name) {
		s.importModule("json")
		if out == "sys.stdout.buffer" {
			s.add("sys.stdout.buffer.write(json.dumps(%s.tolist()).encode())", a)
		} else {
			s.add("with open(%s, 'w') as f:", out)
			s.add("    f.write(json.dumps(%s.tolist()))", a)
		}
		return nil
	}
	kw := []string{"fmt=" + pyStr(c.String("fmt"))}
	switch {
	case c.Bool(textCSVFlag.Name):
		kw = append(kw, "delimiter=','")
	case c.IsSet(textDelimiterFlag.Name):
		kw = append(kw, "delimiter="+pyStr(c.String(textDelimiterFlag.Name)))
	}
	for _, name := range []string{"newline", "header", "footer"} {
		if c.IsSet(name) {
			kw = append(kw, name+"="+pyStr(c.String(name)))
		}
	}
	if c.IsSet(textCommentsFlag.Name) {
		kw = append(kw, "comments="+pyStr(c.String(textCommentsFlag.Name)))
	}
	s.add("np.savetxt(%s, %s, %s)", out, a, strings.Join(kw, ", "))
	return nil
}

func (s *script) fromText(c *cli.Context) error {
	spec, err := oneInput(c, "input IN (or - for standard input)")
	if err != nil {
		return err
	}
	if _, err := npy.ParseDescr(c.String("dtype")); err != nil {
		return usagef("--dtype: %v", err)
	}
	s.importModule("numpy as np")
	src := pyStr(spec)
	if spec == "-" {
		s.importModule("sys")
		src = "sys.stdin"
	} else {
	}
	dtype := pyStr(c.String("dtype"))
	if c.Bool(textJSONFlag.Name) {
		s.importModule("json")
		if spec == "-" {
			s.add("r = np.array(json.load(sys.stdin), dtype=%s)", dtype)
		} else {
			s.add("with open(%s) as f:", src)
			s.add("    r = np.array(json.load(f), dtype=%s)", dtype)
		}
		s.save(c, "r")
		return nil
	}
	kw := []string{"dtype=" + dtype}
	switch {
	case c.Bool(textCSVFlag.Name):
		kw = append(kw, "delimiter=','")
	case c.IsSet(textDelimiterFlag.Name):
		kw = append(kw, "delimiter="+pyStr(c.String(textDelimiterFlag.Name)))
	}
	if c.IsSet(textCommentsFlag.Name) {
		kw = append(kw, "comments="+pyStr(c.String(textCommentsFlag.Name)))
	}
	for _, name := range []string{"skiprows", "ndmin"} {
		if c.IsSet(name) {
			n, err := parseInt(name, c.String(name))
			if err != nil {
				return err
			}
			kw = append(kw, fmt.Sprintf("%s=%d", name, n))
		}
	}
	if c.IsSet("usecols") {
		cols, err := parseInts("usecols", c.String("usecols"))
		if err != nil {
			return err
		}
		kw = append(kw, "usecols="+pyInts(cols))
	}
	s.add("r = np.loadtxt(%s, %s)", src, strings.Join(kw, ", "))
	s.save(c, "r")
	return nil
}

func (s *script) stats(c *cli.Context) error {
	if c.NArg() < 1 || c.NArg() > 2 {
		return usagef("expected IN and at most one EXPR, got %d arguments (see strider stats --help)", c.NArg())
	}
	if c.Bool("json") {
		return usagef("--as-numpy prints the text form of stats; leave out --json")
	}
	s.load("a", c.Args().Get(0))
	if c.NArg() == 2 {
		expr := c.Args().Get(1)
		if _, err := pylit.ParseIndex(expr); err != nil {
			return usagef("%v", err)
		}
		s.sliceNames(expr)
		s.add("a = np.asarray(a[%s])", strings.Join(strings.Fields(expr), " "))
	}
	s.add("x = np.abs(a) if a.dtype.kind == 'c' else a  # complex: the statistics of the magnitude")
	s.add("f = x.astype(np.float64)")
	s.add("some = a.size and not np.isnan(f).all()  # else min and max are undefined, mean and std nan")
	s.add("for k, v in [('shape', a.shape), ('dtype', a.dtype.name), ('count', a.size), ('nan', np.isnan(f).sum()),")
	s.add("             ('posinf', np.isposinf(f).sum()), ('neginf', np.isneginf(f).sum()), ('zero', (f == 0).sum()),")
	s.add("             ('min', np.nanmin(x) if some else 'undefined'), ('max', np.nanmax(x) if some else 'undefined'),")
	s.add("             ('mean', np.nanmean(x, dtype=np.float64) if some else np.nan),")
	s.add("             ('std', np.nanstd(x, dtype=np.float64) if some else np.nan)]:")
	s.add("    print(f'{k:<8}{v!s}')  # str(): a float32 prints its own shortest digits")
	return nil
}
