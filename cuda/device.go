//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"

	"strider/internal/dtype"
	"strider/ops"
)

// ErrNoCUDA is returned when this CUDA build finds no GPU to run on.
var ErrNoCUDA = errors.New("--device cuda: no CUDA device is available (the driver reports none)")

// Device is the GPU engine: the process's one context on GPU 0 with the
// kernels loaded. Its methods write exactly the bytes package ops writes.
type Device struct {
	mu     sync.Mutex // one engine call at a time: the context is per OS thread
	ctx    cu.CUContext
	name   string
	funcs  map[string]cu.Function
	mods   []*cu.Module // by index in modules; nil until first used
	timing bool         // STRIDER_CUDA_TIMING: print CUDA event times to stderr
}

var (
	openOnce sync.Once
	opened   *Device
	openErr  error
)

// Open returns the process's GPU engine, creating its context and loading
// the kernels on first use.
func Open() (*Device, error) {
	openOnce.Do(func() { opened, openErr = open() })
	return opened, openErr
}

// Available reports whether a GPU can be used.
func Available() error {
	_, err := Open()
	return err
}

// driverErr wraps a failed driver call as a strider error.
func driverErr(what string, err error) error {
	return fmt.Errorf("--device cuda: %s: %w", what, err)
}

func open() (*Device, error) {
	n, err := cu.NumDevices()
	if err != nil {
		return nil, driverErr("counting devices", err)
	}
	if n == 0 {
		return nil, ErrNoCUDA
	}
	dev, err := cu.GetDevice(0)
	if err != nil {
		return nil, driverErr("getting device 0", err)
	}
	d := &Device{funcs: map[string]cu.Function{}, timing: os.Getenv("STRIDER_CUDA_TIMING") != ""}
	if d.name, err = dev.Name(); err != nil {
		return nil, driverErr("reading the device name", err)
	}
	// The primary context is the one the runtime API (and PyTorch) would
	// use too; it is made current on whichever OS thread runs a call.
	if d.ctx, err = dev.RetainPrimaryCtx(); err != nil {
		return nil, driverErr("creating the context", err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return nil, driverErr("making the context current", err)
	}
	d.mods = make([]*cu.Module, len(modules))
	return d, nil
}

// function returns the kernel, looked up once. Modules are loaded on first
// use: the driver JIT-compiles PTX when it loads it (cached on disk by the
// driver afterwards), so a command pays only for the kernels it runs.
func (d *Device) function(name string) (cu.Function, error) {
	if f, ok := d.funcs[name]; ok {
		return f, nil
	}
	k := moduleOf(name)
	if d.mods[k] == nil {
		mod, err := cu.LoadData(*modules[k].ptx)
		if err != nil {
			return cu.Function{}, driverErr("loading the "+modules[k].name+" kernels (JIT from PTX)", err)
		}
		d.mods[k] = &mod
	}
	f, err := d.mods[k].Function(name)
	if err != nil {
		return f, driverErr("finding kernel "+name, err)
	}
	d.funcs[name] = f
	return f, nil
}

// exec runs a planned program: allocate and fill the buffers, run the
// steps in order on the default stream, wait, check the kernels' error
// flag, copy the results back, free everything. A nil program is a no-op.
// done, when set, is advanced by the bytes of each result copied back, so
// the command's progress line moves as the CPU engine's does.
func (d *Device) exec(done *atomic.Int64, p *program, planErr error) (err error) {
	if planErr != nil || p == nil {
		return planErr
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(d.ctx); err != nil {
		return driverErr("making the context current", err)
	}
	ptrs := make([]cu.DevicePtr, len(p.bufs))
	defer func() {
		if ferr := free(p, ptrs); ferr != nil && err == nil {
			err = ferr
		}
	}()
	t := d.newTimer(p.op)
	defer t.close()
	if err := allocate(p, ptrs); err != nil {
		return err
	}
	t.start()
	if err := upload(p, ptrs, t); err != nil {
		return err
	}
	if err := d.run(p, ptrs, t); err != nil {
		return err
	}
	if err := checkFlag(p, ptrs); err != nil {
		return err
	}
	if err := download(p, ptrs, t, done); err != nil {
		return err
	}
	return t.report()
}

// allocate gives each buffer its device memory (ptrs, by buffer).
func allocate(p *program, ptrs []cu.DevicePtr) (err error) {
	for i, b := range p.bufs {
		if ptrs[i], err = cu.MemAlloc(b.size); err != nil {
			return driverErr(fmt.Sprintf("allocating %d bytes for %s", b.size, b.name), err)
		}
	}
	return nil
}

// free releases what allocate got, reporting the first failure.
func free(p *program, ptrs []cu.DevicePtr) error {
	var first error
	for i, ptr := range ptrs {
		if ptr != 0 {
			if err := cu.MemFree(ptr); err != nil && first == nil {
				first = driverErr("freeing "+p.bufs[i].name, err)
			}
		}
	}
	return first
}

// upload copies each buffer's data to the device and zeroes the others.
func upload(p *program, ptrs []cu.DevicePtr, t *timer) error {
	var up int64
	for i, b := range p.bufs {
		var err error
		if len(b.data) > 0 {
			err = cu.MemcpyHtoD(ptrs[i], unsafe.Pointer(unsafe.SliceData(b.data)), int64(len(b.data)))
			up += int64(len(b.data))
		} else {
			err = cu.MemsetD8(ptrs[i], 0, b.size)
		}
		if err != nil {
			return driverErr("uploading "+b.name, err)
		}
	}
	t.mark("upload", up)
	return nil
}

// run issues the steps in order and waits for the last.
func (d *Device) run(p *program, ptrs []cu.DevicePtr, t *timer) error {
	args := make([]uint64, 0, 16)
	params := make([]unsafe.Pointer, 0, 16)
	for _, s := range p.steps {
		if s.kernel == "" {
			if err := cu.MemcpyDtoD(ptrs[s.dst]+cu.DevicePtr(s.dstOff), ptrs[s.src]+cu.DevicePtr(s.srcOff), s.bytes); err != nil {
				return driverErr("device-to-device copy", err)
			}
			t.mark("memcpy_dtod", s.bytes)
			continue
		}
		f, err := d.function(s.kernel)
		if err != nil {
			return err
		}
		// Every argument is one 8-byte slot; Launch copies 8 bytes from
		// each pointer in params.
		args, params = args[:0], params[:0]
		for _, a := range s.args {
			v := a.val
			if a.buf != noBuf {
				v = uint64(ptrs[a.buf]) + uint64(a.off)
			}
			args = append(args, v)
		}
		for i := range args {
			params = append(params, unsafe.Pointer(&args[i]))
		}
		if err := f.Launch(s.grid, 1, 1, s.block[0], s.block[1], 1, 0, cu.Stream{}, params); err != nil {
			return driverErr("launching "+s.kernel, err)
		}
		t.mark(s.kernel, 0)
	}
	if err := cu.Synchronize(); err != nil {
		return driverErr("running the "+p.op+" kernels", err)
	}
	return nil
}

// checkFlag turns a raised error flag into the program's error.
func checkFlag(p *program, ptrs []cu.DevicePtr) error {
	if p.errBuf == noBuf {
		return nil
	}
	var flag [3]uint64
	if err := cu.MemcpyDtoH(unsafe.Pointer(&flag[0]), ptrs[p.errBuf], 24); err != nil {
		return driverErr("reading the error flag", err)
	}
	if flag[0] != 0 {
		return p.checkErr(int64(flag[1]), int64(flag[2]))
	}
	return nil
}

// download copies the results back, advancing done (when set) by each.
func download(p *program, ptrs []cu.DevicePtr, t *timer, done *atomic.Int64) error {
	var down int64
	for _, o := range p.outs {
		if len(o.dst) == 0 {
			continue
		}
		if err := cu.MemcpyDtoH(unsafe.Pointer(unsafe.SliceData(o.dst)), ptrs[o.buf]+cu.DevicePtr(o.off), int64(len(o.dst))); err != nil {
			return driverErr("downloading the result", err)
		}
		down += int64(len(o.dst))
		if done != nil {
			done.Add(int64(len(o.dst)))
		}
	}
	t.mark("download", down)
	return nil
}

// timer records a CUDA event after each step when timing is on, and prints
// the time between consecutive events, one line a step:
//
//	strider: cuda-timing: OP STEP MS BYTES
//
// (scripts/gpu-bench.sh reads these lines).
type timer struct {
	on     bool
	op     string
	events []cu.Event
	names  []string
	bytes  []int64
	err    error
}

func (d *Device) newTimer(op string) *timer { return &timer{on: d.timing, op: op} }

func (t *timer) record(name string, n int64) {
	if !t.on || t.err != nil {
		return
	}
	e, err := cu.MakeEvent(cu.DefaultEvent)
	if err == nil {
		err = e.Record(cu.Stream{})
	}
	if err != nil {
		t.err = driverErr("recording a timing event", err)
		return
	}
	t.events = append(t.events, e)
	t.names = append(t.names, name)
	t.bytes = append(t.bytes, n)
}

func (t *timer) start()                    { t.record("start", 0) }
func (t *timer) mark(name string, n int64) { t.record(name, n) }

func (t *timer) report() error {
	if !t.on || t.err != nil {
		return t.err
	}
	if len(t.events) == 0 {
		return nil
	}
	if err := t.events[len(t.events)-1].Synchronize(); err != nil {
		return driverErr("waiting for a timing event", err)
	}
	for i := 1; i < len(t.events); i++ {
		ms, err := t.events[i-1].Elapsed(t.events[i])
		if err != nil {
			return driverErr("reading a timing event", err)
		}
		fmt.Fprintf(os.Stderr, "strider: cuda-timing: %s %s %.6f %d\n", t.op, t.names[i], ms, t.bytes[i])
	}
	return nil
}

func (t *timer) close() {
	for i := range t.events {
		cu.DestroyEvent(&t.events[i])
	}
}

// The engine's calls (see cmd/engine.go): each plans its program on the host
// (copy.go, gather.go, sort.go, tri.go, cast.go, unique.go) and runs it;
// opt.Threads does not apply on the GPU.

func (d *Device) Copy(dst []byte, v ops.View, opt ops.Options) error {
	p, err := planCopy(dst, v)
	return d.exec(opt.Done, p, err)
}

func (d *Device) Take(dst []byte, v ops.View, axis int, idx []int, opt ops.Options) error {
	p, err := planTake(dst, v, axis, idx)
	return d.exec(opt.Done, p, err)
}

func (d *Device) TakeFlat(dst []byte, v ops.View, idx []int, opt ops.Options) error {
	p, err := planTakeFlat(dst, v, idx)
	return d.exec(opt.Done, p, err)
}

func (d *Device) TakeAlongAxis(dst []byte, v ops.View, axis int, idxShape, idx []int, opt ops.Options) error {
	p, err := planTakeAlong(dst, v, axis, idxShape, idx)
	return d.exec(opt.Done, p, err)
}

func (d *Device) Index(dst []byte, x *ops.Indexing, opt ops.Options) error {
	p, err := planIndex(dst, x)
	return d.exec(opt.Done, p, err)
}

func (d *Device) Sort(vals, idx []byte, v ops.View, axis int, dt dtype.Dtype, ord ops.Order, opt ops.Options) error {
	p, err := planSort(vals, idx, v, axis, dt, ord)
	return d.exec(opt.Done, p, err)
}

func (d *Device) Tri(dst []byte, t ops.Tri, elem int, opt ops.Options) error {
	p, err := planTri(dst, t, elem)
	return d.exec(opt.Done, p, err)
}

func (d *Device) Cast(dst []byte, to dtype.Dtype, v ops.View, from dtype.Dtype, opt ops.Options) error {
	p, err := planCast(dst, to, v, from)
	return d.exec(opt.Done, p, err)
}

// UniqueConsecutive runs the comparisons on the GPU and collects the run
// starts from the downloaded flags on the host. It advances opt.Done by
// v's bytes, as ops.UniqueConsecutive does, once the starts are known.
func (d *Device) UniqueConsecutive(v ops.View, f dtype.Dtype, axis int, opt ops.Options) ([]int, error) {
	u, err := planUnique(v, f, axis)
	if err := d.exec(nil, u.prog, err); err != nil {
		return nil, err
	}
	starts := u.starts()
	if opt.Done != nil {
		opt.Done.Add(int64(v.Count() * v.Elem))
	}
	return starts, nil
}
