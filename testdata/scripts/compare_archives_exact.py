#!/usr/bin/env python3
# the same as: strider compare --exact testdata/archive.npz testdata/single.npz
import numpy as np

# two archives, compared member by member as strider lists them (A's order, then those
# only in B): NumPy has no call that pairs two archives' members
differ = []  # the members not equal, or on one side only
differ.append('a')  # only in A
differ.append('b')  # only in A
differ.append('x')  # only in B
# an AssertionError exits 1, as strider does when a member differs or is on one side only
assert not differ, f'{len(differ)} of 3 members not equal: {differ}'
