// Package remote reads remote inputs: http:// and https:// URLs, and
// hf://OWNER/REPO[@REVISION]/PATH, which Resolve turns into the Hugging
// Face hub's file URL as huggingface_hub's hf_hub_url does. It knows
// HTTP, not the formats: package formats reads a File through its ReaderAt
// as it reads a local file, and an array's data through Fetch.
//
// # What is fetched
//
// Open asks for the first KiB (Range: bytes=0-1023): the answer tells the
// file's size (Content-Range) and whether the server reads ranges. The
// file's bytes then lie in memory of its size, an anonymous mapping where
// an untouched page costs nothing (the heap where there are no mappings),
// filled by the ranges asked for, each byte fetched once:
//
//   - ReadAt, for headers and directories: what is not there yet, at least
//     a KiB; a read that continues the one before it reads ahead twice as
//     far as that one, up to Options.Chunk;
//   - Fetch, for an array's data: spans closer than Options.Gap become one
//     request, a range longer than Options.Chunk several, and
//     Options.Parallel requests are in flight at once.
//   - FetchInto, for a reader that reads an array's data once, a piece
//     at a time (compare): the range goes into the reader's buffer, not
//     the file's memory.
//
// A server that answers the first request with 200 and the whole file
// ignores Range: the file is then read once, as a stream (Stream).
//
// # Failures
//
// 429 and 5xx answers, connections refused, dropped or silent are retried
// Options.Retries times, after a backoff that doubles from Options.Backoff
// to MaxBackoff, or after the server's Retry-After when it is longer (one
// over MaxRetryAfter ends the fetch at once); a range cut short resumes
// where its bytes stopped. Each wait for the server (connecting, the
// headers, each read of the body) is bounded by Options.Timeout
// (STRIDER_HTTP_TIMEOUT). 401, 403, 404 and other answers end the fetch:
// the error is one line that names the URL the answer came from when a
// redirect led elsewhere, with its secrets redacted (Redact), and never
// the token.
//
// # Tokens and redirects
//
// Options.Token (HF_TOKEN) is sent as "Authorization: Bearer" to
// Options.TokenOrigin only (the hub, or HF_ENDPOINT): never to another
// scheme, host or port, and not after a redirect has left that origin
// (Go's client alone would forward it to the same host on another port,
// and to subdomains). Redirects are followed (at most 10), and the next
// requests go straight to where they led (a signed CDN link); when that
// link answers 401, 403, 404 or 410, the input's URL is asked again.
package remote
