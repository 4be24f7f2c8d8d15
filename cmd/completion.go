package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"strider/formats"
	"strider/internal/dtype"
	"strider/internal/termsafe"
)

// Shell completion has two halves. `strider completion SHELL` prints a
// script for the shell; when the user presses Tab, that script runs
// strider again with the words up to the cursor (the word being completed
// last, maybe empty) and completionFlag after them, and strider answers
// (complete): a first line, ":files" when a file name may stand at the
// cursor (the shell lists those itself) or ":words", then one word a line.
// Every rule about what may stand where lives here, in Go, once for the
// four shells; the scripts only carry words back and forth. The words are
// data to them: matched as strings, never evaluated.

// completionFlag is urfave/cli's shell-completion marker, the last word of
// a completion request.
const completionFlag = "--generate-bash-completion"

var completionCommand = newCommand(&cli.Command{
	Name:      "completion",
	Usage:     "print the shell completion script for bash, zsh, fish or powershell",
	ArgsUsage: "SHELL",
	Description: `Prints a script for SHELL (bash, zsh, fish or powershell) that completes
strider's commands, each command's options, the values of the options that take
one of a few words (--dtype, --casting, --mode, --nans, --order, --device,
--floatmode, --sign, ...), the members of an archive after FILE.npz: (and the
tensors of a .safetensors or torch.save file after FILE:), listed from the
archive's index alone, and file names. The script asks strider what may stand
at the cursor, so it stays right as strider changes.

Install:
   bash:        source <(strider completion bash)          in ~/.bashrc
   zsh:         source <(strider completion zsh)           in ~/.zshrc, after compinit;
                or save it as _strider in a folder of $fpath
   fish:        strider completion fish > ~/.config/fish/completions/strider.fish
   powershell:  strider completion powershell | Out-String | Invoke-Expression
                in $PROFILE`,
}, parseCompletion)

// completionScripts are the scripts completion prints, by shell.
var completionScripts = map[string]string{
	"bash":       bashCompletion,
	"zsh":        zshCompletion,
	"fish":       fishCompletion,
	"powershell": powershellCompletion,
}

// shells is completionScripts' keys in the order help names them.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// completionJob is completion's command line: the script to print.
type completionJob struct{ text string }

func parseCompletion(c *cli.Context) (job, error) {
	shell, err := oneInput(c, "SHELL (bash, zsh, fish or powershell)")
	if err != nil {
		return nil, err
	}
	script, ok := completionScripts[shell]
	if !ok {
		return nil, usagef("unknown shell %q; expected bash, zsh, fish or powershell", shell)
	}
	return completionJob{text: script}, nil
}

func (j completionJob) run(e *env) error {
	_, err := io.WriteString(e.stdout, j.text)
	return err
}

// script is never reached: completion takes no --as-numpy or --as-torch.
func (j completionJob) script(s *script) error {
	return usagef("--as-%s is not available for completion", s.lib)
}

// flagValues are the values of the options that take one of a few words,
// by option name; "COMMAND --NAME" overrides NAME for a command whose
// option of that name takes other values. TestFlagValues holds each list
// to the option's help text and every key to an option that exists.
var flagValues = map[string][]string{
	"device":    {"cpu", "cuda"},
	"mode":      {"raise", "wrap", "clip"},
	"nans":      {"first", "last"},
	"casting":   {"no", "equiv", "safe", "same_kind", "unsafe"},
	"order":     {"C", "keep"},
	"floatmode": {"maxprec", "fixed", "unique", "maxprec_equal"},
	"sign":      {"-", "+", " "},
	"ndmin":     {"0", "1", "2"},
	"dtype":     dtypeNames(),

	"reshape --order":      {"C", "F"},
	"tril-indices --dtype": {"int64", "int32"},
	"triu-indices --dtype": {"int64", "int32"},
}

// argValues are the values a command's first argument takes, for the
// commands whose first argument is one of a few words.
var argValues = map[string][]string{
	"completion": shells,
}

// pathFlags are the options whose value is a file (an input, or an output
// that may be an archive member); a StringFlag with TakesFile is one too.
var pathFlags = []string{"output", "indices", "inverse", "counts"}

// dtypeNames are NumPy's names of the numeric dtypes: bool, int8, ...,
// complex128.
func dtypeNames() []string {
	var names []string
	for _, kind := range []byte("biufc") {
		for size := 1; size <= 16; size *= 2 {
			if d := (dtype.Dtype{Kind: kind, Size: size}); d.Check() == nil {
				names = append(names, d.Name())
			}
		}
	}
	return names
}

// complete answers a completion request, argv, with completionFlag last:
// the directive line and the words that may stand where the word before
// completionFlag stands.
func complete(app *cli.App, argv []string, w io.Writer) {
	words := argv[1 : len(argv)-1]
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	out, files := completions(app, before, cur)
	if files {
		fmt.Fprintln(w, ":files")
	} else {
		fmt.Fprintln(w, ":words")
	}
	for _, s := range out {
		// A word a terminal would act on, or that the line-a-word answer
		// cannot carry (a newline in an archive member's name), is left out:
		// it cannot be typed anyway.
		if s != "" && termsafe.Escape(s) == s {
			fmt.Fprintln(w, s)
		}
	}
}

// completions are the words that may stand at cur after the words before
// it, and whether a file name may stand there too. Filtering by what cur
// already holds is the shell's (fish and zsh match loosely), except for
// archive members, listed only under cur's prefix.
func completions(app *cli.App, before []string, cur string) (words []string, files bool) {
	i := 0
	for i < len(before) && strings.HasPrefix(before[i], "-") {
		i++ // strider's own options, before the command
	}
	if i == len(before) {
		if isOption(cur) {
			return flagWords(appFlags(app)), false
		}
		return commandNames(app, true), false
	}
	c := app.Command(before[i])
	if c == nil {
		if before[i] == "help" || before[i] == "h" {
			return commandNames(app, false), false
		}
		return nil, false // an unknown command: nothing fits
	}
	n, f, ended := argPosition(c, before[i+1:])
	switch {
	case f != nil:
		return flagValueWords(c, f, cur)
	case !ended && isOption(cur):
		name, value, hasValue := strings.Cut(cur, "=")
		if !hasValue {
			return flagWords(commandFlags(c)), false
		}
		// --dtype=f: the values, each written after --dtype= (a file name
		// there is the shell's to complete, which it cannot: none).
		if f := findFlag(c.Flags, strings.TrimLeft(name, "-")); f != nil && !isSwitch(f) {
			values, _ := flagValueWords(c, f, value)
			for _, v := range values {
				words = append(words, name+"="+v)
			}
		}
		return words, false
	case n == 0 && argValues[c.Name] != nil:
		return argValues[c.Name], false
	}
	words, files = pathWords(cur)
	if cur == "" && !ended {
		words = append(words, flagWords(commandFlags(c))...)
	}
	return words, files
}

// argPosition reads the words between command c and the word being
// completed: n is how many arguments they hold, f the option whose value
// the word being completed is (nil when none), ended whether "--" ended
// the options. It follows reorder's rules for what is an option.
func argPosition(c *cli.Command, words []string) (n int, f cli.Flag, ended bool) {
	for k := 0; k < len(words); k++ {
		t := words[k]
		switch {
		case ended || isArgument(t) || !strings.HasPrefix(t, "-"):
			n++
		case t == "--":
			ended = true
		default:
			name, _, hasValue := splitOption(t)
			if opt := findFlag(c.Flags, name); opt != nil && !hasValue && !isSwitch(opt) {
				if k == len(words)-1 {
					return n, opt, false
				}
				k++ // its value
			}
		}
	}
	return n, nil, ended
}

// flagValueWords are the words that may be option f's value: its values,
// or, for an option that takes a file, what pathWords offers.
func flagValueWords(c *cli.Command, f cli.Flag, cur string) (words []string, files bool) {
	name := f.Names()[0]
	if values, ok := flagValues[c.Name+" --"+name]; ok {
		return values, false
	}
	if values, ok := flagValues[name]; ok {
		return values, false
	}
	if sf, ok := f.(*cli.StringFlag); ok && sf.TakesFile || slices.Contains(pathFlags, name) {
		return pathWords(cur)
	}
	return nil, false // a number, a format, a text: nothing to offer
}

// pathWords are the words that may stand at cur where a file may: the
// members of an archive when cur is FILE:PREFIX and FILE an archive on
// disk, else file names, which the shell lists.
func pathWords(cur string) (words []string, files bool) {
	path, prefix, hasMember := formats.SplitSpec(cur)
	if !hasMember || strings.Contains(path, "://") {
		return nil, true // never a request over the network
	}
	a, ok, err := formats.OpenArchive(path)
	if !ok || err != nil || a.Kind == "folder" {
		return nil, false // a .npy file, or an archive that cannot be read
	}
	defer a.Close()
	for _, name := range a.Names {
		if strings.HasPrefix(name, prefix) {
			words = append(words, path+":"+name)
		}
	}
	return words, false
}

// isOption reports whether the word being completed is an option (or "-",
// its start): a token that starts with "-" and is not an argument.
func isOption(cur string) bool {
	return cur == "-" || strings.HasPrefix(cur, "-") && !isArgument(cur)
}

func isSwitch(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}

// commandNames are the names of the commands help lists, and "help".
func commandNames(app *cli.App, withHelp bool) []string {
	var out []string
	for _, c := range app.Commands {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	if withHelp {
		out = append(out, "help")
	}
	return out
}

// flagWords is every spelling of every option: --name, then its aliases.
func flagWords(flags []cli.Flag) []string {
	var out []string
	for _, f := range flags {
		for _, n := range f.Names() {
			out = append(out, optionName(n))
		}
	}
	return out
}

// The scripts. Each runs the strider the user typed (its first word) with
// the words up to the cursor, unquoted without evaluating anything, and
// hands the answer to the shell as literal words, which the shell quotes
// as it inserts them.

const bashCompletion = `# bash completion for strider, printed by "strider completion bash".
# Load it from ~/.bashrc:  source <(strider completion bash)
# or save it as /usr/share/bash-completion/completions/strider.
#
# strider says what may stand at the cursor when it is run with the words up
# to the cursor and --generate-bash-completion: a first line, :files when a
# file name fits there too, then one word a line. The words are data: they
# are compared as strings and never evaluated (compgen -W would expand them).

# _strider_dequote sets _strider_word to the word $1 without its quoting
# (backslashes, '...', "..."), expanding nothing but a leading ~/, and
# _strider_quote to the quote still open at its end, if any.
_strider_dequote() {
  local w=$1 c q= i
  _strider_word=
  if [[ $w == '~' || $w == '~/'* ]]; then
    _strider_word=$HOME
    w=${w:1}
  fi
  for ((i = 0; i < ${#w}; i++)); do
    c=${w:i:1}
    if [[ $q == "'" ]]; then
      if [[ $c == "'" ]]; then q=; else _strider_word+=$c; fi
    elif [[ $q == '"' ]]; then
      if [[ $c == '"' ]]; then
        q=
      elif [[ $c == '\' && ${w:i+1:1} == [\"\\\$] ]]; then
        ((++i))
        _strider_word+=${w:i:1}
      else
        _strider_word+=$c
      fi
    elif [[ $c == "'" || $c == '"' ]]; then
      q=$c
    elif [[ $c == '\' ]]; then
      ((++i))
      _strider_word+=${w:i:1}
    else
      _strider_word+=$c
    fi
  done
  _strider_quote=$q
}

# _strider_quote_word sets _strider_word to $1 quoted for the command line,
# after the open quote $2 (none, ' or "), so that the shell reads it back
# as $1 and runs nothing in it.
_strider_quote_word() {
  local w=$1 bq=$'\x60'
  case $2 in
  "'") _strider_word=${w//\'/\'\\\'\'} ;;
  '"')
    w=${w//\\/\\\\}
    w=${w//\$/\\\$}
    w=${w//\"/\\\"}
    _strider_word=${w//$bq/\\$bq}
    ;;
  *) printf -v _strider_word '%q' "$w" ;;
  esac
}

_strider_complete() {
  local i piece word= keep line= trimmed glued cur quote cmd out c directive= first=1
  local -a words=() argv=()
  COMPREPLY=()
  # bash splits a word at : and = (COMP_WORDBREAKS): x.npz:name is three
  # words to it. The pieces that touch on the line are one word to strider.
  # (Without COMP_LINE, those around a lone : or = are joined.)
  [[ -n ${COMP_LINE+set} ]] && line=${COMP_LINE:0:COMP_POINT}
  for ((i = 0; i <= COMP_CWORD; i++)); do
    piece=${COMP_WORDS[i]}
    glued=0
    if [[ -n ${COMP_LINE+set} ]]; then
      trimmed=${line#"${line%%[![:space:]]*}"}
      ((i > 0 && ${#trimmed} == ${#line})) && glued=1
      ((i == COMP_CWORD)) && piece=${trimmed:0:${#piece}}
      line=${trimmed:${#piece}}
    elif ((i > 0)) && [[ $piece == [:=] || $word == *[:=] ]]; then
      glued=1
    fi
    if ((glued)); then
      word+=$piece
    else
      ((i > 0)) && words+=("$word")
      word=$piece
    fi
  done
  # What bash replaces is the text after the word's last : or =; the rest
  # stays, and is cut from the front of every word offered.
  if [[ -n $piece && -z ${piece//[:=]/} ]]; then
    keep=$word
  else
    keep=${word:0:${#word}-${#piece}}
  fi
  _strider_dequote "${words[0]}"
  cmd=$_strider_word
  for ((i = 1; i < ${#words[@]}; i++)); do
    _strider_dequote "${words[i]}"
    argv+=("$_strider_word")
  done
  _strider_dequote "$word"
  cur=$_strider_word
  quote=$_strider_quote
  _strider_dequote "$keep"
  keep=$_strider_word
  out=$("$cmd" "${argv[@]}" "$cur" --generate-bash-completion 2>/dev/null) || return 0
  while IFS= read -r c; do
    if ((first)); then
      directive=$c
      first=0
    elif [[ -n $c && $c == "$cur"* ]]; then
      c=${c#"$keep"}
      if [[ $directive != :files ]]; then
        _strider_quote_word "$c" "$quote"
        c=$_strider_word
      fi
      COMPREPLY+=("$c")
    fi
  done <<<"$out"
  if [[ $directive == :files ]]; then
    # The words are then options, which need no quotes, and bash quotes
    # the file names (and marks folders) itself.
    while IFS= read -r c; do
      [[ -n $c ]] && COMPREPLY+=("${c#"$keep"}")
    done < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
  fi
  return 0
}
complete -F _strider_complete strider
`

const zshCompletion = `#compdef strider
# zsh completion for strider, printed by "strider completion zsh".
# Save it as _strider in a folder of $fpath, or load it from ~/.zshrc after
# compinit:  source <(strider completion zsh)
#
# strider says what may stand at the cursor when it is run with the words up
# to the cursor and --generate-bash-completion: a first line, :files when a
# file name fits there too, then one word a line. The words are data: compadd
# takes them as they are and quotes them as it inserts them.

_strider() {
  local cmd directive ret=1
  local -a argv out
  cmd=${(Q)words[1]}
  [[ $cmd == '~/'* ]] && cmd=$HOME/${cmd#'~/'}
  argv=("${(@Q)words[2,CURRENT-1]}" "${(Q)PREFIX}")
  out=("${(@f)$("$cmd" "${argv[@]}" --generate-bash-completion 2>/dev/null)}")
  directive=${out[1]}
  out=("${(@)out[2,-1]}")
  if (( ${#out} )); then
    compadd -- "${out[@]}" && ret=0
  fi
  if [[ $directive == :files ]]; then
    _files && ret=0
  fi
  return ret
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _strider "$@"
else
  compdef _strider strider
fi
`

const fishCompletion = `# fish completion for strider, printed by "strider completion fish".
# Save it as ~/.config/fish/completions/strider.fish, or load it with
#   strider completion fish | source
#
# strider says what may stand at the cursor when it is run with the words up
# to the cursor and --generate-bash-completion: a first line, :files when a
# file name fits there too, then one word a line. The words are data: printed
# back to fish as they are, which quotes them as it inserts them.

function __strider_complete
    set -l words (commandline -opc)
    set -l cmd $words[1]
    set -e words[1]
    set -l cur (commandline -ct | string unescape)
    set -l out (command $cmd $words "$cur" --generate-bash-completion 2>/dev/null)
    set -q out[1]; or return
    set -l directive $out[1]
    set -e out[1]
    for w in $out
        printf '%s\n' $w
    end
    if test "$directive" = :files
        __fish_complete_path "$cur"
    end
end

complete -c strider -f -a '(__strider_complete)'
`

// powershellCompletion has PowerShell's escape character, the backquote,
// only as [char]0x60, so that it fits in a Go raw string.
const powershellCompletion = `# PowerShell completion for strider, printed by "strider completion powershell".
# Load it from $PROFILE:
#   strider completion powershell | Out-String | Invoke-Expression
#
# strider says what may stand at the cursor when it is run with the words up
# to the cursor and --generate-bash-completion: a first line, :files when a
# file name fits there too, then one word a line. The words are data: each is
# compared as a string and, where PowerShell would read it otherwise, put in
# single quotes.

Register-ArgumentCompleter -Native -CommandName 'strider', 'strider.exe' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $unquote = {
        param($s)
        if ($s.Length -ge 2 -and ($s[0] -eq "'" -or $s[0] -eq '"') -and $s[-1] -eq $s[0]) {
            $s.Substring(1, $s.Length - 2)
        } else {
            $s
        }
    }
    $words = @()
    foreach ($element in $commandAst.CommandElements) {
        if ($element.Extent.StartOffset -ge $cursorPosition) { break }
        $words += $element.Extent.Text
    }
    if ($wordToComplete -ne '' -and $words.Count -gt 1) {
        $words = @($words[0..($words.Count - 2)])
    }
    $exe = & $unquote $words[0]
    $argv = @($words | Select-Object -Skip 1 | ForEach-Object { & $unquote $_ })
    $cur = & $unquote $wordToComplete
    $curArg = $cur
    $passing = Get-Variable -Name PSNativeCommandArgumentPassing -ValueOnly -ErrorAction SilentlyContinue
    if ($cur -eq '' -and (-not $passing -or $passing -eq 'Legacy')) {
        # Before PowerShell 7.3 an empty argument reaches a program only quoted.
        $curArg = '""'
    }
    $out = @(& $exe @argv $curArg '--generate-bash-completion' 2>$null)
    if ($out.Count -eq 0) { return }
    $special = '[\s''"$@{}();,|&<>#' + [char]0x60 + ']'
    foreach ($word in ($out | Select-Object -Skip 1)) {
        if ($word -eq '' -or -not $word.StartsWith($cur, [System.StringComparison]::OrdinalIgnoreCase)) { continue }
        $text = $word
        if ($text -match $special) {
            $text = "'" + $text.Replace("'", "''") + "'"
        }
        [System.Management.Automation.CompletionResult]::new($text, $word, 'ParameterValue', $word)
    }
    if ($out[0] -eq ':files') {
        [System.Management.Automation.CompletionCompleters]::CompleteFilename($cur)
    }
}
`
