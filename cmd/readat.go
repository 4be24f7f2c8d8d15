package cmd

import (
	"fmt"
	"io"

	"strider/ops"
)

// copyAt is ops.Copy for a view whose storage is the size bytes r reads
// rather than memory: ops.ReadRuns plans the copy and yields its runs, and
// each becomes one ReadAt straight into dst.
func copyAt(dst []byte, v ops.View, r io.ReaderAt, size int64, opt ops.Options) error {
	return ops.ReadRuns(dst, v, size, opt, func(part []byte, off int64) error {
		if _, err := r.ReadAt(part, off); err != nil {
			return fmt.Errorf("reading %d bytes at offset %d: %w", len(part), off, err)
		}
		return nil
	})
}
