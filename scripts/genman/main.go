// Command genman prints strider's manual page, strider.1, made from the
// command definitions strider runs (cmd.NewApp), so the two cannot drift
// apart:
//
//	go run ./scripts/genman -version 0.2.0 > strider.1
//	man -l strider.1
//
// The page's date is the day of SOURCE_DATE_EPOCH when it is set (a
// release sets it to the commit's time, so that the page is reproducible),
// else none. The version is -version, else what strider --version says.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"strider/cmd"
	"strider/internal/mangen"
)

// sections are the parts of the page that no command definition holds:
// the command-line contract's inputs, exit codes and environment
// (docs/cli.md).
var sections = []mangen.Section{
	{Title: "Inputs", Text: `An input is a path to a .npy file; - for standard input; FILE.npz:NAME for
one member of an .npz archive (a bare FILE.npz when it holds one member);
FILE.safetensors:NAME or FILE.pt:NAME for one tensor of a safetensors or
torch.save file, read without running anything in it; an https:// or
hf://OWNER/REPO[@REVISION]/PATH address, read by byte ranges. Options may come
before or after the arguments; a token that starts with - and then a digit, :
or . is an argument; -- ends the options.`},
	{Title: "Exit status", Text: `0 on success; 1 only from compare, when the arrays differ; 2 on any error,
with one line on standard error: strider: COMMAND: what is wrong.`},
	{Title: "Environment", Text: `HF_TOKEN, when set, is sent as a bearer token to the Hugging Face hub (hf://
inputs) and never printed.`},
	{Title: "See also", Text: `strider COMMAND --help; strider completion SHELL for shell completion;
docs/cli.md in strider's sources.`},
}

func main() {
	version := flag.String("version", "", "the version the page names (default: the build's, as strider --version)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "genman: unexpected argument %q (usage: go run ./scripts/genman [-version V] > strider.1)\n", flag.Arg(0))
		os.Exit(2)
	}
	app := cmd.NewApp()
	page := mangen.Page{Version: app.Version, Sections: sections}
	if *version != "" {
		page.Version = *version
	}
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "genman: SOURCE_DATE_EPOCH=%q is not a number of seconds\n", s)
			os.Exit(2)
		}
		page.Date = time.Unix(sec, 0).UTC().Format(time.DateOnly)
	}
	if err := mangen.Write(os.Stdout, app, page); err != nil {
		fmt.Fprintf(os.Stderr, "genman: %v\n", err)
		os.Exit(1)
	}
}
