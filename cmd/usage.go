package cmd

import (
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// checkArgs finds, before urfave/cli parses argv, the command-line mistakes
// that its own messages explain badly, and says what to write instead: an
// unknown command or option (with the nearest name), a switch given a
// separate true/false, a number that does not parse, an option given
// twice, an option without its value. It reads argv in the order the user
// wrote it, with reorder's rules for what is an option and what an
// argument.
func checkArgs(app *cli.App, argv []string) error {
	i := 1
	for ; i < len(argv) && strings.HasPrefix(argv[i], "-") && argv[i] != "--" && argv[i] != "-"; i++ {
		name, _, _ := splitOption(argv[i])
		if findFlag(appFlags(app), name) == nil {
			return unknownOption(argv[i], name, appFlags(app))
		}
	}
	if i >= len(argv) || argv[i] == "--" || argv[i] == "help" || argv[i] == "h" {
		return nil
	}
	c := app.Command(argv[i])
	if c == nil {
		return unknownCommand(app, argv[i])
	}
	return checkOptions(c, argv[i+1:])
}

// unknownCommand is the error for a command name app does not have, with
// the nearest names.
func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.Commands {
		names = append(names, c.Names()...)
	}
	if near := nearest(name, names); len(near) > 0 {
		return usagef("unknown command %q; did you mean %s? (see strider --help)", name, strings.Join(near, " or "))
	}
	return usagef("unknown command %q (see strider --help)", name)
}

// checkOptions checks the options in args, what follows the command c on
// the command line, up to "--": each one c takes, a switch without a
// separate true/false, a value where one is needed, a number where one is
// expected, none given twice.
func checkOptions(c *cli.Command, args []string) error {
	flags := commandFlags(c)
	given := map[string]string{} // canonical name -> value as written
	for j := 0; j < len(args); j++ {
		t := args[j]
		if t == "--" {
			break
		}
		if isArgument(t) || !strings.HasPrefix(t, "-") {
			continue
		}
		name, value, hasValue := splitOption(t)
		f := findFlag(flags, name)
		if f == nil {
			return unknownOption(t, name, flags)
		}
		canon := optionName(f.Names()[0])
		_, isBool := f.(*cli.BoolFlag)
		switch {
		case isBool && hasValue:
			if _, err := strconv.ParseBool(value); err != nil {
				return usagef("%s=%s: a switch is true or false (%s=true, %s=false)", optionName(name), value, canon, canon)
			}
		case isBool && j+1 < len(args) && isBoolWord(args[j+1]):
			return usagef("%s is a switch and takes no separate value: write %s=%s", optionName(name), optionName(name), strings.ToLower(args[j+1]))
		case !isBool && !hasValue:
			if j+1 >= len(args) {
				return usagef("%s needs a value (see strider %s --help)", optionName(name), c.Name)
			}
			j++
			value = args[j]
		}
		if _, isFloat := f.(*cli.Float64Flag); isFloat {
			if _, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err != nil {
				return usagef("%s %q is not a number", optionName(name), value)
			}
		}
		if prev, seen := given[canon]; seen {
			if isBool {
				return usagef("%s is given twice; give it once", canon)
			}
			return usagef("%s is given twice (%q, then %q); give it once", canon, prev, value)
		}
		given[canon] = value
	}
	return nil
}

// splitOption splits "--name=value" (or "-name=value") into its parts.
func splitOption(t string) (name, value string, hasValue bool) {
	name = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "-")
	name, value, hasValue = strings.Cut(name, "=")
	return name, value, hasValue
}

// optionName is how an option is written: -o, --output.
func optionName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func isBoolWord(s string) bool {
	return strings.EqualFold(s, "true") || strings.EqualFold(s, "false")
}

// appFlags are the options strider itself takes, before a command.
func appFlags(app *cli.App) []cli.Flag {
	return append(slices.Clip(app.Flags), cli.HelpFlag, cli.VersionFlag)
}

// commandFlags are the options c takes, --help included.
func commandFlags(c *cli.Command) []cli.Flag {
	return append(slices.Clip(c.Flags), cli.HelpFlag)
}

func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func unknownOption(t, name string, flags []cli.Flag) error {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	if near := nearest(name, names); len(near) > 0 {
		for k, n := range near {
			near[k] = optionName(n)
		}
		return usagef("unknown option %s; did you mean %s?", optionName(name), strings.Join(near, " or "))
	}
	if _, _, hasValue := strings.Cut(t, "="); hasValue {
		t = optionName(name)
	}
	return usagef("unknown option %s (an argument that starts with - can follow --)", t)
}

// nearest returns the names closest to s: those within a small edit
// distance (1 for names of up to 4 letters, 2 beyond), or, failing that,
// those s is a prefix of. Names of one letter are offered only for names
// of up to two, and a name is never offered for one it shares no letter with.
func nearest(s string, names []string) []string {
	s = strings.ToLower(s)
	best, out := 3, []string(nil)
	for _, n := range names {
		if len(n) == 1 && len(s) > 2 || slices.Contains(out, n) {
			continue
		}
		d := editDistance(s, strings.ToLower(n))
		limit := 2
		if len(s) <= 4 {
			limit = 1
		}
		switch {
		case d > limit || d > best || d >= len(s): // nothing in common
		case d < best:
			best, out = d, []string{n}
		default:
			out = append(out, n)
		}
	}
	if len(out) > 0 || len(s) < 3 {
		return out
	}
	for _, n := range names {
		if strings.HasPrefix(strings.ToLower(n), s) {
			out = append(out, n)
		}
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, with the swap
// of two neighbouring letters counted as one edit.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
