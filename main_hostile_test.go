//go:build linux

package main

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hostile pass (issue 27): every parser of user bytes is given inputs
// built to hang it, exhaust its memory, crash it or smuggle control bytes
// to the terminal. Each case runs under a short deadline and a tight
// memory limit, and must end in a success or a clean refusal: exit 0 or 2
// (1 for compare), one "strider: <command>: " line on an error, no panic,
// no raw control byte in any human-readable output, no temporary file
// left. No case only waits: each one ends on its own or is killed.
const (
	hostileDeadline = 20 * time.Second
	hostileData     = 1 << 30 // RLIMIT_DATA
)

type hostileCase struct {
	name  string
	files map[string][]byte // written into the case's folder
	stdin []byte
	args  []string // "@x" is the path of file x in the case's folder
}

// zipOf is an archive of the members, deflated when deflate is set.
func zipOf(t *testing.T, deflate bool, members ...safetyMember) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		method := zip.Store
		if deflate {
			method = zip.Deflate
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: m.name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawHeader is a .npy version 1.0 with the header text as given.
func rawHeader(text string) []byte {
	b := []byte("\x93NUMPY\x01\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(text)))
	return append(b, text...)
}

// safetensorsRaw is a safetensors file with the header as given and n
// zero data bytes.
func safetensorsRaw(header string, n int) []byte {
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	return append(append(b, header...), make([]byte, n)...)
}

func hostileCases(t *testing.T) []hostileCase {
	ok := append(npyHeader("<f4", false, []int{2, 2}), make([]byte, 16)...)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	zeros := make([]byte, 64<<20)
	var cases []hostileCase
	add := func(name string, files map[string][]byte, stdin []byte, args ...string) {
		cases = append(cases, hostileCase{name, files, stdin, args})
	}
	file := func(name string, b []byte) map[string][]byte { return map[string][]byte{name: b} }

	// .npy headers.
	for name, h := range map[string][]byte{
		"npy/v2-len-4GiB":      append([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"), "{'descr'"...),
		"npy/v3-len-1MiB+1":    binary.LittleEndian.AppendUint32([]byte("\x93NUMPY\x03\x00"), 1<<20+1),
		"npy/shape-overflow":   rawHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4611686018427387904), }\n"),
		"npy/shape-2^62":       rawHeader("{'descr': '|u1', 'fortran_order': False, 'shape': (4611686018427387904,), }\n"),
		"npy/descr-escape":     rawHeader("{'descr': '\x1b[2J\x07', 'fortran_order': False, 'shape': (1,), }\n"),
		"npy/descr-deep":       rawHeader("{'descr': " + strings.Repeat("[", 30000) + "}\n"),
		"npy/int-100k-digits":  rawHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (" + strings.Repeat("9", 60000) + ",), }\n"),
		"npy/33-dims":          rawHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (" + strings.Repeat("1, ", 33) + "), }\n"),
		"npy/truncated":        npyHeader("<f8", false, []int{1 << 20})[:40],
		"npy/data-short":       append(npyHeader("<f8", false, []int{1 << 20}), 1, 2, 3),
		"npy/structured-names": rawHeader("{'descr': [('\x1b]0;x\x07', '<f4')], 'fortran_order': False, 'shape': (1,), }\n"),
	} {
		for _, c := range []string{"info", "show", "stats", "transpose", "to-text"} {
			add(name+"/"+c, file("a.npy", h), nil, c, "@a.npy")
		}
		add(name+"/stdin-show", nil, h, "show", "-")
	}

	// .npz archives.
	zbomb := zipOf(t, true, safetyMember{"a.npy", append(npyHeader("<f4", false, []int{16 << 20}), zeros...)})
	lie := zipOf(t, true, safetyMember{"a.npy", append(npyHeader("<f4", false, []int{1 << 40}), zeros[:1<<20]...)})
	members := make([]safetyMember, 20000)
	for i := range members {
		members[i] = safetyMember{fmt.Sprintf("m%05d\x1b[2J.npy", i), ok}
	}
	manyZip := zipOf(t, false, members...)
	longName := zipOf(t, false, safetyMember{strings.Repeat("n", 60000) + ".npy", ok})
	for name, z := range map[string][]byte{"npz/bomb-64MiB": zbomb, "npz/lying-shape": lie, "npz/20k-members": manyZip, "npz/60k-name": longName} {
		for _, args := range [][]string{{"info", "@z.npz"}, {"show", "@z.npz"}, {"show", "@z.npz:a"}, {"stats", "@z.npz:a"}, {"compare", "@z.npz", "@z.npz"}} {
			add(name+"/"+strings.Join(args, " "), file("z.npz", z), nil, args...)
		}
		add(name+"/stdin-info", nil, z, "info", "-")
	}

	// safetensors headers.
	for name, st := range map[string][]byte{
		"st/len-2^63":       binary.LittleEndian.AppendUint64(nil, 1<<63),
		"st/len-past-end":   binary.LittleEndian.AppendUint64(nil, 1<<30),
		"st/offsets-out":    safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,1099511627776]}}`, 16),
		"st/offsets-neg":    safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[-16,0]}}`, 16),
		"st/offsets-swap":   safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[16,0]}}`, 16),
		"st/overlap":        safetensorsRaw(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"b":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/shape-overflow": safetensorsRaw(`{"a":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,16]}}`, 16),
		"st/shape-neg":      safetensorsRaw(`{"a":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}}`, 16),
		"st/dtype-escape":   safetensorsRaw(`{"a":{"dtype":"\u001b[2J\u0007","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/json-deep":      safetensorsRaw(`{"a":`+deep+`}`, 0),
		"st/metadata-esc":   safetensorsRaw(`{"__metadata__":{"\u001b]0;t\u0007":"\u001b[31m"},"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
		"st/name-bidi":      safetensorsRaw(`{"a\u202eb":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, 16),
	} {
		for _, args := range [][]string{{"info", "@m.safetensors"}, {"info", "--json", "@m.safetensors"}, {"show", "@m.safetensors"}, {"show", "@m.safetensors:a"}, {"stats", "@m.safetensors:a"}, {"compare", "@m.safetensors", "@m.safetensors"}} {
			add(name+"/"+strings.Join(args, " "), file("m.safetensors", st), nil, args...)
		}
	}

	// A safetensors file of 20,000 tensors: compare opens each member, and
	// must not parse the header again for each (O(n²): minutes).
	var many strings.Builder
	many.WriteString("{")
	for i := range 20000 {
		if i > 0 {
			many.WriteString(",")
		}
		fmt.Fprintf(&many, `"t%05d":{"dtype":"F32","shape":[1],"data_offsets":[%d,%d]}`, i, 4*i, 4*i+4)
	}
	many.WriteString("}")
	manyST := safetensorsRaw(many.String(), 4*20000)
	add("st/20k-tensors/compare", file("m.safetensors", manyST), nil, "compare", "@m.safetensors", "@m.safetensors")
	add("st/20k-tensors/info", file("m.safetensors", manyST), nil, "info", "@m.safetensors")

	// torch.save files: legacy magic then junk, a zip with a junk data.pkl.
	junkPkl := zipOf(t, false, safetyMember{"archive/data.pkl", []byte("\x80\x02}q\x00(X\x01\x00\x00\x00a" + strings.Repeat("(", 100000))}, safetyMember{"archive/version", []byte("3\n")})
	for name, pt := range map[string][]byte{
		"pt/legacy-junk": append([]byte("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19."), zeros[:4096]...),
		"pt/deep-marks":  junkPkl,
	} {
		for _, c := range []string{"info", "show", "stats"} {
			add(name+"/"+c, file("m.pt", pt), nil, c, "@m.pt")
		}
	}

	// Text.
	longLine := bytes.Repeat([]byte("1 "), 20<<20)
	add("text/20M-columns", nil, longLine, "from-text", "-", "-o", "@o.npy")
	add("text/json-deep", nil, []byte(deep), "from-text", "--json", "-", "-o", "@o.npy")
	add("text/escape-field", nil, []byte("1 2\n3 \x1b[2Jx\x07\n"), "from-text", "-", "-o", "@o.npy")
	add("text/nul-field", nil, []byte("1,\x00\n"), "from-text", "--delimiter", ",", "-", "-o", "@o.npy")
	add("text/bad-utf8", nil, []byte("1 \xff\xfe\n"), "from-text", "-", "-o", "@o.npy")

	// Expressions and literals from the command line.
	arr := file("a.npy", ok)
	for name, expr := range map[string]string{
		"parens":  strings.Repeat("(", 100000),
		"lists":   strings.Repeat("[", 100000),
		"digits":  strings.Repeat("9", 100000),
		"colons":  strings.Repeat(":", 100000),
		"commas":  strings.Repeat("0,", 50000),
		"ellipsi": strings.Repeat("...,", 1000),
		"nones":   strings.Repeat("None,", 20000),
	} {
		add("expr/"+name+"/slice", arr, nil, "slice", "@a.npy", expr)
		add("expr/"+name+"/show", arr, nil, "show", "@a.npy", expr)
		add("expr/"+name+"/stats", arr, nil, "stats", "@a.npy", expr)
		add("expr/"+name+"/gather", arr, nil, "gather", "--index", expr, "@a.npy")
	}
	// One argument may not exceed 128 KiB (MAX_ARG_STRLEN): 60k indices.
	add("expr/gather-60k-indices", arr, nil, "gather", "--index", "["+strings.Repeat("-1,", 30000)+"0]", "@a.npy", "-o", "@o.npy")
	add("shape/reshape-huge", arr, nil, "reshape", "@a.npy", "4611686018427387904,4611686018427387904")
	add("shape/reshape-digits", arr, nil, "reshape", "@a.npy", strings.Repeat("9", 100000))
	add("tri/huge", nil, nil, "tril-indices", "4000000000", "-o", "@o.npy")
	add("tri/digits", nil, nil, "tril-indices", strings.Repeat("9", 100000))
	add("cast/dtype-escape", arr, nil, "cast", "@a.npy", "--dtype", "\x1b[2J")
	return cases
}

func TestHostilePass(t *testing.T) {
	for _, c := range hostileCases(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range c.files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				if p, found := strings.CutPrefix(a, "@"); found && !strings.HasPrefix(a, "@@") {
					a = filepath.Join(dir, p)
				}
				args[i] = a
			}
			cmd := commandWithin(t, hostileDeadline, hostileData, strider, args...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if c.stdin != nil {
				cmd.Stdin = bytes.NewReader(c.stdin)
			}
			start := time.Now()
			r := result{exitCode(t, cmd, cmd.Run()), out.Bytes(), errb.Bytes()}
			if d := time.Since(start); d > hostileDeadline/2 {
				t.Errorf("took %v", d)
			}
			switch {
			case r.code == 2 && args[0] == "info":
				// info describes what it can (a refused dtype, data cut
				// short) on stdout before its one error line.
				lines := strings.Split(strings.TrimSuffix(string(r.stderr), "\n"), "\n")
				if len(lines) != 1 || !strings.HasPrefix(lines[0], "strider: info: ") {
					t.Fatalf("stderr is not one 'strider: info: ...' line: %q", r.stderr)
				}
			case r.code == 2:
				wantError(t, r, args[0])
			case r.code == 1 && args[0] == "compare":
			case r.code != 0:
				t.Fatalf("exit %d: %q", r.code, r.stderr)
			}
			for _, bad := range []string{"panic", "goroutine", "fatal error", "internal error"} {
				if bytes.Contains(r.stderr, []byte(bad)) {
					t.Fatalf("stderr shows %q: %.300q", bad, r.stderr)
				}
			}
			wantNoControls(t, "stderr", r.stderr)
			// --json keeps the exact names, JSON-escaped: a bidi override
			// stays as it is there.
			switch {
			case args[0] == "info" && args[1] == "--json":
			case args[0] == "info", args[0] == "show", args[0] == "stats", args[0] == "compare":
				wantNoControls(t, "stdout", r.stdout)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") || strings.Contains(e.Name(), "strider-") {
					t.Fatalf("left behind: %s", e.Name())
				}
			}
		})
	}
}
