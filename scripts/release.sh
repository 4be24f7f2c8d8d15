#!/usr/bin/env bash
# scripts/release.sh [--out DIR] VERSION
#
# Builds strider VERSION for linux, darwin and windows on amd64 and arm64 and
# writes into DIR (default dist/, emptied first; another DIR must be empty or
# absent):
#
#   strider-VERSION-OS-ARCH.tar.gz   (.zip for windows) the binary, README.md,
#                                    completions/ (bash, zsh, fish, powershell)
#                                    and man/strider.1, in a folder of that name
#   strider-PEP440-py3-none-PLATFORM.whl
#                                    one wheel per target: `pip install` puts
#                                    strider (strider.exe) on the PATH
#   SHA256SUMS                       every file above (sha256sum -c SHA256SUMS)
#
# Reproducible: two runs on the same commit with the same Go toolchain, zlib
# and gzip give the same bytes. Binaries: CGO_ENABLED=0, -trimpath, an empty
# build ID, no symbol table, GOAMD64/GOARM64 pinned; the VCS stamp
# (vcs.revision, vcs.time = the commit's time, vcs.modified) comes from the
# commit. Archives and wheels: every timestamp is SOURCE_DATE_EPOCH (the
# commit's time unless set), entries sorted, owner 0:0 without names, modes
# 0755/0644, gzip -n. scripts/release-check.sh builds twice and compares.
#
# A tree with uncommitted or untracked files still builds, reproducibly, but
# its binaries record vcs.modified=true; the script says so.
#
# Needs go, git, gzip, sha256sum (or shasum) and python3 (standard library
# only: scripts/pack.py writes the tar, zip and wheel files).
#
# Exit status: 0 done; 2 anything wrong, with one line saying what.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "release.sh: $*" >&2; exit 2; }

out=dist
default_out=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; default_out=""; shift 2 ;;
    --out=*) out=${1#--out=}; default_out=""; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (usage: scripts/release.sh [--out DIR] VERSION)" ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || die "usage: scripts/release.sh [--out DIR] VERSION (e.g. 0.2.0 or 0.2.0-rc1)"
PYTHON3=${PYTHON3:-python3}
[ -d scripts/genman ] || die "scripts/genman, the man page generator, is missing from this tree"

# A leading v (a tag's spelling) is not part of the version.
version=${1#v}
[[ "$version" =~ ^[0-9][0-9A-Za-z.!+_-]*$ ]] || die "version '$1' must start with a digit and hold only letters, digits and . ! + _ -"
wheel_version=$("$PYTHON3" scripts/pack.py version "$version" 2>&1) || die "${wheel_version#pack.py: }"

export GOFLAGS=-tags=urfave_cli_no_docs # see scripts/test.sh: strider never uses urfave/cli's docs.go
export CGO_ENABLED=0 GOAMD64=v1 GOARM64=v8.0 GOEXPERIMENT=
export LC_ALL=C TZ=UTC

if git rev-parse --git-dir >/dev/null 2>&1; then
  buildvcs=true # fail rather than ship a binary without its revision
  commit=$(git rev-parse HEAD)
  SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct HEAD)}
  if [ -n "$(git status --porcelain)" ]; then
    echo "release.sh: note: the tree has uncommitted or untracked files; the binaries record vcs.modified=true"
  fi
else
  buildvcs=false
  commit="(no git checkout)"
  [ -n "${SOURCE_DATE_EPOCH:-}" ] || die "not a git checkout: set SOURCE_DATE_EPOCH (seconds since 1970) for the archives' timestamps"
fi
export SOURCE_DATE_EPOCH

if [ -n "$default_out" ]; then
  rm -rf "$out"
elif [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
  die "$out is not empty (it will hold exactly one release; the default dist/ is emptied instead)"
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "strider $version (wheels $wheel_version), commit $commit, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, $(go version)"

targets="linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"
ldflags="-s -w -buildid= -X strider/cmd.Version=$version"
for target in $targets; do
  goos=${target%/*} goarch=${target#*/}
  exe=strider
  [ "$goos" = windows ] && exe=strider.exe
  mkdir -p "$work/bin/$goos-$goarch"
  echo "-- build $target"
  GOOS=$goos GOARCH=$goarch go build -trimpath -buildvcs=$buildvcs -ldflags="$ldflags" -o "$work/bin/$goos-$goarch/$exe" .
done

# The completions and the man page come from strider itself, run here.
hostos=$(go env GOHOSTOS) hostarch=$(go env GOHOSTARCH)
host=$work/bin/$hostos-$hostarch/strider
if [ ! -x "$host" ]; then
  mkdir -p "$work/host"
  host=$work/host/strider
  go build -trimpath -buildvcs=$buildvcs -ldflags="$ldflags" -o "$host" .
fi
docs=$work/docs
mkdir -p "$docs/completions" "$docs/man"
for shell_file in bash:strider.bash zsh:_strider fish:strider.fish powershell:strider.ps1; do
  shell=${shell_file%%:*}
  if ! "$host" completion "$shell" >"$docs/completions/${shell_file#*:}" 2>"$work/err" || [ ! -s "$docs/completions/${shell_file#*:}" ]; then
    die "\`strider completion $shell\` failed or printed nothing (the completion command, issue 29 item 1, is it in this tree?): $(head -c 300 "$work/err")"
  fi
done
# The page's date is SOURCE_DATE_EPOCH's day (exported above).
if ! go run ./scripts/genman -version "$version" >"$docs/man/strider.1" 2>"$work/err" || [ ! -s "$docs/man/strider.1" ]; then
  die "go run ./scripts/genman -version $version failed or printed nothing: $(head -c 300 "$work/err")"
fi

for target in $targets; do
  goos=${target%/*} goarch=${target#*/}
  name=strider-$version-$goos-$goarch
  stage=$work/stage/$name
  mkdir -p "$stage"
  cp "$work/bin/$goos-$goarch"/strider* "$stage/"
  cp README.md "$stage/"
  cp -R "$docs/completions" "$docs/man" "$stage/"
  chmod -R u=rwX,go=rX "$stage"
  chmod 755 "$stage"/strider*
  if [ "$goos" = windows ]; then
    "$PYTHON3" scripts/pack.py archive --format zip --epoch "$SOURCE_DATE_EPOCH" --out "$out/$name.zip" "$stage"
  else
    "$PYTHON3" scripts/pack.py archive --format tar --epoch "$SOURCE_DATE_EPOCH" --out "$work/$name.tar" "$stage"
    gzip -n <"$work/$name.tar" >"$out/$name.tar.gz"
  fi
  "$PYTHON3" scripts/pack.py wheel --epoch "$SOURCE_DATE_EPOCH" --version "$version" --goos "$goos" --goarch "$goarch" \
    --binary "$stage/$(cd "$stage" && ls strider*)" --readme README.md --out-dir "$out" >/dev/null
done

(
  cd "$out"
  if command -v sha256sum >/dev/null; then
    sha256sum -- strider-* >SHA256SUMS
  else
    shasum -a 256 -- strider-* >SHA256SUMS
  fi
)
echo "-- $out:"
(cd "$out" && ls -l -- *)
