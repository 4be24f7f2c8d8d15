package ops

import (
	"cmp"
	"slices"
)

// Span is the bytes [Off, Off+Len) of a view's Data.
type Span struct{ Off, Len int }

// Spans returns the bytes of Data that v's elements lie in, as sorted,
// disjoint spans, for a reader that must fetch them before v is read (a
// remote file, read by HTTP range requests). Spans less than gap bytes
// apart are one span, with the bytes between them, so that a strided row
// is one span rather than one per element. An empty view has none.
//
// It is equal to MergeSpans of one span per element (Elem bytes at each
// element's offset), which is its test oracle; it walks rows rather than
// elements where a row's elements lie within gap of each other.
func (v View) Spans(gap int) []Span {
	if v.Count() == 0 {
		return nil
	}
	// Which bytes are reached depends neither on the order of the axes nor
	// on their directions: flip the negative strides, drop what repeats
	// (extent 1, stride 0), sort outermost first and coalesce.
	off := v.Offset
	var axes []loop
	for k, n := range v.Shape {
		s := v.Strides[k]
		if n == 1 || s == 0 {
			continue
		}
		if s < 0 {
			off += (n - 1) * s
			s = -s
		}
		axes = append(axes, loop{n: n, src: s})
	}
	slices.SortStableFunc(axes, func(a, b loop) int { return cmp.Compare(b.src, a.src) })
	var merged []loop
	for _, a := range axes {
		if m := len(merged); m > 0 && merged[m-1].src == a.n*a.src {
			merged[m-1] = loop{n: merged[m-1].n * a.n, src: a.src}
			continue
		}
		merged = append(merged, a)
	}
	axes = merged
	run := v.Elem // bytes of one row (the innermost axis, or one element)
	if m := len(axes); m > 0 && (axes[m-1].src-1)*v.Elem <= gap {
		in := axes[m-1]
		run = ((in.n-1)*in.src + 1) * v.Elem
		axes = axes[:m-1]
	}
	var out []Span
	sorted := true
	idx := make([]int, len(axes))
	for at := off; ; {
		start := at * v.Elem
		if n := len(out); n > 0 && start <= out[n-1].Off+out[n-1].Len+gap && start >= out[n-1].Off {
			out[n-1].Len = max(out[n-1].Len, start+run-out[n-1].Off)
		} else {
			sorted = sorted && (n == 0 || start > out[n-1].Off)
			out = append(out, Span{start, run})
		}
		k := len(axes) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < axes[k].n {
				at += axes[k].src
				break
			}
			at -= (axes[k].n - 1) * axes[k].src
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	if !sorted {
		return MergeSpans(out, gap)
	}
	return out
}

// MergeSpans sorts spans and merges those less than gap bytes apart (or
// overlapping) into one, in place.
func MergeSpans(spans []Span, gap int) []Span {
	slices.SortFunc(spans, func(a, b Span) int { return cmp.Compare(a.Off, b.Off) })
	out := spans[:0]
	for _, s := range spans {
		if s.Len <= 0 {
			continue
		}
		if n := len(out); n > 0 && s.Off <= out[n-1].Off+out[n-1].Len+gap {
			out[n-1].Len = max(out[n-1].Len, s.Off+s.Len-out[n-1].Off)
			continue
		}
		out = append(out, s)
	}
	return out
}

// SpansAt is Spans of the elements of v at the outer product of the index
// lists keep, keep[k] listing indices along axis k (what print() shows of
// a summarized array: npprint.Edges). Every index must lie in its axis.
func (v View) SpansAt(keep [][]int, gap int) []Span {
	n := 1
	for _, l := range keep {
		n *= len(l)
	}
	if n == 0 {
		return nil
	}
	out := make([]Span, 0, n)
	idx := make([]int, len(keep))
	for {
		off := v.Offset
		for k, i := range idx {
			off += keep[k][i] * v.Strides[k]
		}
		out = append(out, Span{off * v.Elem, v.Elem})
		k := len(keep) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(keep[k]) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	return MergeSpans(out, gap)
}
