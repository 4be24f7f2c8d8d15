//go:build !linux

package ops

// adviseHugePages does nothing here: huge pages are asked for on Linux
// only.
func adviseHugePages[E any](s []E) {}
