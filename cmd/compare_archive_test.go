package cmd

import (
	"path/filepath"
	"testing"
)

func TestCompareArchives(t *testing.T) {
	fromRoot(t)
	dir := t.TempDir()
	// The same tensors as a folder of .npy files, written by strider.
	for _, name := range []string{"base", "t", "slice", "col", "expand"} {
		r := run(t, nil, "slice", torchFixtures+"/views.pt:"+name, "...", "-o", filepath.Join(dir, name+".npy"))
		if r.code != 0 {
			t.Fatalf("slice %s: %s", name, r.stderr)
		}
	}
	r := run(t, nil, "compare", dir, torchFixtures+"/views.pt")
	want := "base: equal\ncol: equal\nexpand: equal\nslice: equal\nt: equal\n" +
		"bf16_t: only in B\nbf16_slice: only in B\nc_t: only in B\n8 members: 5 equal, 0 differ, 0 only in A, 3 only in B\n"
	if r.code != 1 || string(r.stdout) != want {
		t.Errorf("compare: exit %d, stdout\n%s\nwant\n%s(stderr %s)", r.code, r.stdout, want, r.stderr)
	}
	r = run(t, nil, "compare", "--exact", dir, torchFixtures+"/views.pt", "--member", "[st]*")
	if want := "slice: equal\nt: equal\n2 members: 2 equal, 0 differ, 0 only in A, 0 only in B\n"; r.code != 0 || string(r.stdout) != want {
		t.Errorf("compare --exact --member '[st]*': exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	wantError(t, run(t, nil, "compare", dir, torchFixtures+"/views.pt", "--member", "nothing*"), "compare")
}
