package npprint

// Entry points for a caller that prints one number rather than an array:
// package text's repr of an element and its array2string of a 0-d array
// are these, so that strider has one shortest-digits implementation,
// Format's Dragon4.

// FloatRepr is repr() (and str()) of a NumPy float scalar of x's size:
// positional for 0 and magnitudes in [1e-4, 1e16) ("1.0", "0.25"),
// scientific otherwise ("1e-05", "1.5e+16"), with the shortest digits that
// tell x from its neighbours.
func FloatRepr(x Float) string { return floatStr(x, '0', '-', false) }

// Array2String is numpy.array2string(a) under o. For a 0-d array it is the
// element as an array prints it ("1." for 1.0), where Str gives the
// scalar's str ("1.0").
func Array2String(a Array, o Options) string { return array2string(a, o, " ", "", "") }
