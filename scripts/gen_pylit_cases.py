#!/usr/bin/python3
"""Writes internal/pylit/testdata/literal_eval.json: Python's own answers for TestLiteralEval.

    /usr/bin/python3 scripts/gen_pylit_cases.py

Two grammars, each a few hundred random cases (built from the grammar's pieces, then some
mutated by deleting, doubling or inserting one character):

- "literal": a .npy header value, answered by ast.literal_eval. The answer is a canonical text
  of the value (ints as decimal, str and bytes as the hex of their bytes, containers spelt out)
  or "error". Values a header cannot hold (floats, complex numbers, sets, ints beyond 64 bits)
  are "error": pylit.ParseLiteral refuses them. Cases where pylit deliberately parts from
  literal_eval are not generated (a sign before a parenthesis or a name, dicts with repeated
  keys).
- "index": what stands between the brackets of a[...], answered by Python's parser
  (eval of numpy.s_[...]) and numpy.asarray for lists, as NumPy's indexing reads them: ints
  (beyond int64: "error"), bools, None/newaxis, Ellipsis, slices (bounds clamped to int64), and
  integer or boolean arrays with their shape and values; anything NumPy refuses as an index is
  "error". Sources whose syntax tree holds an operator other than a unary sign are not
  generated: they are not index literals.

Deterministic (seeded): rerunning leaves the file unchanged.
"""

import ast
import json
import random
import re
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "internal" / "pylit" / "testdata" / "literal_eval.json"
I64 = (-(1 << 63), (1 << 63) - 1)


def rand_int(rng):
    v = rng.choice([0, 1, 7, 42, 255, 1000, 2**31, 2**63 - 1, 2**63, 2**64, rng.randrange(10**6)])
    form = rng.choice(["dec", "dec", "hex", "oct", "bin", "under"])
    text = {"dec": str(v), "hex": hex(v), "oct": oct(v), "bin": bin(v),
            "under": "{:_}".format(v)}[form]
    if form == "hex" and rng.random() < 0.3:
        text = text.upper().replace("0X", rng.choice(["0X", "0x", "0x_"]))
    sign = rng.choice(["", "", "", "-", "+", "- "])
    return sign + text


def rand_str(rng):
    pieces = ["a", "<f4", "descr", " ", "'", '"', "\\n", "\\t", "\\x41", "\\101", "\\u00e9",
              "\\U0001F600", "\\\\", "\\q", "\\0"]
    body = "".join(rng.choice(pieces) for _ in range(rng.randrange(4)))
    prefix = rng.choice(["", "", "", "b", "r", "u", "rb", "B", "R"])
    if "b" in prefix.lower():
        body = body.replace("\\u00e9", "").replace("\\U0001F600", "")
    q = rng.choice(["'", '"', "'''", '"""'])
    if q in ("'", '"'):
        body = body.replace(q, "\\" + q)
    return prefix + q + body + q


def rand_literal(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return rng.choice([rand_int, rand_int, rand_str, lambda g: g.choice(["None", "True", "False"])])(rng)
    n = rng.randrange(4)
    items = [rand_literal(rng, depth + 1) for _ in range(n)]
    sep = rng.choice([", ", ",", " ,\n", ",\t"])
    kind = rng.choice(["list", "tuple", "dict"])
    if kind == "dict":
        keys = ["'k%d'" % i for i in range(n)]
        body = sep.join("%s: %s" % kv for kv in zip(keys, items))
        return "{" + body + rng.choice(["", ","]) + "}"
    body = sep.join(items)
    if kind == "tuple":
        return "(" + body + ("," if n == 1 or rng.random() < 0.3 else "") + ")"
    return "[" + body + rng.choice(["", ","]) + "]"


def canon_literal(v):
    if v is None or isinstance(v, bool):
        return repr(v)
    if isinstance(v, int):
        if not I64[0] <= v <= I64[1]:
            raise ValueError("beyond 64 bits")
        return "i%d" % v
    if isinstance(v, str):
        return "s:" + v.encode("utf-8", "surrogatepass").hex()
    if isinstance(v, bytes):
        return "b:" + v.hex()
    if isinstance(v, tuple):
        return "(" + " ".join(canon_literal(x) for x in v) + ")"
    if isinstance(v, list):
        return "[" + " ".join(canon_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + " ".join(canon_literal(k) + ":" + canon_literal(x) for k, x in v.items()) + "}"
    raise ValueError("not a header value")


def answer_literal(src):
    if re.search(r"[-+]\s*[(\[{A-Za-z'\"+-]", src) and "'" not in src and '"' not in src:
        return None  # pylit refuses a sign before anything but digits; literal_eval may not
    if re.search(r"[-+]\s*[(\[{A-Za-z+-]", src):
        return None
    try:
        tree = ast.parse(src.lstrip(" \t"), mode="eval")
    except Exception:
        return "error"
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and len({ast.dump(k) for k in node.keys if k}) != len(node.keys):
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\\N" in src:
            return None
    try:
        return canon_literal(ast.literal_eval(src))
    except Exception:
        return "error"


def rand_index_item(rng, depth=0):
    r = rng.random()
    if r < 0.3:
        return rand_int(rng).replace("+", rng.choice(["+", ""]))
    if r < 0.5:
        parts = [rng.choice(["", rand_int(rng), "None", "True"]) for _ in range(3)]
        return ":".join(parts[: rng.choice([2, 3])])
    if r < 0.6:
        return rng.choice(["...", "Ellipsis", "None", "newaxis", "np.newaxis", "numpy.newaxis", "True", "False"])
    if depth > 2:
        return rand_int(rng)
    shape = [rng.randrange(4) for _ in range(rng.randrange(1, 3))]
    leaf = rng.choice(["int", "bool", "mixed"])

    def build(sh):
        if not sh:
            if leaf == "bool" or (leaf == "mixed" and rng.random() < 0.5):
                return rng.choice(["True", "False"])
            return rand_int(rng)
        items = [build(sh[1:]) for _ in range(sh[0])]
        if rng.random() < 0.1 and items:
            items.pop()  # ragged now and then
        open_, close = ("(", ")") if rng.random() < 0.2 else ("[", "]")
        tail = "," if open_ == "(" and len(items) == 1 else ""
        return open_ + ", ".join(items) + tail + close
    return build(shape)


def rand_index(rng):
    items = [rand_index_item(rng) for _ in range(rng.randrange(1, 4))]
    s = rng.choice([", ", ",", " , "]).join(items)
    if rng.random() < 0.15:
        s += ","
    if rng.random() < 0.1:
        s = "(" + s + ")"
    return s


def canon_index_item(e):
    if isinstance(e, bool) or isinstance(e, np.bool_):
        return "bool:%s" % bool(e)
    if isinstance(e, int):
        if not I64[0] <= e <= I64[1]:
            raise ValueError("beyond int64")
        return "i:%d" % e
    if e is None:
        return "None"
    if e is Ellipsis:
        return "..."
    if isinstance(e, slice):
        parts = []
        for p in (e.start, e.stop, e.step):
            if p is None:
                parts.append("None")
            elif isinstance(p, int):
                parts.append(str(min(max(int(p), I64[0]), I64[1])))
            else:
                raise ValueError("slice part")
        return "slice(%s)" % ",".join(parts)
    if isinstance(e, (list, tuple)):
        a = np.asarray(e)
        if a.size == 0 and a.dtype == np.float64:
            a = a.astype(np.int64)
        shape = ",".join(str(d) for d in a.shape)
        if a.dtype == np.bool_:
            return "ab:(%s):%s" % (shape, ",".join(str(int(x)) for x in a.ravel()))
        if a.dtype.kind == "i":
            return "ai:(%s):%s" % (shape, ",".join(str(int(x)) for x in a.ravel()))
    raise ValueError("not an index")


ALLOWED = (ast.Expression, ast.Subscript, ast.Name, ast.Load, ast.Constant, ast.UnaryOp, ast.USub,
           ast.UAdd, ast.List, ast.Tuple, ast.Slice, ast.Attribute)


def answer_index(src):
    text = "x[" + src + "]"
    try:
        tree = ast.parse(text, mode="eval")
    except Exception:
        return "error"
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED) or isinstance(node, ast.Subscript) and node is not tree.body:
            return None
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, type(None), type(Ellipsis))):
            return "error"
    try:
        v = eval(compile(tree, "<index>", "eval"),
                 {"x": np.s_, "np": np, "numpy": np, "newaxis": None, "__builtins__": {"Ellipsis": Ellipsis}})
        items = v if isinstance(v, tuple) else (v,)
        return " | ".join(canon_index_item(e) for e in items)
    except Exception:
        return "error"


def mutate(rng, s):
    if not s:
        return s
    i = rng.randrange(len(s))
    op = rng.choice(["del", "dup", "ins"])
    if op == "del":
        return s[:i] + s[i + 1:]
    if op == "dup":
        return s[:i] + s[i] + s[i:]
    return s[:i] + rng.choice(list("[](),:-+ 0_xL.'\"#\\e")) + s[i:]


def main():
    rng = random.Random(16)
    cases = []
    for grammar, gen, answer, want in (("literal", rand_literal, answer_literal, 300),
                                        ("index", rand_index, answer_index, 300)):
        seen = set()
        while sum(c["grammar"] == grammar for c in cases) < want:
            src = gen(rng)
            if rng.random() < 0.35:
                src = mutate(rng, src)
            if src in seen:
                continue
            seen.add(src)
            a = answer(src)
            if a is not None:
                cases.append({"grammar": grammar, "src": src, "want": a})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(c) for c in cases) + "\n]\n")
    print("wrote %d cases to %s" % (len(cases), OUT))


if __name__ == "__main__":
    main()
