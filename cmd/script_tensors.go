package cmd

import (
	"strider/formats"
)

// loadTensorFile adds the line that reads tensor member (or the file's only
// tensor) of a .safetensors or torch.save file into variable name as a
// NumPy array, as strider reads it, through a helper defined once.
func (s *script) loadTensorFile(name, path, member string, hasMember bool) {
	arg := "None"
	if hasMember {
		arg = pyStr(member)
	}
	s.define(widenF8Def)
	if formats.TensorFormat(path) == "safetensors" {
		s.importModule("json")
		s.define(loadSafetensorsDef)
		s.add("%s = load_safetensors(%s, %s)", name, pyStr(path), arg)
		return
	}
	s.importModule("torch")
	s.importModule("zipfile")
	s.define(loadTorchDef)
	s.add("%s = load_torch(%s, %s)", name, pyStr(path), arg)
}

const widenF8Def = `def widen_f8(raw, e5m2):
    """float8 bytes (e4m3fn, or e5m2) widened exactly to float32, as strider reads them:
    a NaN keeps its sign and its mantissa bits, moved to the top of float32's mantissa."""
    ebits, mbits = (5, 2) if e5m2 else (4, 3)
    bias, top = (1 << (ebits - 1)) - 1, (1 << ebits) - 1
    b = raw.astype(np.uint32)
    sign, e, m = (b >> 7) << 31, (b >> mbits) & top, b & ((1 << mbits) - 1)
    special = (e == top) if e5m2 else (e == top) & (m == (1 << mbits) - 1)  # inf or NaN
    normal = sign | ((e + 127 - bias) << 23) | (m << (23 - mbits))
    subnormal = sign | (m.astype(np.float32) * np.float32(2.0 ** (1 - bias - mbits))).view(np.uint32)
    bits = np.where(special, sign | 0x7F800000 | (m << (23 - mbits)), np.where(e == 0, subnormal, normal))
    return bits.astype(np.uint32).view(np.float32)`

const loadSafetensorsDef = `def load_safetensors(path, name=None):
    """Tensor name of a .safetensors file (None: its only tensor) as a NumPy array. The file is
    an 8-byte little-endian header length N, N bytes of JSON giving each tensor's dtype, shape
    and data_offsets, then the data, which the tensors tile exactly; checked as strider does."""
    with open(path, 'rb') as f:
        data = f.read()
    n = int.from_bytes(data[:8], 'little')
    def unique(pairs):
        if len({k for k, _ in pairs}) != len(pairs):
            raise ValueError(f'{path}: a key appears twice in the header')
        return dict(pairs)
    header = json.loads(data[8:8 + n].decode(), object_pairs_hook=unique)
    if not all(isinstance(v, str) for v in header.pop('__metadata__', {}).values()):
        raise ValueError(f'{path}: __metadata__ maps strings to strings')
    kinds = {'BOOL': '?', 'U8': 'u1', 'I8': 'i1', 'U16': '<u2', 'I16': '<i2', 'U32': '<u4', 'I32': '<i4',
             'U64': '<u8', 'I64': '<i8', 'F16': '<f2', 'F32': '<f4', 'F64': '<f8', 'C64': '<c8',
             'BF16': '<u2', 'F8_E4M3': 'u1', 'F8_E5M2': 'u1'}
    end = 0
    for t in sorted(header.values(), key=lambda t: t['data_offsets']):
        begin, stop = t['data_offsets']
        if any(type(d) is not int or d < 0 for d in t['shape']) or begin != end or (
                t['dtype'] in kinds and stop - begin != np.dtype(kinds[t['dtype']]).itemsize * np.prod(t['shape'], dtype=object)):
            raise ValueError(f'{path}: the tensors do not tile the data ({t})')
        end = stop
    if 8 + n + end != len(data):
        raise ValueError(f'{path}: {len(data) - 8 - n - end} bytes after the last tensor')
    if name is None:
        if len(header) != 1:
            raise ValueError(f'{path} holds {len(header)} tensors: name one as FILE:NAME')
        (name,) = header
    t = header[name]
    raw = np.frombuffer(data, kinds[t['dtype']], offset=8 + n + t['data_offsets'][0],
                        count=int(np.prod(t['shape'], dtype=object)))
    if t['dtype'] == 'BF16':  # the top half of a float32: widened exactly, as strider reads it
        raw = (raw.astype('<u4') << 16).view('<f4')
    elif t['dtype'] in ('F8_E4M3', 'F8_E5M2'):
        raw = widen_f8(raw, t['dtype'] == 'F8_E5M2')
    return raw.reshape(t['shape']).copy()`

const loadTorchDef = `def load_torch(path, name=None):
    """Tensor name of a torch.save file (None: its only tensor) as a NumPy array. Loaded as
    torch.load(weights_only=True) loads it (PyTorch 1.13's weights-only unpickler refuses a
    float value in the checkpoint, such as "lr": 0.5, which strider reads); the names are dict keys (str, int,
    bool) and list or tuple indices joined with '.', as state_dict() names them."""
    if not zipfile.is_zipfile(path):
        raise ValueError(f'{path}: the legacy torch.save format of PyTorch < 1.6 is not read')
    found, todo = [], [('', 0, torch.load(path, map_location='cpu', weights_only=True))]
    for visits in range(1 << 20):  # strider's bounds: a billion-laughs object stops here,
        if not todo:               # and one that holds itself at 256 levels
            break
        prefix, depth, obj = todo.pop()
        if depth > 256:
            raise ValueError(f'{path}: containers nest more than 256 deep')
        join = (prefix + '.') if prefix else ''
        if isinstance(obj, torch.Tensor):
            found.append((prefix, obj))
        elif isinstance(obj, dict):  # keys str, int or bool (an int, named True or False)
            todo += [(join + str(k), depth + 1, v) for k, v in obj.items() if isinstance(k, (str, int))]
        elif isinstance(obj, (list, tuple)):
            todo += [(join + str(i), depth + 1, v) for i, v in enumerate(obj)]
    if todo:
        raise ValueError(f'{path}: more than {1 << 20} containers and tensors to walk')
    ts = [t for n, t in found if name is None or n == name]
    if len(ts) != 1:
        raise ValueError(f'{path} holds {len(ts)} tensors named {name!r}' if name is not None
                         else f'{path} holds {len(ts)} tensors: name one as FILE:NAME')
    t = ts[0].detach()
    if t.dtype == torch.bfloat16:  # widened exactly to float32, as strider reads it
        return t.float().numpy()
    if str(t.dtype).startswith('torch.float8'):
        return widen_f8(t.contiguous().view(torch.uint8).numpy(), t.dtype == torch.float8_e5m2)
    return t.numpy()`
