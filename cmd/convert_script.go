package cmd

import (
	"strings"

	"strider/formats"
)

// script writes a Python converter: it reads IN's tensors as strider
// reads them (a dtype NumPy lacks kept as its raw bytes), and writes OUT
// as strider does: np.savez's layout, save_file's, or one np.save file a
// tensor. A conversion computes nothing, so --as-torch prints the same
// script; torch.load reads a torch.save input in both. With --member, the
// tensors are the ones strider selects, named in the script (Python's
// fnmatch is not path.Match).
func (j convertJob) script(s *script) error {
	args := pyStr(j.in) + ", " + pyStr(j.out)
	if j.globSet {
		ar, ok, err := formats.OpenArchive(j.in)
		switch {
		case err != nil:
			return err
		case !ok:
			return usagef("IN %s is one array, not an archive", displayName(j.in))
		}
		defer ar.Close()
		names, err := j.names(ar)
		if err != nil {
			return err
		}
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = pyStr(n)
		}
		args += ", names=[" + strings.Join(quoted, ", ") + "]"
	}
	for _, m := range []string{"json", "os", "sys", "zipfile", "numpy as np"} {
		s.importModule(m)
	}
	for _, d := range []string{widenF8Def, readSafetensorsDef, writeSafetensorsDef, toSafetensorsDef, saveNpzDef, torchTensorsDef, readTensorsDef, convertDef} {
		s.define(d)
	}
	if s.lib == "torch" {
		s.add("# A conversion computes nothing: the same script as --as-numpy (torch.load reads torch.save inputs).")
	}
	s.add("convert(%s)", args)
	return nil
}

// saveTo's helper for an output FILE.safetensors:NAME.
const saveTensorDef = `def save_tensor(path, name, a):
    """Write or replace tensor name of the .safetensors file at path, as strider's
    -o FILE.safetensors:NAME does: the other tensors' bytes and the __metadata__ kept."""
    tensors, metadata = read_safetensors(path) if os.path.exists(path) else ({}, None)
    tensors[name] = to_safetensors(a)
    write_safetensors(path, tensors, metadata)`

const readSafetensorsDef = `def read_safetensors(path):
    """The tensors of a .safetensors file as {name: (dtype code, shape, raw bytes)}, in the
    file's order, and its __metadata__ in its order (None when it has none)."""
    with open(path, 'rb') as f:
        data = f.read()
    n = int.from_bytes(data[:8], 'little')
    header = json.loads(data[8:8 + n].decode())
    metadata = header.pop('__metadata__', None)
    tensors = {}
    for name, t in sorted(header.items(), key=lambda kv: kv[1]['data_offsets']):
        begin, end = t['data_offsets']
        tensors[name] = (t['dtype'], t['shape'], data[8 + n + begin:8 + n + end])
    return tensors, metadata`

const writeSafetensorsDef = `def write_safetensors(path, tensors, metadata=None):
    """Write {name: (dtype code, shape, little-endian C-order bytes)} as the safetensors library's
    save_file lays a file out (safetensors/src/tensor.rs, v0.4 to v0.7): the tensors by dtype,
    descending in the crate's Dtype enum, then by name; the header compact JSON, __metadata__
    first, padded with spaces to a multiple of 8 bytes."""
    order = ['BOOL', 'F4', 'F6_E2M3', 'F6_E3M2', 'U8', 'I8', 'F8_E5M2', 'F8_E4M3', 'F8_E8M0',
             'F8_E4M3FNUZ', 'F8_E5M2FNUZ', 'I16', 'U16', 'F16', 'BF16', 'I32', 'U32', 'F32', 'C64',
             'F64', 'I64', 'U64']
    names = sorted(tensors, key=lambda k: (-order.index(tensors[k][0]), k.encode()))
    header, offset = {}, 0
    if metadata is not None:
        header['__metadata__'] = metadata
    for k in names:
        code, shape, raw = tensors[k]
        header[k] = {'dtype': code, 'shape': [int(d) for d in shape], 'data_offsets': [offset, offset + len(raw)]}
        offset += len(raw)
    text = json.dumps(header, separators=(',', ':'), ensure_ascii=False).encode()
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(len(text).to_bytes(8, 'little') + text)
        for k in names:
            f.write(tensors[k][2])`

const toSafetensorsDef = `def to_safetensors(a):
    """A NumPy array as (dtype code, shape, little-endian C-order bytes)."""
    codes = {'b1': 'BOOL', 'u1': 'U8', 'i1': 'I8', 'i2': 'I16', 'u2': 'U16', 'i4': 'I32', 'u4': 'U32',
             'i8': 'I64', 'u8': 'U64', 'f2': 'F16', 'f4': 'F32', 'f8': 'F64', 'c8': 'C64'}
    code = codes.get(a.dtype.kind + str(a.dtype.itemsize))
    if code is None:
        raise TypeError(f'safetensors has no dtype for {a.dtype}')
    return code, a.shape, np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<')).tobytes()`

const saveNpzDef = `def save_npz(path, arrays):
    """np.savez(path, **arrays) for any names (a tensor may be called 'file'): stored, zip64,
    NAME.npy members, as numpy/lib/npyio.py's _savez writes them; C order, as strider writes."""
    from numpy.lib import format as npformat
    with zipfile.ZipFile(path, mode='w', compression=zipfile.ZIP_STORED, allowZip64=True) as zf:
        for k, a in arrays.items():
            with zf.open(k + '.npy', 'w', force_zip64=True) as f:
                npformat.write_array(f, np.ascontiguousarray(a) if a.ndim else a, allow_pickle=False)`

const torchTensorsDef = `def torch_tensors(path):
    """The tensors of a torch.save file, named as strider names them (dict keys and list indices
    joined with '.'), in the file's order: NumPy arrays, or (dtype code, shape, raw bytes) for
    bfloat16, which NumPy lacks."""
    import torch
    found, todo = {}, [('', torch.load(path, map_location='cpu', weights_only=True))]
    while todo:
        prefix, obj = todo.pop()
        join = (prefix + '.') if prefix else ''
        if isinstance(obj, torch.Tensor):
            t = obj.detach()
            if t.dtype == torch.bfloat16:
                found[prefix] = ('BF16', tuple(t.shape), t.contiguous().view(torch.int16).numpy().tobytes())
            else:
                found[prefix] = t.numpy()
        elif isinstance(obj, dict):
            todo += reversed([(join + str(k), v) for k, v in obj.items() if isinstance(k, (str, int))])
        elif isinstance(obj, (list, tuple)):
            todo += reversed([(join + str(i), v) for i, v in enumerate(obj)])
    return found`

const readTensorsDef = `def read_tensors(path, names=None):
    """IN's tensors in strider's order, as {name: NumPy array, or (dtype code, shape, raw bytes)
    for a dtype NumPy lacks}, and the __metadata__ of a .safetensors file, or the one all the
    shards that hold the tensors named share (else None)."""
    numpy_of = {'BOOL': '|b1', 'U8': '|u1', 'I8': '|i1', 'I16': '<i2', 'U16': '<u2', 'I32': '<i4',
                'U32': '<u4', 'I64': '<i8', 'U64': '<u8', 'F16': '<f2', 'F32': '<f4', 'F64': '<f8', 'C64': '<c8'}
    if os.path.isdir(path):
        names = sorted(f[:-4] for f in os.listdir(path) if f.endswith('.npy') and os.path.isfile(os.path.join(path, f)))
        return {n: np.load(os.path.join(path, n + '.npy')) for n in names}, None
    if path.lower().endswith('.index.json'):  # a sharded checkpoint: the weight_map's order
        with open(path) as f:
            weight_map = json.load(f)['weight_map']
        shards, metas, out = {}, [], {}
        for name, shard in weight_map.items():
            if names is not None and name not in names:
                continue
            if shard not in shards:
                shards[shard], meta = read_tensors(os.path.join(os.path.dirname(path), shard))
                metas.append(None if meta is None else list(meta.items()))
            out[name] = shards[shard][name]
        keep = metas and metas[0] is not None and all(m == metas[0] for m in metas)
        return out, (dict(metas[0]) if keep else None)
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            torch_zip = any(n.endswith('/data.pkl') for n in z.namelist())
        if torch_zip:
            return torch_tensors(path), None
        with np.load(path) as z:
            return {k: z[k] for k in z.files}, None
    tensors, metadata = read_safetensors(path)
    return {k: np.frombuffer(raw, numpy_of[code]).reshape(shape) if code in numpy_of else (code, shape, raw)
            for k, (code, shape, raw) in tensors.items()}, metadata`

const convertDef = `def convert(src, dst, names=None):
    """Every tensor of src (or those named) into dst: .safetensors (bit for bit, the metadata of
    a .safetensors src kept), .npz, or a folder of NAME.npy; bfloat16 and float8 widened exactly
    to float32 where dst's format lacks them."""
    tensors, metadata = read_tensors(src, names)
    if names is not None:
        tensors = {k: tensors[k] for k in names}
    if dst.lower().endswith('.safetensors'):
        write_safetensors(dst, {k: v if isinstance(v, tuple) else to_safetensors(v) for k, v in tensors.items()}, metadata)
        return
    def widen(code, shape, raw):
        if code == 'BF16':  # the top half of a float32
            return (np.frombuffer(raw, '<u2').astype('<u4') << 16).view('<f4').reshape(shape)
        return widen_f8(np.frombuffer(raw, 'u1'), code == 'F8_E5M2').reshape(shape)
    widened = [k for k, v in tensors.items() if isinstance(v, tuple)]
    if widened:
        print(f'widened exactly to float32: {widened}', file=sys.stderr)
    arrays = {k: widen(*v) if isinstance(v, tuple) else v for k, v in tensors.items()}
    if dst.lower().endswith('.npz'):
        save_npz(dst, arrays)
        return
    os.makedirs(dst, exist_ok=True)
    for k, a in arrays.items():
        np.save(os.path.join(dst, k + '.npy'), np.ascontiguousarray(a) if a.ndim else a)`

// saveTensor adds the lines that write NumPy array r as tensor member of
// the .safetensors file archive, as -o FILE.safetensors:NAME does.
func (s *script) saveTensor(archive, member, r string) {
	for _, m := range []string{"json", "os"} {
		s.importModule(m)
	}
	for _, d := range []string{readSafetensorsDef, writeSafetensorsDef, toSafetensorsDef, saveTensorDef} {
		s.define(d)
	}
	s.add("save_tensor(%s, %s, %s)  # C order, little-endian", pyStr(archive), pyStr(member), r)
}
