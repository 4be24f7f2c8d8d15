package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"strider/formats"
	"strider/formats/npy"
	"strider/internal/pylit"
	"strider/internal/termsafe"
	"strider/ops"
)

// tensorRecord is one line of info --json for a tensor of a .safetensors
// or torch.save file: the keys of infoRecord that apply, then the format's.
type tensorRecord struct {
	Path          string            `json:"path"`
	Member        *string           `json:"member,omitempty"`
	Shape         []int             `json:"shape"`
	Dtype         string            `json:"dtype"`
	Descr         string            `json:"descr"`
	FortranOrder  bool              `json:"fortran_order"`
	Count         int64             `json:"count"`
	NBytes        int64             `json:"nbytes"`
	Format        string            `json:"format"`
	StoredDtype   string            `json:"stored_dtype"`
	StoredNBytes  int64             `json:"stored_nbytes"`
	Strides       []int             `json:"strides,omitempty"`
	StorageOffset *int              `json:"storage_offset,omitempty"`
	Error         string            `json:"error,omitempty"`
	Metadata      map[string]string `json:"__metadata__,omitempty"`
	// Shard is the shard file of a tensor of a sharded checkpoint, as its
	// index names it; absent for other files.
	Shard string `json:"shard,omitempty"`
}

// printTensors prints one line per tensor of tf, which spec names: a whole
// file (then each line names its tensor, as FILE:NAME in text and as the
// member key in JSON, as info lists an .npz) or one tensor. The file's
// strings (names, dtype names) are escaped in text for the terminal, and
// exact in JSON.
func printTensors(w io.Writer, enc *json.Encoder, asJSON bool, spec string, tf *npy.TensorFile) error {
	if len(tf.Tensors) == 0 && !asJSON {
		_, err := fmt.Fprintf(w, "%s: no tensors, %s\n", spec, formatName(tf.Format))
		return err
	}
	for i := range tf.Tensors {
		t := &tf.Tensors[i]
		listed := spec == tf.Path // the whole file
		named := listed && (t.Name != "" || len(tf.Tensors) > 1)
		if err := printTensor(w, enc, asJSON, spec, listed, named, t, tf.Format, tf.Metadata, ""); err != nil {
			return err
		}
	}
	return nil
}

// printSharded prints one line per tensor of a sharded checkpoint, as
// printTensors prints a tensor file's, each naming its shard: " shard
// FILE" ends the text line and "shard" is a key of the JSON object. spec
// is the index (each line then names its tensor) or INDEX:NAME.
func printSharded(w io.Writer, enc *json.Encoder, asJSON bool, spec string, tensors []formats.ShardedTensor) error {
	if len(tensors) == 0 && !asJSON {
		_, err := fmt.Fprintf(w, "%s: no tensors, sharded checkpoint\n", spec)
		return err
	}
	_, _, hasMember := formats.SplitSpec(spec)
	for i := range tensors {
		t := &tensors[i]
		if err := printTensor(w, enc, asJSON, spec, !hasMember, !hasMember, &t.Tensor, t.Format, t.Metadata, t.Shard); err != nil {
			return err
		}
	}
	return nil
}

// formatName is a tensor file format as info names it.
func formatName(format string) string {
	return map[string]string{"safetensors": "safetensors", "torch": "torch.save"}[format]
}

// printTensor prints the line of tensor t of a file of the given format:
// its label is spec, then ":NAME" when named; listed adds the member key
// to JSON; shard, when not "", names the shard of a sharded checkpoint.
func printTensor(w io.Writer, enc *json.Encoder, asJSON bool, spec string, listed, named bool, t *npy.Tensor, format string, metadata map[string]string, shard string) error {
	path := spec
	if named {
		path += ":" + termsafe.Escape(t.Name)
	}
	r := tensorRecord{
		Path: spec, Shape: nonNil(t.Shape), Dtype: t.Dtype.Name(), Descr: t.Dtype.Descr(),
		Count: t.Count(), NBytes: t.NBytes(), Format: format, StoredDtype: t.Stored,
		StoredNBytes: t.StoredNBytes(), Metadata: metadata, Shard: shard,
	}
	if listed {
		r.Member = &t.Name
	}
	layout := "C order"
	if t.Strides != nil {
		r.Strides, r.StorageOffset = t.Strides, &t.Offset
		switch {
		case equalStrides(t.Shape, t.Strides, ops.CStrides(t.Shape)):
		case equalStrides(t.Shape, t.Strides, ops.FStrides(t.Shape)):
			layout, r.FortranOrder = "Fortran order", true
		default:
			layout = "strides " + pylit.ShapeString(t.Strides)
		}
		if t.Offset != 0 {
			layout += fmt.Sprintf(", storage offset %d", t.Offset)
		}
	}
	if t.Err != nil {
		r.Error = t.Err.Error()
		r.Dtype, r.Descr, r.NBytes = t.Stored, "", 0
	}
	if asJSON {
		return enc.Encode(r)
	}
	var line string
	switch {
	case t.Err != nil:
		line = fmt.Sprintf("%s: %s, shape %s, not read: %s", path, termsafe.Escape(t.Stored), pylit.ShapeString(r.Shape), termsafe.Escape(t.Err.Error()))
	default:
		dtype := r.Dtype
		if t.Widened {
			dtype = termsafe.Escape(t.Stored) + " (read as " + r.Dtype + ")"
		}
		bytes := fmt.Sprintf("%d bytes", r.NBytes)
		if r.StoredNBytes != r.NBytes {
			bytes += fmt.Sprintf(" (%d in the file)", r.StoredNBytes)
		}
		line = fmt.Sprintf("%s: %s (%s), shape %s, %s, %d elements, %s, %s",
			path, dtype, r.Descr, pylit.ShapeString(r.Shape), layout, r.Count, bytes, formatName(format))
	}
	if shard != "" {
		line += ", shard " + termsafe.Escape(shard)
	}
	_, err := fmt.Fprintln(w, strings.ReplaceAll(line, "\n", " "))
	return err
}

// equalStrides reports whether two stride lists address shape alike
// (axes of extent 1 may have any stride).
func equalStrides(shape, a, b []int) bool {
	for k, n := range shape {
		if n != 1 && a[k] != b[k] {
			return false
		}
	}
	return true
}
