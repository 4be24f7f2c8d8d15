package remote

import (
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		spec, url, member string
		has               bool
	}{
		{"https://host/m.safetensors", "https://host/m.safetensors", "", false},
		{"https://host/m.safetensors:layer.0.weight", "https://host/m.safetensors", "layer.0.weight", true},
		{"http://127.0.0.1:8080/x.npz:a", "http://127.0.0.1:8080/x.npz", "a", true},
		{"http://[::1]:8080/x.npz:a:b", "http://[::1]:8080/x.npz", "a:b", true},
		{"http://user:pw@host:81/x.npy", "http://user:pw@host:81/x.npy", "", false},
		{"https://host:8443", "https://host:8443", "", false},
		{"https://b.s3.amazonaws.com/m.npz?X-Amz-Signature=ab%3Acd:x", "https://b.s3.amazonaws.com/m.npz?X-Amz-Signature=ab%3Acd", "x", true},
		{"hf://o/r/m.npz:x", "hf://o/r/m.npz", "x", true},
		{"hf://o/r@v1.0/sub/m.safetensors:w", "hf://o/r@v1.0/sub/m.safetensors", "w", true},
		{"HTTPS://HOST/x.npy:a", "HTTPS://HOST/x.npy", "a", true},
		{"data/x.npz:a", "data/x.npz:a", "", false}, // not a URL: SplitSpec's own rule
	} {
		u, m, has := Split(c.spec)
		if u != c.url || m != c.member || has != c.has {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", c.spec, u, m, has, c.url, c.member, c.has)
		}
	}
}

// TestResolve checks hf:// against the URLs huggingface_hub's hf_hub_url
// builds: {endpoint}/{repo_id}/resolve/{quote(revision, safe="")}/{quote(path)},
// the quoted texts as Python 3's urllib.parse.quote gives them.
func TestResolve(t *testing.T) {
	for _, c := range []struct {
		endpoint, spec, want string
	}{
		{"", "hf://o/r/model.safetensors", "https://huggingface.co/o/r/resolve/main/model.safetensors"},
		{"", "hf://o/r@refs%2Fpr%2F1/m.npy", "https://huggingface.co/o/r/resolve/refs%2Fpr%2F1/m.npy"},
		{"", "hf://o/r@v1.0 beta/sub dir/x y.npy", "https://huggingface.co/o/r/resolve/v1.0%20beta/sub%20dir/x%20y.npy"},
		{"", "hf://o/r@ü/a+b/c%d.npz", "https://huggingface.co/o/r/resolve/%C3%BC/a%2Bb/c%25d.npz"},
		{"", "hf://o/r/é/ü.npy", "https://huggingface.co/o/r/resolve/main/%C3%A9/%C3%BC.npy"},
		{"", "hf://o/r/~x_y-z.w", "https://huggingface.co/o/r/resolve/main/~x_y-z.w"},
		{"", "hf://datasets/o/r/d.npy", "https://huggingface.co/datasets/o/r/resolve/main/d.npy"},
		{"http://127.0.0.1:9/mirror//", "hf://o/r@abc/m.npy", "http://127.0.0.1:9/mirror/o/r/resolve/abc/m.npy"},
		{"", "https://host/x.npy?a=b", "https://host/x.npy?a=b"},
	} {
		t.Setenv("HF_ENDPOINT", c.endpoint)
		got, err := Resolve(c.spec)
		if err != nil || got != c.want {
			t.Errorf("HF_ENDPOINT=%q Resolve(%q) = %q, %v; want %q", c.endpoint, c.spec, got, err, c.want)
		}
	}
	for _, bad := range []string{"hf://o/r", "hf://o//m.npy", "hf://o/r@/m.npy", "hf:///r/m.npy", "https://host/x\x1b[2J.npy", "https:///x.npy", "hf://o/r/x\n.npy"} {
		if got, err := Resolve(bad); err == nil {
			t.Errorf("Resolve(%q) = %q, want an error", bad, got)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://b.s3.amazonaws.com/k.npy?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F2024&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeef:w",
			"https://b.s3.amazonaws.com/k.npy?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED&X-Amz-Date=20240101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=REDACTED:w"},
		{"https://acct.blob.core.windows.net/c/x.npy?sv=2020&se=2024&sig=abc%2Bdef", "https://acct.blob.core.windows.net/c/x.npy?sv=2020&se=2024&sig=REDACTED"},
		{"https://user:secret@host/x.npy", "https://user:REDACTED@host/x.npy"},
		{"https://host/x.npy?download=true#frag", "https://host/x.npy?download=true#frag"},
		{"https://host/x.npy?token=t0k&x=1", "https://host/x.npy?token=REDACTED&x=1"},
		{"hf://o/r/m.npy", "hf://o/r/m.npy"},
		{"local/file.npy", "local/file.npy"},
	} {
		if got := Redact(c.in); got != c.want {
			t.Errorf("Redact(%q) =\n %q, want\n %q", c.in, got, c.want)
		}
	}
}

func TestParseTimeout(t *testing.T) {
	for v, want := range map[string]string{"90s": "1m30s", "2m": "2m0s", "5": "5s", "0.25": "250ms"} {
		d, err := parseTimeout(v)
		if err != nil || d.String() != want {
			t.Errorf("parseTimeout(%q) = %v, %v; want %s", v, d, err, want)
		}
	}
	for _, v := range []string{"0", "-1s", "soon", "25h"} {
		if _, err := parseTimeout(v); err == nil {
			t.Errorf("parseTimeout(%q): no error", v)
		}
	}
}
