#!/usr/bin/python3
"""Runs NumPy 1.24 on the reduction cases reduce_numpy_test.go wrote.

    reduce_numpy.py CASES.json OUTDIR

CASES.json lists cases: a raw buffer file, the array's descr, shape, strides and offset in
bytes over it (np.ndarray(..., buffer=...), so NumPy sees exactly strider's view), the
function (strider's name), axis (null, an int, or a list for a tuple), keepdims, dtype, ddof.
For case i the result goes to OUTDIR/i.npy (np.save); OUTDIR/results.json holds, per case,
NumPy's error message (or null) and its warnings as "Category: message" lines, in order, once
each.
"""

import json
import sys
import warnings

import numpy as np

FUNCS = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "std": np.std, "var": np.var,
    "min": np.min, "max": np.max, "ptp": np.ptp, "argmin": np.argmin, "argmax": np.argmax,
    "any": np.any, "all": np.all, "count-nonzero": np.count_nonzero,
    "nansum": np.nansum, "nanprod": np.nanprod, "nanmean": np.nanmean, "nanstd": np.nanstd,
    "nanvar": np.nanvar, "nanmin": np.nanmin, "nanmax": np.nanmax,
    "nanargmin": np.nanargmin, "nanargmax": np.nanargmax,
}


def main():
    cases = json.load(open(sys.argv[1]))
    outdir = sys.argv[2]
    bufs = {}
    results = []
    for i, c in enumerate(cases):
        if c["buf"] not in bufs:
            bufs[c["buf"]] = np.fromfile(c["buf"], dtype=np.uint8)
        a = np.ndarray(tuple(c["shape"]), dtype=np.dtype(c["descr"]), buffer=bufs[c["buf"]],
                       offset=c["offset"], strides=tuple(c["strides"]))
        kw = {}
        if c["axis"] is not None:
            kw["axis"] = tuple(c["axis"]) if isinstance(c["axis"], list) else c["axis"]
        if c["keepdims"]:
            kw["keepdims"] = True
        if c["dtype"]:
            kw["dtype"] = c["dtype"]
        if c["ddof"]:
            kw["ddof"] = c["ddof"]
        err = None
        seen = []
        with warnings.catch_warnings(record=True) as ws:
            warnings.simplefilter("always")
            try:
                r = FUNCS[c["op"]](a, **kw)
                np.save("%s/%d.npy" % (outdir, i), r)
            except Exception as e:  # NumPy's refusal is the expected answer
                err = str(e)
        for w in ws:
            line = "%s: %s" % (w.category.__name__, w.message)
            if line not in seen:
                seen.append(line)
        results.append({"err": err, "warnings": seen})
    json.dump(results, open("%s/results.json" % outdir, "w"))


if __name__ == "__main__":
    main()
