//go:build linux

package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// show's refusals and its print of every fixture against NumPy's. The
// 6.4 GB sparse file whose peak memory must stay small is the root
// package's TestShowSparse.

// TestShowErrors: bad options and arguments are one line, exit 2.
func TestShowErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.npy")
	testkit.WriteNpy(t, path, "<f8", []int{2, 3}, make([]byte, 48))
	for _, args := range [][]string{
		{"show"},
		{"show", path, "0", "1"},
		{"show", path, "--floatmode", "exact"},
		{"show", path, "--sign", "x"},
		{"show", path, "--precision", "-1"},
		{"show", path, "--threshold", "1e3"},
		{"show", path, "--edgeitems", "-1"},
		{"show", path, "--", "5"},
		{"show", path, "--", "0, 0, 0"},
		{"show", path, "--", "[0"},
		{"show", filepath.Join(filepath.Dir(path), "missing.npy")},
	} {
		name := strings.Join(args[1:], " ")
		name = strings.ReplaceAll(name, filepath.Dir(path)+"/", "")
		t.Run(name, func(t *testing.T) {
			wantError(t, run(t, nil, args...), "show")
		})
	}
}

// TestShowFixtures: show of every fixture in testdata/ (each dtype in both
// byte orders, C and Fortran order, 0-d, empty) equals NumPy's print(),
// as scripts/gen_npprint_cases.py recorded it.
func TestShowFixtures(t *testing.T) {
	fromRoot(t)
	b, err := os.ReadFile("internal/npprint/testdata/show_fixtures.json")
	if err != nil {
		t.Fatalf("fixture: %v (run scripts/gen_npprint_cases.py)", err)
	}
	var cases []struct {
		File string
		Args []string
		Want string
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.File+"/"+strings.Join(c.Args, " "), func(t *testing.T) {
			r := run(t, nil, append([]string{"show", filepath.Join("testdata", c.File)}, c.Args...)...)
			if r.code != 0 || len(r.stderr) != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if string(r.stdout) != c.Want {
				t.Fatalf("got\n%s\nNumPy\n%s", r.stdout, c.Want)
			}
		})
	}
}
