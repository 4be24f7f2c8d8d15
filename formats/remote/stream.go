package remote

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// Stream returns the whole file as a stream, for a server that does not
// read ranges (Ranged is false): the body of the first response, read
// once. A connection dropped partway is asked for again, and the bytes
// already read are skipped (the server sends them again, from the start),
// as many times as Options.Retries allows. The progress line shows the
// transfer when the server says its size.
func (f *File) Stream() (io.ReadCloser, error) {
	if f.ranged || f.body == nil {
		return nil, errors.New("the file has no stream to read")
	}
	s := &stream{f: f, rc: f.body, p: currentProgress()}
	f.body = nil
	if s.p != nil && f.size >= progressMin {
		s.stop = s.p(f.size, &s.done)
	}
	return s, nil
}

// stream reads an unranged file from the start, resuming after a drop.
type stream struct {
	f    *File
	rc   io.ReadCloser
	at   int64 // bytes delivered
	drop int   // drops so far: Options.Retries of them end the stream
	p    Progress
	stop func()
	done atomic.Int64
}

func (s *stream) Read(p []byte) (int, error) {
	for {
		n, err := s.rc.Read(p)
		s.at += int64(n)
		s.done.Add(int64(n))
		var fe *fetchError
		if err == nil || err == io.EOF || !errors.As(err, &fe) || !fe.retry || n > 0 {
			if n > 0 && err != nil && err != io.EOF {
				err = nil // return the bytes; the error comes back on the next read
			}
			return n, err
		}
		if err := s.reopen(err); err != nil {
			return 0, err
		}
	}
}

// reopen asks for the file again after err ended the body at s.at, and
// skips what was delivered.
func (s *stream) reopen(cause error) error {
	s.rc.Close()
	s.rc = nil
	if s.drop++; s.drop > s.f.c.opt.Retries {
		return fmt.Errorf("%w (the connection dropped %d times)", cause, s.drop)
	}
	tries := 0
	err := s.f.c.retry(func() error {
		if tries++; tries == 1 {
			return cause // the failed read counts as the first try, and waits its backoff
		}
		r, err := s.f.c.try(s.f.url, 0, -1)
		if err != nil {
			return err
		}
		if r.StatusCode != http.StatusOK {
			r.Body.Close()
			return statusError(r.Response, s.f.spec, s.f.hint(r.StatusCode))
		}
		if _, err := io.CopyN(io.Discard, r.Body, s.at); err != nil {
			r.Body.Close()
			return &fetchError{err: fmt.Errorf("the file is shorter than before: %w", err), retry: true}
		}
		s.rc = r.Body
		return nil
	})
	return err
}

func (s *stream) Close() error {
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
	if s.rc != nil {
		return s.rc.Close()
	}
	return nil
}
