package cuda

import (
	_ "embed"
	"strings"
)

// The kernels, as PTX from scripts/gen-ptx.sh (committed; scripts/
// cuda-check.sh regenerates them and fails on any difference).
var (
	//go:embed kernels/copy.ptx
	copyPTX string
	//go:embed kernels/gather.ptx
	gatherPTX string
	//go:embed kernels/tri.ptx
	triPTX string
	//go:embed kernels/sort.ptx
	sortPTX string
	//go:embed kernels/cast.ptx
	castPTX string
	//go:embed kernels/unique.ptx
	uniquePTX string
	//go:embed kernels/reduce.ptx
	reducePTX string
)

// modules names each PTX module; a kernel lives in the one its name's
// prefix says (moduleOf).
var modules = []struct {
	name string
	ptx  *string
}{{"copy", &copyPTX}, {"gather", &gatherPTX}, {"tri", &triPTX}, {"sort", &sortPTX},
	{"cast", &castPTX}, {"unique", &uniquePTX}, {"reduce", &reducePTX}}

// moduleOf returns the index in modules of the module holding kernel.
func moduleOf(kernel string) int {
	switch {
	case strings.HasPrefix(kernel, "copy_strided_"), strings.HasPrefix(kernel, "transpose_"):
		return 0
	case strings.HasPrefix(kernel, "gather_"), strings.HasPrefix(kernel, "take_flat_"):
		return 1
	case strings.HasPrefix(kernel, "tri_"):
		return 2
	case strings.HasPrefix(kernel, "cast_"):
		return 4
	case strings.HasPrefix(kernel, "unique_"):
		return 5
	case strings.HasPrefix(kernel, "reduce_"):
		return 6
	}
	return 3
}
