package cmd

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/termsafe"
	"strider/ops"
)

// memberFlag selects the members compare takes from two archives.
var memberFlag = &cli.StringFlag{
	Name: "member", Usage: "with two archives, compare only the members whose names match `GLOB` (path.Match: * ? [...])",
}

// memberReport is one line of an archive comparison: the member's name,
// its status, and (when both sides hold it) the array report.
type memberReport struct {
	Member string `json:"member"`
	// Status is "equal", "differs", "shape mismatch", "dtype mismatch"
	// (--exact), "only in A" or "only in B".
	Status string `json:"status"`
	*compareReport
}

// compareArchives compares two archives member by member when both specs
// name archives (.npz, .safetensors, torch.save, folders of .npy) and at
// least one of them is a folder, holds other than one member, or --member
// is given: two one-member archives stay two arrays. done is false when
// the specs are not such a pair.
func compareArchives(c *cli.Context, specA, specD string, tol ops.Tolerance, opt settings) (done bool, err error) {
	arA, arD, names, done, err := archivePair(c, specA, specD)
	if !done || err != nil {
		return done, err
	}
	defer arA.Close()
	defer arD.Close()
	counts, err := reportMembers(c, arA, arD, names, tol, opt)
	if err != nil {
		return true, err
	}
	if !c.Bool("json") {
		differ := counts["differs"] + counts["shape mismatch"] + counts["dtype mismatch"]
		if _, err := fmt.Fprintf(c.App.Writer, "%d %s: %d equal, %d differ, %d only in A, %d only in B\n",
			len(names), plural(len(names), "member"), counts["equal"], differ, counts["only in A"], counts["only in B"]); err != nil {
			return true, err
		}
	}
	if counts["equal"] != len(names) {
		return true, errDifferent
	}
	return true, nil
}

// archivePair opens specA and specD as archives when compare pairs their
// members (done), and lists the members to compare; done is false when
// the two are compared as arrays.
func archivePair(c *cli.Context, specA, specD string) (arA, arD *formats.Archive, names []string, done bool, err error) {
	arA, okA, errA := formats.OpenArchive(specA)
	arD, okD, errD := formats.OpenArchive(specD)
	switch {
	case !okA || !okD:
		if c.IsSet(memberFlag.Name) {
			return nil, nil, nil, true, usagef("--member needs two archives (.npz, .safetensors, torch.save files or folders of .npy)")
		}
		return nil, nil, nil, false, nil
	case errA != nil:
		return nil, nil, nil, true, fmt.Errorf("%s: %w", specA, errA)
	case errD != nil:
		return nil, nil, nil, true, fmt.Errorf("%s: %w", specD, errD)
	case !byMember(c, arA, arD):
		return nil, nil, nil, false, nil
	}
	names, err = memberNames(c, arA, arD, specA, specD)
	return arA, arD, names, true, err
}

// memberNames lists the members to compare, each once: A's in A's order,
// then those only in B, all matching --member when it is given.
func memberNames(c *cli.Context, arA, arD *formats.Archive, specA, specD string) ([]string, error) {
	glob := c.String("member")
	if _, err := path.Match(glob, ""); glob != "" && err != nil {
		return nil, usagef("--member %q is not a valid pattern: %v", glob, err)
	}
	selected := func(name string) bool {
		ok, _ := path.Match(glob, name)
		return glob == "" || ok
	}
	seen := map[string]bool{}
	var names []string
	for _, list := range [][]string{arA.Names, arD.Names} {
		for _, n := range list {
			if !seen[n] && selected(n) {
				names = append(names, n)
			}
			seen[n] = true
		}
	}
	if glob != "" && len(names) == 0 {
		return nil, usagef("--member %q matches no member of %s or %s", glob, specA, specD)
	}
	return names, nil
}

// reportMembers compares each named member and prints its line (or JSON
// object); it returns how many members had each status.
func reportMembers(c *cli.Context, arA, arD *formats.Archive, names []string, tol ops.Tolerance, opt settings) (map[string]int, error) {
	counts := map[string]int{}
	enc := json.NewEncoder(c.App.Writer)
	enc.SetEscapeHTML(false)
	inA, inD := map[string]bool{}, map[string]bool{}
	for _, n := range arA.Names {
		inA[n] = true
	}
	for _, n := range arD.Names {
		inD[n] = true
	}
	for _, name := range names {
		m := memberReport{Member: name}
		switch {
		case !inD[name]:
			m.Status = "only in A"
		case !inA[name]:
			m.Status = "only in B"
		default:
			r, err := compareMember(c, arA, arD, name, tol, opt)
			if err != nil {
				return nil, err
			}
			m.compareReport = r
			switch {
			case r.Equal:
				m.Status = "equal"
			case r.Reason == "shape mismatch" || r.Reason == "dtype mismatch":
				m.Status = r.Reason
			default:
				m.Status = "differs"
			}
		}
		counts[m.Status]++
		if c.Bool("json") {
			if err := enc.Encode(m); err != nil {
				return nil, err
			}
			continue
		}
		line := termsafe.Escape(name) + ": " + m.Status // the file's name, shown on a terminal
		if m.compareReport != nil && !m.Equal {
			line += ": " + strings.Join(m.lines, ", ")
		}
		if _, err := fmt.Fprintln(c.App.Writer, line); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// byMember reports whether two archives are compared member by member
// rather than as the one array each holds.
func byMember(c *cli.Context, arA, arD *formats.Archive) bool {
	return c.IsSet("member") || arA.Kind == "folder" || arD.Kind == "folder" || len(arA.Names) != 1 || len(arD.Names) != 1
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// compareMember compares member name of the two archives as compare
// compares two arrays.
func compareMember(c *cli.Context, arA, arD *formats.Archive, name string, tol ops.Tolerance, opt settings) (*compareReport, error) {
	a, err := openArchiveMember(arA, name)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	d, err := openArchiveMember(arD, name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	r := &compareReport{
		MaxAbsDiff: jsonNull, MaxRelDiff: jsonNull, Actual: jsonNull, Desired: jsonNull,
		ShapeActual: nonNil(a.Shape), ShapeDesired: nonNil(d.Shape),
		DtypeActual: a.Dtype.Descr(), DtypeDesired: d.Dtype.Descr(),
		RTol: tol.RTol, ATol: tol.ATol, Exact: c.Bool("exact"),
	}
	o := opt.Options
	o.Done = nil
	if r.Exact {
		err = compareExact(r, a, d, tol, o)
	} else {
		err = compareClose(r, a, d, tol, o)
	}
	return r, err
}

// openArchiveMember is openInput for a member of an open archive, which
// is indexed once for all its members.
func openArchiveMember(ar *formats.Archive, name string) (input, error) {
	a, err := ar.Open(name, npy.AccessAll)
	if err != nil {
		return input{}, fmt.Errorf("%s: %w", termsafe.Escape(ar.Spec(name)), err)
	}
	return inputOf(a), nil
}

// compareArchives adds, when compare's two specs are archives compared
// member by member, the lines that compare each member the command would
// compare, and returns done. The members are those strider lists (their
// names are all it reads): NumPy has no call that pairs two archives' members.
func (s *script) compareArchives(c *cli.Context) (done bool, err error) {
	arA, arD, names, done, err := archivePair(c, c.Args().Get(0), c.Args().Get(1))
	if !done || err != nil {
		return done, err
	}
	s.importModule("numpy as np")
	s.add("# two archives, compared member by member as strider lists them (A's order, then those")
	s.add("# only in B): NumPy has no call that pairs two archives' members")
	s.add("differ = []  # the members not equal, or on one side only")
	inA, inD := setOf(arA.Names), setOf(arD.Names)
	for _, name := range names {
		if !inA[name] || !inD[name] {
			side := "A"
			if inD[name] {
				side = "B"
			}
			s.add("differ.append(%s)  # only in %s", pyStr(name), side)
			continue
		}
		x := s.load("x", arA.Spec(name))
		y := s.load("y", arD.Spec(name))
		if c.Bool("exact") {
			s.add("if not (%s):", exactTest(x, y))
			s.add("    differ.append(%s)", pyStr(name))
			continue
		}
		s.add("try:")
		s.add("    %s", allclose(c, x, y))
		s.add("except AssertionError:")
		s.add("    differ.append(%s)", pyStr(name))
	}
	s.add("# an AssertionError exits 1, as strider does when a member differs or is on one side only")
	s.add("assert not differ, f'{len(differ)} of %d members not equal: {differ}'", len(names))
	return true, nil
}

// setOf is the set of names.
func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
