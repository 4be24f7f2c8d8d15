"""The self-check of --as-numpy / --as-torch: a printed script must compute what strider wrote.

    import selfcheck
    problem = selfcheck.check(strider, args, stdin, out_path, to_stdout, got, lib="numpy")

After a case in which strider succeeded, `check` asks the same command line with --as-numpy (or
--as-torch) for its script and runs the script in this process (NumPy and PyTorch are already
imported here; a new interpreter per case would cost more than the case). The script sees the
case's standard input and writes to a private standard output; its output file replaces
strider's (whose bytes the caller holds in `got`) and must be the same bytes. Returns None when
they agree, "skip" when the library cannot hold the dtype (torch 1.13 has no uint16/32/64) or
its torch.load(weights_only=True) cannot read a float value in a checkpoint (1.13), or
a description of the disagreement; either side may be the wrong one.
"""

import ast
import builtins
import functools
import io
import os
import subprocess
import sys
import threading
import types
import warnings
from pathlib import Path


# CPython before 3.13 keeps the AST constructor's recursion depth per interpreter, not per
# thread (gh-106905): two threads parsing at once (compile, eval of a string, ast.literal_eval)
# can fail with "SystemError: AST constructor recursion depth mismatch". The harnesses parse from
# their worker threads (index literals, expressions, printed scripts), and one such failure
# stopped a CI run, so in every process that imports this module each parse takes one lock.
_PARSE_LOCK = threading.RLock()


def _serialized(fn):
    @functools.wraps(fn)
    def locked(*args, **kwargs):
        with _PARSE_LOCK:
            return fn(*args, **kwargs)
    return locked


if sys.version_info < (3, 13) and not hasattr(builtins.compile, "__wrapped__"):
    builtins.compile = _serialized(builtins.compile)
    builtins.eval = _serialized(builtins.eval)
    ast.parse = _serialized(ast.parse)


def _script(strider, args, flag):
    args = list(args)
    at = args.index("--") if "--" in args else len(args)  # the flag goes before an "--"
    p = subprocess.run([strider] + args[:at] + [flag] + args[at:], capture_output=True, timeout=60)
    if p.returncode != 0:
        return None, f"{flag} exited {p.returncode}: {p.stderr.decode(errors='replace').strip()}"
    return p.stdout.decode(), None


_LOCK = threading.Lock()  # one script at a time: warnings and the working folder are global


def run_script(text, stdin=None, cwd=None):
    """Runs a printed script in this process; returns (stdout bytes, exception or None)."""
    with _LOCK:
        return _run_script(text, stdin, cwd)


def _run_script(text, stdin, cwd):
    fake_sys = types.ModuleType("sys")
    fake_sys.__dict__.update({k: v for k, v in vars(sys).items() if not k.startswith("__")})
    fake_sys.stdin = io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8", newline="")
    out = io.BytesIO()
    fake_sys.stdout = io.TextIOWrapper(out, encoding="utf-8", newline="\n", write_through=True)
    fake_sys.argv = ["script"]
    real_import = builtins.__import__

    def imp(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "sys":
            return fake_sys
        return real_import(name, globals, locals, fromlist, level)

    def prt(*args, **kw):
        kw.setdefault("file", fake_sys.stdout)
        builtins.print(*args, **kw)

    env = {"__builtins__": dict(vars(builtins), __import__=imp, print=prt), "__name__": "__main__"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            code = compile(text, "<script>", "exec")
            if cwd is None:
                exec(code, env)  # noqa: S102 - strider's own printed script
            else:
                old = os.getcwd()
                os.chdir(cwd)
                try:
                    exec(code, env)  # noqa: S102
                finally:
                    os.chdir(old)
    except Exception as e:  # noqa: BLE001 - a refusal is an answer too
        return out.getvalue(), e
    return out.getvalue(), None


def check(strider, args, stdin, out_path, to_stdout, got, lib="numpy", extra_outputs=()):
    """Runs the printed script of a case strider passed; None when it writes the same bytes.

    extra_outputs: (path, bytes strider wrote there) for a second output (sort --indices)."""
    flag = "--as-torch" if lib == "torch" else "--as-numpy"
    text, err = _script(strider, args, flag)
    if err:
        return err
    if not to_stdout and out_path is not None:
        Path(out_path).unlink(missing_ok=True)
    for p, _ in extra_outputs:
        if p != "-":
            Path(p).unlink(missing_ok=True)
    try:
        return _judge(text, flag, lib, stdin, out_path, to_stdout, got, extra_outputs)
    finally:
        # strider's own outputs go back in place for whatever the caller checks next.
        if not to_stdout and out_path is not None:
            Path(out_path).write_bytes(got)
        for p, want in extra_outputs:
            if p != "-" and want is not None:
                Path(p).write_bytes(want)


def _judge(text, flag, lib, stdin, out_path, to_stdout, got, extra_outputs):
    stdout, exc = run_script(text, stdin)
    if exc is not None:
        if lib == "torch" and isinstance(exc, TypeError) and "can't convert np.ndarray" in str(exc):
            return "skip"
        if lib == "torch" and "not implemented for 'Bool'" in str(exc):
            return "skip"
        if "WeightsUnpickler error: Unsupported operand 71" in str(exc):
            return "skip"  # torch 1.13's torch.load(weights_only=True) lacks BINFLOAT (a float value)
        return f"{flag} script raised {type(exc).__name__}: {exc}\n{text}"
    mine = stdout if to_stdout else (Path(out_path).read_bytes() if Path(out_path).exists() else None)
    if mine != got:
        return f"{flag} script wrote other bytes ({None if mine is None else len(mine)} vs " \
               f"strider's {len(got)}; headers {mine[:80] if mine else None!r} / {got[:80]!r})\n{text}"
    for p, want in extra_outputs:
        b = Path(p).read_bytes() if Path(p).exists() else None
        if b != want:
            return f"{flag} script wrote other bytes to {p}\n{text}"
    return None


def check_refused(strider, args, stdin, out_path=None, lib="numpy"):
    """After a case strider refused: the printed script must fail too (or --as-* refuse the
    command line itself). None when they agree."""
    flag = "--as-torch" if lib == "torch" else "--as-numpy"
    text, err = _script(strider, args, flag)
    if err:
        return None  # the command line itself is refused, by both
    saved = Path(out_path).read_bytes() if out_path is not None and Path(out_path).exists() else None
    try:
        _, exc = run_script(text, stdin)
    finally:
        if out_path is not None:
            if saved is not None:
                Path(out_path).write_bytes(saved)
            else:
                Path(out_path).unlink(missing_ok=True)
    if exc is None:
        return f"strider refused, but the {flag} script ran without an error\n{text}"
    return None


def check_stdout(strider, args, stdin, got, same=None):
    """After a case strider passed that prints text (stats): the script must print the same
    text; same(theirs, ours) may loosen the comparison. None when they agree."""
    text, err = _script(strider, args, "--as-numpy")
    if err:
        return err
    stdout, exc = run_script(text, stdin)
    if exc is not None:
        return f"--as-numpy script raised {type(exc).__name__}: {exc}\n{text}"
    if not (same or (lambda a, b: a == b))(stdout, got):
        return f"--as-numpy script printed {stdout[:300]!r}, strider {got[:300]!r}\n{text}"
    return None


def check_verdict(strider, args, rc):
    """After compare exited rc (0 equal, 1 differ): the script must end the same way (no
    error, or an AssertionError). None when they agree."""
    text, err = _script(strider, args, "--as-numpy")
    if err:
        return err
    _, exc = run_script(text, None)
    mine = 0 if exc is None else 1 if isinstance(exc, AssertionError) else 2
    if mine != rc:
        return f"strider exited {rc}, the --as-numpy script as {mine} ({type(exc).__name__}: {exc})\n{text}"
    return None
