//go:build !unix

package sysmem

// MapAnon always fails here: callers take memory from the heap instead.
func MapAnon(n int64) ([]byte, error) { return nil, errNoMmap }
