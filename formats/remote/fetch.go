package remote

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"strider/internal/sysmem"
)

// Fetch fills the spans of the file that are not filled yet, so that
// Bytes holds them: spans closer than Options.Gap are asked for in one
// request, a range longer than Options.Chunk in several, and
// Options.Parallel requests are in flight at once. The progress line
// (SetProgress) shows how much has arrived. spans are [lo, hi) offsets
// of the file, in any order.
func (f *File) Fetch(spans [][2]int64) error {
	l := make([]span, 0, len(spans))
	for _, s := range spans {
		l = append(l, span{max(s[0], 0), min(s[1], f.size)})
	}
	return f.fetch(l, currentProgress())
}

// FetchAll fills the whole file: the dense readers' way in, one large
// range after the other, Options.Parallel at a time.
func (f *File) FetchAll() error {
	return f.fetch([]span{{0, f.size}}, currentProgress())
}

// fetch is Fetch with the progress line shown by p (nil: none).
func (f *File) fetch(spans []span, p Progress) error {
	if !f.ranged {
		return errors.New("the server does not read ranges: the file is a stream")
	}
	todo, total := f.plan(spans)
	if len(todo) == 0 {
		return nil
	}
	var done atomic.Int64
	if p != nil && total >= progressMin {
		stop := p(total, &done)
		defer stop()
	}
	return f.fetchRanges(todo, &done)
}

// plan turns spans into the requests that fill them: what lies within
// Gap is coalesced, and only what is missing asked for, in ranges of
// Chunk at most; total is the bytes they ask for. A missing range of
// hugeFetch or more is advised to the kernel as huge pages.
func (f *File) plan(spans []span) (todo []span, total int64) {
	spans = slices.DeleteFunc(spans, func(s span) bool { return s.hi <= s.lo })
	slices.SortFunc(spans, func(a, b span) int {
		switch {
		case a.lo < b.lo:
			return -1
		case a.lo > b.lo:
			return 1
		}
		return 0
	})
	var merged []span
	for _, s := range spans {
		if n := len(merged); n > 0 && s.lo <= merged[n-1].hi+f.c.opt.Gap {
			merged[n-1].hi = max(merged[n-1].hi, s.hi)
			continue
		}
		merged = append(merged, s)
	}
	chunk := max(f.c.opt.Chunk, 1)
	for _, s := range merged {
		for _, m := range f.missing(s) {
			if f.mapped && m.hi-m.lo >= hugeFetch {
				sysmem.AdviseHuge(f.m[m.lo:m.hi])
			}
			total += m.hi - m.lo
			for lo := m.lo; lo < m.hi; lo += chunk {
				todo = append(todo, span{lo, min(lo+chunk, m.hi)})
			}
		}
	}
	return todo, total
}

// fetchRanges fetches the ranges todo with Options.Parallel workers, which
// take them in order; the first error stops them all.
func (f *File) fetchRanges(todo []span, done *atomic.Int64) error {
	var next atomic.Int64
	var failed atomic.Bool
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range min(max(f.c.opt.Parallel, 1), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := next.Add(1) - 1
				if i >= int64(len(todo)) {
					return
				}
				s := todo[i]
				if err := f.fetchRange(f.m[s.lo:s.hi], s, done); err != nil {
					once.Do(func() { first = err })
					failed.Store(true)
					return
				}
				f.mark(s)
			}
		}()
	}
	wg.Wait()
	return first
}

// hugeFetch is the least a missing range must span for its pages to be
// asked for as huge pages: a dense read, not a few elements of a view.
const hugeFetch = 4 << 20

// progressMin is the least a fetch must move to show the progress line.
const progressMin = 1 << 20

// FetchInto reads bytes [off, off+len(dst)) of the file into dst without
// keeping them in the file's memory: for a reader that reads each byte
// once, a piece at a time, into buffers it reuses (compare, which compares
// remote arrays as their ranges arrive). Bytes already fetched are copied;
// otherwise each Options.Chunk of them is one request, in turn. It shows
// no progress line: the reader shows its own. Calls may run concurrently.
func (f *File) FetchInto(dst []byte, off int64) error {
	if !f.ranged {
		return errors.New("the server does not read ranges: the file is a stream")
	}
	s := span{off, off + int64(len(dst))}
	if off < 0 || s.hi > f.size {
		return fmt.Errorf("bytes %d-%d are not in the file of %d bytes", s.lo, s.hi-1, f.size)
	}
	if len(f.missing(s)) == 0 {
		copy(dst, f.m[s.lo:s.hi])
		return nil
	}
	chunk := max(f.c.opt.Chunk, 1)
	for lo := s.lo; lo < s.hi; lo += chunk {
		hi := min(lo+chunk, s.hi)
		if err := f.fetchRange(dst[lo-off:hi-off], span{lo, hi}, nil); err != nil {
			return err
		}
	}
	return nil
}

// fetchRange fills dst, bytes s of the file, with one request (retried
// and, after a dropped connection, resumed where the bytes stopped).
func (f *File) fetchRange(dst []byte, s span, done *atomic.Int64) error {
	at := s.lo
	retriedOrigin := false
	return f.c.retry(func() error {
		f.mu.Lock()
		target := f.target
		f.mu.Unlock()
		r, err := f.c.try(target, at, s.hi-at)
		if err != nil {
			return err
		}
		defer r.Body.Close()
		switch r.StatusCode {
		case http.StatusPartialContent:
			start, end, total, err := contentRange(r.Header.Get("Content-Range"))
			switch {
			case err != nil:
				return &fetchError{err: err}
			case start != at || end >= s.hi || end < at:
				return &fetchError{err: fmt.Errorf("asked for bytes %d-%d, the server sent %d-%d", at, s.hi-1, start, end)}
			case total >= 0 && total != f.size:
				return &fetchError{err: fmt.Errorf("the file changed while it was read: it was %d bytes, it is %d", f.size, total)}
			case f.etag != "" && r.Header.Get("ETag") != "" && r.Header.Get("ETag") != f.etag:
				return &fetchError{err: errors.New("the file changed while it was read (its ETag changed)")}
			}
		case http.StatusOK:
			if at != 0 {
				return &fetchError{err: errors.New("the server answered a range request with the whole file")}
			}
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusGone:
			if target != f.url && !retriedOrigin {
				// The address the first request was sent on to (a signed
				// CDN link) expired: ask the input's URL again.
				retriedOrigin = true
				f.mu.Lock()
				f.target = f.url
				f.mu.Unlock()
				return &fetchError{err: statusError(r.Response, f.spec, ""), retry: true}
			}
			return statusError(r.Response, f.spec, f.hint(r.StatusCode))
		default:
			return statusError(r.Response, f.spec, f.hint(r.StatusCode))
		}
		if u := r.Request.URL.String(); u != target {
			f.mu.Lock()
			f.target = u
			f.mu.Unlock()
		}
		n, err := io.ReadFull(progressReader{r.Body, done}, dst[at-s.lo:])
		at += int64(n)
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return &fetchError{err: fmt.Errorf("the connection closed after byte %d of %d-%d", at, s.lo, s.hi-1), retry: true}
			}
			return err
		}
		return nil
	})
}

// progressReader counts the bytes read from r in done (when not nil).
type progressReader struct {
	r    io.Reader
	done *atomic.Int64
}

func (p progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if p.done != nil {
		p.done.Add(int64(n))
	}
	return n, err
}

// Progress shows a transfer of total bytes while it runs, done counting
// those arrived; stop clears it.
type Progress func(total int64, done *atomic.Int64) (stop func())

var progress atomic.Pointer[Progress]

// SetProgress sets how large transfers are shown (cmd's progress line);
// nil shows nothing. A process runs one command at a time, so it is set
// once per command.
func SetProgress(p Progress) {
	if p == nil {
		progress.Store(nil)
		return
	}
	progress.Store(&p)
}

func currentProgress() Progress {
	if p := progress.Load(); p != nil {
		return *p
	}
	return nil
}
