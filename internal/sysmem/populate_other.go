//go:build !linux

package sysmem

// Neither MAP_POPULATE nor MADV_POPULATE_READ exists here: Prefetch asks
// for MADV_WILLNEED only.
const (
	populateFlag   = 0
	populateAdvice = 0
)
