// Package text is strider's text formats and number formatting: NumPy's
// loadtxt and savetxt, Python's %-formats, JSON lists, and the repr and
// array2string of a number.
package text
