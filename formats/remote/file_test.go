package remote

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"strider/internal/testkit"
)

// testOptions are quick to fail: short backoffs, few retries; the
// timeout is long, so that a loaded machine makes no try time out but
// TestTimeout's.
func testOptions() Options {
	o := DefaultOptions()
	o.Timeout = 10 * time.Second
	o.Retries = 3
	o.Backoff = 10 * time.Millisecond
	o.MaxBackoff = 40 * time.Millisecond
	o.MaxRetryAfter = 3 * time.Second
	return o
}

// randomBody is n reproducible random bytes.
func randomBody(n int) []byte {
	b := make([]byte, n)
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// serve starts a server with body at /f.
func serve(t *testing.T, body []byte) *testkit.Server {
	s := testkit.NewServer(t)
	s.PutBytes("/f", body)
	return s
}

func TestRanges(t *testing.T) {
	body := randomBody(1 << 20)
	s := serve(t, body)
	opt := testOptions()
	opt.Chunk, opt.Parallel, opt.Gap = 64<<10, 4, 1<<10
	f, err := Open(s.URL+"/f", opt)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	reqs, n := s.Counts()
	if !f.Ranged() || f.Size() != int64(len(body)) || len(reqs) != 1 || n != probe || reqs[0].Range != "bytes=0-1023" {
		t.Fatalf("Open: ranged %v, size %d, %d requests (%v), %d bytes; want one request of the first KiB", f.Ranged(), f.Size(), len(reqs), reqs, n)
	}
	// A small read fetches a KiB from where it starts; a read inside it none.
	p := make([]byte, 100)
	for _, off := range []int64{500000, 500100, 500900} {
		if _, err := f.ReadAt(p, off); err != nil || !bytes.Equal(p, body[off:off+100]) {
			t.Fatalf("ReadAt(%d): %v, or the wrong bytes", off, err)
		}
	}
	if reqs, n = s.Counts(); len(reqs) != 2 || n != 2*probe {
		t.Errorf("after three reads in one KiB: %d requests, %d bytes; want 2, 2048", len(reqs), n)
	}
	// Spans within Gap are one request; filled bytes are not asked again.
	s.Reset()
	if err := f.Fetch([][2]int64{{200000, 200010}, {200500, 200600}, {0, 100}}); err != nil {
		t.Fatal(err)
	}
	if reqs, n = s.Counts(); len(reqs) != 1 || n != 600 || reqs[0].Range != "bytes=200000-200599" {
		t.Errorf("coalesced fetch: %v, %d bytes; want one request of bytes=200000-200599", reqs, n)
	}
	// The whole file: what is missing, in chunks, each byte once.
	s.Reset()
	if err := f.FetchAll(); err != nil {
		t.Fatal(err)
	}
	if reqs, n = s.Counts(); n != int64(len(body))-2*probe-600 || len(reqs) < 16 {
		t.Errorf("FetchAll: %d requests, %d bytes; want the %d bytes not yet fetched, in chunks of 64 KiB", len(reqs), n, int64(len(body))-2*probe-600)
	}
	if !bytes.Equal(f.Bytes(), body) {
		t.Error("FetchAll: the bytes differ from the file's")
	}
	if _, err := f.ReadAt(p, int64(len(body))-50); err != io.EOF {
		t.Errorf("ReadAt past the end: %v, want io.EOF", err)
	}
}

// TestNoRange: a server that ignores Range answers 200 with the whole
// body, which is read as a stream.
func TestNoRange(t *testing.T) {
	body := randomBody(3 << 20)
	s := serve(t, body)
	s.NoRange(true)
	f, err := Open(s.URL+"/f", testOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Ranged() {
		t.Fatal("Ranged is true for a server that ignores Range")
	}
	rc, err := f.Stream()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("Stream: %v, %d bytes; want the body", err, len(got))
	}
	if reqs, n := s.Counts(); len(reqs) != 1 || n != int64(len(body)) {
		t.Errorf("%d requests, %d bytes; want one request", len(reqs), n)
	}
}

// TestRedirects: redirects are followed; the token goes to its origin
// only, never on to another origin (here the same host on another port,
// to which Go's client alone would forward it), and later requests go
// straight to where the redirect led.
func TestRedirects(t *testing.T) {
	body := randomBody(256 << 10)
	hub := serve(t, body)
	cdn := serve(t, body)
	hub.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
		switch r.URL.Path {
		case "/same":
			http.Redirect(w, r, "/f", http.StatusFound)
			return true
		case "/cross":
			http.Redirect(w, r, cdn.URL+"/f?X-Amz-Signature=s3cr3t", http.StatusFound)
			return true
		}
		return false
	})
	opt := testOptions()
	opt.Token, opt.TokenOrigin = "hf_t0ken", origin(hub.URL)
	for _, c := range []struct {
		path         string
		hubN, cdnN   int // requests each server sees: Open, then ReadAt
		cdnSeesToken bool
	}{
		{"/same", 3, 0, false},
		{"/cross", 1, 2, false},
	} {
		hub.Reset()
		cdn.Reset()
		f, err := Open(hub.URL+c.path, opt)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		p := make([]byte, 10)
		if _, err := f.ReadAt(p, 100000); err != nil || !bytes.Equal(p, body[100000:100010]) {
			t.Fatalf("%s: ReadAt: %v", c.path, err)
		}
		f.Close()
		hr, _ := hub.Counts()
		cr, _ := cdn.Counts()
		if len(hr) != c.hubN || len(cr) != c.cdnN {
			t.Errorf("%s: the hub saw %v, the CDN %v; want %d and %d requests", c.path, hr, cr, c.hubN, c.cdnN)
		}
		for _, r := range hr {
			if r.Authorization != "Bearer hf_t0ken" {
				t.Errorf("%s: the hub got Authorization %q", c.path, r.Authorization)
			}
		}
		for _, r := range cr {
			if r.Authorization != "" {
				t.Errorf("%s: the token went on to another origin: %+v", c.path, r)
			}
		}
	}
}

// TestRefusals: 401, 403, 404 end at once with one line that names the
// URL (its signature redacted) and never the token.
func TestRefusals(t *testing.T) {
	s := serve(t, nil)
	other := serve(t, nil)
	s.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
		switch r.URL.Path {
		case "/401":
			http.Error(w, "no", http.StatusUnauthorized)
		case "/403":
			http.Error(w, "no", http.StatusForbidden)
		case "/s3":
			http.Redirect(w, r, other.URL+"/k.npy?X-Amz-Signature=s3cr3t&X-Amz-Date=20240101T000000Z", http.StatusFound)
		default:
			return false
		}
		return true
	})
	opt := testOptions()
	opt.Token, opt.TokenOrigin = "hf_t0ken", origin(s.URL)
	for path, want := range map[string]string{
		"/401":     "HTTP 401 Unauthorized (HF_TOKEN was sent and not accepted)",
		"/403":     "HTTP 403 Forbidden (HF_TOKEN was sent and not accepted)",
		"/missing": "HTTP 404 Not Found",
		"/s3":      "HTTP 404 Not Found from " + other.URL + "/k.npy?X-Amz-Signature=REDACTED&X-Amz-Date=20240101T000000Z",
	} {
		s.Reset()
		_, err := Open(s.URL+path, opt)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %q", path, err, want)
			continue
		}
		if reqs, _ := s.Counts(); len(reqs) != 1 {
			t.Errorf("%s: %d requests; a refusal is not retried", path, len(reqs))
		}
		if strings.Contains(err.Error(), "t0ken") || strings.Contains(err.Error(), "s3cr3t") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q holds a secret or a newline", path, err)
		}
	}
	opt.Token = ""
	if _, err := Open(s.URL+"/401", opt); err == nil || !strings.HasSuffix(err.Error(), "(a gated or private repository needs HF_TOKEN)") {
		t.Errorf("401 without a token: %v", err)
	}
}

// TestRetries: 500 then success, 429 with Retry-After (waited), a
// Retry-After too long (not waited), and 5xx to the end.
func TestRetries(t *testing.T) {
	body := randomBody(4096)
	s := serve(t, body)
	fails := map[int]func(w http.ResponseWriter){}
	s.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
		if f := fails[n]; f != nil {
			f(w)
			return true
		}
		return false
	})
	status := func(code int, retryAfter string) func(w http.ResponseWriter) {
		return func(w http.ResponseWriter) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.WriteHeader(code)
		}
	}
	for _, c := range []struct {
		name     string
		fails    map[int]func(w http.ResponseWriter)
		requests int
		err      string
		minWait  time.Duration
	}{
		{"500-then-ok", map[int]func(w http.ResponseWriter){1: status(500, "")}, 2, "", 0},
		{"503-502-then-ok", map[int]func(w http.ResponseWriter){1: status(503, ""), 2: status(502, "")}, 3, "", 0},
		{"429-retry-after-1", map[int]func(w http.ResponseWriter){1: status(429, "1")}, 2, "", time.Second},
		{"429-retry-after-3600", map[int]func(w http.ResponseWriter){1: status(429, "3600")}, 1, "HTTP 429 Too Many Requests, and asks to retry after 1h0m0s, more than the 3s strider waits", 0},
		{"500-always", map[int]func(w http.ResponseWriter){1: status(500, ""), 2: status(500, ""), 3: status(500, ""), 4: status(500, "")}, 4, "HTTP 500 Internal Server Error (after 4 tries)", 0},
	} {
		s.Reset()
		fails = c.fails
		start := time.Now()
		f, err := Open(s.URL+"/f", testOptions())
		took := time.Since(start)
		if f != nil {
			f.Close()
		}
		reqs, _ := s.Counts()
		if fmt.Sprint(err) != map[bool]string{true: "<nil>", false: c.err}[c.err == ""] || len(reqs) != c.requests || took < c.minWait {
			t.Errorf("%s: %v after %d requests in %v; want %q after %d, at least %v", c.name, err, len(reqs), took, c.err, c.requests, c.minWait)
		}
	}
}

// TestDropped: a connection closed in the middle of a body is resumed
// after the bytes that arrived, with a range request; from a server
// without ranges, the file is asked for again and what arrived skipped.
func TestDropped(t *testing.T) {
	body := randomBody(1 << 20)
	s := serve(t, body)
	drop := 0 // the request to drop
	serverRanges := true
	s.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n != drop {
			return false
		}
		if rg := r.Header.Get("Range"); rg != "" && serverRanges {
			var lo, hi int
			fmt.Sscanf(rg, "bytes=%d-%d", &lo, &hi)
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", lo, hi, len(body)))
			w.Header().Set("Content-Length", fmt.Sprint(hi+1-lo))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(body[lo : lo+300000-1024])
		} else {
			w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			w.WriteHeader(http.StatusOK)
			w.Write(body[:300000])
		}
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection closes mid-body
	})
	for _, ranged := range []bool{true, false} {
		s.Reset()
		s.NoRange(!ranged)
		serverRanges = ranged
		drop = 2
		if !ranged {
			drop = 1
		}
		f, err := Open(s.URL+"/f", testOptions())
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if ranged {
			if err = f.FetchAll(); err == nil {
				got = f.Bytes()
			}
		} else {
			rc, _ := f.Stream()
			got, err = io.ReadAll(rc)
			rc.Close()
		}
		if err != nil || !bytes.Equal(got, body) {
			t.Errorf("ranged %v: %v; the body is not whole", ranged, err)
		}
		reqs, _ := s.Counts()
		if ranged && (len(reqs) != 3 || reqs[2].Range != "bytes=300000-1048575") {
			t.Errorf("ranged: requests %v; want the third to resume at byte 300000", reqs)
		}
		if !ranged && len(reqs) != 2 {
			t.Errorf("no ranges: requests %v; want the file asked for twice", reqs)
		}
		f.Close()
	}
	s.NoRange(false)
}

// TestTimeout: a server that answers nothing, or stalls mid-body, fails
// the fetch after the timeout and the retries, with a line that says so.
func TestTimeout(t *testing.T) {
	body := randomBody(1 << 20)
	s := serve(t, body)
	stall := func(w http.ResponseWriter, r *http.Request, midBody bool) {
		if midBody {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes 0-1023/%d", len(body)))
			w.Header().Set("Content-Length", "1024")
			w.WriteHeader(http.StatusPartialContent)
			w.Write(body[:1000])
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	for _, midBody := range []bool{false, true} {
		s.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
			stall(w, r, midBody)
			return true
		})
		opt := testOptions()
		opt.Timeout, opt.Retries = 200*time.Millisecond, 1
		start := time.Now()
		_, err := Open(s.URL+"/f", opt)
		took := time.Since(start)
		want := "no data for 200ms (STRIDER_HTTP_TIMEOUT sets how long to wait) (after 2 tries)"
		if err == nil || err.Error() != want || took > 5*time.Second {
			t.Errorf("mid-body %v: %v after %v; want %q within 5s", midBody, err, took, want)
		}
	}
}

// TestFetchInto: bytes read into the caller's buffer come one request per
// chunk and stay out of the file's memory; bytes already there are copied
// without a request; a range cut short resumes where it stopped; a span
// outside the file is refused.
func TestFetchInto(t *testing.T) {
	body := randomBody(1 << 20)
	s := serve(t, body)
	opt := testOptions()
	opt.Chunk = 256 << 10
	f, err := Open(s.URL+"/f", opt)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s.Reset()
	dst := make([]byte, 600000)
	if err := f.FetchInto(dst, 100000); err != nil || !bytes.Equal(dst, body[100000:700000]) {
		t.Fatalf("FetchInto: %v, or the wrong bytes", err)
	}
	// (The server counts the bytes it sent after the client has them.)
	if reqs, _ := s.Counts(); len(reqs) != 3 || reqs[0].Range != "bytes=100000-362143" || reqs[2].Range != "bytes=624288-699999" {
		t.Errorf("FetchInto of 600000 bytes in chunks of 256 KiB: %v; want 3 requests", reqs)
	}
	if len(f.missing(span{100000, 700000})) != 1 {
		t.Error("FetchInto kept the bytes in the file's memory")
	}
	s.Reset()
	small := make([]byte, 100)
	if err := f.FetchInto(small, 200); err != nil || !bytes.Equal(small, body[200:300]) {
		t.Fatalf("FetchInto of the first KiB: %v, or the wrong bytes", err)
	}
	if reqs, _ := s.Counts(); len(reqs) != 0 {
		t.Errorf("FetchInto of bytes already fetched: %v; want no request", reqs)
	}
	s.Reset()
	s.Hook(func(w http.ResponseWriter, r *http.Request, n int) bool {
		if n != 1 {
			return false
		}
		var lo, hi int
		fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &lo, &hi)
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", lo, hi, len(body)))
		w.Header().Set("Content-Length", fmt.Sprint(hi+1-lo))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(body[lo : lo+1000])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection closes mid-body
	})
	defer s.Hook(nil)
	if err := f.FetchInto(dst[:5000], 900000); err != nil || !bytes.Equal(dst[:5000], body[900000:905000]) {
		t.Fatalf("FetchInto, dropped: %v, or the wrong bytes", err)
	}
	if reqs, _ := s.Counts(); len(reqs) != 2 || reqs[1].Range != "bytes=901000-904999" {
		t.Errorf("FetchInto, dropped: %v; want the second request to resume at byte 901000", reqs)
	}
	if err := f.FetchInto(dst[:10], int64(len(body))-5); err == nil {
		t.Error("FetchInto past the end: no error")
	}
}
