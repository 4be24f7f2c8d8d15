#!/usr/bin/env python3
"""Release packing for scripts/release.sh: archives and wheels, byte for byte
reproducible. Standard library only (any python3 on PATH will do).

    pack.py version VERSION
        VERSION as PEP 440 spells it (0.2.0-rc1 -> 0.2.0rc1), or one line on
        stderr and exit 2 when it is not a PEP 440 version.
    pack.py archive --format tar|zip --epoch SECONDS --out FILE DIR
        DIR (its name the archive's top folder), entries sorted by name, every
        timestamp SECONDS, owner 0:0 with no names, mode 0755 for folders and
        for files whose owner may execute them, else 0644. tar is written
        uncompressed (release.sh compresses it with gzip -n).
    pack.py wheel --epoch SECONDS --version V --goos OS --goarch ARCH
                  --binary FILE --readme FILE --out-dir DIR
        one wheel, py3-none-<platform>, whose only payload is the binary under
        strider-V.data/scripts/: pip copies it onto the environment's PATH,
        byte for byte (pip rewrites only a first line that starts "#!python")
        and with its executable bit (the zip entry's mode). Prints its name.

Why Python and not tar(1): GNU tar's --sort/--mtime/--owner flags do not exist
in the BSD tar of macOS, and Python's tarfile writes the same bytes wherever it
runs. Compression still depends on the zlib (zip, wheel) and gzip (tar.gz)
at hand: the same tools give the same bytes.
"""

import argparse
import base64
import hashlib
import io
import os
import re
import stat
import struct
import sys
import tarfile
import time
import zipfile

NAME = "strider"
SUMMARY = "One tensor operation on NumPy .npy files, byte-identical to NumPy"
# The repository has no LICENSE file: no licence is granted, and the wheel
# says so rather than naming one.
LICENSE = "UNKNOWN (no license file in the repository)"
REQUIRES_PYTHON = ">=3"  # the payload is a native binary; Python only installs it

# PEP 440, appendix B (the regular expression packaging.version uses).
PEP440 = re.compile(
    r"""^\s*v?
    (?:(?P<epoch>[0-9]+)!)?
    (?P<release>[0-9]+(?:\.[0-9]+)*)
    (?P<pre>[-_.]?(?P<pre_l>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>[0-9]+)?)?
    (?P<post>(?:-(?P<post_n1>[0-9]+))|(?:[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]+)?))?
    (?P<dev>[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
    \s*$""",
    re.VERBOSE | re.IGNORECASE,
)


def pep440(version):
    """The normalized PEP 440 spelling of version; ValueError if it has none."""
    m = PEP440.match(version)
    if not m:
        raise ValueError(
            f"version {version!r} is not a PEP 440 version (e.g. 1.2.0, 1.2.0-rc1, 1.2.0.post1, 1.2.0.dev3), "
            "which a wheel needs"
        )
    if m["local"]:
        raise ValueError(f"version {version!r} has a local part (+{m['local']}), which PyPI refuses")
    out = ""
    if m["epoch"] and int(m["epoch"]):
        out += f"{int(m['epoch'])}!"
    out += ".".join(str(int(p)) for p in m["release"].split("."))
    if m["pre"]:
        label = {"alpha": "a", "beta": "b", "c": "rc", "pre": "rc", "preview": "rc"}.get(
            m["pre_l"].lower(), m["pre_l"].lower()
        )
        out += f"{label}{int(m['pre_n'] or 0)}"
    if m["post"]:
        out += f".post{int(m['post_n1'] or m['post_n2'] or 0)}"
    if m["dev"]:
        out += f".dev{int(m['dev_n'] or 0)}"
    return out


def zip_date_time(epoch):
    # Zip stores local-less DOS times from 1980 on, in 2-second steps.
    t = time.gmtime(max(epoch, 315532800))
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec - t.tm_sec % 2)


def zip_entry(name, mode, epoch):
    info = zipfile.ZipInfo(name, date_time=zip_date_time(epoch))
    info.create_system = 3  # Unix, so that readers (pip, unzip) honour the mode below
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def walk(root):
    """(archive name, path, is_dir, mode) for root and everything under it, sorted by name."""
    top = os.path.basename(os.path.normpath(root))
    entries = [(top + "/", root, True, 0o755)]
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        prefix = top + "/" + ("" if rel == "." else rel.replace(os.sep, "/") + "/")
        for d in dirnames:
            entries.append((prefix + d + "/", os.path.join(dirpath, d), True, 0o755))
        for f in filenames:
            path = os.path.join(dirpath, f)
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                sys.exit(f"pack.py: {path} is not a regular file")
            mode = 0o755 if st.st_mode & stat.S_IXUSR else 0o644
            entries.append((prefix + f, path, False, mode))
    entries.sort(key=lambda e: e[0].encode())
    return entries


def write_tar(root, out, epoch):
    with open(out, "wb") as f, tarfile.open(fileobj=f, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, path, is_dir, mode in walk(root):
            info = tarfile.TarInfo(name.rstrip("/"))
            info.mtime, info.mode, info.uid, info.gid, info.uname, info.gname = epoch, mode, 0, 0, "", ""
            if is_dir:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                with open(path, "rb") as src:
                    data = src.read()
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


def write_zip(entries, out, epoch):
    """entries: (name, bytes or None for a folder, mode) in the order given."""
    with zipfile.ZipFile(out, "w") as z:
        for name, data, mode in entries:
            if data is None:
                info = zip_entry(name, stat.S_IFDIR | mode, epoch)
                info.compress_type = zipfile.ZIP_STORED
                info.external_attr |= 0x10  # MS-DOS directory flag
                z.writestr(info, b"")
            else:
                z.writestr(zip_entry(name, stat.S_IFREG | mode, epoch), data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def archive_zip(root, out, epoch):
    write_zip([(n, None if d else read(p), m) for n, p, d, m in walk(root)], out, epoch)


def macos_min(binary):
    """The minimum macOS (major, minor) a Mach-O file's LC_BUILD_VERSION names."""
    magic, _, _, _, ncmds, _, _ = struct.unpack_from("<7I", binary)
    if magic != 0xFEEDFACF:
        raise ValueError("not a 64-bit little-endian Mach-O file")
    off = 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<2I", binary, off)
        if cmd == 0x32:  # LC_BUILD_VERSION: platform, minos (xxxx.yy.zz), sdk, ntools
            minos = struct.unpack_from("<I", binary, off + 12)[0]
            return minos >> 16, (minos >> 8) & 0xFF
        if cmd == 0x24:  # LC_VERSION_MIN_MACOSX: version, sdk
            v = struct.unpack_from("<I", binary, off + 8)[0]
            return v >> 16, (v >> 8) & 0xFF
        off += size
    raise ValueError("no LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX load command")


def platform_tag(goos, goarch, binary):
    """The wheel platform tag for a Go target, checked against the binary's own header.

    manylinux2014: a CGO_ENABLED=0 Go binary links nothing, so any glibc (or
    musl) Linux with kernel 3.2+ runs it; manylinux2014 (CentOS 7) is the
    oldest tag pip still knows. macOS: the minimum the Go linker wrote into the
    binary (12.0 for Go 1.26), so pip on an older macOS does not install a
    binary that will not start there.
    """
    arch = {"amd64": "x86_64", "arm64": "aarch64"}[goarch]
    if goos == "linux":
        machine = {"x86_64": 62, "aarch64": 183}[arch]
        if binary[:4] != b"\x7fELF" or struct.unpack_from("<H", binary, 18)[0] != machine:
            raise ValueError(f"the {goos}/{goarch} binary is not an ELF file for {arch}")
        return f"manylinux2014_{arch}"
    if goos == "darwin":
        cputype = {"x86_64": 0x01000007, "aarch64": 0x0100000C}[arch]
        if struct.unpack_from("<I", binary, 4)[0] != cputype:
            raise ValueError(f"the {goos}/{goarch} binary is not a Mach-O file for {goarch}")
        major, minor = macos_min(binary)
        return f"macosx_{major}_{minor}_{'arm64' if goarch == 'arm64' else 'x86_64'}"
    if goos == "windows":
        pe = struct.unpack_from("<I", binary, 0x3C)[0]
        machine = {"amd64": 0x8664, "arm64": 0xAA64}[goarch]
        if binary[:2] != b"MZ" or binary[pe : pe + 4] != b"PE\0\0" or struct.unpack_from("<H", binary, pe + 4)[0] != machine:
            raise ValueError(f"the {goos}/{goarch} binary is not a PE file for {goarch}")
        return f"win_{goarch}"
    raise ValueError(f"no wheel platform tag for {goos}/{goarch}")


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel(args):
    version = pep440(args.version)
    binary = read(args.binary)
    plat = platform_tag(args.goos, args.goarch, binary)
    exe = NAME + (".exe" if args.goos == "windows" else "")
    readme = read(args.readme).decode()
    # METADATA 2.1 (core metadata): the description is the message body.
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        f"Summary: {SUMMARY}\n"
        f"License: {LICENSE}\n"
        f"Requires-Python: {REQUIRES_PYTHON}\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )
    wheel_file = (
        "Wheel-Version: 1.0\n"
        "Generator: strider scripts/pack.py\n"
        "Root-Is-Purelib: false\n"
        f"Tag: py3-none-{plat}\n"
    )
    data_dir, info_dir = f"{NAME}-{version}.data", f"{NAME}-{version}.dist-info"
    files = [
        (f"{data_dir}/scripts/{exe}", binary, 0o755),
        (f"{info_dir}/METADATA", metadata.encode(), 0o644),
        (f"{info_dir}/WHEEL", wheel_file.encode(), 0o644),
    ]
    record = "".join(f"{n},{record_hash(d)},{len(d)}\n" for n, d, _ in files) + f"{info_dir}/RECORD,,\n"
    files.append((f"{info_dir}/RECORD", record.encode(), 0o644))
    name = f"{NAME}-{version}-py3-none-{plat}.whl"
    write_zip(files, os.path.join(args.out_dir, name), args.epoch)
    print(name)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("version")
    v.add_argument("version")
    a = sub.add_parser("archive")
    a.add_argument("--format", choices=["tar", "zip"], required=True)
    a.add_argument("--epoch", type=int, required=True)
    a.add_argument("--out", required=True)
    a.add_argument("dir")
    w = sub.add_parser("wheel")
    for flag in ("--version", "--goos", "--goarch", "--binary", "--readme", "--out-dir"):
        w.add_argument(flag, required=True)
    w.add_argument("--epoch", type=int, required=True)
    args = p.parse_args()
    try:
        if args.cmd == "version":
            print(pep440(args.version))
        elif args.cmd == "archive":
            (write_tar if args.format == "tar" else archive_zip)(args.dir, args.out, args.epoch)
        else:
            wheel(args)
    except ValueError as e:
        print(f"pack.py: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
