//go:build unix

package sysmem

import (
	"fmt"
	"math"
	"syscall"
)

// MapAnon maps n bytes of zeroed, private, writable memory that costs
// nothing until a page is written (MAP_NORESERVE): room for a remote file
// of which only the fetched ranges are ever touched. Unmap releases it.
func MapAnon(n int64) ([]byte, error) {
	if n <= 0 || n > math.MaxInt {
		return nil, fmt.Errorf("cannot map %d bytes", n)
	}
	return syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|mapNoReserve)
}
