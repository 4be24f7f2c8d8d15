#!/usr/bin/python3
"""Parity check for `strider from-text IN|-` against np.save(out, np.loadtxt(IN, ...)).

    go build -o /tmp/strider . && /usr/bin/python3 scripts/parity_from_text.py --strider /tmp/strider

Generated texts: tables of 1..6 rows and 1..5 columns (one row, one column and one number
included, so every shape rule of loadtxt is met) of numbers written many ways (signs, exponents
in both cases, leading/trailing points, long digit strings, nan/NaN/inf/-Infinity/+inf, and for
integer dtypes out-of-range values and floats, which NumPy casts), separated by spaces, tabs or a
delimiter (, ; tab), with blank lines, whole-line and trailing comments (#, %, //), CRLF or CR
line ends, leading whitespace, and sometimes a ragged row, a bad token or no data at all.
Options sampled per case: --dtype (every dtype of CLI.md, some big-endian), --delimiter/--csv,
--comments, --skiprows, --usecols (negative too), --ndmin; input from a file or standard input
(-). A few cases use --json on json.dumps(a.tolist()) of random arrays (ragged ones too).

NumPy succeeds with data: strider's .npy must equal np.save's bytes. NumPy raises, or finds no
data (it warns and returns an empty array): strider must exit 2 with one "strider: from-text: "
line naming the line, write nothing and leave no output file; where NumPy refuses the options themselves (a
TypeError: a line break as delimiter or comment marker, a whitespace comment marker without a
delimiter) the line names no line of the text. NumPy finds no data (it warns and returns an empty
array): strider must write the same empty array and print NumPy's warning as its only line on
standard error.

Texts also use Unicode whitespace (U+2003, U+00A0, U+3000, U+202F, ...) between and around fields,
complex fields spelled the odd ways NumPy reads or refuses ("7+-5.0j", "( 4+5j )", "1+2 j", "(1"),
and inputs without data (empty, blank, comments only, all rows skipped). Beside the random cases,
NUMPY_TESTS holds the cases of NumPy's own loadtxt tests (test_loadtxt.py, test_io.py) that the
command line can express, each run against NumPy itself.
"""

import argparse
import concurrent.futures
import io
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import selfcheck  # noqa: E402 - sibling module

RUN_TMP = os.environ.get("PARITY_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
DTYPES = ["float64", "float32", "float16", ">f8", "<f4", "int64", "int32", "int16", "int8", "uint8",
          "uint16", "uint32", "uint64", ">i4", "bool", "complex128", "complex64"]
SPECIALS = ["nan", "NaN", "inf", "-inf", "+inf", "Infinity", "-Infinity", "INF", "-nan"]
# Python's whitespace beyond ASCII, which NumPy's tokenizer splits at and its parsers trim.
UNICODE_SPACES = ["\u2003", "\u00a0", "\u3000", "\u202f", "\u2009", "\u1680", "\u205f", "\u0085"]
# Complex spellings NumPy 1.24 reads, or refuses, beyond a+bj: a sign after the '+', parentheses
# with spaces inside (only where a delimiter splits the fields), an unclosed parenthesis.
COMPLEX_ODD = ["7+-5.0j", "7++5j", "(4)", "(-19e2j)", "(0)", "8j", "-infj", "nan+nanj", "1e5-2E-3j",
               "1+-+3", "(1j", "(1", "(1+2j", "1+2j)", "7-+5j", "1+j", "1e+j", "((1))"]
COMPLEX_SPACED = ["( 4+5j )", "(1.5 )", "( 9j )", " ( 6+-7j )  ", "1 +2j", "1+ 2j", "1+2 j", "(1+2j) x"]


def float_token(rng):
    x = rng.gauss(0, 1) * 10 ** rng.randint(-8, 8)
    r = rng.random()
    if r < 0.05:
        return rng.choice(SPECIALS)
    if r < 0.15:
        return str(rng.randint(-1000, 1000))
    if r < 0.25:
        return rng.choice(["+", ""]) + f"{abs(x):.3f}"
    if r < 0.35:
        return f"{x:e}".replace("e", rng.choice(["e", "E"]))
    if r < 0.4:
        return rng.choice([".5", "5.", "-.25", "+1e5", "1e400", "-1e-400", "0.1000000000000000055511151231257827"])
    return repr(x) if r < 0.7 else f"{x:.17g}"


def int_token(rng, dt):
    r = rng.random()
    info = np.iinfo(dt) if dt.kind in "iu" else None
    if r < 0.7 or info is None:
        return str(rng.randint(-5, 300) if dt.kind != "b" else rng.randint(0, 2))
    if r < 0.8:
        return str(rng.choice([info.min, info.max, info.max + 1, info.min - 1, -1]))
    if r < 0.9:
        return rng.choice(["1.5", "-2.7", "1e3", "nan", "1e30", "-3e9", "70000.5"])
    return rng.choice(["+7", " 8", "-0"])


def complex_token(rng):
    r = rng.random()
    a, b = float_token(rng), float_token(rng)
    if r < 0.3:
        return a
    if r < 0.5:
        return f"{b}j" if not b.startswith(("n", "N", "i", "I")) else "2j"
    if r < 0.6:
        return rng.choice(COMPLEX_ODD)
    sign = "" if b.startswith(("-", "+")) else "+"
    t = f"{a}{sign}{b}j"
    return f"({t})" if rng.random() < 0.2 else t


def make_text(rng, dt):
    rows, cols = rng.choice([(1, 1), (1, 4), (5, 1), (3, 3), (6, 5), (4, 2)])
    delim = rng.choice([None, None, ",", "\t", ";"])
    comment = rng.choice(["#", "#", "%", "//"])
    lines = []
    for _ in range(rows):
        if dt.kind == "c":
            toks = [complex_token(rng) for _ in range(cols)]
            if delim is not None and rng.random() < 0.3:
                toks[rng.randrange(cols)] = rng.choice(COMPLEX_SPACED)
        elif dt.kind in "iub":
            toks = [int_token(rng, dt) for _ in range(cols)]
        else:
            toks = [float_token(rng) for _ in range(cols)]
        sep = delim if delim else rng.choice([" ", "  ", "\t", " \t "] + UNICODE_SPACES)
        if delim is not None and rng.random() < 0.1:
            toks = [rng.choice(UNICODE_SPACES) + t + rng.choice(["", " "] + UNICODE_SPACES) for t in toks]
        line = sep.join(toks)
        if delim is None and rng.random() < 0.2:
            line = rng.choice([" ", "\t"] + UNICODE_SPACES) + line + rng.choice(["", " ", "\t"] + UNICODE_SPACES)
        if rng.random() < 0.15:
            line += " " + comment + " note"
        lines.append(line)
        if rng.random() < 0.1:
            lines.append(rng.choice(["", comment + " a comment"] + ([" "] if delim is None else [])))
    r = rng.random()
    if r < 0.05 and rows > 1:
        lines[1] = lines[1] + (delim or " ") + "9"  # ragged
    elif r < 0.1:
        lines[rng.randrange(len(lines))] += (delim or " ") + rng.choice(["x", "1_0", "0x1p3", "1e", "--1"])
    elif r < 0.16:
        lines = rng.choice([[comment + " only comments", ""], [""], ["", "", ""], [comment]]
                           + ([["  ", "\t" + UNICODE_SPACES[0]]] if delim is None else []))
    if rng.random() < 0.2:
        lines.insert(0, comment + " header")
    end = rng.choice(["\n", "\n", "\n", "\r\n", "\r"])
    text = end.join(lines) + (end if rng.random() < 0.8 else "")
    return text, delim, comment, cols


NO_DATA = "loadtxt: input contained no data"


def reference(path, kw):
    """np.save's bytes of np.loadtxt(path, **kw) and whether NumPy warned that the input held no
    data, or the exception NumPy raised."""
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            a = np.loadtxt(path, encoding="utf-8", **kw)
    except Exception as e:  # noqa: BLE001 - a refusal is an answer too
        return e
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue(), any(NO_DATA in str(w.message) for w in seen)


def cli_options(kw):
    """The from-text options that ask for np.loadtxt(**kw)."""
    opts = []
    for key, value in kw.items():
        if key == "usecols":
            opts.append("--usecols=" + ",".join(map(str, value)))
        elif key == "dtype":
            opts += ["--dtype", np.dtype(value).name if np.dtype(value).isnative else np.dtype(value).str]
        else:
            opts.append(f"--{key}={value}")
    return opts


# NumPy 1.24's own loadtxt tests (numpy/lib/tests/test_loadtxt.py, and test_io.py's TestLoadTxt)
# that the command line can express: the test's text and its keyword arguments among dtype,
# delimiter, comments, skiprows, usecols and ndmin. NumPy is the reference, as for the random
# cases (run without the tests' warnings-as-errors filters, so an integer read through a float
# is NumPy's deprecated cast, as strider does it).
_INTS = [np.dtype(c).name for c in "bBhHiIlLqQ"]
_NUMERIC = _INTS + ["float16", "float32", "float64", "complex64", "complex128", "bool"]
_SPACES = (" ", "\t", "\u2003", "\u00A0", "\u3000")
_ROW = ("1.5, 2.5," * 50000)[:-1] + "\n"
_CPLX = "(1.0-2.5j),3.75,(7+-5.0j)\n(4),(-19e2j),(0)"
_CLINE = " 1 , 2+3j , ( 4+5j ), ( 6+-7j )  , 8j , ( 9j ) \n"
NUMPY_TESTS = [
    ("test_scientific_notation", "1.0e-1,2.0E1,3.0\n4.0e-2,5.0E-1,6.0\n7.0e-3,8.0E1,9.0\n0.0e-4,1.0E-1,2.0",
     {"delimiter": ","}),
    *[(f"test_comment_multiple_chars[{c}]", "# IGNORE\n1.5, 2.5# ABC\n3.0,4.0# XXX\n5.5,6.0\n".replace("#", c),
       {"delimiter": ",", "comments": c}) for c in ["..", "//", "@-", "this is a comment:"]],
    *[(f"test_ndmin_single_row_or_col[{i},{n}]", d, {"dtype": "int64", "ndmin": n})
      for i, d in enumerate(["1 2 3 4 5\n", "1\n2\n3\n4\n5\n"]) for n in (0, 1, 2)],
    *[(f"test_blank_lines_spaces_delimit[{ws!a}]",
       f"1 2{ws}30\n\n{ws}\n4 5 60{ws}\n  {ws}  \n7 8 {ws} 90\n  # comment\n3 2 1", {"dtype": "int64", "comments": "#"})
      for ws in _SPACES],
    ("test_blank_lines_normal_delimiter", "1,2,30\n\n4,5,60\n\n7,8,90\n# comment\n3,2,1",
     {"dtype": "int64", "delimiter": ","}),
    *[(f"test_exception_message_bad_values[{d}]", "1,2\n3,XXX\n5,6", {"dtype": d, "delimiter": ","})
      for d in ("float64", "int16")],
    ("test_ragged_usecols", "0,0,XXX\n0,XXX,0,XXX\n0,XXX,XXX,0,XXX\n", {"delimiter": ",", "usecols": [0, -2]}),
    ("test_ragged_usecols[error]", "0,0,XXX\n0\n0,XXX,XXX,0,XXX\n", {"delimiter": ",", "usecols": [0, -2]}),
    ("test_read_huge_row", _ROW * 2, {"delimiter": ","}),
    *[(f"test_huge_float[{d}]", "0" * 1000 + ".123456789", {"dtype": d})
      for d in ("float16", "float32", "float64", "complex64", "complex128")],
    ("test_float_conversion", "0.9999999999999999\n9876543210.123456\n5.43215432154321e+300\n0.901\n0.333", {}),
    ("test_bool", "1, 0\n10, -1", {"dtype": "bool", "delimiter": ","}),
    *[(f"test_integer_signs[{d},{s}]", f"{s}2\n", {"dtype": d}) for d in _INTS for s in ("+", "-", "++", "+-", "--", "-+")],
    *[(f"test_implicit_cast_float_to_int_fails[{d}]", "1.0, 2.1, 3.7\n4, 5, 6", {"dtype": d, "delimiter": ","})
      for d in _INTS],
    *[(f"test_complex_parsing[{d},{p}]", _CPLX if p else _CPLX.replace("(", "").replace(")", ""),
       {"dtype": d, "delimiter": ","}) for d in ("complex64", "complex128") for p in (False, True)],
    ("test_read_from_generator", "0,0,0\n1,2,1\n2,4,4\n3,6,9", {"dtype": "int64", "delimiter": ","}),
    *[(f"test_warn_on_no_data[{d!a},{n},{u}]", d, {"ndmin": n, **({"usecols": [1, 2, 3]} if u else {})})
      for d in ("", "\n\n\n", "# 1 2 3\n# 4 5 6\n") for n in (0, 1, 2) for u in (False, True)],
    *[(f"test_warn_on_skipped_data[{k}]", "1 2 3\n4 5 6", {"skiprows": k}) for k in (2, 3)],
    *[(f"test_unicode_whitespace_stripping[{d}]", " 3 ,\u202f2 \n", {"dtype": d, "delimiter": ","}) for d in _NUMERIC],
    *[(f"test_unicode_whitespace_stripping_complex[{d}]", _CLINE + _CLINE.replace(" ", "\u202f"),
       {"dtype": d, "delimiter": ","}) for d in ("complex64", "complex128")],
    *[(f"test_bad_complex[{f}]", f + "\n", {"dtype": "complex128", "delimiter": ","})
      for f in ["1 +2j", "1+ 2j", "1+2 j", "1+-+3", "(1j", "(1", "(1+2j", "1+2j)"]],
    *[(f"test_nul_character_error[{d}]", "1\0", {"dtype": d, "delimiter": ","}) for d in _NUMERIC],
    *[(f"test_no_thousands_support[{d}]", "1_1\n", {"dtype": d}) for d in _NUMERIC if d != "float16"],
    ("test_delimiter_comment_collision_raises", "1, 2, 3", {"delimiter": ",", "comments": ","}),
    *[(f"test_collision_with_default_delimiter_raises[{ws!a}]", f"1{ws}2{ws}3\n4{ws}5{ws}6\n", {"comments": ws})
      for ws in _SPACES],
    *[(f"test_control_character_newline_raises[{nl!a},{k}]", f"1{nl}2{nl}3{nl}{nl}4{nl}5{nl}6{nl}{nl}", {k: nl})
      for nl in ("\n", "\r") for k in ("delimiter", "comments")],
    ("test_control_characters_as_bytes", "#header\n1,2,3", {"delimiter": ",", "comments": "#"}),
    *[(f"TestLoadTxt.test_array[{d}]", "1 2\n3 4", {"dtype": d}) for d in ("int64", "float64")],
    ("TestLoadTxt.test_1D", "1\n2\n3\n4\n", {"dtype": "int64"}),
    ("TestLoadTxt.test_1D[comma]", "1,2,3,4\n", {"dtype": "int64", "delimiter": ","}),
    ("TestLoadTxt.test_comments_unicode", "# comment\n1,2,3,5\n", {"dtype": "int64", "delimiter": ",", "comments": "#"}),
    ("TestLoadTxt.test_comments_multi_chars", "/* comment\n1,2,3,5\n", {"dtype": "int64", "delimiter": ",", "comments": "/*"}),
    ("TestLoadTxt.test_comments_multi_chars[error]", "*/ comment\n1,2,3,5\n",
     {"dtype": "int64", "delimiter": ",", "comments": "/*"}),
    *[(f"TestLoadTxt.test_skiprows[{t!a}]", t, {"dtype": "int64", "delimiter": ",", "skiprows": 1})
      for t in ("comment\n1,2,3,5\n", "# comment\n1,2,3,5\n")],
    ("TestLoadTxt.test_usecols", "1.000000000000000000e+00 2.000000000000000000e+00\n"
     "3.000000000000000000e+00 4.000000000000000000e+00\n", {"usecols": [1]}),
    ("TestLoadTxt.test_empty_file", "", {}),
    ("TestLoadTxt.test_empty_file[int64]", "", {"dtype": "int64"}),
    ("TestLoadTxt.test_uint64_type", "9223372043271415339 9223372043271415853", {"dtype": "uint64"}),
    ("TestLoadTxt.test_int64_type", "-9223372036854775807 9223372036854775807", {"dtype": "int64"}),
    ("TestLoadTxt.test_default_float_converter_no_default_hex_conversion", "a b c", {}),
    ("TestLoadTxt.test_default_float_converter_exception", "qrs tuv", {}),
    ("TestLoadTxt.test_from_complex", "(1+1j) (1-1j)", {"dtype": "complex128"}),
    ("TestLoadTxt.test_complex_misformatted", "(3.1415926535897931e00+-2.7182818284590451e+00j) "
     "(3.1415926535897931e00+-2.7182818284590451e+00j)\n" * 2, {"dtype": "complex128"}),
    ("TestLoadTxt.test_universal_newline", "1 21\r3 42\r", {}),
    ("TestLoadTxt.test_ndmin_keyword[1]", "1,2,3\n4,5,6", {"dtype": "int64", "delimiter": ",", "ndmin": 1}),
    *[(f"TestLoadTxt.test_ndmin_keyword[{t!a},{n}]", t, {"dtype": "int64", "delimiter": ",", "ndmin": n})
      for t in ("0,1,2", "0\n1\n2") for n in (0, 1, 2)],
]


def json_reference(text, dtype):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            a = np.array(json.loads(text), dtype=dtype)
    except Exception as e:  # noqa: BLE001
        return e
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue(), False


def run_case(strider, text, argv_opts, want, seed, tmp_root):
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        src = os.path.join(tmp, "in.txt")
        Path(src).write_bytes(text.encode())
        out = os.path.join(tmp, "out.npy")
        stdin = rng.random() < 0.3
        argv = [strider, "from-text", "-" if stdin else src] + argv_opts + ["-o", out]
        with open(src, "rb") as f:
            p = subprocess.run(argv, stdin=f if stdin else subprocess.DEVNULL, capture_output=True, timeout=60)
        left = sorted(os.listdir(tmp))
        lines = p.stderr.decode(errors="replace").splitlines()
        if isinstance(want, Exception):
            if p.returncode != 2:
                return argv, text, f"NumPy refuses ({type(want).__name__}: {want}); strider exits {p.returncode}"
            # A TypeError refuses the options, before any line is read.
            where = "" if isinstance(want, TypeError) else "line"
            if len(lines) != 1 or not lines[0].startswith("strider: from-text: ") or where not in lines[0]:
                return argv, text, f"error output is not one 'strider: from-text: ...{where}...' line: {lines!r}"
            if p.stdout or left != ["in.txt"]:
                return argv, text, f"refused but wrote output (files {left})"
            # The printed --as-numpy script must refuse too.
            return argv, text, selfcheck.check_refused(argv[0], argv[1:], text.encode() if stdin else None, out)
        want, warned = want
        name = "standard input" if stdin else src
        warning = [f'strider: from-text: warning: {NO_DATA}: "{name}"'] if warned else []
        if p.returncode != 0 or lines != warning:
            return argv, text, f"exit {p.returncode}, stderr {lines!r}; want 0 and {warning!r}"
        got = Path(out).read_bytes()
        if got != want:
            return argv, text, f"output differs from NumPy: {np.load(io.BytesIO(got))!r} / {np.load(io.BytesIO(want))!r}"
        # The printed --as-numpy script must compute the same bytes.
        return argv, text, selfcheck.check(argv[0], argv[1:], text.encode() if stdin else None, out, False, got)


def write_reference_text(folder, i, text):
    path = os.path.join(folder, f"ref{i}.txt")
    with open(path, "w", newline="", encoding="utf-8") as f:
        f.write(text)
    return path


def run(strider, cases=500, seed=0, verbose=False, workers=3):
    if not Path(strider).exists():
        raise FileNotFoundError(f"no strider binary at {strider}")
    rng = random.Random(seed)
    keep = tempfile.mkdtemp(prefix="parity_from_text_", dir=RUN_TMP)
    jobs = []
    for i in range(cases):
        dtype = DTYPES[i % len(DTYPES)]
        dt = np.dtype(dtype)
        if rng.random() < 0.1:
            shape = rng.choice([(), (0,), (3,), (2, 3), (2, 0), (2, 2, 2)])
            a = np.random.default_rng(i).standard_normal(shape)
            if dt.kind == "f":
                a.flat[::3] = np.nan
            lst = a.tolist() if dt.kind in "fc" else np.round(a * 10).astype(int).tolist()
            text = json.dumps(lst)
            if rng.random() < 0.2 and text.startswith("[["):
                text = text.replace("]", ", 1]", 1)  # ragged
            jobs.append((text, ["--json", "--dtype", dtype], json_reference(text, dtype), rng.randrange(2**32)))
            continue
        text, delim, comment, cols = make_text(rng, dt)
        kw, opts = {"dtype": dt}, ["--dtype", dtype]
        if delim == "," and rng.random() < 0.5:
            opts.append("--csv")
        elif delim is not None:
            opts.append(f"--delimiter={delim}")
        kw["delimiter"] = delim
        kw["comments"] = comment
        if comment != "#" or rng.random() < 0.2:
            opts.append(f"--comments={comment}")
        if rng.random() < 0.2:
            kw["skiprows"] = rng.randint(0, 3)
            opts += ["--skiprows", str(kw["skiprows"])]
        if rng.random() < 0.25:
            uc = rng.sample(range(-cols, cols + 1), min(cols, rng.randint(1, 2)))
            kw["usecols"] = uc
            opts.append("--usecols=" + ",".join(map(str, uc)))
        if rng.random() < 0.25:
            kw["ndmin"] = rng.randint(0, 2)
            opts += ["--ndmin", str(kw["ndmin"])]
        if rng.random() < 0.02:
            # Options NumPy refuses with a TypeError.
            bad = rng.choice([("comments", " "), ("comments", "\u3000"), ("comments", "\t"), ("delimiter", "\n"),
                              ("delimiter", "\r"), ("comments", "\n")])
            if bad[0] == "delimiter" or bad[1] not in "\n\r":
                kw.pop("delimiter", None)  # a whitespace marker collides with whitespace splitting
                opts = [o for o in opts if not o.startswith(("--delimiter", "--csv"))]
            kw[bad[0]] = bad[1]
            opts = [o for o in opts if not o.startswith("--" + bad[0])] + [f"--{bad[0]}={bad[1]}"]
        jobs.append((text, opts, reference(write_reference_text(keep, i, text), kw), rng.randrange(2**32)))
    # NumPy's own tests, every one of them, beside the random cases.
    for k, (_, text, kw) in enumerate(NUMPY_TESTS):
        jobs.append((text, cli_options(kw), reference(write_reference_text(keep, cases + k, text), kw),
                     rng.randrange(2**32)))
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futs = [pool.submit(run_case, strider, t, o, w, s, keep) for t, o, w, s in jobs]
        for fut in futs:
            argv, text, why = fut.result()
            if why is None:
                passed += 1
                if verbose:
                    print("ok  ", shlex.join(argv[2:]))
            else:
                failed += 1
                print(f"FAIL {why}\n  text {text!r}\n  $ {shlex.join(argv)}", flush=True)
    shutil.rmtree(keep, ignore_errors=True)
    return dict(passed=passed, failed=failed, skipped=0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--strider", default="./strider")
    ap.add_argument("--cases", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    res = run(args.strider, cases=args.cases, seed=args.seed, verbose=args.verbose)
    print(f"from-text: {res['passed']} passed, {res['failed']} failed, {res['skipped']} skipped "
          f"({time.time() - start:.0f}s)")
    return 1 if res["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
