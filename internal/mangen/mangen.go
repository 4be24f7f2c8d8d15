// Package mangen writes a urfave/cli app's manual page in roff (man(7)),
// from the same command definitions the app runs, so that the page and the
// program cannot drift apart. It needs none of urfave/cli's docs.go (which
// strider's builds leave out with the urfave_cli_no_docs tag).
package mangen

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// Page is what a manual page says beyond the commands.
type Page struct {
	Version string // the program's version, in the page's footer
	Date    string // the page's date, YYYY-MM-DD; empty leaves it out
	// Sections follow COMMANDS, in order: EXIT STATUS, ENVIRONMENT, ...
	Sections []Section
}

// Section is a titled section of plain text, laid out as Write lays out a
// command's description.
type Section struct {
	Title, Text string
}

// Write writes app's manual page, section 1: NAME, SYNOPSIS, DESCRIPTION,
// OPTIONS (the app's own), COMMANDS (each visible command, its usage, its
// description and every visible option with its aliases, value name and
// default), then p's sections.
func Write(w io.Writer, app *cli.App, p Page) error {
	app.Setup() // adds --help, --version and the help command, as Run does
	var b strings.Builder
	name := app.Name
	fmt.Fprintf(&b, ".TH %s 1 %s %s %s\n", quoteArg(strings.ToUpper(name)), quoteArg(p.Date),
		quoteArg(strings.TrimSpace(name+" "+p.Version)), quoteArg("User Commands"))
	// Left-aligned, never hyphenated: an option or a path split at a
	// hyphen, or spread out to fill a line, would read wrong.
	b.WriteString(".nh\n.ad l\n")
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "%s \\- %s\n", text(name), text(app.Usage))
	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, ".B %s\n.I command\n[\\fIoptions\\fR] [\\fIarguments\\fR ...]\n", text(name))
	if app.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		paragraphs(&b, app.Description)
	}
	b.WriteString(".SH OPTIONS\n")
	options(&b, app.Flags)
	b.WriteString(".SH COMMANDS\n")
	for _, c := range app.VisibleCommands() {
		if c.Name == "help" {
			fmt.Fprintf(&b, ".SS \"%s help \\fR[\\fIcommand\\fR]\"\n", text(name))
			paragraphs(&b, c.Usage)
			continue
		}
		fmt.Fprintf(&b, ".SS \"%s %s \\fR[\\fIoptions\\fR] %s\"\n", text(name), text(c.Name), synopsisArgs(c.ArgsUsage))
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&b, "Aliases: %s.\n.br\n", text(strings.Join(c.Aliases, ", ")))
		}
		paragraphs(&b, c.Usage)
		if c.Description != "" {
			b.WriteString(".PP\n")
			paragraphs(&b, c.Description)
		}
		b.WriteString(".PP\nOptions:\n")
		options(&b, append(visible(c.Flags), cli.HelpFlag))
	}
	for _, s := range p.Sections {
		fmt.Fprintf(&b, ".SH %s\n", quoteArg(strings.ToUpper(s.Title)))
		paragraphs(&b, s.Text)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func visible(flags []cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); !ok || vf.IsVisible() {
			out = append(out, f)
		}
	}
	return out
}

// options writes one tagged paragraph an option: its spellings and value
// name, then its usage and default.
func options(b *strings.Builder, flags []cli.Flag) {
	for _, f := range flags {
		doc, _ := f.(cli.DocGenerationFlag)
		usage, placeholder := "", ""
		if doc != nil {
			placeholder, usage = unquoteUsage(doc.GetUsage())
		}
		takesValue := doc != nil && doc.TakesValue()
		if takesValue && placeholder == "" {
			placeholder = "value"
		}
		var names []string
		for _, n := range f.Names() {
			dash := "\\-\\-"
			if len(n) == 1 {
				dash = "\\-"
			}
			names = append(names, "\\fB"+dash+text(n)+"\\fR")
		}
		b.WriteString(".TP\n")
		b.WriteString(strings.Join(names, ", "))
		if takesValue {
			fmt.Fprintf(b, " \\fI%s\\fR", text(placeholder))
		}
		b.WriteString("\n")
		line := usage
		if doc != nil {
			if d := doc.GetDefaultText(); d != "" && d != `""` && (takesValue || d == "true") {
				line += " (default: " + d + ")"
			}
		}
		b.WriteString(textLine(line))
	}
}

// unquoteUsage splits a flag's usage as urfave/cli's help does: the first
// `quoted` word is the value's name, shown without its quotes.
func unquoteUsage(usage string) (placeholder, rest string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name := usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+2+j:]
}

// synopsisArgs writes a command's ArgsUsage with its upper-case words (the
// arguments' names) in italics.
func synopsisArgs(args string) string {
	var b strings.Builder
	for k, word := range strings.Fields(args) {
		if k > 0 {
			b.WriteByte(' ')
		}
		start := strings.IndexFunc(word, isUpper)
		end := strings.LastIndexFunc(word, isUpper)
		if start < 0 {
			b.WriteString(text(word))
			continue
		}
		b.WriteString(text(word[:start]) + "\\fI" + text(word[start:end+1]) + "\\fR" + text(word[end+1:]))
	}
	return b.String()
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }

// paragraphs lays out a description: lines that start at the margin are
// filled into paragraphs, an empty line starts a new one, and a run of
// indented lines (examples, tables) is kept as it is, less the indent the
// run's lines share.
func paragraphs(b *strings.Builder, s string) {
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(s, "\t", "    "), "\n"), "\n")
	for k := 0; k < len(lines); k++ {
		line := lines[k]
		switch {
		case strings.TrimSpace(line) == "":
			if k > 0 {
				b.WriteString(".PP\n")
			}
		case strings.HasPrefix(line, " "):
			end := k
			indent := len(line)
			for ; end < len(lines) && strings.HasPrefix(lines[end], " "); end++ {
				indent = min(indent, len(lines[end])-len(strings.TrimLeft(lines[end], " ")))
			}
			b.WriteString(".RS 4\n.nf\n")
			for _, l := range lines[k:end] {
				b.WriteString(textLine(l[indent:]))
			}
			b.WriteString(".fi\n.RE\n")
			k = end - 1
		default:
			b.WriteString(textLine(line))
		}
	}
}

// textLine is s as one line of roff text: escaped, and kept from being
// read as a request.
func textLine(s string) string {
	t := text(s)
	if strings.HasPrefix(t, ".") || strings.HasPrefix(t, "'") {
		t = "\\&" + t
	}
	return t + "\n"
}

// text escapes s for roff: backslashes, hyphens (which groff would print
// as typographic hyphens, so that an option copied from the page would not
// work) and every character beyond ASCII, which groff takes only as a
// named glyph.
func text(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString("\\e")
		case r == '-':
			b.WriteString("\\-")
		case r == '\t':
			b.WriteString("    ")
		case r < 0x20 || r == 0x7f:
			// no control characters reach the page
		case r > 0x7f:
			fmt.Fprintf(&b, "\\[u%04X]", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quoteArg is s as one argument of a roff request.
func quoteArg(s string) string {
	return `"` + strings.ReplaceAll(text(s), `"`, `\(dq`) + `"`
}
