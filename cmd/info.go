package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/internal/termsafe"
)

var infoCommand = newCommand(&cli.Command{
	Name:      "info",
	Usage:     "print shape, dtype, order, size and format version (reads only headers)",
	ArgsUsage: "FILE...",
	Description: `Reads only the header of each file, so it is instant on any size.
FILE is a .npy path, - for standard input, file.npz:name for one member of an
.npz archive, or a bare file.npz: every member is listed, one line each.

info describes whatever header it can read, as ls lists what it can: a
dtype strider cannot compute on (string, structured, object, datetime) is
shown as written ('<U2') and marked; a file whose data is cut short says
"data truncated: 872 of 2048000 bytes"; a file that cannot be read at all
(missing, not .npy: a torch.save or pickle file is named as such) gets an
error line. It goes on to the next file and exits 2 at the end if any file
was bad in one of these ways.

--json prints one object a line: path, shape, dtype, descr, fortran_order,
count, nbytes, version, header_bytes (where the data starts), plus member
for a member of a listed archive; for a refused dtype dtype is null and
refused says why; for cut-short data truncated is true and data_bytes
says how many bytes there are.

A .safetensors or torch.save file (.pt, .pth) lists every tensor
(file:name: just that one): name, dtype, shape, layout, bytes; a dtype
NumPy lacks shows as, say, "bfloat16 (read as float32)". Its --json lines
add format, stored_dtype, stored_nbytes, strides and storage_offset
(torch), and __metadata__ (safetensors).

Examples:
   strider info testdata/example_f4_2x3x4_c.npy
   strider info --json a.npy b.npz weights.npz:w`,
	Flags: []cli.Flag{
		&cli.BoolFlag{Name: "json", Usage: "one JSON object per line: path, shape, dtype, descr, fortran_order, count, nbytes, version, header_bytes"},
	},
}, parseInfo)

// infoJob is info's command line.
type infoJob struct {
	specs []string
	json  bool
}

func parseInfo(c *cli.Context) (job, error) {
	if c.NArg() == 0 {
		return nil, usagef("missing FILE (see strider info --help)")
	}
	return infoJob{specs: c.Args().Slice(), json: c.Bool("json")}, nil
}

// script is never reached: info takes no --as-numpy or --as-torch.
func (j infoJob) script(s *script) error {
	return usagef("--as-%s is not available for info", s.lib)
}

// infoRecord is one line of info --json, keys in the contract's order; the
// optional keys appear only when they say something.
type infoRecord struct {
	Path string `json:"path"`
	// PathEscaped is the path when it is not valid UTF-8 (Path then has
	// U+FFFD for each bad byte): each bad byte b is the lone surrogate
	// U+DC00+b, Python's surrogateescape, so os.fsencode(rec["path_escaped"])
	// gives the path's bytes back.
	PathEscaped  json.RawMessage `json:"path_escaped,omitempty"`
	Member       *string         `json:"member,omitempty"`
	Shape        []int           `json:"shape"`
	Dtype        *string         `json:"dtype"`
	Descr        string          `json:"descr"`
	FortranOrder bool            `json:"fortran_order"`
	Count        int64           `json:"count"`
	NBytes       *int64          `json:"nbytes"`
	Version      string          `json:"version"`
	HeaderBytes  int64           `json:"header_bytes"`
	Refused      string          `json:"refused,omitempty"`
	Truncated    bool            `json:"truncated,omitempty"`
	DataBytes    *int64          `json:"data_bytes,omitempty"`
}

// errReported ends a command whose errors were already printed, one line
// each, with exit status 2.
var errReported = errors.New("errors were reported")

func (j infoJob) run(e *env) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	bad := 0
	fail := func(label string, err error) {
		bad++
		// The message may quote the file (an archive's member names): escaped
		// for the terminal, as label already is.
		errorLine(e.stderr, "info", fmt.Errorf("%s: %s", displayName(label), termsafe.Escape(err.Error())))
	}
	for _, spec := range j.specs {
		if show, ok, err := j.listing(e.stdout, enc, spec); ok {
			if err != nil {
				fail(spec, err)
				continue
			}
			if err := show(); err != nil {
				return err
			}
			continue
		}
		descs, err := formats.Inspect(spec, e.stdinFor(spec))
		if err != nil {
			fail(spec, err)
			continue
		}
		for _, d := range descs {
			if err := printInfo(e.stdout, enc, j.json, spec, d); err != nil {
				return err
			}
			label := spec
			if d.Member != "" {
				label += ":" + termsafe.Escape(d.Member)
			}
			switch {
			case d.Refused != nil:
				fail(label, fmt.Errorf("strider cannot compute on it: %w", d.Refused))
			case d.Truncated():
				fail(label, fmt.Errorf("data truncated: %d of %d bytes", d.DataBytes, d.NBytes()))
			}
		}
	}
	if bad > 0 {
		return errReported
	}
	return nil
}

// listing lists spec from its index when it is a sharded checkpoint or a
// tensor file (ok): show writes what was listed, unless err says why it
// could not be.
func (j infoJob) listing(w io.Writer, enc *json.Encoder, spec string) (show func() error, ok bool, err error) {
	if tensors, ok, err := formats.ListSharded(spec); ok {
		return func() error { return printSharded(w, enc, j.json, spec, tensors) }, true, err
	}
	if tf, ok, err := formats.ListTensors(spec); ok {
		return func() error { return printTensors(w, enc, j.json, spec, tf) }, true, err
	}
	return nil, false, nil
}

func printInfo(w io.Writer, enc *json.Encoder, asJSON bool, spec string, d npy.Description) error {
	h := d.Header
	r := infoRecord{
		Path: spec, PathEscaped: surrogateEscaped(spec), Shape: h.Shape, Descr: h.RawDescr, FortranOrder: h.Fortran, Count: h.Count(),
		Version: fmt.Sprintf("%d.%d", h.Major, h.Minor), HeaderBytes: h.DataOffset,
	}
	if d.Member != "" {
		r.Member = &d.Member
	}
	if n := d.NBytes(); n >= 0 {
		r.NBytes = &n
	}
	if d.Refused == nil {
		name, descr := h.Dtype.Name(), h.Dtype.Descr()
		r.Dtype, r.Descr = &name, descr
	} else {
		r.Refused = d.Refused.Error()
	}
	if d.Truncated() {
		r.Truncated, r.DataBytes = true, &d.DataBytes
	}
	if asJSON {
		return enc.Encode(r)
	}
	// The member name and a refused dtype are the file's, as written:
	// escaped for the terminal.
	label, dtype := spec, termsafe.Escape(h.RawDescr)
	if d.Member != "" {
		label += ":" + termsafe.Escape(d.Member)
	}
	if r.Dtype != nil {
		dtype = fmt.Sprintf("%s (%s)", *r.Dtype, r.Descr)
	}
	order := "C"
	if h.Fortran {
		order = "Fortran"
	}
	size := "unknown size"
	if r.NBytes != nil {
		size = fmt.Sprintf("%d bytes", *r.NBytes)
	}
	line := fmt.Sprintf("%s: %s, shape %s, %s order, %d elements, %s, format %s",
		label, dtype, pylit.ShapeString(h.Shape), order, r.Count, size, r.Version)
	if d.Refused != nil {
		line += "; strider cannot compute on it"
	}
	if d.Truncated() {
		line += fmt.Sprintf("; data truncated: %d of %d bytes", d.DataBytes, *r.NBytes)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// surrogateEscaped is s as a JSON string in Python's surrogateescape
// convention when s is not valid UTF-8, else nil.
func surrogateEscaped(s string) json.RawMessage {
	if utf8.ValidString(s) {
		return nil
	}
	var b strings.Builder
	b.WriteByte('"')
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\u%04x`, 0xdc00+int(s[0]))
		} else {
			var q bytes.Buffer
			enc := json.NewEncoder(&q)
			enc.SetEscapeHTML(false)
			enc.Encode(s[:n])
			quoted := bytes.TrimSpace(q.Bytes())
			b.Write(quoted[1 : len(quoted)-1])
		}
		s = s[n:]
	}
	b.WriteByte('"')
	return json.RawMessage(b.String())
}
