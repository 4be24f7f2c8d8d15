// Package testkit holds what the tests of several packages build their
// cases with, so that no test file keeps a copy of another's helpers. Only
// tests import it, and it imports no package of strider's: ops's and
// npy's own tests import it, and an import of either here would be a
// cycle.
//
//   - The command-line contract: WantError, WantOneLine, WantNoControls
//     (contract.go), held alike by the end-to-end tests (the root package)
//     and the in-process ones (cmd).
//   - Files: ReadFile, Glob, Names, WantNames, WantNoTemps, OpenDir; .npy
//     files as NumPy writes them (NpyHeader) and as the fault tests write
//     them, sparse when large (WriteNpy, Int8Npy); zip archives (ZipOf,
//     WriteZip, WriteZipNames); torch.save pickles (Pickle); .safetensors
//     files of named tensors (WriteSafetensorsNames) (files.go, npy.go,
//     pickle.go, safetensors.go).
//   - HTTP: Server, a loopback server for the remote inputs' tests that
//     counts requests and bytes, with a mode that ignores Range and a hook
//     for injected failures; Sparse, a body of a GiB that costs its patches
//     (httpserver.go).
//   - Processes: Command and ExitCode (a deadline and an RLIMIT_DATA through
//     prlimit), RunStderr, ShellRefuses, NumPy (the interpreter the outputs
//     are checked with), Mount (a tmpfs, Linux) (command.go,
//     mount_linux.go).
//   - Strided views: Storage, the layout of a random view's storage that
//     the engine tests of ops and cuda share (view.go).
package testkit
