#!/usr/bin/env python3
# the same as: strider from-text --dtype '<i4' --usecols 0,-1 --skiprows 1 - -o t.npy
import numpy as np
import sys

r = np.loadtxt(sys.stdin, dtype='<i4', skiprows=1, usecols=(0, -1))
np.save('t.npy', np.ascontiguousarray(r) if r.ndim else r)  # C order; a 0-d result stays 0-d
