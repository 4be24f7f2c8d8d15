//go:build !race

package ops

const reduceRaceEnabled = false
