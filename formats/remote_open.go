package formats

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"sync"

	"strider/formats/npy"
	"strider/formats/remote"
	"strider/formats/safetensors"
	"strider/formats/torch"
	"strider/internal/sysmem"
)

// This file opens remote inputs (http://, https://, hf://; package
// remote fetches them). The formats read a remote file through its
// ReaderAt as they read a local one, and an array's data lies on the
// remote file's memory:
//
//   - a header (Inspect, OpenHeader, ListTensors) is read alone: a .npy's
//     first KiB; a safetensors file's 8 bytes, then its header; an .npz's
//     central directory, then each member's local header;
//   - with npy.AccessFetch, a .npy's or a safetensors tensor's data is not
//     fetched at Open: the caller fetches the spans it reads (Array.Fetch);
//   - otherwise the array's data is fetched whole, in ranges of
//     Options.Chunk, several in flight;
//   - a torch.save file is fetched whole (its pickle and records are read
//     from the bytes), and an .npz member is read whole through ReadAt,
//     whose read-ahead grows as the member is read in order;
//   - a server that ignores Range is read as a stream: as a pipe is.

// openRemoteFile opens the remote file of url (no member), with the
// options the environment sets, or takes the one handed on to it.
func openRemoteFile(url string) (*remote.File, error) {
	if f := takeHandoff(url); f != nil {
		return f, nil
	}
	opt, err := remote.FromEnv()
	if err != nil {
		return nil, err
	}
	return remote.Open(url, opt)
}

// handoff is a remote file that ListTensors opened and found to be no
// tensor file, kept for the next open of its URL: info then lists a .npy
// or an .npz with the bytes already fetched (one request of the first KiB
// for a .npy, not two). It holds one file at most; a file nobody takes is
// closed when another is handed on.
var handoff struct {
	sync.Mutex
	url string
	f   *remote.File
}

// handOn keeps f, the ranged file of url, for the next open of url.
func handOn(url string, f *remote.File) {
	handoff.Lock()
	old := handoff.f
	handoff.url, handoff.f = url, f
	handoff.Unlock()
	if old != nil {
		old.Close()
	}
}

// takeHandoff returns the file handed on for url, or nil.
func takeHandoff(url string) *remote.File {
	handoff.Lock()
	defer handoff.Unlock()
	if handoff.f == nil || handoff.url != url {
		return nil
	}
	f := handoff.f
	handoff.f = nil
	return f
}

// openRemote is open for a remote spec.
func openRemote(spec string, access npy.Access, headerOnly bool) (*npy.Array, error) {
	u, member, hasMember := remote.Split(spec)
	f, err := openRemoteFile(u)
	if err != nil {
		return nil, err
	}
	if !f.Ranged() {
		defer f.Close()
		body, err := f.Stream()
		if err != nil {
			return nil, err
		}
		defer body.Close()
		return openStream(body, member, hasMember, headerOnly)
	}
	a, owned, err := openRanged(f, member, hasMember, access == npy.AccessFetch && !headerOnly, headerOnly)
	if !owned {
		f.Close()
	}
	return a, err
}

// remoteKind tells what a ranged remote file is from its first bytes and,
// for a zip, its directory.
func remoteKind(f *remote.File, sig []byte) tensorKind {
	if k := sniffTensorFile(sig); k == safetensorsFile || k == torchLegacyFile {
		return k
	}
	if isZip(sig) {
		if zr, err := zip.NewReader(f, f.Size()); err == nil && torch.Folder(zr) != "" {
			return torchZipFile
		}
	}
	return notTensorFile
}

// readSig reads the first bytes of a ranged remote file.
func readSig(f *remote.File) ([]byte, error) {
	sig := make([]byte, probeLen)
	n, err := f.ReadAt(sig, 0)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("reading the file: %w", err)
	}
	return sig[:n], nil
}

// tensorIndex indexes a ranged remote tensor file: a safetensors file's
// header is fetched alone (its length, then its text), a torch.save file
// whole.
func tensorIndex(f *remote.File, kind tensorKind) (*npy.TensorFile, error) {
	switch kind {
	case safetensorsFile:
		var n8 [8]byte
		if _, err := f.ReadAt(n8[:], 0); err != nil {
			return nil, fmt.Errorf("reading the file: %w", err)
		}
		n := binary.LittleEndian.Uint64(n8[:])
		if n <= safetensors.MaxHeader && 8+int64(n) <= f.Size() {
			if err := f.Fetch([][2]int64{{8, 8 + int64(n)}}); err != nil {
				return nil, err
			}
		} // else Parse says what is wrong, from the length alone
	case torchZipFile:
		if err := fetchTorchIndex(f); err != nil {
			return nil, err
		}
	}
	return parseTensorFile(kind, f.Bytes())
}

// fetchTorchIndex fetches what torch.Parse reads of f, a torch.save
// archive: its directory, every member's local header, and every member
// but the storage records (data.pkl, byteorder, version), each with room
// for a data descriptor after it. A record's data is fetched when a tensor
// reads it. An archive with a compressed record, or one whose directory
// does not read, is fetched whole, as Parse then needs it.
func fetchTorchIndex(f *remote.File) error {
	rec := &offsetRecorder{f: f}
	zr, err := zip.NewReader(rec, f.Size())
	if err != nil {
		return f.FetchAll()
	}
	records := torch.Folder(zr) + "/data/"
	// The local headers' offsets are zip's to know: DataOffset asks for
	// each, recorded here and answered with zeros, then all are fetched at
	// once (a header is 30 bytes, its name and PyTorch's padding to 64).
	rec.recording = true
	for _, zf := range zr.File {
		if strings.HasPrefix(zf.Name, records) && (zf.Method != zip.Store || zf.CompressedSize64 != zf.UncompressedSize64) {
			return f.FetchAll()
		}
		_, _ = zf.DataOffset() // only the offset it asks for is wanted
	}
	rec.recording = false
	if len(rec.asked) != len(zr.File) {
		return f.FetchAll()
	}
	spans := make([][2]int64, 0, len(rec.asked))
	for i, off := range rec.asked {
		spans = append(spans, [2]int64{off, off + 30 + int64(len(zr.File[i].Name)) + 128})
	}
	if err := f.Fetch(spans); err != nil {
		return err
	}
	spans = spans[:0]
	for _, zf := range zr.File {
		off, err := zf.DataOffset()
		if err != nil {
			return f.FetchAll() // Parse says what is wrong
		}
		if !strings.HasPrefix(zf.Name, records) {
			spans = append(spans, [2]int64{off, off + int64(min(zf.CompressedSize64, uint64(f.Size()))) + 24})
		}
	}
	return f.Fetch(spans)
}

// offsetRecorder is a remote file that, while recording, answers every
// read with zeros and keeps its offset instead of fetching it.
type offsetRecorder struct {
	f         *remote.File
	recording bool
	asked     []int64
}

func (r *offsetRecorder) ReadAt(p []byte, off int64) (int, error) {
	if !r.recording {
		return r.f.ReadAt(p, off)
	}
	r.asked = append(r.asked, off)
	clear(p)
	return len(p), nil
}

// openRanged opens the array member names (or the only one) of a ranged
// remote file; with lazy its data is left for Array.Fetch where it can
// be. owned tells that the array's Data lies on f, which the array then
// closes.
func openRanged(f *remote.File, member string, hasMember, lazy, headerOnly bool) (a *npy.Array, owned bool, err error) {
	a, err = openRangedArray(f, member, hasMember, lazy, headerOnly)
	return a, a != nil && a.HasSource(), err
}

// openRangedArray is openRanged's array: the file's kind is told by its
// first bytes (and, for a zip, its directory), as for a local file.
func openRangedArray(f *remote.File, member string, hasMember, lazy, headerOnly bool) (*npy.Array, error) {
	sig, err := readSig(f)
	if err != nil {
		return nil, err
	}
	if kind := remoteKind(f, sig); !hasNpyMagic(sig) && kind != notTensorFile {
		return openRangedMember(f, kind, member, hasMember, lazy, headerOnly)
	}
	if lazy && isZip(sig) {
		if a, ok, err := openRangedStoredMember(f, member, hasMember); ok {
			return a, err
		}
	}
	if a, ok, err := openAsNpz(f, f.Size(), f.Name(), sig, member, hasMember, headerOnly); ok {
		return a, err
	}
	return openRangedNpy(f, lazy, headerOnly)
}

// openRangedStoredMember opens the member of f, a ranged remote .npz,
// that file.npz:member names, when the archive stores it uncompressed (as
// np.savez does): its local header and .npy header are read alone, and its
// data is fetched by ranges as the command reads it, in place where it is
// aligned in the file, else through an aligned copy of what is fetched.
// Read so, a member is not checked against its CRC-32 (its bytes are not
// all read). ok is false where the member is compressed or the archive
// does not read: openAsNpz reads it whole, or says what is wrong.
func openRangedStoredMember(f *remote.File, member string, hasMember bool) (a *npy.Array, ok bool, err error) {
	zr, err := openNpzReader(f, f.Size())
	if err != nil {
		return nil, false, nil
	}
	zf, err := npy.PickMember(zr, member, hasMember)
	if err != nil {
		return nil, true, err
	}
	size := int64(zf.UncompressedSize64)
	if zf.Method != zip.Store || size < 0 || zf.CompressedSize64 != zf.UncompressedSize64 {
		return nil, false, nil
	}
	off, err := zf.DataOffset()
	if err != nil || off < 0 || off > f.Size()-size {
		return nil, false, nil
	}
	if a, err = describeRanged(f, off, size, "member"); err != nil {
		return nil, true, err
	}
	nbytes := a.NBytes()
	if nbytes == 0 {
		a.Data = []byte{}
		return a, true, nil
	}
	src := remoteSource{f, off + a.DataOffset}
	if src.base%16 == 0 {
		a.Data = f.Bytes()[src.base : src.base+nbytes : src.base+nbytes]
		a.OwnSource(src, true)
		return a, true, nil
	}
	if err := sysmem.CheckMemory("the member's aligned copy", nbytes); err != nil {
		return nil, true, err
	}
	a.Data = npy.AlignedBuf(int(nbytes))
	a.OwnSource(alignedSource{src, a.Data}, true)
	return a, true, nil
}

// alignedSource is a remoteSource whose bytes are not aligned in the file:
// what Fetch brings in is copied into dst, the array's aligned Data.
type alignedSource struct {
	remoteSource
	dst []byte
}

func (s alignedSource) Fetch(spans []npy.Span) error {
	if err := s.remoteSource.Fetch(spans); err != nil {
		return err
	}
	b := s.f.Bytes()
	for _, sp := range spans {
		copy(s.dst[sp.Off:sp.Off+sp.Len], b[s.base+sp.Off:])
	}
	return nil
}

// openRangedMember opens the tensor member names (or the only one) of f,
// a ranged remote tensor file of the given kind.
func openRangedMember(f *remote.File, kind tensorKind, member string, hasMember, lazy, headerOnly bool) (*npy.Array, error) {
	tf, err := tensorIndex(f, kind)
	if err != nil {
		return nil, err
	}
	t, err := tf.Pick(member, hasMember)
	if err != nil {
		return nil, err
	}
	a, src, later, err := openRangedTensor(f, t, lazy, headerOnly)
	if src != nil {
		a.OwnSource(src, later)
	}
	return a, err
}

// openRangedNpy opens f, a ranged remote .npy file: its header is read
// alone, and its data fetched whole unless lazy, where it lies in place.
func openRangedNpy(f *remote.File, lazy, headerOnly bool) (*npy.Array, error) {
	a, err := describeRanged(f, 0, f.Size(), "file")
	if err != nil {
		return nil, err
	}
	if headerOnly {
		return a, nil
	}
	nbytes := a.NBytes()
	if nbytes == 0 {
		a.Data = []byte{}
		return a, nil
	}
	begin, end := a.DataOffset, a.DataOffset+nbytes
	if begin%16 != 0 {
		// A writer other than NumPy left the data misaligned: an aligned
		// copy of all of it, as for a local file.
		if err := fetchData(f, begin, end); err != nil {
			return nil, err
		}
		a.Data = npy.AlignedBuf(int(nbytes))
		copy(a.Data, f.Bytes()[begin:end])
		return a, nil
	}
	if !lazy {
		if err := fetchData(f, begin, end); err != nil {
			return nil, err
		}
	}
	a.Data = f.Bytes()[begin:end:end]
	a.OwnSource(remoteSource{f, begin}, lazy)
	return a, nil
}

// describeRanged reads the .npy header of the size bytes of f from off
// (a file, or an archive's member) and makes the array it describes,
// without its data.
func describeRanged(f *remote.File, off, size int64, where string) (*npy.Array, error) {
	d, err := npy.Describe(io.NewSectionReader(f, off, size), size, where)
	switch {
	case err != nil:
		return nil, err
	case d.Refused != nil:
		return nil, d.Refused
	case d.Truncated():
		return nil, npy.Malformed("data is %d bytes but the header promises %d", d.DataBytes, d.NBytes())
	}
	return &npy.Array{Header: d.Header}, nil
}

// openRangedTensor makes the array of tensor t of f, a ranged remote
// tensor file indexed by tensorIndex: its data is fetched now, unless lazy
// and the tensor is read in place. src, when not nil, is f as the source
// the array's Data lies on, which the caller hands to the array
// (OwnSource, with later: the data is left for Array.Fetch) or keeps open
// while the array is used (a shard of a sharded checkpoint, whose tensors
// share f).
func openRangedTensor(f *remote.File, t *npy.Tensor, lazy, headerOnly bool) (a *npy.Array, src npy.Source, later bool, err error) {
	if headerOnly || t.Err != nil {
		a, _, err := t.Open(nil, true)
		return a, nil, false, err
	}
	begin := t.Loc.Begin + int64(t.Offset)*int64(t.Loc.ItemSize)
	end := begin + t.Span()*int64(t.Loc.ItemSize)
	inPlace := t.Loc.Record == nil && t.Loc.Widen == nil && begin%int64(min(t.Loc.ItemSize, 8)) == 0
	if !lazy || !inPlace {
		if err := fetchData(f, begin, end); err != nil {
			return nil, nil, false, err
		}
	}
	a, onMapping, err := t.Open(f.Bytes(), false)
	if err != nil || !onMapping {
		return a, nil, false, err
	}
	return a, remoteSource{f, begin}, lazy && inPlace, nil
}

// fetchData fetches bytes [begin, end) of f, an array's data that is read
// whole, once the memory it takes is there.
func fetchData(f *remote.File, begin, end int64) error {
	if err := sysmem.CheckMemory("the remote data, which is read into memory", end-begin); err != nil {
		return err
	}
	return f.Fetch([][2]int64{{begin, end}})
}

// remoteSource is the remote file an array's Data lies on, from byte base.
type remoteSource struct {
	f    *remote.File
	base int64
}

func (s remoteSource) Fetch(spans []npy.Span) error {
	l := make([][2]int64, len(spans))
	for i, sp := range spans {
		l[i] = [2]int64{s.base + sp.Off, s.base + sp.Off + sp.Len}
	}
	return s.f.Fetch(l)
}

func (s remoteSource) FetchInto(dst []byte, off int64) error {
	return s.f.FetchInto(dst, s.base+off)
}

func (s remoteSource) Close() error { return s.f.Close() }

// inspectRemote is Inspect for a remote spec: the header alone, or, from
// a server that ignores Range, what inspectStream reads of the stream.
func inspectRemote(spec string) ([]npy.Description, error) {
	u, member, hasMember := remote.Split(spec)
	f, err := openRemoteFile(u)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !f.Ranged() {
		body, err := f.Stream()
		if err != nil {
			return nil, err
		}
		defer body.Close()
		return inspectStream(body, member, hasMember)
	}
	return inspectFile(f, f.Size(), member, hasMember)
}

// listRemoteTensors is ListTensors for a remote spec: ok is false when
// the file is no tensor file. An input that cannot be fetched is ok with
// its error, so that it is reported once. From a server that ignores
// Range, a tensor file is read whole.
func listRemoteTensors(spec string) (tf *npy.TensorFile, ok bool, err error) {
	u, member, hasMember := remote.Split(spec)
	f, err := openRemoteFile(u)
	if err != nil {
		return nil, true, err
	}
	if !f.Ranged() {
		defer f.Close()
		return listStreamTensors(f, u, member, hasMember)
	}
	sig, err := readSig(f)
	if err != nil {
		f.Close()
		return nil, true, err
	}
	kind := remoteKind(f, sig)
	if kind == notTensorFile || hasNpyMagic(sig) {
		handOn(u, f) // what Inspect or Open reads next
		return nil, false, nil
	}
	defer f.Close()
	if tf, err = tensorIndex(f, kind); err != nil {
		return nil, true, err
	}
	return listed(tf, u, member, hasMember)
}

// listStreamTensors is listRemoteTensors for f, the remote file of u
// from a server that ignores Range: a tensor file is read whole.
func listStreamTensors(f *remote.File, u, member string, hasMember bool) (tf *npy.TensorFile, ok bool, err error) {
	body, err := f.Stream()
	if err != nil {
		return nil, true, err
	}
	defer body.Close()
	br := bufio.NewReader(body)
	head, _ := br.Peek(probeLen)
	switch k := sniffTensorFile(head); {
	case k == torchLegacyFile:
		_, err := parseTensorFile(k, head)
		return nil, true, err
	case !looksLikeTensorFile(head):
		return nil, false, nil
	}
	s, err := readStream(br, "the remote file", true)
	if err != nil {
		if sniffTensorFile(head) == safetensorsFile {
			return nil, true, err
		}
		return nil, false, nil // a broken zip is no torch.save file: Open says what is wrong
	}
	defer s.release()
	b := s.b
	if sniffTensorFile(b) == notTensorFile {
		return nil, false, nil
	}
	if tf, err = parseTensorFile(sniffTensorFile(b), b); err != nil {
		return nil, true, err
	}
	return listed(tf, u, member, hasMember)
}

// remoteBytes is MapBytes for a remote file: fetched whole.
func remoteBytes(u string) ([]byte, func(), error) {
	f, err := openRemoteFile(u)
	if err != nil {
		return nil, nil, err
	}
	if !f.Ranged() {
		defer f.Close()
		body, err := f.Stream()
		if err != nil {
			return nil, nil, err
		}
		defer body.Close()
		return ReadStream(body, "the remote file")
	}
	if err := fetchData(f, 0, f.Size()); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f.Bytes(), func() { f.Close() }, nil
}

// openRemoteArchive is OpenArchive for a remote spec: a tensor file or an
// .npz archive is listed from its header or directory; each member is
// then opened as URL:NAME. A spec that names a member (URL:NAME), or a
// file that is neither, is one array (ok false).
func openRemoteArchive(spec string) (*Archive, bool, error) {
	if _, _, hasMember := remote.Split(spec); hasMember {
		return nil, false, nil
	}
	tf, ok, err := listRemoteTensors(spec)
	switch {
	case ok && err != nil:
		return nil, true, err
	case ok:
		return tensorArchive(spec, tf, true), true, nil
	}
	f, err := openRemoteFile(spec)
	if err != nil {
		return nil, true, err
	}
	defer f.Close()
	if !f.Ranged() {
		return nil, false, nil // read once, by Open, as a pipe is
	}
	sig, err := readSig(f)
	if err != nil || !isZip(sig) {
		return nil, false, err
	}
	a, err := npzArchive(spec, f, f.Size(), true)
	return a, true, err
}
