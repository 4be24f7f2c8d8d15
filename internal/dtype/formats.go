package dtype

// Format is an element type that a file strider reads may hold, with the
// names each format gives it: a NumPy dtype, or one NumPy lacks (bfloat16,
// the float8s, complex32, the quantized integers) by PyTorch's name.
// Package npy reads its safetensors dtype codes and torch.save storage
// classes from Formats, and keeps only the functions that widen the types
// NumPy lacks.
type Format struct {
	Torch       string // PyTorch's name: torch.<Torch> ("float32", "bfloat16")
	Dtype       Dtype  // NumPy's dtype; the zero Dtype where NumPy has none
	Size        int    // bytes per element as stored
	Storage     string // the torch.save storage class ("FloatStorage"); "" for none
	Tensor      string // the legacy tensor class torch.load admits ("FloatTensor"); "" for none
	Safetensors string // the safetensors dtype code ("F32"); "" for none strider reads
	// WeightsOnly: PyTorch 1.13's torch.load(weights_only=True) admits
	// the global torch.<Torch> in a pickle.
	WeightsOnly bool
}

// Formats are the element types of NumPy, safetensors and torch.save that
// strider knows: the 14 NumPy dtypes, then those NumPy lacks.
var Formats = []Format{
	{"bool", Dtype{'b', 1, '|'}, 1, "BoolStorage", "BoolTensor", "BOOL", false},
	{"uint8", Dtype{'u', 1, '|'}, 1, "ByteStorage", "ByteTensor", "U8", false},
	{"int8", Dtype{'i', 1, '|'}, 1, "CharStorage", "CharTensor", "I8", true},
	{"int16", Dtype{'i', 2, '<'}, 2, "ShortStorage", "ShortTensor", "I16", true},
	{"int32", Dtype{'i', 4, '<'}, 4, "IntStorage", "IntTensor", "I32", true},
	{"int64", Dtype{'i', 8, '<'}, 8, "LongStorage", "LongTensor", "I64", true},
	{"uint16", Dtype{'u', 2, '<'}, 2, "UInt16Storage", "", "U16", false},
	{"uint32", Dtype{'u', 4, '<'}, 4, "UInt32Storage", "", "U32", false},
	{"uint64", Dtype{'u', 8, '<'}, 8, "UInt64Storage", "", "U64", false},
	{"float16", Dtype{'f', 2, '<'}, 2, "HalfStorage", "HalfTensor", "F16", true},
	{"float32", Dtype{'f', 4, '<'}, 4, "FloatStorage", "FloatTensor", "F32", true},
	{"float64", Dtype{'f', 8, '<'}, 8, "DoubleStorage", "DoubleTensor", "F64", true},
	{"complex64", Dtype{'c', 8, '<'}, 8, "ComplexFloatStorage", "", "C64", true},
	{"complex128", Dtype{'c', 16, '<'}, 16, "ComplexDoubleStorage", "", "", true},

	// NumPy has none of these. strider reads the first three widened
	// exactly to float32 and refuses the rest by name.
	{"bfloat16", Dtype{}, 2, "BFloat16Storage", "BFloat16Tensor", "BF16", false},
	{"float8_e4m3fn", Dtype{}, 1, "Float8_e4m3fnStorage", "", "F8_E4M3", false},
	{"float8_e5m2", Dtype{}, 1, "Float8_e5m2Storage", "", "F8_E5M2", false},
	{"complex32", Dtype{}, 4, "ComplexHalfStorage", "", "", true},
	{"qint8", Dtype{}, 1, "QInt8Storage", "", "", false},
	{"quint8", Dtype{}, 1, "QUInt8Storage", "", "", false},
	{"qint32", Dtype{}, 4, "QInt32Storage", "", "", false},
	{"quint4x2", Dtype{}, 1, "QUInt4x2Storage", "", "", false},
	{"quint2x4", Dtype{}, 1, "QUInt2x4Storage", "", "", false},
	{"float8_e4m3fnuz", Dtype{}, 1, "Float8_e4m3fnuzStorage", "", "", false},
	{"float8_e5m2fnuz", Dtype{}, 1, "Float8_e5m2fnuzStorage", "", "", false},
	{"float8_e8m0fnu", Dtype{}, 1, "Float8_e8m0fnuStorage", "", "", false},
	{"float4_e2m1fn_x2", Dtype{}, 1, "Float4_e2m1fn_x2Storage", "", "", false},
}

// NumPy reports whether NumPy has the type: f.Dtype is one of its dtypes.
func (f Format) NumPy() bool { return f.Dtype.Check() == nil }

// TorchFormat returns the format PyTorch calls torch.<name>.
func TorchFormat(name string) (Format, bool) {
	for _, f := range Formats {
		if f.Torch == name {
			return f, true
		}
	}
	return Format{}, false
}
