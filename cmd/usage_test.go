package cmd

import (
	"io"
	"slices"
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{"axes", "perm", "dims", "axis1", "axis2", "output", "o", "device", "descending", "help", "h"}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"axis", []string{"axes", "axis1", "axis2"}},
		{"AXES", []string{"axes"}},
		{"ouptut", []string{"output"}}, // a swap is one edit
		{"desc", []string{"descending"}},
		{"x", nil},
		{"hh", []string{"h"}},
		{"zzzzzz", nil},
	} {
		if got := nearest(tc.in, names); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"tranpose", "transpose", 1}, {"ab", "ba", 1}, {"kitten", "sitting", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := editDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
}

// FuzzCheckArgs: any command line gets a verdict (or completion words),
// never a panic; a refusal is a usage error.
func FuzzCheckArgs(f *testing.F) {
	for _, s := range []string{
		"transpose --axis 1,0 x.npy", "compare a b --equal-nan false", "compare a b --rtol=1e-5x",
		"tranpose", "sort -- --axis", "-", "--", "help sort", "diagonal --offset -2 x --axis1", "-=", "--=x",
	} {
		f.Add(s)
	}
	app := NewApp()
	f.Fuzz(func(t *testing.T, line string) {
		argv := append([]string{"strider"}, strings.Split(line, " ")...)
		if err := checkArgs(app, argv); err != nil {
			if _, ok := err.(*usageError); !ok {
				t.Fatalf("%q: %T %v", line, err, err)
			}
		}
		complete(app, append(argv, completionFlag), io.Discard)
	})
}
