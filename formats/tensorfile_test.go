package formats

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strider/formats/npy"
)

// The fixtures in ../testdata/torch are written by PyTorch 1.13 and by the
// safetensors writer of scripts/gen_torch_testdata.py, with the arrays
// strider must read in expected.jsonl.

const torchTestdata = "../testdata/torch"

// cOrderBytes gathers a's elements in C order through its strides.
func cOrderBytes(a *npy.Array) []byte {
	n := int(a.Count())
	es := a.Dtype.Size
	out := make([]byte, 0, n*es)
	if n == 0 {
		return out
	}
	strides := a.Strides()
	idx := make([]int, len(a.Shape))
	for i := 0; i < n; i++ {
		off := 0
		for k, j := range idx {
			off += j * strides[k]
		}
		out = append(out, a.Data[off*es:(off+1)*es]...)
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < a.Shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

type expectedTensor struct {
	File  string `json:"file"`
	Name  string `json:"name"`
	Descr string `json:"descr"`
	Shape []int  `json:"shape"`
	Hex   string `json:"hex"`
}

func readExpectedTensors(t *testing.T) []expectedTensor {
	f, err := os.Open(filepath.Join(torchTestdata, "expected.jsonl"))
	if os.IsNotExist(err) {
		t.Skip("testdata/torch is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []expectedTensor
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r expectedTensor
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("expected.jsonl is empty")
	}
	return rows
}

// TestTensorFiles reads every tensor of every fixture, by name and (for a
// file of one tensor) bare, and compares it with what NumPy/PyTorch hold.
func TestTensorFiles(t *testing.T) {
	rows := readExpectedTensors(t)
	count := map[string]int{}
	for _, r := range rows {
		count[r.File]++
	}
	for _, r := range rows {
		path := filepath.Join(torchTestdata, r.File)
		specs := []string{path + ":" + r.Name}
		if count[r.File] == 1 {
			specs = append(specs, path)
		}
		for _, spec := range specs {
			for _, access := range []npy.Access{npy.AccessSparse, npy.AccessAll, npy.AccessReadAt} {
				a, err := Open(spec, nil, access)
				if err != nil {
					t.Errorf("%s: %v", spec, err)
					continue
				}
				if a.Dtype.Descr() != r.Descr || !slices.Equal(a.Shape, r.Shape) {
					t.Errorf("%s: %s %v, want %s %v", spec, a.Dtype.Descr(), a.Shape, r.Descr, r.Shape)
				} else if got := hex.EncodeToString(cOrderBytes(a)); got != r.Hex {
					t.Errorf("%s: bytes\n %s, want\n %s", spec, got, r.Hex)
				}
				a.Close()
			}
			h, err := OpenHeader(spec, nil)
			if err != nil || h.Dtype.Descr() != r.Descr || !slices.Equal(h.Shape, r.Shape) {
				t.Errorf("OpenHeader(%s) = %s %v, %v", spec, h.Dtype.Descr(), h.Shape, err)
			}
		}
		// Standard input from a pipe is read whole, then parsed the same way.
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a, err := openStream(strings.NewReader(string(b)), r.Name, true, false)
		if err != nil {
			t.Errorf("%s from a stream: %v", r.Name, err)
		} else if got := hex.EncodeToString(cOrderBytes(a)); got != r.Hex {
			t.Errorf("%s:%s from a stream: bytes differ", r.File, r.Name)
		}
	}
}

// TestTensorFilesListed checks ListTensors against expected.jsonl: the
// same names, in the same order, with the dtypes and shapes strider reads.
func TestTensorFilesListed(t *testing.T) {
	rows := readExpectedTensors(t)
	byFile := map[string][]expectedTensor{}
	var files []string
	for _, r := range rows {
		if byFile[r.File] == nil {
			files = append(files, r.File)
		}
		byFile[r.File] = append(byFile[r.File], r)
	}
	for _, file := range files {
		tf, ok, err := ListTensors(filepath.Join(torchTestdata, file))
		if err != nil || !ok {
			t.Errorf("%s: ok %v, %v", file, ok, err)
			continue
		}
		want := byFile[file]
		var readable []npy.Tensor
		for _, tn := range tf.Tensors {
			if tn.Err == nil {
				readable = append(readable, tn)
			}
		}
		if len(readable) != len(want) {
			t.Errorf("%s: %d tensors, want %d", file, len(readable), len(want))
			continue
		}
		for i, tn := range readable {
			if strings.HasSuffix(file, ".safetensors") {
				continue // listed by offset, expected.jsonl has header order
			}
			if tn.Name != want[i].Name || tn.Dtype.Descr() != want[i].Descr || !slices.Equal(tn.Shape, want[i].Shape) {
				t.Errorf("%s: tensor %d is %q %s %v, want %q %s %v", file, i, tn.Name, tn.Dtype.Descr(), tn.Shape, want[i].Name, want[i].Descr, want[i].Shape)
			}
		}
	}
	tf, ok, err := ListTensors(filepath.Join(torchTestdata, "dtypes.safetensors"))
	if !ok || err != nil || tf.Metadata["format"] != "pt" || tf.Metadata["note"] != "ünïcode" {
		t.Errorf("dtypes.safetensors metadata %v, %v", tf.Metadata, err)
	}
	if _, ok, _ := ListTensors("../testdata/archive.npz"); ok {
		t.Error("archive.npz listed as a tensor file")
	}
}

// TestTensorFilesMalformed opens every file of the malformed corpus: each
// must fail with one line that says what is wrong.
func TestTensorFilesMalformed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(torchTestdata, "malformed", "manifest.json"))
	if os.IsNotExist(err) {
		t.Skip("testdata/torch is absent")
	}
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		File, Problem, Expect string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		path := filepath.Join(torchTestdata, "malformed", c.File)
		for _, spec := range []string{path, path + ":w"} {
			a, err := Open(spec, nil, npy.AccessAll)
			if err == nil {
				a.Close()
				t.Errorf("%s (%s): opened", spec, c.Problem)
				continue
			}
			if msg := err.Error(); strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, c.Expect) {
				t.Errorf("%s (%s): error %q, want one line with %q", spec, c.Problem, msg, c.Expect)
			}
		}
		// Listed with an error, or not recognised at all (a zip cut short
		// has no directory to find data.pkl in); a tensor of a dtype not
		// read is listed, marked.
		if _, ok, err := ListTensors(path); ok && err == nil && !strings.HasPrefix(c.File, "st_unknown") && !strings.HasPrefix(c.File, "pt_quantized") {
			t.Errorf("ListTensors(%s) (%s): no error", c.File, c.Problem)
		}
	}
}
