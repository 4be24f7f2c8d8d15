package remote

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"sync"

	"strider/internal/sysmem"
)

// File is a remote file read with HTTP range requests: its bytes lie in
// memory the size of the file (an anonymous mapping, where a page costs
// nothing until a fetch writes it), filled by the ranges that ReadAt and
// Fetch ask for, each fetched once. A server that ignores Range (it
// answers the first request with the whole file) is read as a stream
// instead: Ranged is false and Stream has the body.
type File struct {
	c      *client
	url    string // the http(s) URL asked for
	spec   string // the URL as the input names it (hf://...), for messages
	size   int64  // -1: unknown (a stream without Content-Length)
	ranged bool
	body   io.ReadCloser // !ranged: the first response's body, until Stream takes it
	etag   string        // the first response's ETag: every range must come from it

	mu     sync.Mutex
	target string // where the last response came from: the next request goes there
	m      []byte // the file's bytes, where filled
	mapped bool   // m is an anonymous mapping (else on the heap)
	filled []span // sorted, disjoint, not touching
	seqEnd int64  // where the last ReadAt ended, for its read-ahead
	ahead  int64  // the read-ahead of the next sequential ReadAt
}

// span is the bytes [lo, hi) of the file.
type span struct{ lo, hi int64 }

// probe is what the first request asks for: a .npy header, a safetensors
// header's length and (often) the header itself, a zip's first record.
const probe = 1 << 10

// Open resolves spec (a URL or hf://OWNER/REPO[@REVISION]/PATH, without a
// member) and asks for its first KiB, which tells its size and whether the
// server reads ranges. Errors are one line that names no token; the URL
// they name has its secrets redacted (Redact).
func Open(spec string, opt Options) (*File, error) {
	u, err := Resolve(spec)
	if err != nil {
		return nil, err
	}
	f := &File{c: newClient(opt), url: u, spec: spec, target: u, ahead: probe}
	var first []byte
	err = f.c.retry(func() error {
		r, err := f.c.try(u, 0, probe)
		if err != nil {
			return err
		}
		switch {
		case r.StatusCode == http.StatusPartialContent:
			start, _, total, err := contentRange(r.Header.Get("Content-Range"))
			if err != nil || start != 0 || total < 0 {
				// A range of a file of unknown size: read it as a stream.
				r.Body.Close()
				return f.openStream()
			}
			f.ranged, f.size, f.etag = true, total, r.Header.Get("ETag")
			f.target = r.Request.URL.String()
			first, err = io.ReadAll(io.LimitReader(r.Body, probe))
			r.Body.Close()
			return err
		case r.StatusCode == http.StatusOK:
			f.body, f.size = r.Body, r.ContentLength
			return nil
		case r.StatusCode == http.StatusRequestedRangeNotSatisfiable:
			// An empty file has no byte 0: read it as a stream.
			r.Body.Close()
			return f.openStream()
		}
		r.Body.Close()
		return statusError(r.Response, f.spec, f.hint(r.StatusCode))
	})
	if err != nil {
		f.Close()
		return nil, err
	}
	if !f.ranged {
		return f, nil
	}
	if err := f.alloc(); err != nil {
		f.Close()
		return nil, err
	}
	n := copy(f.m, first)
	f.mark(span{0, int64(n)})
	return f, nil
}

// openStream asks for the whole file without Range.
func (f *File) openStream() error {
	r, err := f.c.try(f.url, 0, -1)
	if err != nil {
		return err
	}
	if r.StatusCode != http.StatusOK {
		r.Body.Close()
		return statusError(r.Response, f.spec, f.hint(r.StatusCode))
	}
	f.body, f.size = r.Body, r.ContentLength
	return nil
}

// alloc makes the memory the file's bytes are fetched into.
func (f *File) alloc() error {
	if f.size == 0 {
		return nil
	}
	if m, err := sysmem.MapAnon(f.size); err == nil {
		f.m, f.mapped = m, true
		return nil
	}
	// Without anonymous mappings the heap holds it: the whole size counts.
	if err := sysmem.CheckMemory("the remote file, which is held in memory", f.size); err != nil {
		return err
	}
	f.m = make([]byte, f.size)
	return nil
}

// hint adds to a refusal what may help: a token for the hub.
func (f *File) hint(status int) string {
	if status != http.StatusUnauthorized && status != http.StatusForbidden || origin(f.url) != f.c.opt.TokenOrigin {
		return ""
	}
	if f.c.opt.Token == "" {
		return " (a gated or private repository needs HF_TOKEN)"
	}
	return " (HF_TOKEN was sent and not accepted)"
}

// contentRange reads "bytes START-END/TOTAL" (TOTAL -1 for "*").
var contentRangeRE = regexp.MustCompile(`^bytes (\d+)-(\d+)/(\d+|\*)$`)

func contentRange(v string) (start, end, total int64, err error) {
	m := contentRangeRE.FindStringSubmatch(v)
	if m == nil {
		return 0, 0, 0, fmt.Errorf("Content-Range %q is not bytes START-END/TOTAL", v)
	}
	start, _ = strconv.ParseInt(m[1], 10, 64)
	end, _ = strconv.ParseInt(m[2], 10, 64)
	total = -1
	if m[3] != "*" {
		total, _ = strconv.ParseInt(m[3], 10, 64)
	}
	if end < start || total >= 0 && end >= total {
		return 0, 0, 0, fmt.Errorf("Content-Range %q is not a range of the file", v)
	}
	return start, end, total, nil
}

// Size is the file's size in bytes; -1 for a stream whose size the server
// does not say.
func (f *File) Size() int64 { return f.size }

// Ranged reports whether the server reads ranges. When it does not, the
// file is read once, from the start, through Stream.
func (f *File) Ranged() bool { return f.ranged }

// Name is the input's URL as it may be printed (Redact).
func (f *File) Name() string { return Redact(f.spec) }

// Bytes is the file's bytes: only those ReadAt and Fetch filled are there,
// the rest are zeros. It stays valid until Close.
func (f *File) Bytes() []byte { return f.m }

// Close releases the file's memory and connections.
func (f *File) Close() error {
	if f.body != nil {
		f.body.Close()
		f.body = nil
	}
	if f.mapped {
		sysmem.Unmap(f.m)
		f.mapped = false
	}
	f.m = nil // the connections stay open for the next file (transportFor)
	return nil
}

// ReadAt reads bytes of the file, fetching those not yet fetched, and at
// least a KiB at a time; a read that follows the one before it fetches
// twice as much ahead as that one did, up to Options.Chunk, so that a
// reader that walks the file (a zip member inflated) makes few requests.
// It is for headers and directories: an array's data is fetched by Fetch.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if !f.ranged {
		return 0, errors.New("the server does not read ranges: the file is a stream")
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= f.size {
		return 0, io.EOF
	}
	n := min(int64(len(p)), f.size-off)
	if len(f.missing(span{off, off + n})) > 0 {
		f.mu.Lock()
		ahead := int64(probe)
		if off == f.seqEnd {
			ahead = min(2*f.ahead, f.c.opt.Chunk)
		}
		f.ahead = max(ahead, n)
		f.mu.Unlock()
		if err := f.fetch([]span{{off, min(off+max(n, ahead), f.size)}}, nil); err != nil {
			return 0, err
		}
	}
	f.mu.Lock()
	f.seqEnd = off + n
	f.mu.Unlock()
	copy(p, f.m[off:off+n])
	if n < int64(len(p)) {
		return int(n), io.EOF
	}
	return int(n), nil
}

// mark records s as filled.
func (f *File) mark(s span) {
	if s.hi <= s.lo {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.filled = addSpan(f.filled, s)
}

// addSpan inserts s into the sorted, disjoint list l, merging what
// touches it.
func addSpan(l []span, s span) []span {
	i, _ := slices.BinarySearchFunc(l, s.lo, func(a span, lo int64) int {
		switch {
		case a.hi < lo:
			return -1
		case a.lo > lo:
			return 1
		}
		return 0
	})
	j := i
	for j < len(l) && l[j].lo <= s.hi {
		s.lo, s.hi = min(s.lo, l[j].lo), max(s.hi, l[j].hi)
		j++
	}
	return slices.Replace(l, i, j, s)
}

// missing returns the parts of s not yet filled.
func (f *File) missing(s span) []span {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []span
	at := s.lo
	i, _ := slices.BinarySearchFunc(f.filled, s.lo, func(a span, lo int64) int {
		if a.hi <= lo {
			return -1
		}
		return 1
	})
	for ; i < len(f.filled) && f.filled[i].lo < s.hi; i++ {
		if f.filled[i].lo > at {
			out = append(out, span{at, f.filled[i].lo})
		}
		at = max(at, f.filled[i].hi)
	}
	if at < s.hi {
		out = append(out, span{at, s.hi})
	}
	return out
}
