package cmd

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats"
	"strider/formats/npy"
	"strider/formats/safetensors"
	"strider/internal/testkit"
)

// convert runs strider convert with args and fails the test unless it
// succeeds; it returns standard error.
func convert(t *testing.T, args ...string) string {
	t.Helper()
	r := run(t, nil, append([]string{"convert"}, args...)...)
	if r.code != 0 {
		t.Fatalf("convert %q: exit %d: %s", args, r.code, r.stderr)
	}
	return string(r.stderr)
}

// tensorBytes maps each tensor of a .safetensors file to its dtype code,
// shape and bytes, as the file stores them.
func tensorBytes(t *testing.T, path string) map[string]string {
	t.Helper()
	b := readFile(t, path)
	f, err := safetensors.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, s := range f.Tensors {
		m[s.Name] = s.Dtype + " " + shapeKey(s.Shape) + " " + string(b[s.Begin:s.End])
	}
	return m
}

func shapeKey(shape []int) string {
	return strings.Trim(strings.ReplaceAll(fmt.Sprint(shape), " ", ","), "[]")
}

// TestConvertRoundTrip: an archive np.savez wrote (testdata/single.npz)
// goes to .safetensors and back to .npz byte for byte; a folder of the
// NumPy-written fixtures of every dtype safetensors has goes to
// .safetensors, .npz and back to a folder whose every file is the
// fixture, byte for byte.
func TestConvertRoundTrip(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	st, back := filepath.Join(dir, "s.safetensors"), filepath.Join(dir, "back.npz")
	convert(t, "testdata/single.npz", st)
	convert(t, st, back)
	if !bytes.Equal(readFile(t, back), readFile(t, "testdata/single.npz")) {
		t.Fatal("single.npz -> .safetensors -> .npz is not np.savez's file")
	}
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range glob(t, "testdata/roundtrip_*_c.npy") {
		if strings.Contains(f, "be_") || strings.Contains(f, "c16") {
			continue // safetensors is little-endian and has no complex128
		}
		name := strings.TrimSuffix(filepath.Base(f), ".npy")
		names = append(names, name)
		if err := os.WriteFile(filepath.Join(in, name+".npy"), readFile(t, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(names) < 15 {
		t.Fatalf("only %d fixtures", len(names))
	}
	npz, out := filepath.Join(dir, "x.npz"), filepath.Join(dir, "out")
	convert(t, in, st)
	convert(t, st, npz)
	convert(t, npz, out)
	for _, name := range names {
		if !bytes.Equal(readFile(t, filepath.Join(out, name+".npy")), readFile(t, filepath.Join(in, name+".npy"))) {
			t.Errorf("%s: not the fixture after folder -> .safetensors -> .npz -> folder", name)
		}
	}
	testkit.WantNames(t, out, testkit.Names(t, in)...)
	// Big-endian arrays go into the (little-endian) .safetensors file
	// swapped: back out, each is cast's exact conversion to '<'.
	be := filepath.Join(dir, "be")
	if err := os.Mkdir(be, 0o755); err != nil {
		t.Fatal(err)
	}
	bes := glob(t, "testdata/roundtrip_*be_3x4_c.npy")
	for _, f := range bes {
		if !strings.Contains(f, "c16") {
			if err := os.WriteFile(filepath.Join(be, filepath.Base(f)), readFile(t, f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	beOut, cast := filepath.Join(dir, "be_out"), filepath.Join(dir, "cast.npy")
	convert(t, be, st)
	convert(t, st, beOut)
	for _, f := range testkit.Names(t, be) {
		a, err := formats.Open(filepath.Join(be, f), nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		le := a.Dtype
		a.Close()
		le.Order = '<'
		if r := run(t, nil, "cast", filepath.Join(be, f), "--dtype", le.Descr(), "-o", cast); r.code != 0 {
			t.Fatalf("cast: %s", r.stderr)
		}
		if !bytes.Equal(readFile(t, filepath.Join(beOut, f)), readFile(t, cast)) {
			t.Errorf("%s: through .safetensors it is not its little-endian cast", f)
		}
	}
	testkit.WantNoTemps(t, dir)
}

// TestConvertLibraryFiles: the files the safetensors library's tests
// assert come out of convert byte for byte: rewritten from themselves,
// and, without metadata, written afresh from a folder of .npy files.
func TestConvertLibraryFiles(t *testing.T) {
	dir := t.TempDir()
	for _, lf := range testkit.LibraryFiles {
		in, out := filepath.Join(dir, lf.Name+".safetensors"), filepath.Join(dir, lf.Name+".out.safetensors")
		if err := os.WriteFile(in, lf.Bytes, 0o644); err != nil {
			t.Fatal(err)
		}
		convert(t, in, out)
		if !bytes.Equal(readFile(t, out), lf.Bytes) {
			t.Errorf("%s rewritten:\n got %q\nwant %q", lf.Name, readFile(t, out), lf.Bytes)
		}
		if lf.Metadata != nil {
			continue
		}
		folder := filepath.Join(dir, lf.Name)
		convert(t, in, folder)
		convert(t, folder, out)
		if !bytes.Equal(readFile(t, out), lf.Bytes) {
			t.Errorf("%s from a folder:\n got %q\nwant %q", lf.Name, readFile(t, out), lf.Bytes)
		}
	}
}

// TestConvertKeepsStoredDtypes: bfloat16 and float8 stay as they are from
// .safetensors (and torch.save) to .safetensors, every tensor's bytes and
// the metadata kept; into .npz they are widened to float32, the values
// strider reads, and one line on standard error says which.
func TestConvertKeepsStoredDtypes(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	in := "testdata/torch/dtypes.safetensors"
	st, npz := filepath.Join(dir, "d.safetensors"), filepath.Join(dir, "d.npz")
	if stderr := convert(t, in, st); stderr != "" {
		t.Errorf("safetensors to safetensors says %q", stderr)
	}
	want, got := tensorBytes(t, in), tensorBytes(t, st)
	if len(want) != len(got) {
		t.Fatalf("%d tensors, want %d", len(got), len(want))
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: not kept as stored (%.12q, want %.12q)", name, got[name], w)
		}
	}
	fin, err := safetensors.ReadFile(readFile(t, in))
	if err != nil {
		t.Fatal(err)
	}
	fout, _ := safetensors.ReadFile(readFile(t, st))
	if !fout.HasMetadata || len(fout.Metadata) != len(fin.Metadata) || fout.Metadata[1] != fin.Metadata[1] {
		t.Errorf("metadata %v, want %v", fout.Metadata, fin.Metadata)
	}
	stderr := convert(t, in, npz)
	wantLine := `strider: convert: 3 tensors widened exactly to float32, as .npz has no bfloat16, float8_e4m3fn or float8_e5m2: "x_bf16", "x_f8_e4m3", "x_f8_e5m2"` + "\n"
	if stderr != wantLine {
		t.Errorf("stderr %q, want %q", stderr, wantLine)
	}
	for _, name := range []string{"x_bf16", "x_f8_e4m3", "x_f8_e5m2", "x_f32", "x_u64"} {
		a, err := formats.Open(in+":"+name, nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		b, err := formats.Open(npz+":"+name, nil, npy.AccessAll)
		if err != nil {
			t.Fatal(err)
		}
		if a.Dtype != b.Dtype || !bytes.Equal(a.Data, b.Data) {
			t.Errorf("%s: %s in .npz, %s as strider reads the input, or other values", name, b.Dtype.Descr(), a.Dtype.Descr())
		}
		a.Close()
		b.Close()
	}
	// A torch.save file's bfloat16 views go into .safetensors as stored.
	convert(t, "testdata/torch/views.pt", st, "--member", "bf16_*")
	if got := tensorBytes(t, st); len(got) != 2 || !strings.HasPrefix(got["bf16_t"], "BF16 6,4 ") {
		t.Errorf("torch bfloat16 views: %q", got)
	}
}

// TestConvertAtomic: a conversion that fails, before or while writing,
// leaves OUT as it was (a file, a folder) and no temporary file.
func TestConvertAtomic(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	good := readFile(t, "testdata/roundtrip_f4le_3x4_c.npy")
	if err := os.WriteFile(filepath.Join(in, "a.npy"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	// b.npy's header is whole, its data cut short: the plan reads headers
	// only, so the failure comes while the output is being written.
	if err := os.WriteFile(filepath.Join(in, "b.npy"), good[:len(good)-8], 0o644); err != nil {
		t.Fatal(err)
	}
	// So with an archive whose second member's last byte is flipped: its
	// header reads, its CRC-32 fails once the output has its first member.
	zipped := testkit.ZipOf(t, false, testkit.Member{Name: "a.npy", Data: good}, testkit.Member{Name: "b.npy", Data: append(good[:len(good)-1:len(good)-1], 0x55)})
	zipped[bytes.LastIndex(zipped, good[len(good)-16:len(good)-1])+15] ^= 0xff
	crc := filepath.Join(dir, "crc.npz")
	if err := os.WriteFile(crc, zipped, 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "old.safetensors")
	old := testkit.LibraryFiles[0].Bytes
	if err := os.WriteFile(outFile, old, 0o644); err != nil {
		t.Fatal(err)
	}
	outDir := filepath.Join(dir, "olddir")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outDir, "keep.npy"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{in, crc} {
		for _, out := range []string{outFile, filepath.Join(dir, "old.npz"), outDir} {
			r := run(t, nil, "convert", src, out)
			wantError(t, r, "convert")
		}
	}
	// complex128 has no safetensors dtype: refused before anything.
	r := run(t, nil, "convert", "testdata/torch/dtypes.pt", outFile)
	testkit.WantOneLine(t, r.code, string(r.stderr), "convert", "safetensors has no dtype for complex128")
	if !bytes.Equal(readFile(t, outFile), old) {
		t.Error("the old .safetensors file changed")
	}
	testkit.WantNames(t, outDir, "keep.npy")
	testkit.WantNames(t, dir, "crc.npz", "in", "old.safetensors", "olddir")
}

// TestConvertNames: names each format cannot hold are refused in one line
// with the name escaped; those it can are kept, escaped in a safetensors
// header as serde_json escapes them.
func TestConvertNames(t *testing.T) {
	dir := t.TempDir()
	npy1 := testkit.Int8Npy(t, 7)
	in := filepath.Join(dir, "in.npz")
	testkit.WriteZip(t, in, testkit.Member{Name: "ok.npy", Data: npy1}, testkit.Member{Name: "a\x1b[2J\"q\".npy", Data: npy1},
		testkit.Member{Name: "dir/w.npy", Data: npy1})
	st := filepath.Join(dir, "out.safetensors")
	convert(t, in, st)
	header := string(readFile(t, st))
	if !strings.Contains(header, `"a\u001b[2J\"q\"":{"dtype":"I8"`) || !strings.Contains(header, `"dir/w":{`) {
		t.Errorf("header %q", header)
	}
	r := run(t, nil, "convert", in, filepath.Join(dir, "folder"))
	testkit.WantOneLine(t, r.code, string(r.stderr), "convert", `tensor "a\x1b[2J"q"" has a control character in its name`)
	r = run(t, nil, "convert", in, filepath.Join(dir, "folder"), "--member", "dir/*")
	testkit.WantOneLine(t, r.code, string(r.stderr), "convert", `has a '/'`)
	meta := filepath.Join(dir, "meta.npz")
	testkit.WriteZip(t, meta, testkit.Member{Name: "__metadata__.npy", Data: npy1})
	r = run(t, nil, "convert", meta, st)
	testkit.WantOneLine(t, r.code, string(r.stderr), "convert", "key of the file's metadata")
	testkit.WantNames(t, dir, "in.npz", "meta.npz", "out.safetensors")
}

// TestConvertMember: --member selects with path.Match; a bad pattern and
// one that matches nothing are one-line errors.
func TestConvertMember(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "x.safetensors")
	convert(t, "testdata/torch/dtypes.safetensors", out, "--member", "x_[fu]*")
	var got []string
	f, err := safetensors.ReadFile(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Tensors {
		got = append(got, s.Name)
	}
	if strings.Join(got, " ") != "x_u64 x_f64 x_f32 x_u32 x_f16 x_u16 x_f8_e4m3 x_f8_e5m2 x_u8" {
		t.Errorf("tensors %q", got)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"testdata/torch/dtypes.safetensors", out, "--member", "[x"}},
		{[]string{"testdata/torch/dtypes.safetensors", out, "--member", "nothing*"}},
		{[]string{"testdata/torch/dtypes.safetensors", filepath.Join(dir, "x.npy")}},
		{[]string{"testdata/torch/dtypes.safetensors", "-"}},
		{[]string{"testdata/torch/dtypes.safetensors", out + ":w"}},
		{[]string{"testdata/roundtrip_f4le_3x4_c.npy", out}},
		{[]string{"testdata/torch/dtypes.safetensors"}},
	} {
		wantError(t, run(t, nil, append([]string{"convert"}, c.args...)...), "convert")
	}
}

// TestConvertProgress: the progress line reaches its total for every
// output format, from contiguous, strided and widened tensors.
func TestConvertProgress(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	for _, in := range []string{"testdata/torch/dtypes.safetensors", "testdata/torch/views.pt", "testdata/archive.npz"} {
		for _, out := range []string{"p.safetensors", "p.npz", "p"} {
			checkProgress(t, []string{"strider", "convert", in, filepath.Join(dir, out), "--threads", "2"})
		}
	}
}

// TestConvertMetadataOnly: a .safetensors file of no tensors, only
// __metadata__, converts to one with the same __metadata__ (save_file of
// an empty dict with metadata writes it), not to an empty header.
func TestConvertMetadataOnly(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.safetensors"), filepath.Join(dir, "out.safetensors")
	header := `{"__metadata__":{"format":"pt","z":"\u00fcn"}}`
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	if err := os.WriteFile(in, append(b, header...), 0o644); err != nil {
		t.Fatal(err)
	}
	convert(t, in, out)
	f, err := safetensors.ReadFile(readFile(t, out))
	if err != nil {
		t.Fatal(err)
	}
	want := []safetensors.Meta{{Key: "format", Value: "pt"}, {Key: "z", Value: "ün"}}
	if !f.HasMetadata || !slices.Equal(f.Metadata, want) || len(f.Tensors) != 0 {
		t.Errorf("metadata %v (%v), %d tensors; want %v", f.Metadata, f.HasMetadata, len(f.Tensors), want)
	}
}
