#!/usr/bin/env bash
# scripts/release-check.sh: the release check scripts/test.sh runs.
#
#  1. scripts/release.sh twice, into two folders outside the tree, the second
#     under another umask and time zone: every file must be the same bytes.
#  2. SHA256SUMS lists every file and sha256sum -c passes; each archive holds
#     the binary (mode 0755), README.md, the four completions and the man
#     page; each wheel's binary is the archive's, its RECORD hashes hold, its
#     tag matches the binary's format (and `file` agrees, where installed).
#  3. A fresh venv: pip install --no-index --no-deps the manylinux2014_x86_64
#     wheel, then strider --version from the venv's PATH, and a transpose
#     compared byte for byte with NumPy's np.save(np.ascontiguousarray(a.T)).
#
# PYTHON: the interpreter with NumPy (default /usr/bin/python3), which also
# makes the venv; release.sh itself needs only python3's standard library.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
version=0.0.0-rc1 # a pre-release, so the PEP 440 spelling (0.0.0rc1) differs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "-- scripts/release.sh $version, twice"
scripts/release.sh --out "$tmp/a" "$version" >"$tmp/a.log" 2>&1 || { cat "$tmp/a.log"; exit 1; }
grep -E '^(strider|release.sh: note)' "$tmp/a.log"
(umask 077 && TZ=Pacific/Kiritimati scripts/release.sh --out "$tmp/b" "$version") >"$tmp/b.log" 2>&1 || { cat "$tmp/b.log"; exit 1; }
(cd "$tmp/a" && ls) >"$tmp/a.ls"
(cd "$tmp/b" && ls) >"$tmp/b.ls"
diff "$tmp/a.ls" "$tmp/b.ls" || { echo "the two runs wrote different files"; exit 1; }
differ=()
for f in $(cat "$tmp/a.ls"); do
  cmp -s "$tmp/a/$f" "$tmp/b/$f" || differ+=("$f")
done
if [ ${#differ[@]} -gt 0 ]; then
  echo "not reproducible: ${differ[*]} differ between the two runs"
  # The usual cause: the tree changed between the runs (vcs.modified, or the code).
  for run in a b; do
    tar xzf "$tmp/$run/strider-$version-linux-amd64.tar.gz" -C "$tmp/$run" "strider-$version-linux-amd64/strider"
    go version -m "$tmp/$run/strider-$version-linux-amd64/strider" | tail -n +2 >"$tmp/$run.buildinfo"
  done
  diff "$tmp/a.buildinfo" "$tmp/b.buildinfo" &&
    echo "(the linux/amd64 binaries' build information is the same: did the tree change while it ran?)"
  exit 1
fi
echo "reproducible: the two runs wrote the same $(wc -l <"$tmp/a.ls") files, byte for byte"

echo "-- SHA256SUMS, archive and wheel contents"
(cd "$tmp/a" && sha256sum --quiet -c SHA256SUMS)
diff <(awk '{print $2}' "$tmp/a/SHA256SUMS") <(grep -vx SHA256SUMS "$tmp/a.ls") || { echo "SHA256SUMS does not list every file"; exit 1; }
mkdir "$tmp/bins"
"$PYTHON" - "$tmp/a" "$version" "$tmp/bins" <<'EOF'
import base64, csv, hashlib, io, os, stat, sys, tarfile, zipfile

dist, version, bins = sys.argv[1:]
pyversion = version.replace("-", "")
docs = ["README.md", "completions/_strider", "completions/strider.bash",
        "completions/strider.fish", "completions/strider.ps1", "man/strider.1"]
wheels = {"linux-amd64": "manylinux2014_x86_64", "linux-arm64": "manylinux2014_aarch64",
          "darwin-amd64": "macosx_12_0_x86_64", "darwin-arm64": "macosx_12_0_arm64",
          "windows-amd64": "win_amd64", "windows-arm64": "win_arm64"}
expect = set()
for target, plat in wheels.items():
    top = f"strider-{version}-{target}"
    exe = "strider.exe" if target.startswith("windows") else "strider"
    want = {f"{top}/", f"{top}/completions/", f"{top}/man/", f"{top}/{exe}"} | {f"{top}/{d}" for d in docs}
    if target.startswith("windows"):
        path = f"{dist}/{top}.zip"
        with zipfile.ZipFile(path) as z:
            got = {i.filename: i.external_attr >> 16 for i in z.infolist()}
            binary = z.read(f"{top}/{exe}")
    else:
        path = f"{dist}/{top}.tar.gz"
        with tarfile.open(path) as t:
            members = t.getmembers()
            got = {m.name + ("/" if m.isdir() else ""): m.mode for m in members}
            if any((m.uid, m.gid, m.uname, m.gname) != (0, 0, "", "") for m in members):
                sys.exit(f"{path}: an entry is not owned by 0:0 without names")
            binary = t.extractfile(f"{top}/{exe}").read()
    if set(got) != want:
        sys.exit(f"{path}: holds {sorted(got)}, wanted {sorted(want)}")
    if got[f"{top}/{exe}"] & 0o777 != 0o755:
        sys.exit(f"{path}: {exe} has mode {oct(got[f'{top}/{exe}'])}, wanted 0755")
    whl = f"{dist}/strider-{pyversion}-py3-none-{plat}.whl"
    with zipfile.ZipFile(whl) as z:
        data = f"strider-{pyversion}.data/scripts/{exe}"
        info = f"strider-{pyversion}.dist-info"
        if z.read(data) != binary:
            sys.exit(f"{whl}: {data} is not the binary of {top}")
        if (z.getinfo(data).external_attr >> 16) & 0o777 != 0o755:
            sys.exit(f"{whl}: {data} is not mode 0755")
        wheel = z.read(f"{info}/WHEEL").decode()
        if f"Tag: py3-none-{plat}\n" not in wheel or "Root-Is-Purelib: false\n" not in wheel:
            sys.exit(f"{whl}: WHEEL is\n{wheel}")
        if f"Version: {pyversion}\n" not in z.read(f"{info}/METADATA").decode():
            sys.exit(f"{whl}: METADATA does not say Version: {pyversion}")
        rows = list(csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())))
        if sorted(r[0] for r in rows) != sorted(z.namelist()):
            sys.exit(f"{whl}: RECORD lists {[r[0] for r in rows]}, the wheel holds {z.namelist()}")
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                continue
            d = z.read(name)
            h = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode()
            if (digest, size) != (h, str(len(d))):
                sys.exit(f"{whl}: RECORD's hash or size of {name} is wrong")
    with open(os.path.join(bins, target), "wb") as f:
        f.write(binary)
print(f"6 archives hold the binary (0755), README.md, 4 completions and man/strider.1; 6 wheels hold the same binaries, with RECORD right")
EOF
if command -v file >/dev/null; then
  (cd "$tmp/bins" && file -- *) | sed 's/, BuildID.*//; s/, Go BuildID.*//'
  want=(
    "linux-amd64:ELF 64-bit LSB executable, x86-64.*statically linked"
    "linux-arm64:ELF 64-bit LSB executable, ARM aarch64.*statically linked"
    "darwin-amd64:Mach-O 64-bit x86_64 executable"
    "darwin-arm64:Mach-O 64-bit arm64 executable"
    "windows-amd64:PE32\+ executable.*x86-64"
    "windows-arm64:PE32\+ executable.*Aarch64"
  )
  for w in "${want[@]}"; do
    file -b "$tmp/bins/${w%%:*}" | grep -Eq "${w#*:}" || { echo "${w%%:*}: file(1) says $(file -b "$tmp/bins/${w%%:*}"), wanted ${w#*:}"; exit 1; }
  done
else
  echo "(file(1) is not installed: the binaries' formats were checked only from their headers, by pack.py)"
fi

echo "-- pip install the manylinux2014_x86_64 wheel into a fresh venv"
"$PYTHON" -m venv "$tmp/venv"
wheel=$(ls "$tmp/a"/strider-*-manylinux2014_x86_64.whl)
"$tmp/venv/bin/python" -m pip install --disable-pip-version-check --no-index --no-deps "$wheel"
cmp "$tmp/venv/bin/strider" "$tmp/bins/linux-amd64" || { echo "pip changed the binary"; exit 1; }
[ -x "$tmp/venv/bin/strider" ] || { echo "pip installed strider without its executable bit"; exit 1; }
got=$(PATH="$tmp/venv/bin:$PATH" && cd "$tmp" && strider --version)
echo "strider --version (from the venv's PATH): $got"
[[ "$got" == *"$version"* ]] || { echo "--version does not name $version"; exit 1; }
"$PYTHON" - "$tmp" <<'EOF'
import numpy as np, sys
a = np.arange(2 * 3 * 4, dtype="<f4").reshape(2, 3, 4) / 7
np.save(f"{sys.argv[1]}/a.npy", a)
np.save(f"{sys.argv[1]}/ref.npy", np.ascontiguousarray(a.T))
EOF
(PATH="$tmp/venv/bin:$PATH" && cd "$tmp" && strider transpose a.npy -o t.npy)
cmp "$tmp/t.npy" "$tmp/ref.npy" || { echo "the installed strider's transpose differs from NumPy's np.save(np.ascontiguousarray(a.T))"; exit 1; }
echo "parity: the installed strider's transpose of a 2x3x4 f4 array is NumPy's file, byte for byte"
"$tmp/venv/bin/python" -m pip uninstall --disable-pip-version-check -y -q strider
[ ! -e "$tmp/venv/bin/strider" ] || { echo "pip uninstall left bin/strider behind (RECORD?)"; exit 1; }
echo "pip uninstall removed it again"
