//go:build unix && !linux

package sysmem

// mapNoReserve: other systems reserve nothing for an untouched private
// mapping, or have no flag to say so.
const mapNoReserve = 0
