package sysmem

import "syscall"

// mapNoReserve keeps an anonymous mapping from counting against the
// overcommit limit before it is written.
const mapNoReserve = syscall.MAP_NORESERVE
