#!/usr/bin/python3
"""Generate strider's sharded-checkpoint fixtures under testdata/sharded/.

    /usr/bin/python3 scripts/gen_sharded_testdata.py          # write testdata/sharded/
    /usr/bin/python3 scripts/gen_sharded_testdata.py --check  # exit 1 if any file would change

Needs numpy (>= 1.24) and torch (>= 1.13): /usr/bin/python3 has both ($PYTHON overrides).

A small model's state_dict (an embedding, two blocks of a linear layer and a layer norm, one of
them in bfloat16, a float16 head, an int64 buffer) is written as transformers' save_pretrained
writes a checkpoint too large for one file:

- the split is huggingface_hub's split_state_dict_into_shards_factory (the state_dict's order,
  a new shard when the next tensor would pass max_shard_size, which is tiny here so that there
  are three shards; shard k of n is named model-0000k-of-0000n.safetensors, or
  pytorch_model-0000k-of-0000n.bin);
- the index is {"metadata": {"total_size": N}, "weight_map": {name: shard}}, written
  json.dumps(index, indent=2, sort_keys=True) + "\\n", as save_pretrained writes
  model.safetensors.index.json and pytorch_model.bin.index.json;
- safetensors shards carry __metadata__ {"format": "pt"}, as save_pretrained passes; they are
  written by gen_torch_testdata.write_safetensors (torch 1.13 has no safetensors module), the
  tensors in save_file's order (wider dtypes first, then by name);
- torch.save shards are torch.save(shard_dict, path), through a file of the shard's name, so
  the archive's folder is the shard's stem as in a real checkpoint.

Beside them, the same state_dict unsharded (model.safetensors, pytorch_model.bin), as an .npz
written by NumPy (reference.npz: each tensor as strider reads it, torch.load(...).numpy(), the
bfloat16 ones widened exactly to float32; laid out as np.savez lays it out, with a fixed timestamp), and as a folder of .npy files (npy/NAME.npy). The
tests read every member of both indexes and compare it with reference.npz byte for byte.
"""

import argparse
import io
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_testdata import npz_bytes  # noqa: E402
from gen_torch_testdata import bf16_bits, reference_array, write_if_changed, write_safetensors  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "testdata" / "sharded"

# bytes a shard may hold before the next tensor starts a new one: small, for three shards
MAX_SHARD_SIZE = 136

ST_NAMES = {torch.float32: "F32", torch.float16: "F16", torch.bfloat16: "BF16", torch.int64: "I64"}


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(6, 4)
        self.layers = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(4, 3, bias=False)
        self.register_buffer("position_ids", torch.arange(5, dtype=torch.int64).reshape(1, 5))


def state_dict():
    torch.manual_seed(0)
    model = Tiny()
    with torch.no_grad():  # layer norms that are not all ones and zeros
        for p in model.parameters():
            p.uniform_(-2, 2)
    model.layers[1].to(torch.bfloat16)
    model.head.to(torch.float16)
    return model.state_dict()


def split(sd, pattern):
    """huggingface_hub's split_state_dict_into_shards_factory: {file: [names]}, total_size."""
    shards, current, size, total = [], [], 0, 0
    for name, t in sd.items():
        n = t.numel() * t.element_size()
        if n > MAX_SHARD_SIZE:
            total += n
            shards.append([name])
            continue
        if size + n > MAX_SHARD_SIZE:
            shards.append(current)
            current, size = [], 0
        current.append(name)
        size += n
        total += n
    if current:
        shards.append(current)
    k = len(shards)
    return {pattern.format(suffix="-%05d-of-%05d" % (i + 1, k)): names for i, names in enumerate(shards)}, total


def safetensors_bytes(tensors):
    """A .safetensors file of {name: tensor}, tensors in save_file's order, __metadata__ format pt."""
    order = sorted(tensors.items(), key=lambda kv: (-kv[1].element_size(), kv[0]))
    items = []
    for name, t in order:
        t = t.contiguous()
        raw = bf16_bits(t).tobytes() if t.dtype == torch.bfloat16 else t.numpy().tobytes()
        items.append((name, ST_NAMES[t.dtype], tuple(t.shape), raw))
    return write_safetensors(items, metadata={"format": "pt"})


def torch_save_bytes(filename, obj):
    """torch.save(obj) through a file named filename: its archive folder is filename's stem."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, filename)
        torch.save(obj, path)
        return Path(path).read_bytes()


def index_text(weight_map, total):
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    return (json.dumps(index, indent=2, sort_keys=True) + "\n").encode()


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def build():
    sd = state_dict()
    files = {}
    for folder, pattern, index_name, write in (
            ("st", "model{suffix}.safetensors", "model.safetensors.index.json", None),
            ("pt", "pytorch_model{suffix}.bin", "pytorch_model.bin.index.json", "torch")):
        shards, total = split(sd, pattern)
        weight_map = {name: f for f, names in shards.items() for name in names}
        files["%s/%s" % (folder, index_name)] = index_text(weight_map, total)
        for f, names in shards.items():
            shard = {name: sd[name] for name in names}
            files["%s/%s" % (folder, f)] = torch_save_bytes(f, shard) if write else safetensors_bytes(shard)
    files["model.safetensors"] = safetensors_bytes(dict(sd))
    files["pytorch_model.bin"] = torch_save_bytes("pytorch_model.bin", dict(sd))
    ref = {name: reference_array(t) for name, t in sd.items()}
    files["reference.npz"] = npz_bytes(ref, compress=False)  # np.savez's layout, a fixed timestamp
    for name, a in ref.items():
        files["npy/%s.npy" % name] = npy_bytes(a)
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if any file is missing or out of date")
    args = ap.parse_args(argv)
    files = build()
    changed = [n for n, d in sorted(files.items()) if write_if_changed(OUT / n, d, args.check)]
    verb = "would change" if args.check else "changed"
    print("testdata/sharded: %d files; %d %s" % (len(files), len(changed), verb))
    for n in changed:
        print("  %s testdata/sharded/%s" % (verb, n))
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
