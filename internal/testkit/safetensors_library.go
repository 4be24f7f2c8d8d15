package testkit

import "strings"

// LibraryFile is a .safetensors file whose every byte the safetensors
// library's own tests assert save() and save_file() write
// (bindings/python/tests/test_simple.py, v0.4.0 to v0.7.0 and the main
// branch of May 2026): the one oracle of the layout that needs no copy of
// the library, which is not installed here.
type LibraryFile struct {
	Name  string
	Bytes []byte
	// Saved is what was saved: each tensor's name, dtype code, shape and
	// little-endian data, in the order the test passed them, and the
	// metadata (nil: none).
	Tensors  []LibraryTensor
	Metadata map[string]string
}

// LibraryTensor is one tensor a LibraryFile saved.
type LibraryTensor struct {
	Name, Dtype string
	Shape       []int
	Data        []byte
}

// LibraryFiles are the files of the library's tests, byte for byte.
var LibraryFiles = []LibraryFile{
	{
		// test_serialization: save({"test": np.zeros((2, 2), dtype=np.int32)}),
		// and save_file of the same.
		Name: "serialization",
		Bytes: []byte("@\x00\x00\x00\x00\x00\x00\x00" + `{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}   ` +
			" " + strings.Repeat("\x00", 16)),
		Tensors: []LibraryTensor{{"test", "I32", []int{2, 2}, make([]byte, 16)}},
	},
	{
		// test_serialization with data[1, 1] = 1.
		Name: "serialization_one",
		Bytes: []byte("@\x00\x00\x00\x00\x00\x00\x00" + `{"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}   ` +
			" " + strings.Repeat("\x00", 12) + "\x01\x00\x00\x00"),
		Tensors: []LibraryTensor{{"test", "I32", []int{2, 2}, []byte(strings.Repeat("\x00", 12) + "\x01\x00\x00\x00")}},
	},
	{
		// test_serialization_forces_alignment: save({"test2": f16 zeros,
		// "test1": i32 zeros}) in either order: I32 before F16.
		Name: "forces_alignment",
		Bytes: []byte("\x80\x00\x00\x00\x00\x00\x00\x00" + `{"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]},"test2":{"dtype":"F16","shape":[2,2],"data_offsets":[16,24]}}` +
			"      " + strings.Repeat("\x00", 24)),
		Tensors: []LibraryTensor{{"test2", "F16", []int{2, 2}, make([]byte, 8)}, {"test1", "I32", []int{2, 2}, make([]byte, 16)}},
	},
	{
		// test_serialization_metadata: save({"test1": i32 zeros},
		// metadata={"framework": "pt"}).
		Name: "metadata",
		Bytes: []byte("`\x00\x00\x00\x00\x00\x00\x00" + `{"__metadata__":{"framework":"pt"},"test1":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}` +
			" " + strings.Repeat("\x00", 16)),
		Tensors:  []LibraryTensor{{"test1", "I32", []int{2, 2}, make([]byte, 16)}},
		Metadata: map[string]string{"framework": "pt"},
	},
}
