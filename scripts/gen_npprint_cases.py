#!/usr/bin/python3
"""Writes internal/npprint/testdata/*.json: NumPy's own answers for the Go table tests.

    /usr/bin/python3 scripts/gen_npprint_cases.py

- format.json: numpy.format_float_positional / format_float_scientific of float16, float32 and
  float64 values (random bits, powers of two, subnormals, extremes, decimal-looking values) under
  random precision, unique, min_digits, sign, trim, pad_left, pad_right and exp_digits.
- arrays.json: str() and repr() of arrays (every dtype, 0-d to 3-d, special values, summarized
  and not) under random np.printoptions, including cases ported from NumPy's
  test_arrayprint.py and test_scalarprint.py.

- show_fixtures.json: print() of every .npy in testdata/ (all dtypes, both byte orders, C and
  Fortran, 0-d, empty), str and repr, with default options and summarized, for strider's
  command test (cmd/show_linux_test.go) to check the reading of bytes, strides and byte
  orders.

Every expected string is NumPy's output; nothing is written by hand. The script is
deterministic (seeded), so rerunning it leaves the files unchanged.
"""

import json
import random
import struct
import sys
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "internal" / "npprint" / "testdata"
FTYPES = {2: np.float16, 4: np.float32, 8: np.float64}
UTYPES = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def bits_of(x):
    x = np.asarray(x)
    return int(x.view(UTYPES[x.dtype.itemsize]))


def special_values(size):
    """Values whose printing is delicate, as numpy scalars of the float type."""
    t = FTYPES[size]
    fi = np.finfo(t)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 9.5, 0.05, 0.15, 0.25, 1e-4,
            9.999e-5, 1e-5, 1e8, 99999999.0, 1e16, 9.999999e15, 123456.789, 1.5, 2.5, 1e3, 1e-3,
            float(fi.max), float(fi.tiny), float(fi.smallest_subnormal), float(fi.eps),
            float(fi.max) / 3, 65504.0, 6.1e-5, 5.96e-8, 1e300, 1e-300, 5e-324, 2.0 ** 63,
            2.0 ** 24 + 2, 16777217.0, 0.1 + 0.2, 1e22, 1e23, 4.35, 0.005, 1.0005, 999.5, 9.995]
    out = []
    with np.errstate(over="ignore", under="ignore"):
        for v in vals:
            x = t(v)
            if np.isfinite(x):
                out.append(x)
        for e in range(-30, 31, 3):
            out.append(t(2.0 ** e))
    return out


def random_float(rng, size):
    t = FTYPES[size]
    while True:
        r = rng.random()
        if r < 0.5:
            b = rng.getrandbits(8 * size)
            x = np.array(b, UTYPES[size]).view(t)[()]
        elif r < 0.75:
            with np.errstate(over="ignore"):
                x = t(rng.choice([-1, 1]) * rng.randint(0, 10 ** rng.randint(1, 8)) / 10 ** rng.randint(0, 8))
        else:
            with np.errstate(over="ignore", under="ignore"):
                x = t(rng.uniform(-1, 1) * 10.0 ** rng.randint(-12, 12))
        if np.isfinite(x):
            return x


def format_cases(rng, n):
    cases = []
    pool = []
    for size in (2, 4, 8):
        pool += [(size, x) for x in special_values(size)]
    while len(pool) < n:
        size = rng.choice((2, 4, 8))
        pool.append((size, random_float(rng, size)))
    for size, x in pool:
        sci = rng.random() < 0.5
        unique = rng.random() < 0.6
        prec = None if unique and rng.random() < 0.5 else rng.randint(0, 20)
        mind = None
        if rng.random() < 0.4:
            mind = rng.randint(0, prec if prec is not None else 20)
        sign = rng.random() < 0.3
        trim = rng.choice("k.0-")
        padl = None if rng.random() < 0.6 else rng.randint(0, 6)
        padr = None if rng.random() < 0.6 else rng.randint(0, 12)
        expd = None if rng.random() < 0.6 else rng.randint(0, 6)
        if sci:
            want = np.format_float_scientific(x, precision=prec, unique=unique, trim=trim, sign=sign,
                                              pad_left=padl, exp_digits=expd, min_digits=mind)
        else:
            want = np.format_float_positional(x, precision=prec, unique=unique, fractional=True,
                                              trim=trim, sign=sign, pad_left=padl, pad_right=padr,
                                              min_digits=mind)
        neg1 = lambda v: -1 if v is None else v  # noqa: E731
        cases.append(dict(size=size, bits=str(bits_of(x)), sci=sci, unique=unique,
                          precision=neg1(prec), min_digits=neg1(mind), sign=sign, trim=trim,
                          pad_left=neg1(padl), pad_right=neg1(padr) if not sci else -1,
                          exp_digits=neg1(expd) if sci else -1, want=want))
    return cases


DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]


def random_array(rng, dt, shape):
    n = int(np.prod(shape))
    d = np.dtype(dt)
    if d.kind == "b":
        return (np.array([rng.random() < 0.5 for _ in range(n)], bool)).reshape(shape)
    if d.kind in "iu":
        info = np.iinfo(d)
        r = rng.random()
        if r < 0.3:
            vals = [rng.randint(info.min, info.max) for _ in range(n)]
        elif r < 0.4:
            vals = [rng.choice([info.min, info.max, 0]) for _ in range(n)]
        else:
            vals = [max(info.min, min(info.max, rng.randint(-120, 1000))) for _ in range(n)]
        return np.array(vals, d).reshape(shape)
    size = d.itemsize if d.kind == "f" else d.itemsize // 2
    t = FTYPES[size]
    style = rng.random()

    def one():
        r = rng.random()
        if style < 0.15 and r < 0.3:
            return rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.0])
        if style < 0.3:
            return float(random_float(rng, size))
        if style < 0.5:
            return rng.randint(-50, 50) / rng.choice([1, 2, 4, 8, 10, 100])
        if style < 0.7:
            return rng.uniform(-1, 1) * 10.0 ** rng.randint(-6, 9)
        return rng.uniform(0, 10)

    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        if d.kind == "f":
            a = np.array([one() for _ in range(n)], np.float64).astype(t)
        else:
            a = (np.array([one() for _ in range(n)], np.float64).astype(t)
                 + 1j * np.array([one() for _ in range(n)], np.float64).astype(t)).astype(d)
    return a.reshape(shape)


def elems_of(a):
    """The Go test's Elems: every element (the tests summarize themselves)."""
    out = []
    for x in a.reshape(-1):
        if a.dtype.kind == "b":
            out.append(str(int(x)))
        elif a.dtype.kind == "i":
            out.append(str(int(x) & 0xFFFFFFFFFFFFFFFF))
        elif a.dtype.kind == "u":
            out.append(str(int(x)))
        elif a.dtype.kind == "f":
            out.append(str(bits_of(x)))
        else:
            out.append(str(bits_of(x.real)))
            out.append(str(bits_of(x.imag)))
    return out


def random_options(rng):
    o = {}
    if rng.random() < 0.4:
        o["precision"] = rng.randint(0, 12)
    if rng.random() < 0.3:
        o["threshold"] = rng.choice([0, 1, 5, 10, 30, 100, 1000])
    if rng.random() < 0.3:
        o["edgeitems"] = rng.randint(0, 4)
    if rng.random() < 0.3:
        o["linewidth"] = rng.choice([1, 10, 20, 40, 75, 120])
    if rng.random() < 0.3:
        o["suppress"] = True
    if rng.random() < 0.4:
        o["floatmode"] = rng.choice(["fixed", "unique", "maxprec", "maxprec_equal"])
    if rng.random() < 0.3:
        o["sign"] = rng.choice("-+ ")
    if rng.random() < 0.1:
        o["nanstr"] = rng.choice(["NaN", "n", "not-a-number"])
    if rng.random() < 0.1:
        o["infstr"] = rng.choice(["Inf", "i", "infinity!"])
    return o


# Arrays from NumPy's test_arrayprint.py / test_scalarprint.py (values and options as there).
PORTED = [
    (np.array([1.5, 0, 1.234567890]), {}),
    (np.array([0.1, 0.123456789, 1.5]), {"floatmode": "fixed", "precision": 4}),
    (np.array([1e-8, 1.0]), {}),
    (np.array([1e8, 1.0]), {}),
    (np.array([1e-9, 1.0]), {"suppress": True}),
    (np.array([0.0, -0.0, np.nan, np.inf, -np.inf]), {}),
    (np.array([np.nan, np.inf]), {"sign": "+"}),
    (np.array([1.0, np.nan]), {"sign": " "}),
    (np.arange(1001), {}),
    (np.arange(3000).reshape(3, 1000), {}),
    (np.arange(125).reshape(5, 5, 5), {"threshold": 10}),
    (np.arange(10), {"edgeitems": 0, "threshold": 5}),
    (np.array([1.0, 2.0, 3.0], np.float16), {}),
    (np.array([0.1, 0.2, 0.3], np.float32), {"floatmode": "unique"}),
    (np.array([1, -1], np.int8), {}),
    (np.array([True, False]), {}),
    (np.array([1 + 2j, 3 - 4j]), {}),
    (np.array([1e-30 + 1e30j]), {}),
    (np.array([[1, 2], [3, 4]]) * 1e20, {}),
    (np.array([-1.0, 10.0, 100.0]), {"sign": " "}),
    (np.array([0.5, 1.5]), {"precision": 0}),
    (np.array([[1.0, 2.0]] * 4), {"linewidth": 10}),
    (np.full((2, 2, 2), np.nan), {"nanstr": "NaN"}),
    (np.array([1e16, 1e-16], np.float64), {"floatmode": "maxprec_equal"}),
]


# More from test_arrayprint.py (test_precision_zero, test_float_spacing, test_sign_spacing,
# test_floatmode, test_linewidth_repr, test_edgeitems) and test_scalarprint.py (test_str,
# test_scalar_cutoffs): each array under each option set.
def ported_sets():
    """(arrays, option sets), built with overflow warnings off (float16(1e16) is inf)."""
    with np.errstate(over="ignore"):
        return [
            ([np.array(v) for v in ([0.], [.3], [-.3], [.7], [1.5], [-1.5], [-15.34], [100.], [.2, -1, 122.51],
                                    [0], [-12], [complex(.3, -.7)])], [{"precision": 0}]),
            ([np.array([1., 2., 3.]), np.array([1., 2., -10.]), np.array([100., 2., -1.]),
              np.array([-100., 2., 1.]), np.array(1.), np.array(-10.), np.array([np.nan, np.inf]),
              np.array([np.nan, -np.inf]), np.array([np.inf, 100000, 1.1234]),
              np.array([np.inf, 100000, -1.1234]), np.array([np.inf, 1.1234, -1e120]),
              np.array([True, True]), np.array([True, False]), np.array([True]), np.array(True),
              np.array(False)], [{}, {"precision": 2}]),
            ([np.arange(4.), np.array([1.234e9]), np.array([1.0 + 1.0j, 1.123456789 + 1.123456789j], "c16"),
              np.array(1.), np.array([0.]), np.array([0., -0.])], [{}, {"sign": " "}, {"sign": "+"}]),
            ([np.array([0.6104, 0.922, 0.457, 0.0906, 0.3733, 0.007244, 0.5933, 0.947, 0.2383, 0.4226],
                       np.float16),
              np.array([0.2918820979355541, 0.5064172631089138, 0.2848750619642916, 0.4342965294660567,
                        0.7326538397312751, 0.3459503329096204, 0.0862072768214508, 0.39112753029631175]),
              np.arange(6, dtype=np.float16) / 10, np.array([1.0 + 1.0j, 1.123456789 + 1.123456789j], "c16"),
              np.array(["1e{}".format(i) for i in range(25)], np.float64), np.array([1.234e1, 1e2, 1e123])],
             [{"floatmode": m, "precision": p} for m in ("fixed", "unique", "maxprec", "maxprec_equal")
              for p in (2, 8)]),
            ([np.arange(10, 20., dtype="f4"), np.arange(10, 23., dtype="f4"), np.full(7, 2), np.full(8, 2),
              np.full(18, 2), np.array([1e4, 0.1], "f2")],
             [{}, {"linewidth": 17}, {"linewidth": 18}]),
            ([np.arange(27).reshape(3, 3, 3), np.arange(27).reshape(3, 3, 3).astype("c8")],
             [{"edgeitems": 1, "threshold": 1}, {"edgeitems": 0, "threshold": 1}]),
            ([np.array(v, t) for t in (np.float16, np.float32, np.float64)
              for v in (0.0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 1.12345678901234567890,
                        0.0112345678901234567890, 1e-5, 1e-4, 1e15, 1e16, 0.1999999999999)], [{}]),
        ]


def array_case(a, opts, rng=None):
    with np.printoptions(**opts):
        s, r = str(a), repr(a)
    bo = a.dtype.byteorder
    return dict(kind=a.dtype.kind, size=a.dtype.itemsize, shape=list(a.shape), elems=elems_of(a),
                options=opts, str=s, repr=r, descr=a.dtype.str)


def array_cases(rng, n):
    shapes = [(), (0,), (1,), (5,), (2, 3), (3, 0), (4, 5), (2, 3, 4), (12,), (30,), (7, 9), (1, 1, 1),
              (11, 3), (2, 1, 9), (50,), (4, 4, 4)]
    cases = [array_case(a, o) for a, o in PORTED]
    cases += [array_case(a, o) for arrays, optsets in ported_sets() for a in arrays for o in optsets]
    while len(cases) < n:
        dt = rng.choice(DTYPES)
        shape = rng.choice(shapes)
        cases.append(array_case(random_array(rng, dt, shape), random_options(rng)))
    return cases


FIXTURE_OPTIONS = [([], {}), (["--threshold", "5", "--edgeitems", "1", "--linewidth", "30"],
                                dict(threshold=5, edgeitems=1, linewidth=30))]


def fixture_cases():
    root = OUT.parent.parent.parent / "testdata"
    cases = []
    for path in sorted(root.glob("*.npy")):
        a = np.load(path)
        for flags, kw in FIXTURE_OPTIONS:
            for use_repr in (False, True):
                with np.printoptions(**kw):
                    text = (repr(a) if use_repr else str(a)) + "\n"
                cases.append(dict(file=path.name, args=flags + (["--repr"] if use_repr else []), want=text))
    return cases


def main():
    rng = random.Random(20241124)
    (OUT / "show_fixtures.json").write_text(json.dumps(fixture_cases(), indent=0) + "\n")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "format.json").write_text(json.dumps(format_cases(rng, 3000), indent=0) + "\n")
    (OUT / "arrays.json").write_text(json.dumps(array_cases(rng, 1500), indent=0) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
