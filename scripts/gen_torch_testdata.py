#!/usr/bin/python3
"""Generate strider's .safetensors and torch.save fixtures under testdata/torch/.

    /usr/bin/python3 scripts/gen_torch_testdata.py          # write testdata/torch/
    /usr/bin/python3 scripts/gen_torch_testdata.py --check  # exit 1 if any file would change

Needs numpy (>= 1.24) and torch (>= 1.13): /usr/bin/python3 has both ($PYTHON overrides).

- torch.save files are written by PyTorch itself (zip format; names fix the archive folder, and
  PyTorch stamps every member 1980-01-01, so the bytes are reproducible).
- .safetensors files come from write_safetensors below, a small writer that follows the
  published format (github.com/huggingface/safetensors, README "Format"): 8-byte little-endian
  header length N, N bytes of JSON padded with spaces to a multiple of 8, then the tensors'
  bytes in order. torch 1.13 has no safetensors module, so nothing here imports one.
- expected.json: for every readable tensor, the array strider must read: descr, shape and the
  hex of its C-order bytes as NumPy holds it (torch.load(...).numpy(), or the widened float32
  for bfloat16 and float8), computed from torch.load / the writer's inputs.
- malformed/: inputs every command must refuse with exit 2 and one line; manifest.json says
  why, with a piece of the message expected.

The module is imported by parity_torchfiles.py (load_reference, widen_f8, FIXTURES).
"""

import argparse
import io
import json
import os
import struct
import sys
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "testdata" / "torch"

# ---------------------------------------------------------------------------------------------
# float8 and bfloat16, exactly

def widen_f8(raw, ebits, mbits, ieee):
    """Widen float8 bytes (uint8 array) to float32 by the format's definition.

    ieee: the top exponent is inf (mantissa 0) or NaN (e5m2); else only all ones is NaN (e4m3fn).
    A NaN keeps its sign and mantissa, moved to the top of float32's mantissa.
    """
    raw = np.asarray(raw, dtype=np.uint8)
    out = np.empty(raw.shape, dtype=np.uint32)
    bias = (1 << (ebits - 1)) - 1
    top = (1 << ebits) - 1
    for i, v in np.ndenumerate(raw):
        v = int(v)
        sign = (v >> 7) << 31
        e = (v >> mbits) & top
        m = v & ((1 << mbits) - 1)
        if (ieee and e == top) or (not ieee and e == top and m == (1 << mbits) - 1):
            bits = sign | 0x7F800000 | (m << (23 - mbits))
        else:
            if e == 0:
                value = m / (1 << mbits) * 2.0 ** (1 - bias)
            else:
                value = (1 + m / (1 << mbits)) * 2.0 ** (e - bias)
            bits = sign | struct.unpack("<I", struct.pack("<f", value))[0]
        out[i] = bits
    return out.view(np.float32)


def bf16_bits(t):
    """The raw uint16 bits of a bfloat16 tensor."""
    return t.contiguous().view(torch.int16).numpy().view(np.uint16)


def reference_array(t):
    """What strider reads for torch tensor t: its NumPy array, bfloat16 widened to float32."""
    if t.dtype == torch.bfloat16:
        return (bf16_bits(t).astype(np.uint32) << np.uint32(16)).view(np.float32)  # a 0-d shift by a Python int gives int64
    return t.detach().numpy()


def flatten(obj, prefix=""):
    """(name, tensor) pairs of a torch.load result: dict keys (and list indices) joined with '.'."""
    if isinstance(obj, torch.Tensor):
        yield prefix, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if isinstance(k, bool):
                k = str(k)
            if isinstance(k, (str, int)):
                yield from flatten(v, (prefix + "." if prefix else "") + str(k))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from flatten(v, (prefix + "." if prefix else "") + str(i))


# ---------------------------------------------------------------------------------------------
# safetensors writer

ST_DTYPES = {"BOOL": "|b1", "U8": "|u1", "I8": "|i1", "I16": "<i2", "U16": "<u2", "I32": "<i4",
             "U32": "<u4", "I64": "<i8", "U64": "<u8", "F16": "<f2", "F32": "<f4", "F64": "<f8",
             "C64": "<c8"}


def write_safetensors(tensors, metadata=None, pad=True):
    """Serialize [(name, dtype_name, shape, raw_bytes)] as the format says.

    Tensors are laid out in the order given; the header lists them in that order. pad=False
    leaves the header unpadded (valid, but the data may be misaligned).
    """
    header = OrderedDict()
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dt, shape, raw in tensors:
        header[name] = {"dtype": dt, "shape": list(shape), "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(raw for _, _, _, raw in tensors)


def raw_header(n, text, data=b""):
    return struct.pack("<Q", n) + text + data


# ---------------------------------------------------------------------------------------------
# fixtures

def values(dtype, shape, seed):
    """Deterministic values of a torch dtype, with the specials a dtype has."""
    g = torch.Generator().manual_seed(seed)
    n = int(np.prod(shape)) if shape else 1
    if dtype == torch.bool:
        t = torch.randint(0, 2, (n,), generator=g).bool()
    elif dtype.is_complex:
        t = torch.randn(n, generator=g, dtype=torch.float64) + 1j * torch.randn(n, generator=g, dtype=torch.float64)
        t = t.to(dtype)
        if n >= 3:
            t[0] = complex(float("nan"), 1.0)
            t[1] = complex(float("inf"), -0.0)
    elif dtype.is_floating_point:
        t = (torch.randn(n, generator=g, dtype=torch.float64) * 100).to(dtype)
        if n >= 4:
            t[0], t[1], t[2], t[3] = float("nan"), float("inf"), float("-inf"), -0.0
    else:
        info = torch.iinfo(dtype)
        t = torch.randint(max(info.min, -1000), min(info.max, 1000), (n,), generator=g, dtype=torch.int64).to(dtype)
        if n >= 2:
            t[0], t[1] = info.min, info.max
    return t.reshape(shape)


TORCH_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8,
                torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool, torch.complex64,
                torch.complex128]


def torch_objects():
    """name -> object to torch.save, and a line saying what it is."""
    out = OrderedDict()
    out["dtypes.pt"] = (OrderedDict((str(d).replace("torch.", ""), values(d, (2, 3), i))
                                    for i, d in enumerate(TORCH_DTYPES)),
                        "one (2, 3) tensor per dtype torch 1.13 saves, specials included")
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    bbase = values(torch.bfloat16, (4, 6), 7)
    out["views.pt"] = (OrderedDict([
        ("base", base), ("t", base.t()), ("slice", base[1:, ::2]), ("col", base[:, 3]),
        ("expand", torch.arange(3, dtype=torch.int16).reshape(3, 1).expand(3, 4)),
        ("bf16_t", bbase.t()), ("bf16_slice", bbase[2:, 1::3]),
        ("c_t", values(torch.complex64, (3, 2), 9).t()),
    ]), "views sharing storages: transposed, sliced with an offset, a column, expand (stride 0), bfloat16 and complex views")
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    torch.manual_seed(0)
    for p in model.parameters():
        torch.nn.init.uniform_(p)
    out["nested.pt"] = ({"model": model.state_dict(), "extra": {"steps": [values(torch.int64, (2,), 3), values(torch.float16, (1, 2), 4)],
                                                                 "note": "text", "lr": 0.5, 7: torch.tensor([7])},
                         "epoch": 3},
                        "a checkpoint: a module's state_dict (OrderedDict with _metadata), nested dicts, a list, an int key, non-tensors")
    out["scalar.pt"] = (torch.tensor(2.5, dtype=torch.float64), "a bare 0-d tensor")
    out["param.pt"] = (torch.nn.Parameter(values(torch.float32, (2, 2), 5)), "a bare nn.Parameter")
    out["empty.pt"] = (OrderedDict([("e", torch.empty(0, 3)), ("s", torch.tensor(-7, dtype=torch.int32)),
                                    ("eb", torch.empty(2, 0, dtype=torch.bfloat16))]), "empty tensors and a 0-d one")
    out["list.pt"] = ([values(torch.int8, (4,), 6), (values(torch.float32, (2,), 8),)], "a list holding a tensor and a tuple")
    return out


def torch_bytes(name, obj):
    # torch.save names the folder after a file's stem (a buffer gets "archive"): save through a
    # real file so the folder is the fixture's stem, as users see it.
    path = OUT / ("." + name + ".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(obj, str(path))
    data = path.read_bytes()
    path.unlink()
    return data


F8_ALL = np.arange(256, dtype=np.uint8)


def safetensors_fixtures():
    out = OrderedDict()
    items = []
    for i, (st, descr) in enumerate(ST_DTYPES.items()):
        d = np.dtype(descr)
        if d.kind == "b":
            a = np.array([[True, False, True], [False, False, True]])
        elif d.kind in "iu":
            info = np.iinfo(d)
            a = np.array([[info.min, info.max, 0], [1, 2, 3]], dtype=d)
        elif d.kind == "c":
            a = np.array([[1 + 2j, np.nan, np.inf], [-0.0, 3.5j, -1]], dtype=d)
        else:
            a = np.array([[np.nan, np.inf, -np.inf], [-0.0, 1.5, -2.25]], dtype=d)
        items.append(("x_" + st.lower(), st, a.shape, a.astype(descr).tobytes()))
    bf = bf16_bits(values(torch.bfloat16, (2, 3), 11))
    items.append(("x_bf16", "BF16", (2, 3), bf.astype("<u2").tobytes()))
    items.append(("x_f8_e4m3", "F8_E4M3", (16, 16), F8_ALL.tobytes()))
    items.append(("x_f8_e5m2", "F8_E5M2", (256,), F8_ALL.tobytes()))
    items.append(("scalar", "F64", (), np.array(3.25).tobytes()))
    items.append(("empty", "F32", (0, 4), b""))
    items.append(("layer.0.weight", "F32", (2, 2), np.arange(4, dtype="<f4").tobytes()))
    out["dtypes.safetensors"] = (write_safetensors(items, {"format": "pt", "note": "ünïcode"}),
                                 "every dtype, a 0-d and an empty tensor, a dotted name; __metadata__")
    out["single.safetensors"] = (write_safetensors([("w", "I32", (3, 2), np.arange(6, dtype="<i4").tobytes())]),
                                 "one tensor, no metadata (read without :NAME)")
    out["unpadded.safetensors"] = (write_safetensors([("b", "U8", (3,), b"\x01\x02\x03"),
                                                      ("f", "F64", (2,), np.array([1.5, -2.0]).tobytes())], pad=False),
                                   "header not padded: the float64 data is misaligned (read through a copy)")
    out["empty.safetensors"] = (write_safetensors([]), "no tensors at all")
    return out


def st_reference(items_bytes):
    """name -> numpy array, for a safetensors file of this generator (parsed back by hand)."""
    n = struct.unpack("<Q", items_bytes[:8])[0]
    header = json.loads(items_bytes[8:8 + n])
    data = items_bytes[8 + n:]
    out = OrderedDict()
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        raw = data[b:e]
        dt = info["dtype"]
        shape = tuple(info["shape"])
        if dt == "BF16":
            a = (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
        elif dt == "F8_E4M3":
            a = widen_f8(np.frombuffer(raw, np.uint8), 4, 3, False)
        elif dt == "F8_E5M2":
            a = widen_f8(np.frombuffer(raw, np.uint8), 5, 2, True)
        else:
            a = np.frombuffer(raw, ST_DTYPES[dt])
        out[name] = a.reshape(shape)
    return out


def load_reference(path):
    """name -> numpy array strider must read from a fixture (torch.load for torch files)."""
    path = Path(path)
    if path.suffix == ".safetensors":
        return st_reference(path.read_bytes())
    obj = torch.load(str(path))
    return OrderedDict((n, reference_array(t)) for n, t in flatten(obj))


# ---------------------------------------------------------------------------------------------
# malformed corpus

def zip_bytes(members):
    """A zip of (name, bytes) members, stored, stamped 1980 as torch.save stamps them."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
    return buf.getvalue()


def P(*ops):
    return b"".join(ops)


def uni(s):
    s = s.encode()
    return b"X" + struct.pack("<I", len(s)) + s


def glob(mod, name):
    return b"c" + mod.encode() + b"\n" + name.encode() + b"\n"


def tensor_pickle(storage_type="FloatStorage", key="0", numel=4, offset=0, size=(4,), stride=(1,)):
    """Protocol-2 pickle of {'w': tensor} the way torch.save writes it."""
    tup = lambda xs: b"(" + b"".join(b"J" + struct.pack("<i", x) for x in xs) + b"t"
    return P(b"\x80\x02}(", uni("w"), glob("torch._utils", "_rebuild_tensor_v2"),
             b"((", uni("storage"), glob("torch", storage_type), uni(key), uni("cpu"),
             b"J" + struct.pack("<i", numel), b"tQ", b"J" + struct.pack("<i", offset),
             tup(size), tup(stride), b"\x89", glob("collections", "OrderedDict"), b")R", b"tR", b"u.")


def torch_zip(pkl, storages=(("0", b"\0" * 16),), prefix="bad"):
    return zip_bytes([(prefix + "/data.pkl", pkl)] + [(prefix + "/data/" + k, v) for k, v in storages]
                     + [(prefix + "/version", b"3\n")])


def malformed_fixtures(valid):
    good_st = valid["single.safetensors"][0]
    n = struct.unpack("<Q", good_st[:8])[0]
    good_pt = valid["dtypes.pt"][0]
    f4 = np.arange(4, dtype="<f4").tobytes()
    bad = OrderedDict()

    def st(name, data, why, expect):
        bad[name] = (data, why, expect)

    st("st_truncated.safetensors", good_st[:-5], "the data cut short by 5 bytes", "run past the end")
    st("st_header_truncated.safetensors", good_st[:8 + n // 2], "cut in the middle of the header", "runs past the end of the file")
    st("st_huge_header.safetensors", raw_header(2**63, b"{}"), "header length 2**63", "over the limit")
    st("st_header_over_limit.safetensors", raw_header(100_000_001, b"{" + b" " * 64), "header length just over 100 MB", "over the limit")
    bad_text = b'{"w\xff\xfe":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}'
    st("st_not_utf8.safetensors", raw_header(len(bad_text), bad_text, b"\0"), "the header is not UTF-8", "not valid UTF-8")

    def hdr(obj_text, data=b""):
        t = obj_text.encode()
        return raw_header(len(t), t, data)

    st("st_bad_json.safetensors", hdr('{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},}', b"\0"), "a trailing comma", "not valid JSON")
    st("st_duplicate_key.safetensors", hdr('{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}', b"\0\0"),
       "the same tensor name twice", "twice")
    st("st_trailing_text.safetensors", hdr('{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}} x', b"\0"), "text after the JSON object", "after its JSON object")
    st("st_lying_offsets.safetensors", hdr('{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,160]}}', f4), "data_offsets past the end of the file", "run past the end")
    st("st_overlap.safetensors", hdr('{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}', f4),
       "two tensors overlapping", "overlap")
    st("st_hole.safetensors", hdr('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}}', f4),
       "a hole between two tensors", "hole")
    st("st_size_mismatch.safetensors", hdr('{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}', f4), "shape says 12 bytes, offsets 16", "hold 16")
    st("st_trailing_bytes.safetensors", hdr('{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}}', f4), "4 bytes after the last tensor", "after its last tensor")
    st("st_negative_dim.safetensors", hdr('{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,16]}}', f4), "a negative dimension", "not an integer")
    st("st_float_dim.safetensors", hdr('{"a":{"dtype":"F32","shape":[4.0],"data_offsets":[0,16]}}', f4), "a dimension written 4.0", "not an integer")
    st("st_overflow.safetensors", hdr('{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,16]}}', f4), "a shape whose size overflows", "overflows")
    st("st_metadata_not_string.safetensors", hdr('{"__metadata__":{"a":1},"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"\0"), "__metadata__ with a number", "not a string")
    st("st_missing_field.safetensors", hdr('{"w":{"dtype":"U8","shape":[1]}}', b"\0"), "no data_offsets", "no data_offsets")
    st("st_unknown_dtype.safetensors", hdr('{"w":{"dtype":"F4","shape":[2],"data_offsets":[0,1]}}', b"\0"), "dtype F4 (4-bit floats), refused by name", '"F4"')

    # torch.save
    st("pt_truncated.pt", good_pt[: len(good_pt) // 2], "the zip cut in half", "")
    st("pt_legacy.pt", legacy_bytes()[:64], "the legacy (PyTorch < 1.6) format (its first 64 bytes: the rest names storages by address)", "re-save")
    st("pt_os_system.pt", torch_zip(P(b"\x80\x02", glob("posix", "system"), b"(", uni("echo pwned > /tmp/strider-pwned"), b"tR.")),
       "a pickle that calls os.system through GLOBAL 'posix system' and REDUCE", "posix.system")
    st("pt_builtins_eval.pt", torch_zip(P(b"\x80\x02", glob("builtins", "eval"), b"(", uni("1"), b"tR.")), "GLOBAL builtins.eval", "builtins.eval")
    st("pt_stack_global.pt", torch_zip(P(b"\x80\x04", b"\x8c\x05posix\x8c\x06system\x93", b"(", uni("true"), b"tR.")),
       "protocol 4 STACK_GLOBAL naming posix.system", "posix.system")
    # Billion laughs: a list holding the previous one ten times, 40 levels deep: 10**40 leaves
    # when walked, a few hundred bytes of pickle.
    bomb = b"\x80\x02]q\x00"
    for i in range(1, 41):
        bomb += b"](" + (b"h" + bytes([i - 1])) * 10 + b"eq" + bytes([i])
    st("pt_bomb_fanout.pt", torch_zip(bomb + b"."), "a billion-laughs pickle (10**40 leaves)", "")
    st("pt_bomb_nesting.pt", torch_zip(b"\x80\x02" + b"(" * 3000 + b"."), "3000 nested MARKs", "")
    st("pt_deep_lists.pt", torch_zip(b"\x80\x02" + b"]" * 2000 + b"a" * 1999 + b"."), "2000 lists nested in each other", "deeper than")
    st("pt_cycle.pt", torch_zip(b"\x80\x02}q\x00X\x01\x00\x00\x00ah\x00s."), "a dict that holds itself", "deeper than")
    st("pt_unknown_opcode.pt", torch_zip(b"\x80\x02I1\n."), "opcode INT (text), which weights_only refuses", "opcode")
    st("pt_storage_short.pt", torch_zip(tensor_pickle(numel=4), (("0", b"\0" * 8),)), "a storage record shorter than numel says", "numel")
    st("pt_view_out_of_bounds.pt", torch_zip(tensor_pickle(numel=4, offset=2, size=(4,), stride=(1,)), (("0", f4),)),
       "a view reaching past its storage", "storage")
    st("pt_negative_stride.pt", torch_zip(tensor_pickle(numel=4, offset=3, size=(4,), stride=(-1,)), (("0", f4),)),
       "a negative stride", "stride")
    st("pt_missing_storage.pt", torch_zip(tensor_pickle(numel=4), ()), "no data/0 record", "data/0")
    st("pt_quantized.pt", torch_zip(tensor_pickle(storage_type="QInt8Storage", numel=4), (("0", b"\0" * 4),)), "a quantized storage, refused by name", "QInt8Storage")
    st("pt_no_stop.pt", torch_zip(b"\x80\x02]"), "a pickle without STOP", "")
    return bad


def legacy_bytes():
    buf = io.BytesIO()
    torch.save(torch.arange(3, dtype=torch.float32), buf, _use_new_zipfile_serialization=False)
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------

def build():
    valid = OrderedDict()
    for name, (obj, why) in torch_objects().items():
        valid[name] = (torch_bytes(name, obj), why)
    valid.update(safetensors_fixtures())
    bad = malformed_fixtures(valid)
    return valid, bad


def expected(valid):
    rows = []
    for name in valid:
        for tname, a in load_reference(OUT / name).items():
            a = a.copy(order="C")  # ascontiguousarray would make a 0-d array 1-d
            rows.append({"file": name, "name": tname, "descr": a.dtype.str, "shape": list(a.shape),
                         "hex": a.tobytes().hex()})
    return "".join(json.dumps(r) + "\n" for r in rows)


def write_if_changed(path, data, check):
    if path.exists() and path.read_bytes() == data:
        return False
    if not check:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    return True


def readme(valid, bad):
    lines = ["# torch.save and .safetensors fixtures", "",
             "Generated by `scripts/gen_torch_testdata.py` (PyTorch 1.13, NumPy 1.24); do not edit.",
             "`expected.jsonl` holds the array strider must read for every tensor (C-order bytes in hex).", "",
             "| file | bytes | contents |", "| --- | --- | --- |"]
    lines += ["| `%s` | %d | %s |" % (n, len(d), w) for n, (d, w) in valid.items()]
    lines += ["", "## malformed/ (exit 2, one line, no output)", "", "| file | bytes | problem |", "| --- | --- | --- |"]
    lines += ["| `%s` | %d | %s |" % (n, len(d), w) for n, (d, w, _) in bad.items()]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file is missing or out of date")
    args = ap.parse_args(argv)
    valid, bad = build()
    files = {n: d for n, (d, _) in valid.items()}
    files.update({"malformed/" + n: d for n, (d, _, _) in bad.items()})
    changed = [n for n, d in files.items() if write_if_changed(OUT / n, d, args.check)]
    manifest = [{"file": n, "problem": w, "expect": e} for n, (_, w, e) in bad.items()]
    docs = {"README.md": readme(valid, bad).encode(),
            "malformed/manifest.json": (json.dumps(manifest, indent=1) + "\n").encode()}
    if not args.check or not changed:
        docs["expected.jsonl"] = expected(valid).encode()
    changed += [n for n, d in docs.items() if write_if_changed(OUT / n, d, args.check)]
    verb = "would change" if args.check else "changed"
    print("testdata/torch: %d files; %d %s" % (len(files) + len(docs), len(changed), verb))
    for n in changed:
        print("  %s testdata/torch/%s" % (verb, n))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
