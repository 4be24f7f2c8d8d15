//go:build !race

package ops

const sortRaceEnabled = false
