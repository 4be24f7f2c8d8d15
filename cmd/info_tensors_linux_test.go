//go:build linux

package cmd

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strider/internal/testkit"
)

// Names and hostile pickles in tensor files (issue 27): names and strings
// a file controls reach the terminal escaped in info's listings and error
// lines (--json keeps them exact), and torch.save files built to hang the
// reader, run it out of memory or inflate a thousandfold are answered in
// seconds, read or refused with one line; formats/torch/torch_hostile_test.go has
// the same shapes against the readers' bounds.

// hostileNames are names a file may carry that a terminal would act on:
// clear the screen, set the title (OSC), ring, return, back up, end a
// string, switch to C1 CSI, reorder the line.
var hostileNames = []string{
	"\x1b[2J\x1b[31mX",
	"\x1b]0;pwned\x07",
	"cr\rbs\x08nul\x00",
	"c1\u009b31m",
	"rtl\u202eevil",
	"bad\xffutf8",
}

// TestTerminalSafeNames: names and strings a file controls never reach the
// terminal raw in a human-readable line (issue 27): info's listing, and
// error lines that name or list members.
func TestTerminalSafeNames(t *testing.T) {
	dir := t.TempDir()
	for i, name := range hostileNames {
		t.Run(fmt.Sprintf("name%d", i), func(t *testing.T) {
			npz := filepath.Join(dir, fmt.Sprintf("h%d.npz", i))
			testkit.WriteZip(t, npz, testkit.Member{name + ".npy", testkit.Int8Npy(t, 1, 2)}, testkit.Member{"ok.npy", testkit.Int8Npy(t, 3)})
			st := filepath.Join(dir, fmt.Sprintf("h%d.safetensors", i))
			testkit.WriteSafetensorsNames(t, st, name, "ok")
			for _, args := range [][]string{
				{"info", npz},
				{"show", npz},
				{"show", npz + ":nosuch"},
				{"info", st},
				{"show", st},
				{"show", st + ":nosuch"},
				{"stats", st},
			} {
				r := run(t, nil, args...)
				testkit.WantNoControls(t, "stdout of "+args[0], r.stdout)
				testkit.WantNoControls(t, "stderr of "+args[0], r.stderr)
			}
		})
	}
}

// writeTorch writes a torch.save archive of the pickle p whose storage "0"
// holds one float32 1.0, stored as torch.save stores it.
func writeTorch(t *testing.T, path string, p []byte) string {
	t.Helper()
	testkit.WriteZip(t, path, testkit.Member{"archive/data.pkl", p}, testkit.Member{"archive/data/0", []byte{0, 0, 0x80, 0x3f}})
	return path
}

// writeSafetensors writes a .safetensors file of the JSON header and data.
func writeSafetensors(t *testing.T, path, header string, data []byte) string {
	t.Helper()
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	if err := os.WriteFile(path, append(append(b, header...), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeDeflatedTorch writes a torch.save archive whose storage "0" is
// 4 GiB of float32 zeros, deflated to 4 MiB (one compressed MiB of zeros
// repeated), under the pickle {"a": its first element}.
func writeDeflatedTorch(t *testing.T, path string) string {
	t.Helper()
	const mib = 4096
	var seg bytes.Buffer
	fw, _ := flate.NewWriter(&seg, flate.BestCompression)
	fw.Write(make([]byte, 1<<20))
	fw.Flush() // ends the segment on a byte, so it can be repeated
	data := append(bytes.Repeat(seg.Bytes(), mib), 1, 0, 0, 0xff, 0xff)
	zeros, crc := make([]byte, 1<<20), uint32(0)
	for range mib {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("archive/data.pkl")
	if err == nil {
		_, err = w.Write(testkit.NewPickle().Op("}").Str("a").Tensor("0", mib<<20/4, 0, 1).Op("s").Done())
	}
	if err == nil {
		w, err = zw.CreateRaw(&zip.FileHeader{Name: "archive/data/0", Method: zip.Deflate, CRC32: crc,
			CompressedSize64: uint64(len(data)), UncompressedSize64: mib << 20})
	}
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = os.WriteFile(path, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestTorchHostile: each hostile torch.save file is read, or refused with
// one line before its names are built, in seconds.
func TestTorchHostile(t *testing.T) {
	dir := t.TempDir()
	key := func(n int) string { return strings.Repeat("k", n) }
	sharedTuple := testkit.NewPickle().Op("}K\x00").Put(0)
	for i := uint32(1); i <= 40; i++ {
		sharedTuple.Get(i - 1).Op("\x86").Put(i)
	}
	nested := testkit.NewPickle().Op("}").Str(key(8 << 20)).Put(0)
	for range 249 {
		nested.Op("}").Get(0)
	}
	nested.Tensor("0", 1, 0, 1).Op(strings.Repeat("s", 250))
	for _, c := range []struct {
		name   string
		pickle []byte
		want   string // in the refusal; "": read, no tensors
	}{
		{"dict key: a tuple shared 40 levels deep", sharedTuple.Op("Ns").Done(), ""},
		{"dict key: a tuple of 1M items", testkit.NewPickle().Op("}(").Op(strings.Repeat("K\x00", 1<<20)).Op("tNs").Done(), ""},
		{"OrderedDict pair of a 200k-item tuple", testkit.NewPickle().Op("ccollections\nOrderedDict\n]((").
			Op(strings.Repeat("K\x00", 200_000)).Op("tN\x86e\x85R").Done(), ""},
		{"500k references to {32 MiB key: None}", testkit.NewPickle().Shared(500_000, func(p *testkit.Pickle) {
			p.Op("}").Str(key(32 << 20)).Op("Ns")
		}).Done(), ""},
		{"1000 references to {16 MiB key: tensor}", testkit.NewPickle().Shared(1000, func(p *testkit.Pickle) {
			p.Op("}").Str(key(16<<20)).Tensor("0", 1, 0, 1).Op("s")
		}).Done(), "data.pkl names a tensor with 2 keys joined into 16777218 bytes, over the limit of 65536 bytes for a name"},
		{"8 MiB key under 250 nested dicts", nested.Done(), "data.pkl names a tensor with 250 keys joined into 2097152249 bytes, over the limit of 65536"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeTorch(t, filepath.Join(dir, "hostile.pt"), c.pickle)
			for _, args := range [][]string{{"info", path}, {"show", path}} {
				start := time.Now()
				r := run(t, nil, args...)
				if took := time.Since(start); took > 20*time.Second {
					t.Errorf("%s took %v", args[0], took)
				}
				switch {
				case c.want != "":
					wantError(t, r, args[0])
					if !strings.Contains(string(r.stderr), c.want) {
						t.Errorf("%s: %q, want %q", args[0], r.stderr, c.want)
					}
				case args[0] == "info" && (r.code != 0 || string(r.stdout) != path+": no tensors, torch.save\n"):
					t.Errorf("info: exit %d, %q %q", r.code, r.stdout, r.stderr)
				case args[0] == "show":
					wantError(t, r, "show")
				}
			}
		})
	}
}

// TestTorchDeflatedStorage: one element of a 4 GiB deflated storage is
// read without inflating the rest.
func TestTorchDeflatedStorage(t *testing.T) {
	path := writeDeflatedTorch(t, filepath.Join(t.TempDir(), "bomb.pt"))
	start := time.Now()
	r := run(t, nil, "show", path+":a")
	if r.code != 0 || string(r.stdout) != "[0.]\n" {
		t.Errorf("show: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("show took %v", took)
	}
}

// terminalSafe fails when b holds what a terminal acts on: C0 controls
// but newline, DEL, C1 controls.
func terminalSafe(t *testing.T, what string, b []byte) {
	t.Helper()
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Errorf("%s holds %U: %q", what, r, b)
			return
		}
	}
}

// TestTensorNamesEscaped: names and dtype strings from a file reach the
// terminal escaped (info's lines, error lines that list names); --json
// keeps them exact.
func TestTensorNamesEscaped(t *testing.T) {
	dir := t.TempDir()
	const clear, title = "\x1b[2J\x1b[31mX", "\x1b]0;t\x07\r\b"
	st := writeSafetensors(t, filepath.Join(dir, "esc.safetensors"),
		`{"\u001b[2J\u001b[31mX":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},`+
			`"\u001b]0;t\u0007\r\b":{"dtype":"\u001b[5m\u009b1m","shape":[1],"data_offsets":[4,8]}}`, make([]byte, 8))
	pt := writeTorch(t, filepath.Join(dir, "esc.pt"), testkit.NewPickle().Op("}").Str(clear).Tensor("0", 1, 0, 1).Op("s").
		Str(title).Tensor("0", 1, 0, 1).Op("s").Done())
	for _, c := range []struct {
		args []string
		want string // in stdout, or in stderr for an error
	}{
		{[]string{"info", st}, `esc.safetensors:\x1b]0;t\x07\r\x08: \x1b[5m\u009b1m, shape (1,), not read`},
		{[]string{"info", pt}, `esc.pt:\x1b[2J\x1b[31mX: float32`},
		{[]string{"show", st}, `holds 2 tensors (\x1b[2J\x1b[31mX, \x1b]0;t\x07\r\x08)`},
		{[]string{"show", pt + ":nope"}, `(it holds \x1b[2J\x1b[31mX, \x1b]0;t\x07\r\x08)`},
	} {
		r := run(t, nil, c.args...)
		terminalSafe(t, strings.Join(c.args, " ")+" stdout", r.stdout)
		terminalSafe(t, strings.Join(c.args, " ")+" stderr", r.stderr)
		if !strings.Contains(string(r.stdout)+string(r.stderr), c.want) {
			t.Errorf("%v: %q %q, want %q", c.args, r.stdout, r.stderr, c.want)
		}
	}
	for _, path := range []string{st, pt} {
		r := run(t, nil, "info", "--json", path)
		var names []string
		for _, line := range strings.Split(strings.TrimSpace(string(r.stdout)), "\n") {
			var rec struct{ Member string }
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("info --json %s: %v: %q", path, err, line)
			}
			names = append(names, rec.Member)
		}
		if strings.Join(names, "|") != clear+"|"+title || !bytes.Contains(r.stdout, []byte(`\u001b[2J`)) {
			t.Errorf("info --json %s: members %q, want the exact names", path, names)
		}
	}
	// An .npz member's name and a refused dtype written in a .npy header.
	npz := filepath.Join(dir, "esc.npz")
	testkit.WriteZip(t, npz, testkit.Member{clear + ".npy", testkit.Int8Npy(t, 1)}, testkit.Member{"\ab.npy", append(testkit.SaveHeader("M8[\x1b[2J]", false, []int{1}), make([]byte, 8)...)})
	r := run(t, nil, "info", npz)
	terminalSafe(t, "info of an .npz stdout", r.stdout)
	terminalSafe(t, "info of an .npz stderr", r.stderr)
	if want := `esc.npz:\x07b: strider cannot compute on it`; !strings.Contains(string(r.stderr), want) {
		t.Errorf("info of an .npz: %q, want %q", r.stderr, want)
	}
	for _, want := range []string{`esc.npz:\x1b[2J\x1b[31mX: int8`, `esc.npz:\x07b: M8[\x1b[2J], shape (1,)`} {
		if !strings.Contains(string(r.stdout), want) {
			t.Errorf("info of an .npz: %q, want %q", r.stdout, want)
		}
	}
}

// TestSafetensorsHeaderWhitespace: a .safetensors file whose header has
// JSON whitespace before its object (which the crate reads) is recognised
// and read as the same file without it, and a text file with a space at
// byte 8 is still refused as no tensor file.
func TestSafetensorsHeaderWhitespace(t *testing.T) {
	dir := t.TempDir()
	const obj = `{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}`
	plain := writeSafetensors(t, filepath.Join(dir, "plain.safetensors"), obj, []byte{0, 0, 0x80, 0x3f})
	spaced := writeSafetensors(t, filepath.Join(dir, "spaced.safetensors"), "\n\t  "+obj, []byte{0, 0, 0x80, 0x3f})
	for _, args := range [][]string{{"show", "FILE:a"}, {"stats", "FILE:a"}, {"info", "--json", "FILE"}} {
		var want, got runResult
		for i, f := range []string{plain, spaced} {
			a := append([]string(nil), args...)
			a[len(a)-1] = strings.Replace(a[len(a)-1], "FILE", f, 1)
			r := run(t, nil, a...)
			r.stdout = bytes.ReplaceAll(r.stdout, []byte(f), []byte("FILE"))
			if i == 0 {
				want = r
			} else {
				got = r
			}
		}
		if got.code != 0 || want.code != 0 || !bytes.Equal(got.stdout, want.stdout) {
			t.Errorf("%v: %d %q %q, without the whitespace %d %q", args, got.code, got.stdout, got.stderr, want.code, want.stdout)
		}
	}
	text := filepath.Join(dir, "numbers.txt")
	if err := os.WriteFile(text, []byte("1 2 3 4  5 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantError(t, run(t, nil, "show", text), "show")
	if r := run(t, nil, "show", text); !bytes.Contains(r.stderr, []byte("not a .npy file")) {
		t.Errorf("a text file: %q", r.stderr)
	}
}
