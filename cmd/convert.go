package cmd

import (
	"fmt"
	"hash/crc32"
	"io"
	"path"
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/formats/output"
	"strider/formats/safetensors"
	"strider/internal/dtype"
	"strider/internal/sysmem"
	"strider/internal/termsafe"
	"strider/ops"
)

// convertMemberFlag selects the tensors convert writes: compare's
// --member, worded for one archive.
var convertMemberFlag = &cli.StringFlag{
	Name: memberFlag.Name, Usage: "convert only the tensors whose names match `GLOB` (path.Match: * ? [...])",
}

var convertCommand = newCommand(&cli.Command{
	Name:      "convert",
	Usage:     "write the tensors of an archive or checkpoint as .npz, .safetensors or a folder of .npy",
	ArgsUsage: "IN OUT",
	Description: `Writes every tensor of IN (an .npz archive, a .safetensors file, a folder of
.npy files, a torch.save file, or a sharded checkpoint's *.index.json) to OUT:
an .npz archive laid out as numpy.savez lays it out, a .safetensors file laid
out as the safetensors library's save_file lays it out, or else a folder of
NAME.npy files. Each tensor is kept bit for bit where OUT's format has its
dtype (bfloat16 and float8 stay as they are from safetensors to safetensors);
.npz and .npy have no bfloat16 or float8, so those are widened exactly to
float32, and one line on standard error says which tensors were. safetensors
has no complex128: such a tensor is refused. A .safetensors input keeps its
__metadata__ in a .safetensors output. Arrays are written in C order, and
little-endian in a .safetensors file.

The output is all or nothing: a file is written beside OUT and renamed over
it; a folder is written beside OUT and renamed into place, replacing only a
folder that holds nothing but .npy files.

Examples:
   strider convert weights.npz weights.safetensors
   strider convert model.safetensors.index.json model.safetensors
   strider convert pytorch_model.bin layers --member 'layers.0.*'`,
	Flags: []cli.Flag{convertMemberFlag, deviceFlag, threadsFlag, quietFlag, asNumpyFlag, asTorchFlag},
}, parseConvert)

// convertJob is convert's command line.
type convertJob struct {
	in, out string
	format  string // OUT's: "npz", "safetensors" or "folder"
	glob    string // --member
	globSet bool
}

func parseConvert(c *cli.Context) (job, error) {
	if c.NArg() != 2 {
		return nil, usagef("expected IN and OUT, got %d %s (see strider convert --help)", c.NArg(), plural(c.NArg(), "argument"))
	}
	j := convertJob{in: c.Args().Get(0), out: c.Args().Get(1), glob: c.String(convertMemberFlag.Name), globSet: c.IsSet(convertMemberFlag.Name)}
	if _, err := path.Match(j.glob, ""); err != nil {
		return nil, usagef("--member %q is not a valid pattern: %v", j.glob, err)
	}
	var err error
	if j.format, err = convertFormat(j.out); err != nil {
		return nil, err
	}
	return j, nil
}

// convertFormat is the format OUT's name asks for: .npz, .safetensors, or
// a folder for any other name. Names of a single array, of a format
// strider reads but does not write, or of an archive member are refused.
func convertFormat(out string) (string, error) {
	lower := strings.ToLower(out)
	_, _, member := output.MemberOutput(out)
	switch {
	case out == "-" || out == "":
		return "", usagef("OUT %q: convert writes an .npz or .safetensors file or a folder, not standard output", out)
	case member:
		return "", usagef("OUT %s names a member: convert writes whole files (for one array, give another command -o %s)", termsafe.Escape(out), termsafe.Escape(out))
	case strings.HasSuffix(lower, ".npz"):
		return "npz", nil
	case strings.HasSuffix(lower, ".safetensors"):
		return "safetensors", nil
	case strings.HasSuffix(lower, ".npy"):
		return "", usagef("OUT %s: a .npy file holds one array; name an .npz or .safetensors file, or a folder for one .npy file per tensor", termsafe.Escape(out))
	case strings.HasSuffix(lower, ".json"), strings.HasSuffix(lower, ".pt"), strings.HasSuffix(lower, ".pth"), strings.HasSuffix(lower, ".bin"):
		return "", usagef("OUT %s: strider reads torch.save files and sharded checkpoints but writes .npz, .safetensors or a folder", termsafe.Escape(out))
	}
	return "folder", nil
}

// convertTensor is one tensor to write, as the plan reads it before any
// data: the array it is opened as, and what the output makes of it.
type convertTensor struct {
	name   string
	dtype  dtype.Dtype // the array's, as opened (raw: an unsigned integer of the stored size)
	shape  []int
	nbytes int64
	raw    bool   // opened unwidened (OpenStored): a dtype NumPy lacks, into a .safetensors file
	code   string // into a .safetensors file: the dtype code
	stored string // widened to float32: the dtype it is stored in ("bfloat16")
}

func (j convertJob) run(e *env) error {
	if err := e.cpuOnly(); err != nil {
		return err
	}
	ar, ok, err := formats.OpenArchive(j.in)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", termsafe.Escape(displayName(j.in)), err)
	case !ok:
		return usagef("IN %s is one array, not an archive (.npz, .safetensors, torch.save, a folder of .npy or a *.index.json); to store one array, give a command -o OUT.safetensors:NAME", termsafe.Escape(displayName(j.in)))
	}
	defer ar.Close()
	names, err := j.names(ar)
	if err != nil {
		return err
	}
	ts, err := j.plan(ar, names)
	if err != nil {
		return err
	}
	switch j.format {
	case "safetensors":
		err = j.writeSafetensors(e, ar, ts)
	case "npz":
		err = j.writeNpz(e, ar, ts)
	default:
		err = j.writeFolder(e, ar, ts)
	}
	if err != nil {
		return err
	}
	return j.reportWidened(e, ts)
}

// names lists IN's tensors to write, each once, in IN's order, those
// --member matches when it is given.
func (j convertJob) names(ar *formats.Archive) ([]string, error) {
	seen := make(map[string]bool, len(ar.Names))
	var names []string
	for _, n := range ar.Names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if ok, _ := path.Match(j.glob, n); j.globSet && !ok {
			continue
		}
		names = append(names, n)
	}
	if j.globSet && len(names) == 0 {
		return nil, usagef("--member %q matches no tensor of %s (it holds %s)", j.glob, termsafe.Escape(displayName(j.in)), npy.QuotedNameList(ar.Names))
	}
	return names, nil
}

// plan reads each tensor's header and decides how it is written, so that
// a tensor OUT cannot hold is refused before anything is written.
func (j convertJob) plan(ar *formats.Archive, names []string) ([]convertTensor, error) {
	ts := make([]convertTensor, 0, len(names))
	folded := map[string]string{}
	for _, name := range names {
		fail := func(err error) error { return fmt.Errorf("%s: %w", termsafe.Escape(ar.Spec(name)), err) }
		t, err := ar.Tensor(name)
		if err == nil && t != nil && t.Err != nil {
			err = t.Err
		}
		if err != nil {
			return nil, fail(err)
		}
		h, err := ar.Header(name)
		if err != nil {
			return nil, fail(err)
		}
		ct := convertTensor{name: name, dtype: h.Dtype, shape: h.Shape}
		widened := t != nil && t.Widened
		switch {
		case j.format == "safetensors" && widened:
			ct.raw = true
			ct.code, _ = safetensors.CodeOf(t.Stored)
			ct.dtype = dtype.Dtype{Kind: 'u', Size: t.Loc.ItemSize, Order: '<'}
			if ct.dtype.Size == 1 {
				ct.dtype.Order = '|'
			}
		case j.format == "safetensors":
			var ok bool
			if ct.code, ok = safetensors.Code(h.Dtype); !ok {
				return nil, fail(fmt.Errorf("safetensors has no dtype for %s (strider cast --dtype complex64 first, or write .npz)", h.Dtype.Name()))
			}
		case widened:
			ct.stored = t.Stored
		}
		if err := j.checkName(name, folded); err != nil {
			return nil, err
		}
		n, ok := npy.CheckedNBytes(ct.shape, ct.dtype.Size)
		if !ok {
			return nil, fail(fmt.Errorf("shape %v is too large", ct.shape))
		}
		ct.nbytes = n
		ts = append(ts, ct)
	}
	return ts, nil
}

// checkName refuses a tensor name OUT's format cannot hold: safetensors
// takes any UTF-8 name but its metadata key; an .npz archive the names an
// -o FILE.npz:NAME takes; a folder a name that is one file name
// everywhere (no separator, ':' or control character, not "." or "..",
// at most 251 bytes with ".npy"), and, on systems whose file names ignore
// case, no two names that differ only in case (folded holds those seen).
func (j convertJob) checkName(name string, folded map[string]string) error {
	switch j.format {
	case "safetensors":
		return safetensors.CheckName(name)
	case "npz":
		return output.CheckMemberName(name)
	}
	bad := func(why string) error {
		return fmt.Errorf("tensor \"%s\" %s, so it cannot be a file of folder %s", termsafe.Escape(name), why, termsafe.Escape(j.out))
	}
	switch {
	case name == "" || name == "." || name == "..":
		return bad("is named " + `"` + name + `"`)
	case !utf8.ValidString(name):
		return bad("has a name that is not UTF-8")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return bad("has a control character in its name")
	case strings.ContainsAny(name, `/\:`):
		return bad(`has a '/', '\' or ':' in its name`)
	case len(name)+len(".npy") > 255:
		return bad(fmt.Sprintf("has a name of %d bytes, longer than a file name may be", len(name)))
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		key := strings.ToLower(name)
		if other, dup := folded[key]; dup {
			return bad(fmt.Sprintf("differs from tensor \"%s\" only in case, which this system's file names ignore", termsafe.Escape(other)))
		}
		folded[key] = name
	}
	return nil
}

// open opens tensor t of ar as the plan reads it.
func (t convertTensor) open(ar *formats.Archive) (input, error) {
	var a *npy.Array
	var err error
	if t.raw {
		a, err = ar.OpenStored(t.name, npy.AccessAll)
	} else {
		a, err = ar.Open(t.name, npy.AccessAll)
	}
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", termsafe.Escape(ar.Spec(t.name)), err)
	}
	return inputOf(a), nil
}

// total is the bytes of data the tensors hold.
func totalBytes(ts []convertTensor) int64 {
	var n int64
	for _, t := range ts {
		n += t.nbytes
	}
	return n
}

// writeSafetensors writes the tensors as one .safetensors file, laid out
// as save_file lays it out (safetensors.Header.Encode), each copied in C
// order straight into the output's data and made little-endian there.
func (j convertJob) writeSafetensors(e *env, ar *formats.Archive, ts []convertTensor) error {
	h := safetensors.Header{}
	var err error
	if h.Metadata, h.HasMetadata, err = keptMetadata(ar, ts); err != nil {
		return err
	}
	for _, t := range ts {
		h.Tensors = append(h.Tensors, safetensors.Entry{Name: t.name, Dtype: t.code, Shape: t.shape, Size: t.nbytes})
	}
	prefix, order, total, err := h.Encode()
	if err != nil {
		return fmt.Errorf("cannot create %s: %w", termsafe.Escape(j.out), err)
	}
	var outs outputSet
	defer outs.abort()
	out, err := outs.add(output.CreateWhole(j.out, total))
	if err != nil {
		return err
	}
	off := int64(copy(out.Data, prefix))
	err = e.withProgress(total-off, func(opt ops.Options) error {
		for _, i := range order {
			t := ts[i]
			dst := out.Data[off : off+t.nbytes]
			if err := t.copyInto(e, ar, dst, opt); err != nil {
				return err
			}
			safetensors.SwapToLittle(dst, t.dtype)
			off += t.nbytes
		}
		return nil
	})
	if err != nil {
		return err
	}
	return outs.commit()
}

// copyInto copies tensor t of ar into dst in C order.
func (t convertTensor) copyInto(e *env, ar *formats.Archive, dst []byte, opt ops.Options) error {
	in, err := t.open(ar)
	if err != nil {
		return err
	}
	defer in.Close()
	return e.eng.Copy(dst, in.view, opt)
}

// keptMetadata is the __metadata__ a .safetensors output keeps: that of
// the .safetensors files the tensors come from (of the input file when it
// holds none), in its order, when they all hold the same (a sharded checkpoint's shards each hold transformers'
// {"format": "pt"}); none when any file is not a local .safetensors file
// or two differ.
func keptMetadata(ar *formats.Archive, ts []convertTensor) (meta []safetensors.Meta, has bool, err error) {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	files, err := ar.Files(names)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", termsafe.Escape(displayName(ar.Path)), err)
	}
	if len(ts) == 0 {
		files = []string{ar.Path} // a file of no tensors: its own __metadata__
	}
	for i, path := range files {
		if strings.Contains(path, "://") || formats.TensorFormat(path) != "safetensors" {
			return nil, false, nil
		}
		b, release, err := formats.MapBytes(path)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", termsafe.Escape(path), err)
		}
		f, err := safetensors.ReadFile(b)
		release()
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", termsafe.Escape(path), err)
		}
		if i > 0 && (f.HasMetadata != has || !slices.Equal(f.Metadata, meta)) {
			return nil, false, nil
		}
		meta, has = f.Metadata, f.HasMetadata
	}
	return meta, has, nil
}

// writeNpz writes the tensors as an .npz archive laid out as np.savez
// lays it out, member after member, appended to the output file: each
// member's C-order bytes are taken from the input when they lie there in
// C order, else copied into memory, one member at a time.
func (j convertJob) writeNpz(e *env, ar *formats.Archive, ts []convertTensor) error {
	var outs outputSet
	defer outs.abort()
	out, err := outs.add(output.CreateWhole(j.out, 0))
	if err != nil {
		return err
	}
	z := npy.NewSavezWriter(out)
	err = e.withProgress(totalBytes(ts), func(opt ops.Options) error {
		for _, t := range ts {
			if err := t.addMember(e, ar, z, opt); err != nil {
				return err
			}
		}
		return z.Close()
	})
	if err != nil {
		return err
	}
	return outs.commit()
}

// addMember writes tensor t of ar as member NAME.npy of z.
func (t convertTensor) addMember(e *env, ar *formats.Archive, z *npy.SavezWriter, opt ops.Options) error {
	in, err := t.open(ar)
	if err != nil {
		return err
	}
	defer in.Close()
	data, err := cOrderBytes(e, in.view, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", termsafe.Escape(ar.Spec(t.name)), err)
	}
	header := npy.EncodeHeader(in.Dtype, in.Shape)
	crc := crc32.Update(crc32.ChecksumIEEE(header), crc32.IEEETable, data)
	return z.Add(t.name+".npy", int64(len(header)+len(data)), crc, func(w io.Writer) (int64, error) {
		n, err := w.Write(header)
		if err != nil {
			return int64(n), err
		}
		m, err := w.Write(data)
		return int64(n + m), err
	})
}

// cOrderBytes returns v's elements in C order: v's own bytes when they lie
// so, else a copy.
func cOrderBytes(e *env, v ops.View, opt ops.Options) ([]byte, error) {
	n := v.Count() * v.Elem
	if c, _ := v.Contiguity(); c && v.Offset == 0 && len(v.Data) == n {
		if opt.Done != nil {
			opt.Done.Add(int64(n))
		}
		return v.Data, nil
	}
	if err := sysmem.CheckMemory("a C-order copy of the tensor", int64(n)); err != nil {
		return nil, err
	}
	buf := npy.AlignedBuf(n)
	return buf, e.eng.Copy(buf, v, opt)
}

// writeFolder writes each tensor as NAME.npy in a folder that replaces
// OUT whole (output.CreateFolder).
func (j convertJob) writeFolder(e *env, ar *formats.Archive, ts []convertTensor) error {
	f, err := output.CreateFolder(j.out)
	if err != nil {
		return err
	}
	defer f.Abort()
	err = e.withProgress(totalBytes(ts), func(opt ops.Options) error {
		for _, t := range ts {
			if err := t.writeFile(e, ar, f.File(t.name+".npy"), opt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return f.Commit()
}

// writeFile writes tensor t of ar as the .npy file at path.
func (t convertTensor) writeFile(e *env, ar *formats.Archive, path string, opt ops.Options) error {
	in, err := t.open(ar)
	if err != nil {
		return err
	}
	defer in.Close()
	var outs outputSet
	defer outs.abort()
	dst, err := outs.create(e, path, in.Dtype, in.Shape)
	if err != nil {
		return err
	}
	if err := e.eng.Copy(dst, in.view, opt); err != nil {
		return err
	}
	return outs.commit()
}

// reportWidened says on standard error, in one line, which tensors were
// widened to float32 because OUT's format lacks their dtype.
func (j convertJob) reportWidened(e *env, ts []convertTensor) error {
	var names, dtypes []string
	for _, t := range ts {
		if t.stored == "" {
			continue
		}
		names = append(names, t.name)
		if !slices.Contains(dtypes, t.stored) {
			dtypes = append(dtypes, t.stored)
		}
	}
	if len(names) == 0 {
		return nil
	}
	what := map[string]string{"npz": ".npz", "folder": ".npy"}[j.format]
	list := dtypes[0]
	if n := len(dtypes); n > 1 {
		list = strings.Join(dtypes[:n-1], ", ") + " or " + dtypes[n-1]
	}
	_, err := fmt.Fprintf(e.stderr, "strider: convert: %d %s widened exactly to float32, as %s has no %s: %s\n",
		len(names), plural(len(names), "tensor"), what, list, npy.QuotedNameList(names))
	return err
}
