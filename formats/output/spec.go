package output

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"strider/formats/npy"
	"strider/internal/termsafe"
)

// An output path names an archive member as an input spec does
// ("file.npz:NAME", NAME without ".npy"; "file.safetensors:NAME" for a
// tensor), but the archive need not exist yet, so where its name ends is
// read from the path alone: at the first ':' that follows ".npz" or
// ".safetensors". A member name holds no ':' (checkMemberName), so
// there is no second reading of the path (a.npz:b.npz:c could be member
// "b.npz:c" of a.npz or member "c" of a.npz:b.npz), and formats.SplitSpec
// reads back, from the same "file.npz:NAME", the member the output wrote.

// MemberOutput splits an output path "file.npz:NAME" (or
// "file.safetensors:NAME") into the archive and the member name, as the
// output writer does; ok is false when no ':' follows ".npz" or
// ".safetensors".
func MemberOutput(path string) (archive, member string, ok bool) { return splitMemberOutput(path) }

// splitMemberOutput splits an output path "file.npz:NAME" into the archive
// and the member name; ok is false when no ':' follows ".npz".
func splitMemberOutput(path string) (archive, member string, ok bool) {
	for i := 0; i < len(path); i++ {
		if path[i] == ':' && (isNpzPath(path[:i]) || isSafetensorsPath(path[:i])) {
			return path[:i], path[i+1:], true
		}
	}
	return "", "", false
}

// isNpzPath reports a path that names an archive, which an output must
// not replace with a .npy file.
func isNpzPath(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".npz")
}

// checkMemberName refuses a member name that an output must not write into
// an archive, although np.savez writes any: one that a later unzip would
// extract outside its folder (an absolute path, a "." or ".." component, a
// backslash, which unzip on Windows reads as a separator), one a terminal
// or a file system would act on (control characters, NUL, bytes that are
// not UTF-8, whose zip entry NumPy cannot decode), an empty name or
// component, a ':' (see splitMemberOutput), and one whose entry "NAME.npy"
// is longer than a zip entry name may be. Errors name it escaped.
func checkMemberName(name string) error {
	if err := checkNameText("member", "FILE.npz:NAME", name); err != nil {
		return err
	}
	bad := func(why string) error { return badName("member", name, why) }
	switch {
	case strings.ContainsRune(name, '\\'):
		return bad(`holds a backslash, which unzip on Windows reads as a folder separator`)
	case strings.ContainsRune(name, ':'):
		return bad("holds a ':', which would leave unclear where the archive's name ends")
	case strings.HasPrefix(name, "/"):
		return bad("is an absolute path, which unzip would write outside its folder")
	case len(name)+len(".npy") > npy.ZipNameMax:
		return bad(fmt.Sprintf("is %d bytes long, more than a zip entry name may be (%d, with .npy)", len(name), npy.ZipNameMax))
	}
	for _, part := range strings.Split(name, "/") {
		switch part {
		case "":
			return bad("has an empty folder component")
		case ".":
			return bad(`has a "." component`)
		case "..":
			return bad(`has a ".." component, which unzip would follow out of its folder`)
		}
	}
	return nil
}

// checkNameText refuses what a member's and a tensor's name (what) given
// on the command line share: none after the ':' (-o example), bytes that
// are not UTF-8, a control character (a terminal would act on it).
func checkNameText(what, example, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("no %s name after the ':' (-o %s)", what, example)
	case !utf8.ValidString(name):
		return badName(what, name, "is not UTF-8")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return badName(what, name, "holds a control character")
	}
	return nil
}

// badName refuses name, a member's or a tensor's (what), for why; the
// name is escaped.
func badName(what, name, why string) error {
	return fmt.Errorf("%s name \"%s\" %s", what, termsafe.Escape(name), why)
}

// OutputFile is the file an output path writes: the archive of
// "file.npz:NAME", else the path itself.
func OutputFile(path string) string {
	if archive, _, ok := splitMemberOutput(path); ok {
		return archive
	}
	return path
}
