#!/usr/bin/python3
"""NumPy / PyTorch reference implementation of strider's commands (see CLI.md).

Command line: the same arguments as strider, plus --lib numpy|torch (default numpy):

    /usr/bin/python3 scripts/reference.py info --json testdata/example_f4_2x3x4_c.npy
    /usr/bin/python3 scripts/reference.py transpose --axes 1,0,-1 IN.npy -o OUT.npy --lib torch

Shell scripts should use "${PYTHON:-/usr/bin/python3}": the interpreter needs numpy (and torch for
--lib torch); $PYTHON overrides the default.

Results are written as numpy.save(out, numpy.ascontiguousarray(result)), except that a 0-d result
is saved as it is (ascontiguousarray would make it shape (1,)). Exit codes: 0 success; 2 an
invalid request (the message goes to stderr as "reference: <message>"), which strider must refuse
too; 3 the library cannot do it (e.g. torch 1.13 has no uint16/32/64): not a verdict on strider.

As a module (parity.py imports it): one function per command taking numpy arrays and parsed
options (op_info, op_transpose), plus load_array, info_record, result_bytes and parse_command_line.
Invalid requests raise RefError, library gaps raise Unsupported.
"""

import io
import json
import math
import os
import sys
import zipfile
import zlib

import numpy as np

#: (kind, itemsize) of every dtype strider supports; anything else is refused.
SUPPORTED_DTYPES = {("b", 1), ("i", 1), ("i", 2), ("i", 4), ("i", 8), ("u", 1), ("u", 2),
                    ("u", 4), ("u", 8), ("f", 2), ("f", 4), ("f", 8), ("c", 8), ("c", 16)}
MAX_DIMS = 32
MAX_NBYTES = 2 ** 63 - 1


class RefError(Exception):
    """An invalid request: NumPy refuses it, so strider must refuse it too (exit 2)."""


class Unsupported(Exception):
    """The chosen library cannot compute this (e.g. torch and uint16); parity skips it."""


# ---------------------------------------------------------------------------------------------
# input

def split_spec(spec):
    """Split an input argument into (path, npz member or None).

    'file.npz:name' names a member (the file name itself may not contain '.npz:'); anything
    else is a path ('-' is standard input). A path that exists as given wins.
    """
    if spec != "-" and not os.path.exists(spec) and ".npz:" in spec:
        path, member = spec.rsplit(".npz:", 1)
        return path + ".npz", member
    return spec, None


def _read_source(path):
    """The bytes of a path, or of standard input for '-'."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise RefError("cannot read %s: %s" % (path, e.strerror or e)) from None


def open_npy(spec, stdin_bytes=None):
    """A seekable binary stream holding the .npy bytes that an input argument names.

    Handles plain .npy files, '-' (standard input, or stdin_bytes when given), 'file.npz:name'
    and a bare .npz with exactly one member (recognised by the zip magic, not the suffix).
    """
    path, member = split_spec(spec)
    data = stdin_bytes if (path == "-" and stdin_bytes is not None) else _read_source(path)
    if member is None and not data.startswith(b"PK\x03\x04"):
        return io.BytesIO(data)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        names = zf.namelist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise RefError("%s: not a valid npz archive: %s" % (path, e)) from None
    if member is None:
        if len(names) != 1:
            raise RefError("%s holds %d arrays; name one as %s:NAME" % (path, len(names), path))
        name = names[0]
    else:
        name = member + ".npy" if member + ".npy" in names else member
        if name not in names:
            raise RefError("%s has no array %r" % (path, member))
    try:
        return io.BytesIO(zf.read(name))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error) as e:
        raise RefError("%s: cannot read member %s: %s" % (path, name, e)) from None


def read_header(fp):
    """Read and validate a .npy header with numpy.lib.format; leave fp at the data.

    Returns dict(version, shape, fortran_order, dtype). Beyond numpy's own checks this refuses
    what strider refuses: non-numeric dtypes, bool dimensions, negative dimensions, more than 32
    dimensions and sizes that overflow int64.
    """
    fmt = np.lib.format
    try:
        version = fmt.read_magic(fp)
        if hasattr(fmt, "_read_array_header"):
            shape, fortran, dtype = fmt._read_array_header(fp, version)
        elif version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fp)
        else:
            shape, fortran, dtype = fmt.read_array_header_2_0(fp)
    except Exception as e:  # noqa: BLE001 - numpy's parser raises ValueError, TokenError, ...
        first = (str(e).splitlines() or [type(e).__name__])[0]
        raise RefError("invalid npy header: %s" % first) from None
    check_dtype(dtype)
    check_shape(shape, dtype)
    return {"version": version, "shape": tuple(shape), "fortran_order": fortran, "dtype": dtype}


def check_dtype(dtype):
    """Refuse object, structured, subarray, string, datetime and long double dtypes."""
    if dtype.fields is not None or dtype.subdtype is not None:
        raise RefError("unsupported dtype %r: structured dtypes are not supported" % (dtype.descr,))
    if (dtype.kind, dtype.itemsize) not in SUPPORTED_DTYPES:
        raise RefError("unsupported dtype %r" % dtype.str)


def check_shape(shape, dtype):
    """Refuse bool or negative entries, more than 32 dims and sizes that overflow int64."""
    if len(shape) > MAX_DIMS:
        raise RefError("invalid shape: %d dimensions (at most %d)" % (len(shape), MAX_DIMS))
    for dim in shape:
        if type(dim) is not int or dim < 0:  # bool is an int subclass: refuse it explicitly
            raise RefError("invalid shape %r" % (shape,))
    if math.prod(shape) * dtype.itemsize > MAX_NBYTES:
        raise RefError("invalid shape %r: size overflows int64" % (shape,))


def info_record(spec, stdin_bytes=None):
    """The `info --json` object for one input argument; reads only the header."""
    hdr = read_header(open_npy(spec, stdin_bytes))
    count = math.prod(hdr["shape"])
    return {
        "path": spec,
        "shape": list(hdr["shape"]),
        "dtype": hdr["dtype"].name,
        "descr": hdr["dtype"].str,
        "fortran_order": hdr["fortran_order"],
        "count": count,
        "nbytes": count * hdr["dtype"].itemsize,
        "version": "%d.%d" % hdr["version"],
    }


def load_array(spec, stdin_bytes=None):
    """Load an input argument as an ndarray: header validated by read_header, data by numpy."""
    fp = open_npy(spec, stdin_bytes)
    read_header(fp)
    fp.seek(0)
    try:
        return np.lib.format.read_array(fp, allow_pickle=False)
    except (ValueError, TypeError) as e:
        raise RefError("invalid npy data: %s" % str(e).splitlines()[0]) from None


# ---------------------------------------------------------------------------------------------
# output

def result_bytes(result):
    """The exact bytes strider must write for a result: numpy.save of the C-contiguous array.

    A 0-d result stays 0-d (numpy 1.24's ascontiguousarray would give shape (1,)).
    """
    result = np.asarray(result)
    if result.ndim:
        result = np.ascontiguousarray(result)
    buf = io.BytesIO()
    np.save(buf, result)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# torch helpers

_torch = None


def torch_module():
    """Import torch on first use (numpy-only runs never pay for it)."""
    global _torch
    if _torch is None:
        try:
            import torch
        except ImportError as e:
            raise Unsupported("torch is not installed: %s" % e) from None
        torch.set_num_threads(1)
        _torch = torch
    return _torch


def to_torch(a):
    """A torch tensor with a's values (native byte order copy); Unsupported for e.g. uint16."""
    torch = torch_module()
    # astype, not ascontiguousarray: numpy 1.24's ascontiguousarray turns 0-d into shape (1,)
    native = a.astype(a.dtype.newbyteorder("="), order="C")
    try:
        return torch.from_numpy(native)
    except TypeError:
        raise Unsupported("unsupported by torch: %s" % a.dtype.name) from None


def from_torch(t, like):
    """Back to numpy, in the byte order of the input array `like`."""
    return t.contiguous().numpy().astype(like.dtype, copy=False)


# ---------------------------------------------------------------------------------------------
# commands

def op_info(specs, stdin_bytes=None):
    """info: one header record per input argument (see info_record)."""
    return [info_record(s, stdin_bytes) for s in specs]


def parse_axes(text):
    """'1,0,-1' -> (1, 0, -1). Spaces around entries are allowed; anything else is an error."""
    try:
        return tuple(int(part.strip(), 10) for part in text.split(","))
    except ValueError:
        raise RefError("invalid axes %r: want comma-separated integers" % text) from None


def op_transpose(a, axes=None, lib="numpy"):
    """transpose: np.transpose(a, axes) / torch permute; axes None reverses the dimensions."""
    if lib == "numpy":
        try:
            return np.transpose(a, axes)
        except (ValueError, IndexError, TypeError) as e:
            raise RefError(str(e)) from None
    if lib == "torch":
        t = to_torch(a)
        dims = tuple(range(a.ndim))[::-1] if axes is None else tuple(axes)
        if len(dims) != a.ndim:
            # torch 1.13 wraps dims of a 0-d tensor as if it were 1-d (permute(0) works);
            # the contract follows np.transpose, which refuses that.
            raise RefError("axes don't match array")
        try:
            return from_torch(t.permute(dims), a)
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            raise RefError(str(e).splitlines()[0]) from None
    raise RefError("unknown --lib %r (want numpy or torch)" % lib)


# ---------------------------------------------------------------------------------------------
# command line

#: Options every command takes: option -> (destination, takes a value).
COMMON_OPTIONS = {
    "-o": ("output", True), "--output": ("output", True),
    "--device": ("device", True), "--threads": ("threads", True),
    "--lib": ("lib", True),
    "-h": ("help", False), "--help": ("help", False),
}

#: Per-command options; aliases share a destination.
COMMAND_OPTIONS = {
    "info": {"--json": ("json", False)},
    "transpose": {"--axes": ("axes", True), "--perm": ("axes", True), "--dims": ("axes", True)},
}

USAGE = """usage: reference.py <command> [options] <inputs...> [--lib numpy|torch]
commands: info [--json] FILE...
          transpose [--axes A,B,...] IN [-o OUT]"""


def is_positional(token):
    """CLI.md: '-' alone, or '-' followed by a digit, ':' or '.', is an argument, not an option."""
    return token == "-" or not token.startswith("-") or token[1] in "0123456789:."


def parse_command_line(argv):
    """Parse strider-style arguments: returns (command, options dict, positional list).

    Options may come before or after positionals, as '--opt value' or '--opt=value'; '--' ends
    the options; an option's value is taken verbatim (so '--axes -1,0' works). Raises RefError.
    """
    if not argv:
        raise RefError("missing command\n" + USAGE)
    command, rest = argv[0], argv[1:]
    if command not in COMMAND_OPTIONS:
        raise RefError("unknown command %r" % command)
    table = dict(COMMON_OPTIONS, **COMMAND_OPTIONS[command])
    opts, positional, i = {}, [], 0
    while i < len(rest):
        tok = rest[i]
        i += 1
        if tok == "--":
            positional += rest[i:]
            break
        if is_positional(tok):
            positional.append(tok)
            continue
        name, eq, value = tok.partition("=")
        if name not in table:
            raise RefError("unknown option %r" % name)
        dest, takes_value = table[name]
        if takes_value and not eq:
            if i >= len(rest):
                raise RefError("option %s needs a value" % name)
            value = rest[i]
            i += 1
        elif not takes_value and eq:
            raise RefError("option %s takes no value" % name)
        opts[dest] = value if takes_value else True
    return command, opts, positional


def _check_common(opts):
    """Validate --device, --threads and --lib."""
    if opts.get("device", "cpu") not in ("cpu", "cuda"):
        raise RefError("invalid --device %r (want cpu or cuda)" % opts["device"])
    if "threads" in opts:
        try:
            if int(opts["threads"]) < 1:
                raise ValueError
        except ValueError:
            raise RefError("invalid --threads %r" % opts["threads"]) from None
    if opts.get("lib", "numpy") not in ("numpy", "torch"):
        raise RefError("invalid --lib %r (want numpy or torch)" % opts["lib"])


def run_command(argv, stdin_bytes=None):
    """Run one command line in-process: returns (kind, payload).

    kind 'npy': payload is the output file's bytes; kind 'text': payload is the text to print.
    Raises RefError / Unsupported.
    """
    command, opts, pos = parse_command_line(argv)
    _check_common(opts)
    lib = opts.get("lib", "numpy")
    if command == "info":
        if not pos:
            raise RefError("info needs at least one input")
        records = op_info(pos, stdin_bytes)
        if opts.get("json"):
            return "text", "".join(json.dumps(r) + "\n" for r in records)
        return "text", "".join(
            "%s: shape=%s dtype=%s descr=%s order=%s count=%d nbytes=%d version=%s\n"
            % (r["path"], tuple(r["shape"]), r["dtype"], r["descr"],
               "F" if r["fortran_order"] else "C", r["count"], r["nbytes"], r["version"])
            for r in records)
    if command == "transpose":
        if len(pos) != 1:
            raise RefError("transpose takes exactly one input, got %d" % len(pos))
        axes = parse_axes(opts["axes"]) if "axes" in opts else None
        return "npy", result_bytes(op_transpose(load_array(pos[0], stdin_bytes), axes, lib))
    raise RefError("unknown command %r" % command)


def main(argv=None):
    """CLI entry point: see the module docstring for exit codes."""
    argv = sys.argv[1:] if argv is None else argv
    if any(a in ("-h", "--help") for a in argv):
        print(USAGE)
        return 0
    try:
        _, opts, _ = parse_command_line(argv)
        kind, payload = run_command(argv)
    except RefError as e:
        print("reference: %s" % str(e).splitlines()[0], file=sys.stderr)
        return 2
    except Unsupported as e:
        print("reference: %s" % e, file=sys.stderr)
        return 3
    data = payload.encode() if kind == "text" else payload
    out = opts.get("output")
    if out is None and kind == "npy" and sys.stdout.isatty():
        print("reference: refusing to write binary data to a terminal; use -o", file=sys.stderr)
        return 2
    if out is None or out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        tmp = "%s.tmp%d" % (out, os.getpid())
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, out)
        except OSError as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            print("reference: cannot write %s: %s" % (out, e.strerror or e), file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
