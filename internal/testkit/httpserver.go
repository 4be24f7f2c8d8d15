package testkit

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a loopback HTTP server for the tests of remote inputs: it
// serves bodies given as an io.ReaderAt and a size (so that a sparse body
// of a GiB costs nothing), honours Range as net/http.ServeContent does
// (or not, with NoRange), and counts the requests and the body bytes it
// sends. Hook, when set, sees each request first and may answer it
// itself (an injected failure, a redirect): it returns true when it did.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	files    map[string]Body
	noRange  bool
	hook     func(w http.ResponseWriter, r *http.Request, n int) bool
	requests []Request
	bytes    int64
}

// Body is what the server sends at a path.
type Body struct {
	R    io.ReaderAt
	Size int64
}

// Request is what the server saw of one request.
type Request struct {
	Path, Range, Authorization string
	Host                       string
	Conn                       string // the client's address: one per connection
}

// NewServer starts a server, closed when the test ends.
func NewServer(t testing.TB) *Server {
	s := &Server{files: map[string]Body{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Put serves b at path ("/x.npy").
func (s *Server) Put(path string, b Body) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[path] = b
}

// PutBytes serves data at path.
func (s *Server) PutBytes(path string, data []byte) {
	s.Put(path, Body{strings.NewReader(string(data)), int64(len(data))})
}

// NoRange makes the server ignore Range headers: every answer is 200 with
// the whole body, as a server without range support sends.
func (s *Server) NoRange(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noRange = on
}

// Hook sets the function that sees each request first; n counts the
// requests from 1.
func (s *Server) Hook(h func(w http.ResponseWriter, r *http.Request, n int) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hook = h
}

// Reset forgets the counts.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests, s.bytes = nil, 0
}

// Counts returns the requests so far and the body bytes sent.
func (s *Server) Counts() (requests []Request, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...), s.bytes
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests = append(s.requests, Request{Path: r.URL.Path, Range: r.Header.Get("Range"), Authorization: r.Header.Get("Authorization"), Host: r.Host, Conn: r.RemoteAddr})
	n, hook, noRange := len(s.requests), s.hook, s.noRange
	b, ok := s.files[r.URL.Path]
	s.mu.Unlock()
	cw := &countingWriter{ResponseWriter: w, s: s}
	if hook != nil && hook(cw, r, n) {
		return
	}
	if !ok {
		http.NotFound(cw, r)
		return
	}
	if noRange {
		r.Header.Del("Range")
		cw.Header().Set("Accept-Ranges", "none")
	}
	cw.Header().Set("ETag", fmt.Sprintf(`"%d"`, b.Size))
	http.ServeContent(cw, r, "", time.Time{}, io.NewSectionReader(b.R, 0, b.Size))
}

// countingWriter counts the body bytes the server writes. It counts them
// before it writes them, and takes back what did not go out: counted after,
// the last write's bytes could reach the client, and the test ask for the
// counts, before the handler's goroutine added them (seen under qemu:
// 32 KiB short).
type countingWriter struct {
	http.ResponseWriter
	s *Server
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.s.mu.Lock()
	c.s.bytes += int64(len(p))
	c.s.mu.Unlock()
	n, err := c.ResponseWriter.Write(p)
	if n < len(p) {
		c.s.mu.Lock()
		c.s.bytes -= int64(len(p) - n)
		c.s.mu.Unlock()
	}
	return n, err
}

func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Sparse is a body of size bytes that holds the given patches (offset →
// bytes) and zeros elsewhere: a file of a GiB that costs only its
// patches, on the server and (written with WriteSparse) on disk.
type Sparse struct {
	Size    int64
	Patches map[int64][]byte
}

// ReadAt reads the body.
func (sp Sparse) ReadAt(p []byte, off int64) (int, error) {
	if off >= sp.Size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), sp.Size-off))
	clear(p[:n])
	for at, b := range sp.Patches {
		lo, hi := max(at, off), min(at+int64(len(b)), off+int64(n))
		if lo < hi {
			copy(p[lo-off:hi-off], b[lo-at:hi-at])
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// WriteFile writes the body to path as a sparse file: the patches, then a
// hole to the size.
func (sp Sparse) WriteFile(t testing.TB, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for at, b := range sp.Patches {
		if _, err := f.WriteAt(b, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(sp.Size); err != nil {
		t.Fatal(err)
	}
}
