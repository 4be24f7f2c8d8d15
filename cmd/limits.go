package cmd

import (
	"fmt"

	"strider/ops"
)

// checkVisits bounds a command's work over a view that repeats the elements
// of its storage (issue 27). A command that visits `visits` elements of v
// (what says which, and what it does with them: "elements to read") does
// work proportional to its input while they are no more than v's storage
// holds, however large that is. A torch tensor with stride 0 (expand) or
// overlapping strides can name far more elements than it stores (2**40 on
// 4 bytes); its work is then bounded by limit, a count the command gets
// through in seconds, and beyond that it is refused before anything is
// read, allocated or created.
func checkVisits(name string, v ops.View, visits int, what string, limit int) error {
	stored := len(v.Data) / max(1, v.Elem)
	if visits <= max(stored, limit) {
		return nil
	}
	unit := "elements"
	if stored == 1 {
		unit = "element"
	}
	return fmt.Errorf("%s: %d %s, but its storage holds %d %s (stride 0, as torch's expand makes, or overlapping strides); strider does at most %d for a view larger than its storage",
		name, visits, what, stored, unit, limit)
}
