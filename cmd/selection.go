package cmd

import (
	"fmt"
	"strings"

	"strider/internal/pylit"
)

// selection is the optional EXPR argument of show, stats and reduce: the
// command works on a[EXPR], EXPR being exactly the text between a[ and ].
type selection struct {
	given bool              // EXPR was given: items may then be empty (a[()])
	expr  string            // EXPR as given
	items []pylit.IndexItem // EXPR read; nil for a[()], as without EXPR
}

// parseSelection reads EXPR from the arguments after IN, if there is one;
// pylit.ParseIndex owns its reading.
func parseSelection(rest []string) (selection, error) {
	if len(rest) == 0 {
		return selection{}, nil
	}
	sel := selection{given: true, expr: rest[0]}
	var err error
	if sel.items, err = pylit.ParseIndex(sel.expr); err != nil {
		return selection{}, usagef("%v", err)
	}
	return sel, nil
}

// name is how errors name a[EXPR] of the input spec.
func (sel selection) name(spec string) string {
	name := displayName(spec)
	if sel.items != nil {
		name += "[" + sel.expr + "]"
	}
	return name
}

// of is a's selection in a script: a itself, or a[EXPR] with the names
// EXPR may use defined.
func (sel selection) of(s *script, a string) string {
	if !sel.given {
		return a
	}
	s.sliceNames(sel.expr)
	return fmt.Sprintf("%s[%s]", a, strings.Join(strings.Fields(sel.expr), " "))
}
