package remote

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// IsURL reports whether spec names a remote input: it starts with
// http://, https:// or hf:// (the scheme in any case). Such a spec is
// never a local path; write ./https://x for a file of that name.
func IsURL(spec string) bool {
	_, ok := schemeOf(spec)
	return ok
}

// schemeOf returns the lower-cased scheme of a remote spec.
func schemeOf(spec string) (string, bool) {
	i := strings.Index(spec, "://")
	if i < 0 {
		return "", false
	}
	switch s := strings.ToLower(spec[:i]); s {
	case "http", "https", "hf":
		return s, true
	}
	return "", false
}

// Split splits a remote spec into its URL and a member, as formats'
// SplitSpec does for a local FILE:MEMBER: the member follows the first ':'
// after the URL's host (so the scheme's ':', a port and an IPv6 address
// are never separators). A ':' that belongs to the URL's path or query is
// written %3A; a member name may hold ':'.
func Split(spec string) (u, member string, hasMember bool) {
	if !IsURL(spec) {
		return spec, "", false
	}
	host := strings.Index(spec, "://") + 3
	end := strings.IndexAny(spec[host:], "/?#")
	if end < 0 {
		return spec, "", false
	}
	i := strings.IndexByte(spec[host+end:], ':')
	if i < 0 {
		return spec, "", false
	}
	i += host + end
	return spec[:i], spec[i+1:], true
}

// DefaultEndpoint is the Hugging Face hub, where hf:// paths resolve
// unless HF_ENDPOINT names another (a mirror, a local hub).
const DefaultEndpoint = "https://huggingface.co"

// endpoint is huggingface_hub's constants.ENDPOINT: HF_ENDPOINT without
// its trailing slashes, or the hub.
func endpoint() string {
	if e := os.Getenv("HF_ENDPOINT"); e != "" {
		return strings.TrimRight(e, "/")
	}
	return DefaultEndpoint
}

// Resolve returns the http(s) URL a remote spec (without its member)
// names. hf://OWNER/REPO[@REVISION]/PATH becomes the URL
// huggingface_hub's hf_hub_url(repo_id, PATH, revision=REVISION) gives:
// {HF_ENDPOINT}/{OWNER}/{REPO}/resolve/{REVISION or main}/{PATH}, with
// the revision quoted as urllib.parse.quote(revision, safe="") does (a
// '/' becomes %2F) and the path as quote(path) does ('/' kept). A
// REVISION may be given percent-encoded (refs%2Fpr%2F1, as HfFileSystem
// takes it); PATH is the file's name as it is. hf://datasets/OWNER/REPO/PATH
// and hf://spaces/OWNER/REPO/PATH name files of datasets and spaces, as
// hf_hub_url's repo_type does.
func Resolve(spec string) (string, error) {
	scheme, ok := schemeOf(spec)
	if !ok {
		return "", fmt.Errorf("not a URL")
	}
	if scheme != "hf" {
		u, err := url.Parse(spec)
		if err != nil {
			return "", fmt.Errorf("not a valid URL: %w", unwrapURLError(err))
		}
		if u.Host == "" {
			return "", errors.New("not a valid URL: it names no host")
		}
		return spec, nil
	}
	rest := spec[len("hf://"):]
	prefix := ""
	if t, ok := strings.CutPrefix(rest, "datasets/"); ok {
		prefix, rest = "datasets/", t
	} else if t, ok := strings.CutPrefix(rest, "spaces/"); ok {
		prefix, rest = "spaces/", t
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", errors.New("an hf:// input is hf://OWNER/REPO[@REVISION]/PATH")
	}
	owner, repo, path := parts[0], parts[1], parts[2]
	revision := "main" // huggingface_hub's DEFAULT_REVISION
	if r, rev, ok := strings.Cut(repo, "@"); ok {
		var err error
		if revision, err = url.PathUnescape(rev); err != nil || rev == "" || r == "" {
			return "", fmt.Errorf("%q is not REPO@REVISION", repo)
		}
		repo = r
	}
	if strings.ContainsFunc(owner+repo+revision+path, isControl) {
		return "", errors.New("not a valid URL: it holds a control character")
	}
	return endpoint() + "/" + prefix + owner + "/" + repo + "/resolve/" + quote(revision, "") + "/" + quote(path, "/"), nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// quote is Python's urllib.parse.quote(s, safe): every byte of s's UTF-8
// but letters, digits, "_.-~" and those in safe becomes %XX (upper-case
// hex).
func quote(s, safe string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.-~", c) >= 0 || strings.IndexByte(safe, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// Redact returns s (a spec, a URL) as it may be printed: the password of
// its user information and the values of query parameters that carry
// secrets (X-Amz-Signature, X-Amz-Security-Token, sig, token, ...) are
// replaced by REDACTED, so that an error message or a log line never
// holds a presigned URL's signature. Everything else is kept as written.
func Redact(s string) string {
	if !IsURL(s) {
		return s
	}
	if u, member, ok := Split(s); ok {
		return redactURL(u) + ":" + member
	}
	return redactURL(s)
}

// redactURL is Redact for a URL without a member.
func redactURL(s string) string {
	host := strings.Index(s, "://") + 3
	end := len(s)
	if i := strings.IndexAny(s[host:], "/?#"); i >= 0 {
		end = host + i
	}
	auth := s[host:end]
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		user, _, hasPass := strings.Cut(auth[:at], ":")
		if hasPass {
			user += ":REDACTED"
		}
		s = s[:host] + user + auth[at:] + s[end:]
		end = host + len(user) + len(auth) - at
	}
	q := strings.IndexByte(s[end:], '?')
	if q < 0 {
		return s
	}
	q += end + 1
	qend := len(s)
	if h := strings.IndexByte(s[q:], '#'); h >= 0 {
		qend = q + h
	}
	params := strings.Split(s[q:qend], "&")
	for i, p := range params {
		name, _, ok := strings.Cut(p, "=")
		if ok && secretParam(name) {
			params[i] = name + "=REDACTED"
		}
	}
	return s[:q] + strings.Join(params, "&") + s[qend:]
}

// secretParam reports whether a query parameter's value may be a secret:
// signatures, tokens, keys, credentials and policies of presigned URLs
// (S3, GCS, Azure SAS, CloudFront) and of APIs.
func secretParam(name string) bool {
	n := strings.ToLower(name)
	if u, err := url.QueryUnescape(n); err == nil {
		n = u
	}
	if n == "sig" { // Azure's SAS signature
		return true
	}
	for _, w := range []string{"signature", "token", "key", "secret", "credential", "password", "passwd", "auth", "session", "policy"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// unwrapURLError drops the *url.Error wrapper, which quotes the whole URL
// (secrets and all), keeping its cause.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
