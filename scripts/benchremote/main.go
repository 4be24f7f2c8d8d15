// Command benchremote measures strider on remote inputs against a loopback
// HTTP server (net/http's file server, which reads ranges), as
// scripts/bench.sh --remote runs it:
//
//	go run ./scripts/benchremote -strider ./strider [-mib 256] [-runs 7] [-baseline ./strider-old]
//
// It writes two equal float32 .npy files of MIB MiB each and a sparse
// 1 GiB .safetensors file into a temporary folder, serves them, and prints:
//
//   - the server's plain download speed: one GET of a file, read to its end
//     by Go's HTTP client;
//   - `strider compare URL1 URL2` (both files fetched, then compared): its
//     speed as the bytes of both files over its time, and
//     that speed against the plain download's (issue 30's target: 80% or
//     more), with the same compare on the local files beside it, and what
//     the remote compare costs beyond it (its time less the local one's:
//     the transfer, where compare did not overlap it);
//     the three are timed in turn, RUNS times, and their medians shown;
//   - with -baseline, the remote compare of another strider binary (the
//     one before a change), timed in the same turns, so that a before and
//     after share the machine's load;
//   - what `info` and `show URL:NAME '0, :5'` fetch of the 1 GiB file
//     (requests and bytes, counted by the server).
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

func main() {
	strider := flag.String("strider", "strider", "the strider binary")
	mib := flag.Int("mib", 256, "size of each compared file, MiB")
	runs := flag.Int("runs", 7, "runs of each timing; the median is shown")
	baseline := flag.String("baseline", "", "another strider binary whose remote compare is timed in the same turns")
	flag.Parse()
	if err := bench(*strider, *baseline, *mib, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "benchremote:", err)
		os.Exit(1)
	}
}

// counter counts the requests and body bytes the server sends.
type counter struct {
	mu              sync.Mutex
	requests, bytes int64
}

func (c *counter) reset() (int64, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, b := c.requests, c.bytes
	c.requests, c.bytes = 0, 0
	return r, b
}

type countingWriter struct {
	http.ResponseWriter
	c *counter
}

func (w countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.c.mu.Lock()
	w.c.bytes += int64(n)
	w.c.mu.Unlock()
	return n, err
}

func bench(strider, baseline string, mib, runs int) error {
	dir, err := os.MkdirTemp("", "strider-benchremote-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	size := int64(mib) << 20
	for _, name := range []string{"a.npy", "b.npy"} {
		if err := writeNpy(filepath.Join(dir, name), size); err != nil {
			return err
		}
	}
	if err := writeSparseSafetensors(filepath.Join(dir, "model.safetensors")); err != nil {
		return err
	}
	var c counter
	base, stop, err := serve(dir, &c)
	if err != nil {
		return err
	}
	defer stop()
	if err := timeCompares(strider, baseline, dir, base, size, mib, runs); err != nil {
		return err
	}
	return countFetches(strider, base, &c)
}

// serve serves the files of dir on a loopback port, counting requests
// and bytes in c, and returns its base URL.
func serve(dir string, c *counter) (base string, stop func(), err error) {
	files := http.FileServer(http.Dir(dir))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.requests++
		c.mu.Unlock()
		files.ServeHTTP(countingWriter{w, c}, r)
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// timeCompares times the plain download, the remote compare and the local
// one (and the baseline's remote compare) in turn, run after run, so that
// a machine whose load changes weighs on each alike, and prints each
// median.
func timeCompares(strider, baseline, dir, base string, size int64, mib, runs int) error {
	var plain, remote, local, transfer, before []time.Duration
	for range runs {
		p, err := timed(func() error {
			resp, err := http.Get(base + "/a.npy")
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			_, err = io.Copy(io.Discard, resp.Body)
			return err
		})
		if err != nil {
			return err
		}
		r, err := timed(func() error { return run(strider, "compare", base+"/a.npy", base+"/b.npy") })
		if err != nil {
			return err
		}
		l, err := timed(func() error { return run(strider, "compare", filepath.Join(dir, "a.npy"), filepath.Join(dir, "b.npy")) })
		if err != nil {
			return err
		}
		plain, remote, local, transfer = append(plain, p), append(remote, r), append(local, l), append(transfer, r-l)
		if baseline != "" {
			b, err := timed(func() error { return run(baseline, "compare", base+"/a.npy", base+"/b.npy") })
			if err != nil {
				return err
			}
			before = append(before, b)
		}
	}
	mibps := func(bytes int64, d time.Duration) float64 { return float64(bytes) / (1 << 20) / d.Seconds() }
	fmt.Printf("loopback, %d MiB files, medians of %d alternating runs\n", mib, runs)
	both := 2 * (size + headerLen)
	speed := mibps(size+headerLen, median(plain))
	line := func(what string, bytes int64, d time.Duration) {
		fmt.Printf("  %-46s %7.3f s  %6.0f MiB/s  %3.0f%% of the plain download\n", what, d.Seconds(), mibps(bytes, d), 100*mibps(bytes, d)/speed)
	}
	line("plain download (one GET, Go client)", size+headerLen, median(plain))
	line("strider compare URL1 URL2", both, median(remote))
	if baseline != "" {
		line("the same, by -baseline's binary", both, median(before))
	}
	line("strider compare FILE1 FILE2 (local, cached)", both, median(local))
	if t := median(transfer); t > 0 {
		line("each run's remote less its local", both, t)
	}
	return nil
}

// countFetches prints the requests and bytes info and show fetch of the
// sparse 1 GiB .safetensors file.
func countFetches(strider, base string, c *counter) error {
	c.reset()
	for _, args := range [][]string{
		{"info", base + "/model.safetensors"},
		{"show", base + "/model.safetensors:weight", "0, :5"},
	} {
		if err := run(strider, args...); err != nil {
			return err
		}
		n, b := c.reset()
		fmt.Printf("  %-45s %d requests, %d bytes\n", strings.Join(append([]string{args[0], "1 GiB .safetensors"}, args[2:]...), " "), n, b)
	}
	return nil
}

// timed runs f and returns its time.
func timed(f func() error) (time.Duration, error) {
	start := time.Now()
	err := f()
	return time.Since(start), err
}

// median of the times ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func run(strider string, args ...string) error {
	cmd := exec.Command(strider, args...)
	cmd.Stdout = io.Discard
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("strider %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return nil
}

const headerLen = 128

// writeNpy writes a float32 .npy of size data bytes whose elements count
// up (both files alike: compare reads all of both).
func writeNpy(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	text := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }", size/4)
	text += strings.Repeat(" ", headerLen-10-len(text)-1) + "\n"
	head := append([]byte("\x93NUMPY\x01\x00"), byte(len(text)), byte(len(text)>>8))
	if _, err := f.Write(append(head, text...)); err != nil {
		return err
	}
	buf := make([]byte, 1<<20)
	for i := int64(0); i < size/4; i += int64(len(buf) / 4) {
		for k := 0; k < len(buf); k += 4 {
			binary.LittleEndian.PutUint32(buf[k:], uint32(float32Bits(float32(i+int64(k/4)))))
		}
		if _, err := f.Write(buf[:min(int64(len(buf)), size-4*i)]); err != nil {
			return err
		}
	}
	return f.Close()
}

func float32Bits(x float32) uint32 { return math.Float32bits(x) }

// writeSparseSafetensors writes a 1 GiB .safetensors file, sparse (a
// hole after its header): a float32 weight (65536, 4096) and a bias, and
// a 20 KB header, as a model of a few hundred tensors has.
func writeSparseSafetensors(path string) error {
	header := `{"__metadata__":{"format":"pt","notes":"` + strings.Repeat("n", 20000) + `"},"bias":{"dtype":"F32","shape":[4096],"data_offsets":[0,16384]},"weight":{"dtype":"F32","shape":[65536,4096],"data_offsets":[16384,1073758208]}}`
	header += strings.Repeat(" ", (8-len(header)%8)%8)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	if _, err := f.Write(append(head, header...)); err != nil {
		return err
	}
	if err := f.Truncate(int64(8+len(header)) + 1073758208); err != nil {
		return err
	}
	return f.Close()
}
