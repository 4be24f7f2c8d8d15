#!/usr/bin/python3
"""Generate strider's test fixtures under testdata/ with NumPy itself.

Usage (from anywhere; paths are relative to the repository root, the parent of scripts/):

    /usr/bin/python3 scripts/gen_testdata.py          # write testdata/
    /usr/bin/python3 scripts/gen_testdata.py --check  # exit 1 if any file would change

Shell scripts should call it as "${PYTHON:-/usr/bin/python3} scripts/gen_testdata.py": the
interpreter must have numpy (>= 1.24); $PYTHON overrides the default.

Everything is deterministic: each fixture has its own RNG seeded from its file name, npz members
get a fixed timestamp, and the malformed files are assembled byte by byte. Rerunning produces
identical bytes (--check verifies that).

The module is also imported by parity.py for the dtype tables and the value generator
(DTYPE_TOKENS, token_dtype, dtype_token, random_values).
"""

import argparse
import io
import json
import math
import os
import pickle
import struct
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO / "testdata"
MALFORMED = TESTDATA / "malformed"

# ---------------------------------------------------------------------------------------------
# dtypes

#: Every dtype of CLI.md, as (kind+size code). One-byte codes have no byte order.
BASE_CODES = ["b1", "i1", "u1", "i2", "i4", "i8", "u2", "u4", "u8",
              "f2", "f4", "f8", "c8", "c16"]


def _tokens():
    """All dtype tokens: 'b1', 'i1', 'u1', then '<code>le' and '<code>be' for the rest."""
    out = []
    for code in BASE_CODES:
        if np.dtype(code).itemsize == 1:
            out.append(code)
        else:
            out += [code + "le", code + "be"]
    return out


#: The 25 dtype tokens used in fixture names and parity output, e.g. 'f4be'.
DTYPE_TOKENS = _tokens()


def case_cell(i, period=1):
    """(dtype token, Fortran order?) of a parity plug-in's random case i, when its shape is
    SHAPES[i % period]: the cases cycle through every token, then both orders, so each 50 in a
    row (with period 1) hold every (token, order) once, and each shape meets many tokens (the
    step 1 + 1/period is prime to 25: shape s gets tokens s, s+period+1, ...)."""
    k = i + (i // period if period > 1 else 0)
    return DTYPE_TOKENS[k % len(DTYPE_TOKENS)], (k // len(DTYPE_TOKENS)) % 2 == 1


def case_cells_missing(op, cells, cases):
    """The coverage check of case_cell: from 100 cases on (case_cell meets every cell by then
    for periods up to 15), every (token, Fortran?) pair must be in cells. Returns a FAIL line,
    or None."""
    want = {(t, f) for t in DTYPE_TOKENS for f in (False, True)}
    if cases < 100 or want <= set(cells):
        return None
    missing = sorted(want - set(cells))
    return "FAIL %s coverage: %d of %d (dtype, order) cells never ran, e.g. %s" % (
        op, len(missing), len(want), missing[:4])


def token_dtype(token):
    """Map a dtype token ('i2be', 'b1', 'c16le') to its numpy dtype ('>i2', '|b1', '<c16')."""
    if token.endswith("le"):
        return np.dtype("<" + token[:-2])
    if token.endswith("be"):
        return np.dtype(">" + token[:-2])
    return np.dtype(token)


def dtype_token(dtype):
    """Inverse of token_dtype: np.dtype('>f4') -> 'f4be'."""
    dtype = np.dtype(dtype)
    code = dtype.kind + str(dtype.itemsize)
    if dtype.itemsize == 1:
        return code
    little = dtype.byteorder == "<" or (dtype.byteorder == "=" and sys.byteorder == "little")
    return code + ("le" if little else "be")


# ---------------------------------------------------------------------------------------------
# values

SPECIAL_FLOATS = [np.nan, np.inf, -0.0, -np.inf]


def _floats(ftype, n, rng, specials):
    """n finite floats of numpy type ftype, with NaN/inf/-0.0 placed according to `specials`.

    specials: None (none), 'fixed' (every 5th element from index 1, cycling through
    SPECIAL_FLOATS) or 'random' (about one in eight elements, random positions and values).
    """
    # float16 overflows past 65504: keep the magnitudes modest for it.
    top = 3 if np.dtype(ftype).itemsize == 2 else 6
    # Powers of ten parsed, not computed: np.power's float64 loop differs in the last place
    # between machines (AVX-512F's vector pow against libm's), and so did the fixtures.
    decades = np.array([float("1e%d" % k) for k in range(-3, top)])
    vals = rng.standard_normal(n) * decades[rng.integers(-3, top, size=n) + 3]
    vals = vals.astype(ftype)
    if specials == "fixed":
        for k, i in enumerate(range(1, n, 5)):
            vals[i] = SPECIAL_FLOATS[k % len(SPECIAL_FLOATS)]
    elif specials == "random" and n:
        picks = rng.random(n) < 0.125
        vals[picks] = rng.choice(SPECIAL_FLOATS + [0.0], size=int(picks.sum()))
    return vals


def random_values(dtype, shape, rng, specials="random", raw=False):
    """A C-ordered array of the given dtype (any byte order) and shape, filled from rng.

    - bool: random False/True;
    - integers: uniform over the full range, with min and max at the first and last element;
    - floats/complex: normal values over several decades plus NaN, +-inf and -0.0 (see _floats;
      for complex the special value goes into the real or the imaginary part, alternately);
    - raw=True (floats/complex only): random bit patterns, i.e. NaN payloads, signalling NaNs
      and subnormals.
    Big-endian arrays are produced by a bit-preserving byte swap of the native values.
    """
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    n = math.prod(shape)
    native = dtype.newbyteorder("=")
    if raw and dtype.kind in "fc":
        return np.frombuffer(rng.bytes(n * dtype.itemsize), dtype=dtype).reshape(shape).copy()
    if dtype.kind == "b":
        vals = rng.integers(0, 2, size=n).astype(bool)
    elif dtype.kind in "iu":
        info = np.iinfo(native)
        vals = rng.integers(info.min, info.max, size=n, dtype=native, endpoint=True)
        if n >= 2:
            vals[0], vals[-1] = info.min, info.max
    elif dtype.kind == "f":
        vals = _floats(native, n, rng, specials)
    elif dtype.kind == "c":
        part = np.dtype("f%d" % (dtype.itemsize // 2))
        vals = np.empty(n, native)
        vals.real = _floats(part, n, rng, None)
        vals.imag = _floats(part, n, rng, None)
        special = _floats(part, n, rng, specials)
        mask = ~np.isfinite(special) | (np.signbit(special) & (special == 0))
        for k, i in enumerate(np.flatnonzero(mask)):
            if k % 2 == 0:
                vals.real[i] = special[i]
            else:
                vals.imag[i] = special[i]
    else:
        raise ValueError("unsupported dtype %s" % dtype)
    return vals.reshape(shape).astype(dtype)


def seed_for(name):
    """A stable per-fixture seed, so adding a fixture never changes the others."""
    return zlib.crc32(name.encode())


# ---------------------------------------------------------------------------------------------
# writers

def npy_bytes(arr):
    """Exactly what np.save(f, arr) writes (C or Fortran order as the array is laid out)."""
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def fortran_npy_bytes(arr):
    """A .npy whose header says fortran_order True, whatever the shape.

    np.save only writes fortran_order True for arrays that are F- but not C-contiguous, so 0-d,
    1-d and empty arrays would come out as C order. Here the header comes from numpy's own
    write_array_header_1_0 and the data is the Fortran-order byte sequence, which is a valid
    file that np.load reads back to the same values.
    """
    buf = io.BytesIO()
    d = {"descr": np.lib.format.dtype_to_descr(arr.dtype), "fortran_order": True,
         "shape": arr.shape}
    np.lib.format.write_array_header_1_0(buf, d)
    buf.write(arr.tobytes(order="F"))
    return buf.getvalue()


def versioned_npy_bytes(arr, version):
    """np.lib.format.write_array with an explicit header version ((1,0), (2,0) or (3,0))."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, arr, version=version)
    return buf.getvalue()


def npz_bytes(members, compress):
    """An .npz as np.savez / np.savez_compressed write it, but reproducible.

    numpy's _savez opens each member with zipf.open(name, 'w', force_zip64=True), which stamps
    the current time into the zip entry. This does the same with a fixed 1980-01-01 timestamp.
    """
    buf = io.BytesIO()
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(buf, mode="w", compression=compression, allowZip64=True) as zf:
        for name, arr in members.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            with zf.open(info, "w", force_zip64=True) as fid:
                np.lib.format.write_array(fid, np.asanyarray(arr), allow_pickle=False)
    return buf.getvalue()


def raw_npy(header, data=b"", version=(1, 0), pad=True, header_len=None):
    """Assemble a .npy by hand: magic, version, header length, header text, data.

    header: str (encoded latin-1) or bytes. pad: append numpy's spaces + '\\n' so the data
    starts on a 64-byte boundary. header_len: write this length field instead of the real one.
    """
    if isinstance(header, str):
        header = header.encode("latin-1")
    fmt = "<H" if version[0] == 1 else "<I"
    if pad:
        used = 6 + 2 + struct.calcsize(fmt) + len(header) + 1
        header = header + b" " * ((-used) % 64) + b"\n"
    length = len(header) if header_len is None else header_len
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, length) + header + data


def header_text(descr="'<f4'", fortran="False", shape="(3, 4)", extra=""):
    """A header dict literal in numpy's layout, with each value given as source text."""
    return "{'descr': %s, 'fortran_order': %s, 'shape': %s, %s}" % (descr, fortran, shape, extra)


# ---------------------------------------------------------------------------------------------
# fixture sets: each returns {relative path: (bytes, description)}

def roundtrip_fixtures():
    """roundtrip_<dt>_<shape>_<c|f>.npy: every dtype; each _f file has a _c twin (same values)."""
    shapes = {tok: [(3, 4)] for tok in DTYPE_TOKENS}
    for tok in ("f4le", "i2be", "c16be"):
        shapes[tok].append((2, 3, 4))
    for tok in ("f8le", "i4be"):
        shapes[tok] += [(), (0, 3)]
    out = {}
    for tok in DTYPE_TOKENS:
        for shape in shapes[tok]:
            stoken = "x".join(map(str, shape)) if shape else "scalar"
            stem = "roundtrip_%s_%s" % (tok, stoken)
            rng = np.random.default_rng(seed_for(stem))
            arr = random_values(token_dtype(tok), shape, rng, specials="fixed")
            out[stem + "_c.npy"] = (npy_bytes(arr),  # arr is C-ordered (and may be 0-d)
                                    "%s %s, C order" % (arr.dtype.str, shape))
            fort = np.asfortranarray(arr)
            data = npy_bytes(fort) if not fort.flags.c_contiguous else fortran_npy_bytes(arr)
            out[stem + "_f.npy"] = (data, "%s %s, Fortran order (same values as _c)"
                                    % (arr.dtype.str, shape))
    return out


def misc_fixtures():
    """README example, header versions 2.0/3.0, npz archives and valid-but-unusual headers."""
    out = {}
    example = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out["example_f4_2x3x4_c.npy"] = (npy_bytes(example), "float32 arange(24).reshape(2, 3, 4)")

    rng = np.random.default_rng(seed_for("version"))
    v = random_values(np.dtype("<f4"), (3, 4), rng, specials="fixed")
    out["version2_f4le_3x4_c.npy"] = (versioned_npy_bytes(v, (2, 0)), "<f4 (3, 4), header 2.0")
    out["version3_f4le_3x4_c.npy"] = (versioned_npy_bytes(v, (3, 0)), "<f4 (3, 4), header 3.0")

    rng = np.random.default_rng(seed_for("archive"))
    a = random_values(np.dtype("<f4"), (3, 4), rng, specials="fixed")
    b = random_values(np.dtype(">i8"), (5,), rng)
    out["archive.npz"] = (npz_bytes({"a": a, "b": b}, compress=True),
                          "savez_compressed: a <f4 (3, 4), b >i8 (5,)")
    x = random_values(np.dtype("<f8"), (2, 3), rng, specials="fixed")
    out["single.npz"] = (npz_bytes({"x": x}, compress=False), "savez (stored): x <f8 (2, 3)")

    # Valid, but not as numpy writes it: keys reordered, double quotes, odd spacing, a trailing
    # comma in the shape, no padding and no newline (so the data is not 64-byte aligned).
    odd = np.array([[1.5, -0.0], [np.inf, np.nan]], dtype="<f8")
    header = "{\"shape\":(2,2,),  'fortran_order' :False,\"descr\" : '<f8'  }"
    out["oddheader_f8le_2x2_c.npy"] = (
        raw_npy(header, odd.tobytes(), pad=False),
        "<f8 [[1.5, -0.0], [inf, nan]]; header %s (no padding, no newline)" % header)

    trail = np.array([1, -2, 2147483647], dtype="<i4")
    out["trailing_i4le_3_c.npy"] = (npy_bytes(trail) + b"TRAILING GARBAGE \x00\xff\x93NUMPY",
                                    "<i4 [1, -2, 2147483647] followed by 28 garbage bytes")
    return out


def malformed_fixtures():
    """testdata/malformed/: every file here must be refused (exit 2) by every strider command.

    Returns {name: (bytes, what is wrong, info_may_accept)}. info_may_accept marks files whose
    header is fine and only the data is wrong: `info` reads only the header, so it may report
    them (or refuse them); commands that read the data must refuse.
    """
    f4_data = np.arange(12, dtype="<f4").tobytes()
    valid = raw_npy(header_text(), f4_data)
    h = header_text
    past_eof = raw_npy(h(), b"", pad=True, header_len=1000)
    absurd = raw_npy(h(), f4_data, version=(2, 0), header_len=0xFFFFFFFF)
    cases = [
        ("empty.npy", b"", "empty file (0 bytes)"),
        ("bad_magic.npy", b"\x93NUMPX" + valid[6:], "magic string is \\x93NUMPX, not \\x93NUMPY"),
        ("text_file.npy", b"hello, this is not an npy file\n", "a text file"),
        ("truncated_magic.npy", valid[:4], "file ends inside the magic string (4 bytes)"),
        ("truncated_preamble.npy", valid[:9], "file ends inside the header-length field"),
        ("unknown_version_9_9.npy", raw_npy(h(), f4_data, version=(9, 9)),
         "format version 9.9"),
        ("unknown_version_1_1.npy", raw_npy(h(), f4_data, version=(1, 1)),
         "format version 1.1"),
        ("header_len_past_eof.npy", past_eof,
         "header length field says 1000 bytes; the whole file is %d" % len(past_eof)),
        ("header_len_absurd_v2.npy", absurd,
         "version 2.0 header length field 0xFFFFFFFF (4 GiB) in a %d-byte file" % len(absurd)),
        ("empty_header.npy", raw_npy("", f4_data, pad=False), "header length 0"),
        ("truncated_header.npy", valid[:40], "file ends in the middle of the header text"),
        ("garbage_literal.npy", raw_npy("this is not a python literal", f4_data),
         "header text is not a Python literal"),
        ("unterminated_string.npy", raw_npy("{'descr': '<f4", f4_data),
         "header text ends inside a string literal"),
        ("header_not_dict.npy", raw_npy("('<f4', False, (3, 4))", f4_data),
         "header is a tuple, not a dict"),
        ("missing_descr.npy", raw_npy("{'fortran_order': False, 'shape': (3, 4), }", f4_data),
         "no 'descr' key"),
        ("missing_fortran_order.npy", raw_npy("{'descr': '<f4', 'shape': (3, 4), }", f4_data),
         "no 'fortran_order' key"),
        ("missing_shape.npy", raw_npy("{'descr': '<f4', 'fortran_order': False, }", f4_data),
         "no 'shape' key"),
        ("extra_key.npy", raw_npy(h(extra="'extra': 1, "), f4_data), "extra key 'extra'"),
        ("descr_not_string.npy", raw_npy(h(descr="4"), f4_data), "descr is the integer 4"),
        ("descr_structured_list.npy",
         raw_npy(h(descr="[('a', '<f4'), ('b', '<i4')]"), f4_data * 2),
         "descr is a list: a structured dtype"),
        ("unknown_descr.npy", raw_npy(h(descr="'<x4'"), f4_data), "descr '<x4' is no dtype"),
        ("object_dtype.npy", raw_npy(h(descr="'|O'", shape="(2,)"),
                                     pickle.dumps([1, 2], protocol=3)),
         "object dtype '|O' (data is a pickle of [1, 2]; must never be unpickled)"),
        ("unicode_U3.npy", raw_npy(h(descr="'<U3'", shape="(2,)"),
                                   np.array(["abc", "de"], "<U3").tobytes()),
         "unicode string dtype '<U3'"),
        ("bytes_S3.npy", raw_npy(h(descr="'|S3'", shape="(2,)"),
                                 np.array([b"abc", b"de"], "|S3").tobytes()),
         "byte string dtype '|S3'"),
        ("datetime_M8D.npy", raw_npy(h(descr="'<M8[D]'", shape="(2,)"),
                                     np.array([0, 19000], "<i8").tobytes()),
         "datetime dtype '<M8[D]'"),
        ("longdouble_f16.npy", raw_npy(h(descr="'<f16'", shape="(2,)"), bytes(32)),
         "long double dtype '<f16'"),
        ("fortran_order_int.npy", raw_npy(h(fortran="0"), f4_data),
         "fortran_order is the integer 0, not a bool"),
        ("fortran_order_string.npy", raw_npy(h(fortran="'False'"), f4_data),
         "fortran_order is the string 'False'"),
        ("shape_list.npy", raw_npy(h(shape="[3, 4]"), f4_data), "shape is a list, not a tuple"),
        ("shape_int.npy", raw_npy(h(shape="12"), f4_data), "shape is an int, not a tuple"),
        ("shape_float.npy", raw_npy(h(shape="(3.0, 4)"), f4_data), "shape has a float 3.0"),
        ("shape_bool.npy", raw_npy(h(shape="(True, 3)"), f4_data[:12]),
         "shape has a bool (True, 3); numpy's header check (isinstance(x, int)) accepts it"),
        ("negative_dimension.npy", raw_npy(h(shape="(3, -4)"), f4_data),
         "negative dimension (3, -4)"),
        ("overflowing_shape.npy", raw_npy(h(shape="(1099511627776, 1099511627776)"), f4_data),
         "shape (2**40, 2**40): the element count overflows int64"),
        ("overflowing_nbytes.npy", raw_npy(h(descr="'<f8'", shape="(2305843009213693952,)"),
                                           f4_data),
         "shape (2**61,) of <f8: the count fits int64, the byte size (2**64) does not"),
        ("too_many_dims_33.npy", raw_npy(h(shape="(" + "1, " * 33 + ")"), f4_data[:4]),
         "33 dimensions (numpy's limit is 32)"),
        ("truncated_data.npy", raw_npy(h(), f4_data[:20]),
         "header promises 48 bytes of data (<f4 (3, 4)); the file has 20"),
        ("deep_nesting_lists.npy", raw_npy(h(shape="[" * 10000 + "]" * 10000), f4_data),
         "shape is 10000 nested lists (deep-recursion bait; a list is no shape anyway)"),
        ("deep_nesting_unclosed.npy", raw_npy(h(shape="(" * 10000), f4_data),
         "shape is 10000 '(' never closed"),
        ("invalid_utf8_v3.npy", raw_npy(h() + "\xff", f4_data, version=(3, 0)),
         "version 3.0 header (UTF-8) containing the byte 0xFF"),
        ("corrupt_zip.npz", b"PK\x03\x04" + bytes(range(60)), "zip magic followed by garbage"),
        ("npz_member_malformed.npz",
         _zip_one("x.npy", b"\x93NUMPX" + valid[6:]),
         "a valid zip whose single member x.npy has a bad magic string"),
    ]
    info_may_accept = {"truncated_data.npy"}
    return {name: (data, why, name in info_may_accept) for name, data, why in cases}


def _zip_one(name, payload):
    """A stored zip with a single member, fixed timestamp."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), payload)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# verification and documentation

def numpy_outcome(path):
    """What np.load(allow_pickle=False) does with a file: 'loads: <dtype> <shape>' or the error."""
    try:
        loaded = np.load(path, allow_pickle=False)
        if isinstance(loaded, np.lib.npyio.NpzFile):
            with loaded:
                arrays = {k: loaded[k] for k in loaded.files}
            return "loads: npz " + ", ".join("%s %s %s" % (k, v.dtype.str, v.shape)
                                             for k, v in arrays.items())
        return "loads: %s %s" % (loaded.dtype.str, loaded.shape)
    except Exception as e:  # noqa: BLE001 - we want to record whatever numpy does
        return "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])


def verify_valid(files):
    """Check every valid fixture with numpy: _f/_c twins equal, odd/trailing files load right."""
    def load(name):
        if name.endswith(".npz"):
            with np.load(TESTDATA / name) as z:
                return {k: z[k] for k in z.files}
        return np.load(TESTDATA / name)

    for name in files:
        if name.endswith("_f.npy"):
            f, c = load(name), load(name[:-6] + "_c.npy")
            raw = io.BytesIO((TESTDATA / name).read_bytes()[8:])
            hdr = np.lib.format.read_array_header_1_0(raw)
            assert hdr[1] is True, name + ": header must say fortran_order True"
            assert f.dtype == c.dtype and f.shape == c.shape, name
            assert f.tobytes() == c.tobytes(), name + ": values differ from the _c twin"
        else:
            load(name)
    odd = load("oddheader_f8le_2x2_c.npy")
    assert odd.dtype == np.dtype("<f8") and odd.shape == (2, 2), odd
    assert odd[0, 0] == 1.5 and np.signbit(odd[0, 1]), odd
    assert np.isinf(odd[1, 0]) and np.isnan(odd[1, 1]), odd
    trail = load("trailing_i4le_3_c.npy")
    assert trail.tolist() == [1, -2, 2147483647], trail
    assert load("version3_f4le_3x4_c.npy").tobytes() == load("version2_f4le_3x4_c.npy").tobytes()


def verify_malformed(bad):
    """The reference (scripts/reference.py) must refuse every malformed file, as strider must.

    parity.py relies on this: it expects strider to refuse whatever the reference refuses.
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import reference  # noqa: E402 - sibling module

    for name, (_, _, info_may_accept) in bad.items():
        spec = str(MALFORMED / name)
        for func in (reference.load_array, reference.info_record):
            if func is reference.info_record and info_may_accept:
                continue
            try:
                func(spec)
            except reference.RefError:
                continue
            raise AssertionError("reference.%s accepts malformed/%s" % (func.__name__, name))


def malformed_readme(entries):
    """testdata/malformed/README.md: one table row per file."""
    lines = [
        "# Malformed inputs",
        "",
        "Generated by `scripts/gen_testdata.py`; do not edit by hand. Every file here must be",
        "refused by every strider command: exit code 2, one line on stderr",
        "(`strider: <command>: ...`), no panic, no output file. Exception: the files marked",
        "*header ok* have a valid header and bad data, so `info` (which reads only the header)",
        "may report them; every command that reads the data must refuse them.",
        "",
        "The last column is what NumPy 1.24's `np.load(path, allow_pickle=False)` does, for",
        "reference. NumPy is more lenient in places (it loads string, datetime, long double and",
        "structured dtypes, and even reads `negative_dimension.npy` as shape (3, 4)); strider",
        "refuses all of these.",
        "`manifest.json` has the same information for tests.",
        "",
        "| file | what is wrong | np.load |",
        "| --- | --- | --- |",
    ]
    for e in entries:
        why = e["problem"] + (" (*header ok*)" if e["info_may_accept"] else "")
        lines.append("| `%s` | %s | %s |" % (e["file"], why.replace("|", "\\|"),
                                              e["numpy"].replace("|", "\\|")))
    return "\n".join(lines) + "\n"


def testdata_readme(valid):
    """testdata/README.md: naming scheme and the list of fixtures."""
    lines = [
        "# Test fixtures",
        "",
        "Generated by `scripts/gen_testdata.py` (NumPy 1.24); do not edit by hand. Rerun with",
        "`${PYTHON:-/usr/bin/python3} scripts/gen_testdata.py`; `--check` verifies the files are",
        "up to date. Output is byte-for-byte reproducible.",
        "",
        "- `roundtrip_<dt>_<shape>_<c|f>.npy`: `<dt>` is `b1 i1 u1` or `<code>le|be` for every",
        "  other dtype (`i2be`, `c16le`, ...); `<shape>` is `3x4`, `2x3x4`, `0x3` or `scalar`;",
        "  `_c` is written by `np.save` in C order; `_f` holds the same values with",
        "  `fortran_order: True` in the header (for `scalar` and `0x3`, which `np.save` would",
        "  always write as C order, the header comes from `write_array_header_1_0`). Floats",
        "  include NaN, +-inf and -0.0; integers include the type's min and max.",
        "- `version2_*`, `version3_*`: the same array with header format 2.0 and 3.0.",
        "- `oddheader_*`, `trailing_*`: valid files that `np.load` reads although NumPy would",
        "  not write them that way (see the table).",
        "- `expected_info.jsonl`: the reference `info --json` line for every valid input here,",
        "  `path` relative to the repository root.",
        "- `malformed/`: inputs every command must refuse; see `malformed/README.md`.",
        "",
        "| file | bytes | contents |",
        "| --- | --- | --- |",
    ]
    for name, (data, why) in sorted(valid.items()):
        lines.append("| `%s` | %d | %s |" % (name, len(data), why.replace("|", "\\|")))
    return "\n".join(lines) + "\n"


def expected_info(valid):
    """JSON lines from reference.info_records for every valid .npy, npz member and bare npz."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import reference  # noqa: E402 - sibling module

    specs = []
    for name in sorted(valid):
        rel = "testdata/" + name
        if name.endswith(".npz"):
            with zipfile.ZipFile(TESTDATA / name) as zf:
                members = [m[:-4] for m in zf.namelist()]
            specs += ["%s:%s" % (rel, m) for m in members]
            specs.append(rel)  # every member, each with a "member" key
        else:
            specs.append(rel)
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return "".join(json.dumps(r) + "\n" for s in specs for r in reference.info_records(s))
    finally:
        os.chdir(cwd)


def build():
    """All files to write: {path relative to testdata/: bytes}, plus their verification."""
    valid = {}
    valid.update(roundtrip_fixtures())
    valid.update(misc_fixtures())
    bad = malformed_fixtures()
    files = {name: data for name, (data, _) in valid.items()}
    files.update({"malformed/" + name: data for name, (data, _, _) in bad.items()})
    return valid, bad, files


def write_if_changed(path, data, check):
    """Write data to path unless identical; return True if the file was (or would be) changed."""
    if path.exists() and path.read_bytes() == data:
        return False
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if any fixture is missing or out of date")
    args = ap.parse_args(argv)

    valid, bad, files = build()
    changed = [n for n, d in sorted(files.items()) if write_if_changed(TESTDATA / n, d, args.check)]

    # Verification and the documents need the files on disk (np.load takes paths).
    if not args.check:
        verify_valid(sorted(valid))
        verify_malformed(bad)
    entries = []
    for name, (data, why, may) in sorted(bad.items()):
        entries.append({"file": name, "problem": why, "info_may_accept": may,
                        "numpy": numpy_outcome(MALFORMED / name) if (MALFORMED / name).exists()
                        else "?"})
    docs = {
        "README.md": testdata_readme(valid).encode(),
        "expected_info.jsonl": expected_info(valid).encode(),
        "malformed/README.md": malformed_readme(entries).encode(),
        "malformed/manifest.json": (json.dumps(entries, indent=1) + "\n").encode(),
    }
    changed += [n for n, d in docs.items() if write_if_changed(TESTDATA / n, d, args.check)]

    known = set(files) | set(docs)
    strays = sorted(str(p.relative_to(TESTDATA)) for p in TESTDATA.rglob("*")
                    if p.is_file() and str(p.relative_to(TESTDATA)) not in known)
    # Other writers' folders: the fuzz corpus (go test -fuzz), the torch and safetensors
    # fixtures (gen_torch_testdata.py, checked in its own step) and the --as-numpy golden
    # scripts (the Go tests). Their files get one summary line; anything else is named.
    owners = {"fuzz/": None, "torch/": "gen_torch_testdata.py", "scripts/": "the --as-numpy golden tests"}
    owned = {k: [s for s in strays if s.startswith(k)] for k in owners}
    for s in strays:
        if not any(s.startswith(k) for k in owners):
            print("note: testdata/%s is not generated by this script (left alone)" % s)
    others = ["testdata/%s (%d files: %s)" % (k, len(v), owners[k]) for k, v in owned.items()
              if v and owners[k]]
    if others:
        print("left alone: " + "; ".join(others))
    total = sum(len(d) for d in files.values()) + sum(len(d) for d in docs.values())
    verb = "would change" if args.check else "changed"
    print("%d files, %d bytes; %d %s" % (len(known), total, len(changed), verb))
    for n in changed:
        print("  %s testdata/%s" % (verb, n))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
