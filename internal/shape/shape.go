// Package shape holds what is known of an array from its shape alone, for
// the packages that lay arrays out: ops (views) and npprint (the printed
// edges).
package shape

// CStrides returns the element strides of a C-contiguous array of shape.
func CStrides(shape []int) []int {
	s := make([]int, len(shape))
	step := 1
	for k := len(shape) - 1; k >= 0; k-- {
		s[k] = step
		step *= shape[k]
	}
	return s
}
