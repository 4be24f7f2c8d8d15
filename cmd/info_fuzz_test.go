package cmd

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// infoSeeds are the info cases FuzzCommand keeps a seed for.
var infoSeeds = []commandSeed{
	{"info json", 86, has("info", "--json", ".npz")},
	{"info stdin", 324, has("info", "-- -")},
}

// info models info: one line per input (a path, standard input or an .npz
// member), as JSON with --json describing the input's shape, dtype, order,
// count and size; it refuses a short input and options it does not take.
func (c *fcase) info(s *fsrc, a *farray) {
	o := &opts{}
	// info reads only the header, but it checks that a file (or an .npz
	// member, or a standard input that is a file) holds the data promised.
	spec, _, short := c.input(s, a, "in.npy", true)
	o.pos = []string{spec}
	if spec != "-" && s.n(3) == 1 {
		o.pos = append(o.pos, spec)
	}
	asJSON := s.n(2) == 1
	if asJSON {
		o.flags = append(o.flags, "--json")
	}
	fail := false
	if s.rare(12) {
		o.flag(s, "--threads", "2") // info has no such option
		fail = true
	}
	c.args = o.line(s, "info")
	if fail || short {
		c.fail = true
		return
	}
	n := len(o.pos)
	c.stdout = func(t *testing.T, out []byte) {
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != n || !bytes.HasSuffix(out, []byte("\n")) {
			t.Fatalf("info printed %q, want %d lines", out, n)
		}
		if !asJSON {
			return
		}
		for _, l := range lines {
			var r struct {
				Shape        []int  `json:"shape"`
				Dtype        string `json:"dtype"`
				Descr        string `json:"descr"`
				FortranOrder bool   `json:"fortran_order"`
				Count        int64  `json:"count"`
				NBytes       int64  `json:"nbytes"`
				Version      string `json:"version"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("info --json line %q: %v", l, err)
			}
			if !slices.Equal(r.Shape, a.shape) || r.Dtype != a.dt.Name() || r.Descr != a.dt.Descr() || r.FortranOrder != a.fortran ||
				r.Count != int64(count(a.shape)) || r.NBytes != int64(len(a.data)) || r.Version != "1.0" {
				t.Fatalf("info --json line %q does not describe the input", l)
			}
		}
	}
}
