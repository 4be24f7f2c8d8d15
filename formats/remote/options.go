package remote

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Options are how a remote file is fetched. FromEnv reads them from the
// environment; tests set them.
type Options struct {
	// Timeout bounds each wait for the server: connecting, the response's
	// headers, and every read of its body (a transfer that stalls this long
	// fails the try, however long it has run). STRIDER_HTTP_TIMEOUT.
	Timeout time.Duration
	// Retries is how many times a failed try is retried: 429 and 5xx
	// responses, connections dropped or timed out. A try that fails after
	// some bytes arrived resumes after them.
	Retries int
	// Backoff is the wait before the first retry; it doubles each time, up
	// to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// MaxRetryAfter bounds the Retry-After a server may ask for: a longer
	// one ends the fetch with an error instead of a wait.
	MaxRetryAfter time.Duration
	// Parallel is how many range requests one fetch keeps in flight.
	Parallel int
	// Chunk is the largest range one request asks for, so that a large
	// fetch runs Parallel requests at once.
	Chunk int64
	// Gap is the most bytes between two spans that a fetch asks for with
	// them, in one request, rather than in two.
	Gap int64
	// Token is sent as "Authorization: Bearer Token" to TokenOrigin only
	// (HF_TOKEN, for the hub at HF_ENDPOINT); never to another origin,
	// nor after a redirect to one.
	Token, TokenOrigin string
}

// Defaults without the environment.
const (
	defaultTimeout = 30 * time.Second
	defaultRetries = 5
)

// DefaultOptions are the options with nothing set in the environment.
func DefaultOptions() Options {
	return Options{
		Timeout:       defaultTimeout,
		Retries:       defaultRetries,
		Backoff:       250 * time.Millisecond,
		MaxBackoff:    8 * time.Second,
		MaxRetryAfter: 60 * time.Second,
		Parallel:      8,
		Chunk:         8 << 20,
		Gap:           64 << 10,
	}
}

// FromEnv returns DefaultOptions with what the environment sets:
// STRIDER_HTTP_TIMEOUT (a Go duration such as 90s or 2m, or a number of
// seconds), HF_TOKEN and HF_ENDPOINT.
func FromEnv() (Options, error) {
	o := DefaultOptions()
	if v := strings.TrimSpace(os.Getenv("STRIDER_HTTP_TIMEOUT")); v != "" {
		d, err := parseTimeout(v)
		if err != nil {
			return o, err
		}
		o.Timeout = d
	}
	o.Token = os.Getenv("HF_TOKEN")
	o.TokenOrigin = origin(endpoint())
	return o, nil
}

// parseTimeout reads STRIDER_HTTP_TIMEOUT.
func parseTimeout(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil {
		secs, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil {
			return 0, fmt.Errorf("STRIDER_HTTP_TIMEOUT=%q is not a duration (90s, 2m) or a number of seconds", v)
		}
		d = time.Duration(secs * float64(time.Second))
	}
	if d <= 0 || d > 24*time.Hour {
		return 0, fmt.Errorf("STRIDER_HTTP_TIMEOUT=%q is out of range (more than 0, at most 24h)", v)
	}
	return d, nil
}
