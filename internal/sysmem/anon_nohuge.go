//go:build !linux

package sysmem

// AdviseHuge does nothing here: no transparent huge pages to ask for.
func AdviseHuge(b []byte) {}
