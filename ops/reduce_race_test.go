//go:build race

package ops

// reduceRaceEnabled shrinks the reduction tests under the race detector,
// which instruments every element access.
const reduceRaceEnabled = true
