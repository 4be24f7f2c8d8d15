package sysmem

import "syscall"

const populateFlag = syscall.MAP_POPULATE

// populateAdvice is madvise's MADV_POPULATE_READ (Linux 5.14): read the
// pages in now, synchronously.
const populateAdvice = 0x16
