package mangen_test

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"strider/cmd"
	"strider/internal/mangen"
)

func page(t *testing.T, app *cli.App) string {
	t.Helper()
	var b bytes.Buffer
	if err := mangen.Write(&b, app, mangen.Page{Version: "1.2.3", Date: "2026-11-25",
		Sections: []mangen.Section{{Title: "Exit status", Text: "0 on success."}}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// spelling is how the page writes an option's name.
func spelling(name string) string {
	if len(name) == 1 {
		return `\fB\-` + name + `\fR`
	}
	return `\fB\-\-` + strings.ReplaceAll(name, "-", `\-`) + `\fR`
}

// TestPageNamesEveryCommandAndFlag: strider's page has a section for every
// command strider runs, and that section names every spelling of every
// option the command takes; the page's OPTIONS name strider's own.
func TestPageNamesEveryCommandAndFlag(t *testing.T) {
	roff := page(t, cmd.NewApp())
	sections := map[string]string{}
	for _, s := range strings.Split(roff, "\n.SS ")[1:] {
		head, _, _ := strings.Cut(s, "\n")
		name, _, _ := strings.Cut(strings.TrimPrefix(head, `"strider `), " ")
		sections[strings.ReplaceAll(name, `\-`, "-")] = s
	}
	app := cmd.NewApp()
	for _, c := range app.Commands {
		if c.Hidden {
			continue
		}
		s, ok := sections[c.Name]
		if !ok {
			t.Errorf("no section for command %s", c.Name)
			continue
		}
		for _, f := range append(c.Flags, cli.HelpFlag) {
			for _, n := range f.Names() {
				if !strings.Contains(s, spelling(n)) {
					t.Errorf("the section of %s does not name %s", c.Name, spelling(n))
				}
			}
		}
	}
	options, _, _ := strings.Cut(roff, ".SH COMMANDS")
	for _, n := range []string{"help", "h", "version", "v"} {
		if !strings.Contains(options, spelling(n)) {
			t.Errorf("OPTIONS does not name %s", spelling(n))
		}
	}
	for _, want := range []string{`.TH "STRIDER" 1 "2026\-11\-25" "strider 1.2.3"`, ".SH \"EXIT STATUS\"\n0 on success.\n"} {
		if !strings.Contains(roff, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestPageRenders: groff reads strider's page without a warning, and a
// description's text comes out as written, a line that starts with a dot
// or a quote, a backslash, hyphens and letters beyond ASCII included.
func TestPageRenders(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("SKIPPED: groff is not installed")
	}
	render := func(t *testing.T, roff string) string {
		t.Helper()
		c := exec.Command("groff", "-man", "-Tutf8", "-ww", "-P-cbou", "-rLL=200n")
		c.Stdin = strings.NewReader(roff)
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		if err := c.Run(); err != nil || errb.Len() > 0 {
			t.Fatalf("groff: %v: %s", err, errb.String())
		}
		return out.String()
	}
	t.Run("strider", func(t *testing.T) {
		text := render(t, page(t, cmd.NewApp()))
		for _, want := range []string{"strider transpose [options] IN", "--axes, --perm, --dims 1,0,2", "strider completion [options] SHELL"} {
			if !strings.Contains(text, want) {
				t.Errorf("the rendered page lacks %q", want)
			}
		}
	})
	t.Run("escapes", func(t *testing.T) {
		lines := []string{`.TH not a request`, `'br not one either`, `a \fB backslash`, `--flag -x ‘naïve’ 1e-7`}
		app := &cli.App{Name: "tool", Usage: "a tool", Commands: []*cli.Command{{
			Name: "run", Usage: "runs", Description: strings.Join(lines, "\n\n") + "\n\n   .indented -x\n     more",
			Flags: []cli.Flag{&cli.StringFlag{Name: "mode", Value: "a-b", Usage: "the `MODE`: a-b or c"}},
		}}}
		text := render(t, page(t, app))
		for _, want := range append(lines, ".indented -x", "  more", "--mode MODE", `the MODE: a-b or c (default: "a-b")`) {
			if !strings.Contains(text, want) {
				t.Errorf("the rendered page lacks %q:\n%s", want, text)
			}
		}
	})
}
