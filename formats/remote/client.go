package remote

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// client makes the requests of one remote file: one try at a time
// (try), each bounded by Options.Timeout, and the retry policy (retry).
type client struct {
	opt Options
	hc  *http.Client
}

func newClient(opt Options) *client {
	c := &client{opt: opt}
	c.hc = &http.Client{Transport: transportFor(opt), CheckRedirect: c.checkRedirect}
	return c
}

// transports are shared by the files a process opens with the same
// timeout and parallelism, so that the members of a remote archive, or
// the shards of a checkpoint, reuse their connections (and TLS sessions)
// instead of opening new ones for each file.
var transports sync.Map // transportKey -> *http.Transport

type transportKey struct {
	timeout  time.Duration
	parallel int
}

func transportFor(opt Options) *http.Transport {
	key := transportKey{opt.Timeout, max(opt.Parallel, 1)}
	if tr, ok := transports.Load(key); ok {
		return tr.(*http.Transport)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DisableCompression = true // Range and Content-Length count the file's own bytes
	// Each try's timer (try) bounds every wait; these are backstops.
	tr.ResponseHeaderTimeout = 2 * opt.Timeout
	tr.TLSHandshakeTimeout = 2 * opt.Timeout
	tr.DialContext = (&net.Dialer{Timeout: 2 * opt.Timeout, KeepAlive: 30 * time.Second}).DialContext
	tr.MaxIdleConnsPerHost = key.parallel + 2
	got, _ := transports.LoadOrStore(key, tr)
	return got.(*http.Transport)
}

// checkRedirect follows at most 10 redirects, and drops the token from a
// request that leaves the token's origin, or that came by way of another
// origin: the token is the hub's, never a CDN's or a storage bucket's
// (Go's client forwards Authorization to subdomains; requests, which
// huggingface_hub uses, drops it when the host changes: stricter still,
// strider keeps it only on the exact origin, scheme and port included).
func (c *client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if req.Header.Get("Authorization") == "" {
		return nil
	}
	keep := c.tokenFor(req.URL)
	for _, v := range via {
		keep = keep && c.tokenFor(v.URL)
	}
	if !keep {
		req.Header.Del("Authorization")
	}
	return nil
}

var errTooManyRedirects = errors.New("stopped after 10 redirects")

// tokenFor reports whether a request to u carries the token.
func (c *client) tokenFor(u *url.URL) bool {
	return c.opt.Token != "" && c.opt.TokenOrigin != "" && origin(u.String()) == c.opt.TokenOrigin
}

// origin is scheme://host:port of a URL, lower-cased, with the scheme's
// default port written out; "" for a URL that does not parse.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// response is one try's answer: the response whose body is being read,
// with the try's timer.
type response struct {
	*http.Response
	body *idleBody
}

// try makes one GET of target for bytes [off, off+n) (n < 0: from off to
// the end; off 0 and n < 0: no Range header at all). Its timer bounds
// each wait: the connection, the headers, each read of the body.
func (c *client) try(target string, off, n int64) (*response, error) {
	ctx, cancel := context.WithCancel(context.Background())
	b := &idleBody{d: c.opt.Timeout, cancel: cancel}
	b.timer = time.AfterFunc(c.opt.Timeout, b.expire)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		b.Close()
		return nil, &fetchError{err: unwrapURLError(err)}
	}
	switch {
	case n > 0:
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-%d", off, off+n-1))
	case off > 0 || n == 0:
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", off))
	}
	req.Header.Set("User-Agent", "strider")
	if c.tokenFor(req.URL) {
		req.Header.Set("Authorization", "Bearer "+c.opt.Token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		b.Close()
		return nil, b.classify(err)
	}
	b.rc = resp.Body
	b.timer.Reset(c.opt.Timeout)
	resp.Body = b
	return &response{Response: resp, body: b}, nil
}

// idleBody is a response body whose every read must make progress within
// d: a stalled transfer is cancelled, and its error says so.
type idleBody struct {
	rc       io.ReadCloser
	d        time.Duration
	timer    *time.Timer
	cancel   context.CancelFunc
	timedOut atomic.Bool
	n        int64 // bytes read
}

func (b *idleBody) expire() {
	b.timedOut.Store(true)
	b.cancel()
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n += int64(n)
	if n > 0 {
		b.timer.Reset(b.d)
	}
	if err != nil && err != io.EOF {
		return n, b.classify(err)
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	b.cancel()
	if b.rc != nil {
		return b.rc.Close()
	}
	return nil
}

// classify makes a transport error a fetchError, which says whether a
// retry may help: not for a certificate that does not verify, a URL that
// is wrong, or too many redirects.
func (b *idleBody) classify(err error) error {
	var ne net.Error
	if b.timedOut.Load() || errors.As(err, &ne) && ne.Timeout() {
		return &fetchError{err: fmt.Errorf("no data for %s (STRIDER_HTTP_TIMEOUT sets how long to wait)", b.d), retry: true}
	}
	err = unwrapURLError(err)
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	switch {
	case errors.Is(err, errTooManyRedirects), errors.As(err, &certErr), errors.As(err, &unknownAuth), errors.As(err, &hostErr):
		return &fetchError{err: err}
	case strings.Contains(err.Error(), "unsupported protocol scheme"):
		return &fetchError{err: err}
	}
	return &fetchError{err: err, retry: true}
}

// fetchError is a failed try: retry says whether another may succeed,
// after at least wait (a server's Retry-After).
type fetchError struct {
	err   error
	retry bool
	wait  time.Duration
}

func (e *fetchError) Error() string { return e.err.Error() }
func (e *fetchError) Unwrap() error { return e.err }

// statusError is a response that is no success: 401, 403, 404 and the
// like end the fetch; 429 and 5xx are retried.
func statusError(resp *http.Response, asked string, hint string) *fetchError {
	msg := "HTTP " + resp.Status
	if from := resp.Request.URL.String(); from != asked {
		msg += " from " + Redact(from)
	}
	msg += hint
	e := &fetchError{err: errors.New(msg)}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		e.retry = true
		e.wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	return e
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date; 0 when
// absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0
		}
		return time.Duration(min(s, 1<<31)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// retry runs once until it succeeds or fails for good: a fetchError that
// may be retried is retried up to Options.Retries times, after a backoff
// that doubles from Options.Backoff up to MaxBackoff, or after the
// server's Retry-After when it asks for longer (a Retry-After over
// MaxRetryAfter ends the fetch at once).
func (c *client) retry(once func() error) error {
	wait := c.opt.Backoff
	for tries := 0; ; tries++ {
		err := once()
		var fe *fetchError
		if err == nil || !errors.As(err, &fe) || !fe.retry {
			return err
		}
		if tries >= c.opt.Retries {
			if tries == 0 {
				return err
			}
			return fmt.Errorf("%w (after %d tries)", err, tries+1)
		}
		d := wait
		if fe.wait > c.opt.MaxRetryAfter {
			return fmt.Errorf("%w, and asks to retry after %s, more than the %s strider waits", err, fe.wait, c.opt.MaxRetryAfter)
		}
		d = max(d, fe.wait)
		time.Sleep(d)
		wait = min(2*wait, c.opt.MaxBackoff)
	}
}
