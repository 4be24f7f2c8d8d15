// Package output is strider's atomic output writer: every file a command
// writes, a .npy array, a member of an .npz archive or text, is created
// here and appears only when it is complete.
//
// # Creating
//
// Create, CreateFortran and CreatePieces prepare an array output of a
// dtype and shape: its .npy header is the one numpy.save (NumPy 1.24)
// writes, encoded by package npy. CreateRaw prepares bytes with no header
// (text). For a file, the output is a temporary file ".<name>.strider-*.tmp"
// beside the target, its whole size reserved on disk (fallocate, so a full
// disk fails at once rather than as a fault) and mapped, so Output.Data is
// the file's own data region; where nothing can be reserved or mapped the
// data waits in memory, after a check that it fits (package sysmem). A
// CreatePieces output of a stream ("-", a pipe, a device) or of a large
// file takes its data piece by piece (WritePiece), never whole in memory.
//
// # Committing
//
// Commit renames the temporary file over the target, keeping the mode and,
// where it may, the owner of the file it replaces; a target that is a
// symbolic link is followed and the link stays. CommitAll commits several
// outputs of one command (sort's --indices, unique-consecutive's
// --inverse and --counts) so that all their targets are replaced or none
// is. Abort, or a failed Commit, leaves the target as it was; RemoveTemps
// removes every temporary file when a signal ends the process.
//
// # Archive members
//
// An output path "file.npz:NAME" (MemberOutput, OutputFile) writes member
// NAME.npy: on Commit the archive is rewritten, its other members kept in
// their order, laid out byte for byte as numpy.savez lays it out
// (npy.WriteSavez), under a lock file beside the archive that serializes
// the processes writing members of it (flock on Unix, LockFileEx on
// Windows). Member names that an unzip would write outside its folder, or
// that a terminal would act on, are refused. A path that formats.SplitSpec
// would read as a member of an existing file that is no .npz archive
// ("data.npy:x", "/dev/stdout:x") is refused too, rather than create a
// file of that name.
//
// An output path "file.safetensors:NAME" writes or replaces tensor NAME of
// a .safetensors file the same way, under the same lock: the other
// tensors' bytes and the __metadata__ are kept, and the file is laid out
// as the safetensors library's save_file lays it out (package
// safetensors), little-endian; complex128, Fortran order and text are
// refused (safetensors.go).
//
// # Whole archives and folders
//
// CreateWhole is the output of a whole .npz or .safetensors file (strider
// convert), which Create refuses without a member. CreateFolder is a
// folder output: its files go into a temporary folder renamed into place
// on Commit, replacing only a folder of .npy files (folder.go).
//
// output reads no inputs and chooses no format: it writes .npy (and .npz,
// and raw bytes) only.
package output
