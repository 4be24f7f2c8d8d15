//go:build race

package ops

// sortRaceEnabled shrinks the slowest sort tests under the race detector, which
// instruments every element access.
const sortRaceEnabled = true
