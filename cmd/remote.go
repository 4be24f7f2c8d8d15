package cmd

import (
	"fmt"
	"github.com/urfave/cli/v2"
	"unsafe"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/ops"
)

// Remote inputs (http://, https://, hf://; formats/remote fetches them)
// go through the same commands as files. What a command reads of one:
// show, slice, diagonal and gather open it with npy.AccessFetch and fetch
// the spans their view touches (fetch, below); compare opens it so too and
// fetches it a piece at a time as it compares (compare_pieces.go); every
// other command gets the array's data whole at Open. Outputs are local
// files only.

// fetchGap is the most bytes between two spans that one request fetches
// with the bytes between them (remote.Options.Gap coalesces again).
const fetchGap = 64 << 10

// watchTransfers shows remote transfers on e's progress line.
func (e *env) watchTransfers() { remote.SetProgress(e.startProgress) }

// refuseRemoteOutput refuses -o URL: strider writes local files only.
func refuseRemoteOutput(path string) error {
	if remote.IsURL(path) {
		return usagef("-o %s: a URL is an input only; write to a local file (or - for standard output) and upload it", remote.Redact(path))
	}
	return nil
}

// fetch fetches the bytes that views of in read, when in is a remote input
// opened with npy.AccessFetch whose data is not in memory yet: only the
// spans they touch. Each view must lie on in's Data. spec names in.
func (in input) fetch(spec string, views ...ops.View) error {
	if !in.Lazy() {
		return nil
	}
	var spans []ops.Span
	for _, v := range views {
		spans = append(spans, v.Spans(fetchGap)...)
	}
	return in.fetchSpans(spec, spans)
}

// fetchSpans fetches spans of in's Data (see fetch).
func (in input) fetchSpans(spec string, spans []ops.Span) error {
	if !in.Lazy() || len(spans) == 0 {
		return nil
	}
	l := make([]npy.Span, len(spans))
	for i, s := range spans {
		l[i] = npy.Span{Off: int64(s.Off), Len: int64(s.Len)}
	}
	if err := in.Array.Fetch(l); err != nil {
		return fmt.Errorf("%s: %w", displayName(spec), err)
	}
	return nil
}

// onData reports whether v is a view of in's Data (not a copy made of it).
func (in input) onData(v ops.View) bool {
	return len(v.Data) > 0 && len(in.Data) > 0 && unsafe.SliceData(v.Data) == unsafe.SliceData(in.Data)
}

// fetchIndexed fetches, for a[EXPR] with advanced indices (which gather
// from anywhere in the array), all of in's view; a basic EXPR's view is
// fetched by whoever reads it.
func (in input) fetchIndexed(spec string, ix *ops.Indexing) error {
	if _, basic := ix.Basic(); basic {
		return nil
	}
	return in.fetch(spec, in.view)
}

// fetchTake fetches what gather reads of in's view v: the elements at the
// flat indices idx (axis < 0), or the slab at each index along axis.
func (in input) fetchTake(spec string, v ops.View, axis int, idx []int) error {
	if !in.Lazy() {
		return nil
	}
	seen := map[int]bool{}
	var spans []ops.Span
	for _, i := range idx {
		if seen[i] {
			continue
		}
		seen[i] = true
		if axis < 0 {
			off := v.Offset
			for k, p := range ops.Unravel(i, v.Shape) {
				off += p * v.Strides[k]
			}
			spans = append(spans, ops.Span{Off: off * v.Elem, Len: v.Elem})
			continue
		}
		slab := v
		slab.Shape = append(append([]int{}, v.Shape[:axis]...), v.Shape[axis+1:]...)
		slab.Strides = append(append([]int{}, v.Strides[:axis]...), v.Strides[axis+1:]...)
		slab.Offset += i * v.Strides[axis]
		spans = append(spans, slab.Spans(fetchGap)...)
	}
	return in.fetchSpans(spec, ops.MergeSpans(spans, fetchGap))
}

// refuseRemoteScript refuses --as-numpy and --as-torch for a command line
// with a remote input: the script reads local files only, and strider
// sends no request to write it.
func refuseRemoteScript(c *cli.Context, lib string) error {
	inputs := c.Args().Slice()
	if c.IsSet(indicesFlag.Name) {
		inputs = append(inputs, c.String(indicesFlag.Name))
	}
	for _, a := range inputs {
		if remote.IsURL(a) {
			return usagef("--as-%s: %s is a URL, and the script reads local files only; download it and name the file", lib, remote.Redact(a))
		}
	}
	return nil
}
