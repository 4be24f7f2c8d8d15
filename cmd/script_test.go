package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"strider/internal/testkit"
)

// scriptCases are command lines whose --as-numpy / --as-torch scripts are
// kept in testdata/scripts/<name>.py: the text is stable, so it can be
// pasted into a CI script. STRIDER_UPDATE_GOLDEN=1 rewrites the files.
var scriptCases = []struct {
	name string
	args []string
}{
	{"transpose", []string{"transpose", "--axes", "1,0,-1", "testdata/example_f4_2x3x4_c.npy", "-o", "out.npy", "--as-numpy"}},
	{"transpose_default_stdin", []string{"transpose", "-", "--as-numpy"}},
	{"transpose_torch", []string{"transpose", "testdata/archive.npz:a", "-o", "out.npy", "--as-torch"}},
	{"diagonal", []string{"diagonal", "--offset", "-1", "--axis1", "1", "--axis2", "-1", "x.npy", "-o", "d.npy", "--as-numpy"}},
	{"diagonal_huge_offset", []string{"diagonal", "--offset", "9000000000", "x.npy", "-o", "d.npy", "--as-numpy"}},
	{"diagonal_torch", []string{"diagonal", "--dim1", "0", "--dim2", "2", "x.npy", "-o", "d.npy", "--as-torch"}},
	{"gather_literal", []string{"gather", "--index", "[[0, 1], [2, -1]]", "--axis", "1", "x.npy", "-o", "g.npy", "--as-numpy"}},
	{"gather_file_wrap", []string{"gather", "--indices", "testdata/single.npz", "--mode", "wrap", "x.npy", "-o", "g.npy", "--as-numpy"}},
	{"gather_torch", []string{"gather", "--index", "3", "--axis", "0", "x.npy", "-o", "g.npy", "--as-torch"}},
	{"gather_elements", []string{"gather-elements", "--indices", "i.npy", "--axis", "0", "x.npy", "-o", "g.npy", "--as-numpy"}},
	{"gather_elements_torch", []string{"gather-elements", "--indices", "i.npy", "x.npy", "-o", "g.npy", "--as-torch"}},
	{"tril", []string{"tril-indices", "4", "5", "--offset", "-1", "-o", "t.npy", "--as-numpy"}},
	{"triu_torch_int32", []string{"triu-indices", "6", "-k", "2", "--dtype", "int32", "-o", "t.npy", "--as-torch"}},
	{"sort", []string{"sort", "--axis", "0", "x.npy", "-o", "s.npy", "--as-numpy"}},
	{"sort_descending_indices", []string{"sort", "--descending", "--indices", "i.npy", "x.npy", "-o", "s.npy", "--as-numpy"}},
	{"sort_nans_first_argsort", []string{"sort", "--nans", "first", "--argsort", "x.npy", "-o", "i.npy", "--as-numpy"}},
	{"sort_torch", []string{"sort", "--descending", "--nans", "last", "x.npy", "-o", "s.npy", "--as-torch"}},
	{"slice", []string{"slice", "x.npy", "1:, ::-1, None, [0, 2]", "-o", "y.npy", "--as-numpy"}},
	{"slice_list", []string{"slice", "x.npy", "[True, False, True], newaxis", "-o", "y.npy", "--as-numpy"}},
	{"compare", []string{"compare", "a.npy", "b.npy", "--rtol", "1e-5", "--atol", "1e-8", "--equal-nan=false", "--as-numpy"}},
	{"compare_exact", []string{"compare", "--exact", "a.npy", "b.npy", "--as-numpy"}},
	{"show", []string{"show", "x.npy", "0, :5", "--precision", "3", "--sign", " ", "--full", "--repr", "--as-numpy"}},
	{"to_text", []string{"to-text", "--csv", "--fmt", "%.6g", "--header", "a,b", "x.npy", "-o", "x.csv", "--as-numpy"}},
	{"to_text_json", []string{"to-text", "--json", "x.npy", "--as-numpy"}},
	{"from_text", []string{"from-text", "--dtype", "<i4", "--usecols", "0,-1", "--skiprows", "1", "-", "-o", "t.npy", "--as-numpy"}},
	{"stats", []string{"stats", "x.npy", "::2", "--as-numpy"}},
	{"safetensors", []string{"transpose", "testdata/torch/dtypes.safetensors:x_bf16", "-o", "out.npy", "--as-numpy"}},
	{"torch_save", []string{"sort", "testdata/torch/nested.pt:model.0.weight", "-o", "s.npy", "--as-torch"}},
	{"reshape_f", []string{"reshape", "x.npy", "(2, -1)", "--order", "F", "-o", "r.npy", "--as-numpy"}},
	{"reshape_torch", []string{"reshape", "testdata/archive.npz:a", "3,-1", "-o", "r.npy", "--as-torch"}},
	{"cast", []string{"cast", "x.npy", "--dtype", ">f4", "--casting", "same_kind", "-o", "c.npy", "--as-numpy"}},
	{"concat_none", []string{"concat", "a.npy", "testdata/archive.npz:b", "-", "--axis", "none", "-o", "c.npy", "--as-numpy"}},
	{"concat_torch", []string{"concat", "a.npy", "b.npy", "--axis", "-1", "-o", "c.npy", "--as-torch"}},
	{"stack", []string{"stack", "a.npy", "b.npy", "--axis", "-1", "-o", "s.npy", "--as-numpy"}},
	{"stack_torch", []string{"stack", "a.npy", "b.npy", "-o", "s.npy", "--as-torch"}},
	{"unique_consecutive", []string{"unique-consecutive", "x.npy", "--inverse", "inv.npy", "--counts", "cnt.npy", "-o", "u.npy", "--as-numpy"}},
	{"unique_consecutive_torch", []string{"unique-consecutive", "x.npy", "--axis", "-1", "--counts", "cnt.npy", "-o", "u.npy", "--as-torch"}},
	{"compare_archives", []string{"compare", "--member", "x_f[13]*", "testdata/torch/dtypes.safetensors", "testdata/torch/dtypes.safetensors", "--as-numpy"}},
	{"compare_archives_exact", []string{"compare", "--exact", "testdata/archive.npz", "testdata/single.npz", "--as-numpy"}},
	{"odd_paths", []string{"transpose", "it's\nodd\xff.npy", "-o", "out put.npy", "--as-numpy"}},
}

func TestAsNumpyGolden(t *testing.T) {
	fromRoot(t)
	update := os.Getenv("STRIDER_UPDATE_GOLDEN") == "1"
	for _, c := range scriptCases {
		t.Run(c.name, func(t *testing.T) {
			// Inputs and outputs that do not exist must not come to exist:
			// a script is printed, nothing is read or written.
			args := c.args
			var absent []string
			for _, a := range args {
				if _, err := os.Stat(a); err != nil && filepath.Ext(a) == ".npy" {
					absent = append(absent, a)
				}
			}
			r := run(t, nil, args...)
			if r.code != 0 || len(r.stderr) != 0 {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
			golden := filepath.Join("testdata", "scripts", c.name+".py")
			if update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, r.stdout, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := readFile(t, golden)
			if !bytes.Equal(r.stdout, want) {
				t.Fatalf("script differs from %s:\n%s", golden, r.stdout)
			}
			for _, a := range absent {
				if _, err := os.Stat(a); err == nil {
					os.Remove(a)
					t.Fatalf("--as-numpy wrote %s", a)
				}
			}
		})
	}
}

// TestAsNumpyRefusals: bad command lines are refused as the command would
// refuse them, and --as-torch where PyTorch has no such operation.
func TestAsNumpyRefusals(t *testing.T) {
	fromRoot(t)
	for _, args := range [][]string{
		{"transpose", "--axes", "1,x", "x.npy", "--as-numpy"},
		{"transpose", "a.npy", "b.npy", "--as-numpy"},
		{"slice", "x.npy", "0]; import os; os.system('true'); a[0", "--as-numpy"},
		{"slice", "x.npy", "0", "--as-torch"},
		{"gather", "--index", "[1", "x.npy", "--as-numpy"},
		{"gather", "--index", "1", "--mode", "clip", "x.npy", "--as-torch"},
		{"sort", "--nans", "middle", "x.npy", "--as-numpy"},
		{"transpose", "x.npy", "--as-numpy", "--as-torch"},
		{"compare", "a.npy", "b.npy", "--as-torch"},
		{"compare", "--member", "nothing*", "testdata/archive.npz", "testdata/single.npz", "--as-numpy"},
		{"compare", "--member", "a", "testdata/archive.npz", "x.npy", "--as-numpy"},
		{"cast", "x.npy", "--dtype", "f4", "--as-torch"},
	} {
		t.Run(args[0], func(t *testing.T) {
			wantError(t, run(t, nil, args...), args[0])
		})
	}
}

// TestAsNumpyArchiveMember: the script printed for -o FILE.npz:NAME writes
// or replaces that member and keeps the others, as strider does (it once
// saved a .npy file literally named "FILE.npz:NAME").
func TestAsNumpyArchiveMember(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	ex, err := filepath.Abs("testdata/example_f4_2x3x4_c.npy")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"transpose", ex, "-o", "@.npz:t"},
		{"cast", "--dtype", "f8", ex, "-o", "@.npz:c"},
		{"transpose", "--axes", "1,0,2", ex, "-o", "@.npz:t"},
	} {
		for _, side := range []string{"res", "ref"} {
			a := append([]string{}, args...)
			a[len(a)-1] = filepath.Join(dir, side+a[len(a)-1][1:])
			if side == "res" {
				if r := run(t, nil, a...); r.code != 0 {
					t.Fatalf("%v: exit %d: %s", a, r.code, r.stderr)
				}
				continue
			}
			r := run(t, nil, append(a, "--as-numpy")...)
			if r.code != 0 {
				t.Fatalf("%v --as-numpy: exit %d: %s", a, r.code, r.stderr)
			}
			py := testkit.Command(t, runDeadline, 3<<30, testkit.Python, "-")
			py.Stdin = bytes.NewReader(r.stdout)
			if out, err := py.CombinedOutput(); err != nil {
				t.Fatalf("the script of %v: %v\n%s", a, err, out)
			}
		}
	}
	r := run(t, nil, "compare", "--exact", filepath.Join(dir, "res.npz"), filepath.Join(dir, "ref.npz"))
	if r.code != 0 || !bytes.Contains(r.stdout, []byte("2 members: 2 equal")) {
		t.Fatalf("strider's archive and the script's differ: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
