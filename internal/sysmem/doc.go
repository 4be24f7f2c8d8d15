// Package sysmem is what strider knows of the machine's memory and disk,
// for the formats that read and write arrays and for the commands that
// size their work.
//
// # Room
//
// MemAvailable is what a new allocation can get without swapping or the
// out-of-memory killer (on Linux the least of /proc/meminfo, the cgroup
// limits above this process and RLIMIT_AS/RLIMIT_DATA); FreeSpace is what a
// new file in a folder can still take. CheckMemory and CheckDisk refuse
// work up front with an error that gives the figures and matches
// ErrNoRoom under errors.Is; where a figure cannot be read, nothing is
// refused. HumanBytes writes sizes in those errors.
//
// # Mappings
//
// MapFile, MapWritable, Unmap and Prefetch are the memory mappings of
// files (read into memory instead where the system has none: MapFile then
// fails and callers read). A mapping that is Registered under the name the
// user gave its file lets FaultError turn a memory fault inside it (a file
// truncated by another program while it was mapped, storage that failed)
// into an error that names the file, where Go would otherwise crash.
//
// sysmem reads no file format and makes no policy beyond the checks above:
// which inputs are mapped and how is package formats' business (and
// formats/npy's); where outputs go, formats/output's.
package sysmem
