#!/usr/bin/env bash
# Runs what the cross-compile step only builds: strider's Go tests and an
# end-to-end smoke set for linux/arm64 under qemu-user and for windows/amd64
# under Wine, on an amd64 Linux machine. docs/platforms.md says what this
# covers and what emulation cannot prove.
#
#   scripts/cross-test.sh [arm64] [windows]   both when neither is named
#   scripts/cross-test.sh --missing           print the Debian packages it
#                                             needs that are not installed
#
# Needs qemu-user-static (qemu-aarch64-static), wine64 (Wine 8.0 on Debian 12)
# and gcc-mingw-w64-x86-64 (for scripts/cross/bcryptprimitives.c); installs
# nothing itself: scripts/test.sh does that, saying so first.
#
# For each target:
#   1. go test -short -exec EMULATOR on every package but the root one
#      (internal/..., ops, text, formats/..., cmd with its in-process command tests, cuda
#      without the cuda tag: its !cuda twin, ...), less the tests named in
#      skip_TARGET below, each with its reason, under a 5-minute timeout.
#      The root package is left out: its end-to-end tests build strider
#      and run it as a child process with prlimit, setpriv, mount and
#      /bin/sh, which an emulated test binary cannot (an arm64 child needs
#      binfmt_misc; Wine has no prlimit); the smoke set runs the binary
#      instead.
#   2. scripts/cross/smoke.sh: every command on small files, pipes, -o
#      replacing files, .npz members, compared byte for byte with the native
#      amd64 binary's outputs.
#
# Knobs: CROSS_SHORT=0 drops -short (the long sorts and tables under qemu
# take minutes more); CROSS_RUN=REGEX passes -run to go test.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-}"
case " $GOFLAGS " in *" -tags=urfave_cli_no_docs "*) ;; *) GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=urfave_cli_no_docs" ;; esac

qemu=$(command -v qemu-aarch64-static || true)
wine=$(command -v wine64 || { [ -x /usr/lib/wine/wine64 ] && echo /usr/lib/wine/wine64; } || true)
wineserver=$(command -v wineserver || { [ -x /usr/lib/wine/wineserver ] && echo /usr/lib/wine/wineserver; } || true)
mingw=$(command -v x86_64-w64-mingw32-gcc || true)

if [ "${1:-}" = --missing ]; then
  missing=()
  [ -n "$qemu" ] || missing+=(qemu-user-static)
  [ -n "$wine" ] && [ -n "$wineserver" ] || missing+=(wine64)
  [ -n "$mingw" ] || missing+=(gcc-mingw-w64-x86-64)
  echo "${missing[*]}"
  exit 0
fi

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(arm64 windows)
for t in "${targets[@]}"; do
  case "$t" in
    arm64) [ -n "$qemu" ] || { echo "cross-test: no qemu-aarch64-static (Debian: qemu-user-static)" >&2; exit 1; } ;;
    windows) [ -n "$wine" ] && [ -n "$mingw" ] || { echo "cross-test: needs wine64 and x86_64-w64-mingw32-gcc (Debian: wine64 gcc-mingw-w64-x86-64)" >&2; exit 1; } ;;
    *) echo "cross-test: unknown target $t (arm64, windows)" >&2; exit 2 ;;
  esac
done

# Every package but the root one (see the top), so that a new package is
# run without an edit here; listed for each target, with its build tags.
module=$(go list -m)
short=-short
[ "${CROSS_SHORT:-1}" = 1 ] || short=

# Tests that cannot run under one emulator, with the reason, printed when
# skipped. A test named here must be one that proves nothing about the
# target, or a known gap whose fix is outside this script (say where).
skip_arm64=(
  # Re-executes its own test binary as the lock holder: an arm64 child the
  # kernel cannot start without binfmt_misc, which a CI container cannot
  # register. flock is not architecture-specific; the native run covers it.
  'TestLockWaits|re-executes the arm64 test binary (needs binfmt_misc)'
  # The two longest sort tests (80 s of CPU under qemu, over half of ops):
  # what arm64 could break in them is the parallel merge under a weak
  # memory model, which qemu on an x86 host does not reproduce (it runs
  # guest code with the host's ordering); their keys and radix passes are
  # plain Go, the same on every architecture, and the native run has them.
  'TestSortLongStripParallel|its arm64 risk is weak memory ordering, which qemu on x86 cannot show'
  'TestRadixPaths|architecture-independent radix passes; 30 s under qemu'
  # qemu-user does not map the 128 GiB sparse inputs these cases refuse:
  # strider falls back to reading them and refuses them earlier, with the
  # message for that. The refusals themselves are plain Go; the native run
  # has them (the other cases of the command parse flags alike everywhere).
  'TestBadFlags/slice|a 128 GiB input qemu-user does not map, so another refusal comes first'
  'TestBadFlags/sort|as TestBadFlags/slice'
)
skip_windows=(
  # Unix expectations in the test, not strider faults on Windows; each
  # test's owner should make it platform-aware, then it leaves this list.
  'TestOpenStdinFile|expects a memory mapping: internal/sysmem/map_other.go reads into memory on Windows'
  'TestOpenErrors/missing_|compares the Unix text "no such file or directory" (errors.Is(fs.ErrNotExist) holds)'
  'TestCreateErrors/missing_folder|compares the Unix text "no such file or directory" (errors.Is(fs.ErrNotExist) holds)'
  'TestCommitReplaces|expects mode 0600 kept: Windows files have only a read-only bit'
  'TestDirectPieces|expects mode 0640 kept: Windows files have only a read-only bit'
  # Temporary files are opened with FILE_SHARE_DELETE (formats/output/tempfile_windows.go),
  # so RemoveTemps removes them while open; but Wine keeps a removed file's
  # name until its last handle closes, and these tests look at the folder
  # before the outputs are closed.
  'TestRemoveTemps|looks for the removed name while the file is open: Wine keeps it until the last handle closes'
  # A known gap: under Wine the loopback file server answers 404 for the
  # fixtures the native run serves (http.Dir over ../testdata); the remote
  # reader's own tests (formats/remote) pass there.
  'TestRemoteSameAsLocal|its loopback http.Dir server answers 404 under Wine (a known gap in the test, docs/platforms.md)'
  'TestRemoteArchive|as TestRemoteSameAsLocal'
  # Today's sharded-checkpoint and folder/safetensors-output tests were
  # written on Linux (docs/platforms.md, known gaps): Unix error texts, a
  # mapping Windows does not make, a shard removed while open, a lock file
  # Wine keeps visible after its removal (as TestRemoveTemps), scripts run
  # with /usr/bin/python3.
  'TestScriptSharded|runs the printed scripts with /usr/bin/python3, which Wine cannot start'
  'TestShardedParity|checks that an array owns the mapping of its shard: Windows reads files into memory (internal/sysmem/map_other.go)'
  'TestShardedLazy|compares the Unix text "no such file or directory" and removes a shard while it is open'
  'TestShardedRefuses/shard_by_absolute_path|a Windows absolute path is refused by the drive-letter rule first, in its words'
  'TestShardedIndexErrors|compares the Unix text "no such file or directory"'
  'TestFolderCommit|looks for the lock file after its removal: Wine keeps the name until the last handle closes (as TestRemoveTemps)'
  'TestFolderAbort|as TestFolderCommit'
  'TestSafetensorsMemberLibraryLayout|as TestFolderCommit'
  'TestSafetensorsMemberAtomic|as TestFolderCommit'
  'TestConvertRoundTrip|looks for temporaries and finds the lock file Wine keeps visible after its removal (as TestFolderCommit)'
  'TestRemoveTempsConcurrentWithCreate|as TestRemoveTemps'
  # NumPy is the reference: /usr/bin/python3 is a Linux program Wine cannot
  # start. strider's side of each runs in the other tests and the smoke set.
  'TestDocumentedChoices/gather-elements/int32|compares with NumPy through /usr/bin/python3, which Wine cannot start'
  'TestAsNumpyArchiveMember|runs the printed script with /usr/bin/python3, which Wine cannot start'
)

work=$(mktemp -d)
wineprefix=$work/wineprefix
cleanup() {
  if [ -d "$wineprefix" ]; then
    WINEPREFIX=$wineprefix "$wineserver" -k 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# run_tests runs go test for the target in export_env under exec_cmd,
# skipping the tests of the "name|reason" entries it is given (a name is a
# test, or TEST/SUBTEST-PREFIX), and saying which and why.
run_tests() { # target entries...
  local target=$1
  shift
  local skip="" entry name
  for entry in "$@"; do
    name=${entry%%|*}
    echo "  skipped: $name: ${entry#*|}"
    # go test splits -skip at top-level '|' into alternatives and each at
    # '/' into levels, so "^A$|^B$/^c" skips test A and B's subtests c*.
    if [[ $name == */* ]]; then
      skip="${skip:+$skip|}^${name%%/*}\$/^${name#*/}"
    else
      skip="${skip:+$skip|}^$name\$"
    fi
  done
  local args=(-count=1 $short -timeout 5m -exec "$exec_cmd")
  [ -z "$skip" ] || args+=(-skip "$skip")
  [ -z "${CROSS_RUN:-}" ] || args+=(-run "$CROSS_RUN")
  local log=$work/$target-test.log
  local -a packages
  mapfile -t packages < <(env "${export_env[@]}" go list ./... | grep -vxF "$module")
  if ! env "${export_env[@]}" go test "${args[@]}" "${packages[@]}" >"$log" 2>&1; then
    grep -vE '^(=== |\s*--- PASS)' "$log" | tail -n 150
    echo "  go test for $target failed"
    return 1
  fi
  grep -E '^(ok|FAIL|---)' "$log" | sed 's/^/  /'
}

# run_target runs one target's tests and smoke set, printing as it goes;
# it fails when either does.
run_target() { # target
  local target=$1 start=$SECONDS t0 bin fail=0
  local -a runner skips
  case "$target" in
    arm64)
      echo "-- linux/arm64 under $("$qemu" --version | head -n 1)"
      export_env=(GOOS=linux GOARCH=arm64)
      exec_cmd=$qemu
      bin=$work/strider-arm64
      runner=("$qemu" "$bin")
      skips=("${skip_arm64[@]}")
      ;;
    windows)
      echo "-- windows/amd64 under $("$wine" --version)"
      # A fresh prefix, with the stub DLL the Go runtime needs at start-up
      # (Wine 8.0 has no bcryptprimitives.dll: "bcryptprimitives.dll not
      # found"; scripts/cross/bcryptprimitives.c says what else it does).
      # mscoree and mshtml off: wineboot would otherwise offer to install
      # Mono and Gecko, which this needs neither of. One persistent server
      # serves every run (cleanup ends it) instead of one per process.
      export WINEPREFIX=$wineprefix WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml="
      t0=$SECONDS
      mkdir -p "$wineprefix"
      "$wineserver" -p
      # wineboot fails now and then on a fresh prefix ("could not load
      # kernel32.dll, status c0000135", seen once in ten runs): a fresh
      # prefix and a second try.
      if ! "$wine" wineboot -i >"$work/wineboot.log" 2>&1; then
        echo "  wineboot failed ($(tail -n 1 "$work/wineboot.log")); a fresh prefix and one more try"
        "$wineserver" -k 2>/dev/null || true
        rm -rf "$wineprefix" && mkdir -p "$wineprefix"
        "$wineserver" -p
        "$wine" wineboot -i >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; return 1; }
      fi
      "$mingw" -shared -O2 -s -Wall -o "$wineprefix/drive_c/windows/system32/bcryptprimitives.dll" \
        scripts/cross/bcryptprimitives.c scripts/cross/wine_disposition.c -ladvapi32 || return 1
      echo "  wine prefix made (wineboot) and the stub DLL built: $((SECONDS - t0))s"
      export_env=(GOOS=windows GOARCH=amd64)
      exec_cmd=$wine
      bin=$work/strider.exe
      runner=("$wine" "$bin")
      skips=("${skip_windows[@]}")
      ;;
  esac
  t0=$SECONDS
  run_tests "$target" "${skips[@]}" || fail=1
  echo "  go test: $((SECONDS - t0))s"
  t0=$SECONDS
  env "${export_env[@]}" go build -o "$bin" . || return 1
  mkdir -p "$work/smoke-$target"
  scripts/cross/smoke.sh "$work/smoke-$target" "$native" "$target" "${runner[@]}" | sed 's/^/  /' || fail=1
  echo "  smoke: $((SECONDS - t0))s; $target in all: $((SECONDS - start))s"
  return "$fail"
}

native=$work/strider-native
go build -o "$native" .
# The targets run side by side, each into its own log, printed in turn: a
# lone go test leaves a core idle for long stretches (the last package's
# tests), which the other target's emulator fills.
pids=()
for target in "${targets[@]}"; do
  run_target "$target" >"$work/$target.out" 2>&1 &
  pids+=($!)
done
fail=0
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || fail=1
  cat "$work/${targets[$i]}.out"
done
if [ "$fail" != 0 ]; then
  echo "cross-test: FAILED (above)"
  exit 1
fi
echo "cross-test: ${targets[*]} passed in ${SECONDS}s"
