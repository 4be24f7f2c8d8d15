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
func (j compareJob) compareArchives(e *env) (done bool, err error) {
	arA, arD, names, done, err := j.archivePair()
	if !done || err != nil {
		return done, err
	}
	defer arA.Close()
	defer arD.Close()
	counts, err := j.reportMembers(e, arA, arD, names)
	if err != nil {
		return true, err
	}
	if !j.json {
		differ := counts["differs"] + counts["shape mismatch"] + counts["dtype mismatch"]
		if _, err := fmt.Fprintf(e.stdout, "%d %s: %d equal, %d differ, %d only in A, %d only in B\n",
			len(names), plural(len(names), "member"), counts["equal"], differ, counts["only in A"], counts["only in B"]); err != nil {
			return true, err
		}
	}
	if counts["equal"] != len(names) {
		return true, errDifferent
	}
	return true, nil
}

// archivePair opens ACTUAL and DESIRED as archives when compare pairs
// their members (done), and lists the members to compare; done is false
// when the two are compared as arrays.
func (j compareJob) archivePair() (arA, arD *formats.Archive, names []string, done bool, err error) {
	specA, specD := j.actual, j.desired
	arA, okA, errA := formats.OpenArchive(specA)
	arD, okD, errD := formats.OpenArchive(specD)
	switch {
	case !okA || !okD:
		if j.memberSet {
			return nil, nil, nil, true, usagef("--member needs two archives (.npz, .safetensors, torch.save files or folders of .npy)")
		}
		return nil, nil, nil, false, nil
	case errA != nil:
		return nil, nil, nil, true, fmt.Errorf("%s: %w", specA, errA)
	case errD != nil:
		return nil, nil, nil, true, fmt.Errorf("%s: %w", specD, errD)
	case !j.byMember(arA, arD):
		return nil, nil, nil, false, nil
	}
	names, err = j.memberNames(arA, arD)
	return arA, arD, names, true, err
}

// memberNames lists the members to compare, each once: A's in A's order,
// then those only in B, all matching --member when it is given.
func (j compareJob) memberNames(arA, arD *formats.Archive) ([]string, error) {
	glob := j.member
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
		return nil, usagef("--member %q matches no member of %s or %s", glob, j.actual, j.desired)
	}
	return names, nil
}

// reportMembers compares each named member and prints its line (or JSON
// object); it returns how many members had each status.
func (j compareJob) reportMembers(e *env, arA, arD *formats.Archive, names []string) (map[string]int, error) {
	counts := map[string]int{}
	enc := json.NewEncoder(e.stdout)
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
			r, err := j.compareMember(e, arA, arD, name)
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
		if j.json {
			if err := enc.Encode(m); err != nil {
				return nil, err
			}
			continue
		}
		line := termsafe.Escape(name) + ": " + m.Status // the file's name, shown on a terminal
		if m.compareReport != nil && !m.Equal {
			line += ": " + strings.Join(m.lines, ", ")
		}
		if _, err := fmt.Fprintln(e.stdout, line); err != nil {
			return nil, err
		}
	}
	return counts, nil
}

// byMember reports whether two archives are compared member by member
// rather than as the one array each holds.
func (j compareJob) byMember(arA, arD *formats.Archive) bool {
	return j.memberSet || arA.Kind == "folder" || arD.Kind == "folder" || len(arA.Names) != 1 || len(arD.Names) != 1
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// compareMember compares member name of the two archives as compare
// compares two arrays (without a progress line).
func (j compareJob) compareMember(e *env, arA, arD *formats.Archive, name string) (*compareReport, error) {
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
	return j.compare(a, d, e.Options)
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

// archivesScript adds, when compare's two specs are archives compared
// member by member, the lines that compare each member the command would
// compare, and returns done. The members are those strider lists (their
// names are all it reads): NumPy has no call that pairs two archives' members.
func (j compareJob) archivesScript(s *script) (done bool, err error) {
	arA, arD, names, done, err := j.archivePair()
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
		if j.exact {
			s.add("if not (%s):", exactTest(x, y))
			s.add("    differ.append(%s)", pyStr(name))
			continue
		}
		s.add("try:")
		s.add("    %s", j.allclose(x, y))
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
