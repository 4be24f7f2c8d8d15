package testkit

import (
	"bytes"
	"encoding/binary"
)

// Pickle writes a protocol-2 pickle opcode by opcode, for hostile
// torch.save files that PyTorch never writes. Shared references go through
// the memo (Put, Get), so that the files stay small.
type Pickle struct{ bytes.Buffer }

// NewPickle starts a protocol-2 pickle.
func NewPickle() *Pickle {
	p := &Pickle{}
	p.WriteString("\x80\x02")
	return p
}

// Op writes opcodes that take no argument: "}" an empty dict, "s"
// SETITEM, "(" MARK, "t" TUPLE, "e" APPENDS, "N" None, ...
func (p *Pickle) Op(ops string) *Pickle { p.WriteString(ops); return p }

// Le32 writes opcode op with a 4-byte little-endian argument.
func (p *Pickle) Le32(op byte, n uint32) *Pickle {
	p.WriteByte(op)
	p.Write(binary.LittleEndian.AppendUint32(nil, n))
	return p
}

// Str pushes a string (BINUNICODE).
func (p *Pickle) Str(s string) *Pickle {
	p.Le32('X', uint32(len(s))).WriteString(s)
	return p
}

// Int pushes an int (BININT).
func (p *Pickle) Int(n int32) *Pickle { return p.Le32('J', uint32(n)) }

// Put stores the top of the stack in memo slot i (LONG_BINPUT).
func (p *Pickle) Put(i uint32) *Pickle { return p.Le32('r', i) }

// Get pushes memo slot i (LONG_BINGET).
func (p *Pickle) Get(i uint32) *Pickle { return p.Le32('j', i) }

// Global pushes module.name (GLOBAL).
func (p *Pickle) Global(module, name string) *Pickle {
	return p.Op("c" + module + "\n" + name + "\n")
}

// Tensor pushes a float32 tensor of shape (size,) at offset of the storage
// key, of numel elements, as torch.save writes one.
func (p *Pickle) Tensor(key string, numel, offset, size int32) *Pickle {
	p.Global("torch._utils", "_rebuild_tensor_v2").Op("(")
	p.Op("(").Str("storage").Global("torch", "FloatStorage").Str(key).Str("cpu").Int(numel).Op("tQ")
	p.Int(offset).Int(size).Op("\x85").Int(1).Op("\x85\x89")
	return p.Global("collections", "OrderedDict").Op(")RtR")
}

// TensorValue pushes a tensor of one element of storage "0".
func (p *Pickle) TensorValue() *Pickle { return p.Tensor("0", 1, 0, 1) }

// Shared pushes a list of n references to the value v pushes.
func (p *Pickle) Shared(n int, v func(p *Pickle)) *Pickle {
	p.Op("](")
	v(p)
	p.Put(0)
	for range n - 1 {
		p.Get(0)
	}
	return p.Op("e")
}

// Done ends the pickle (STOP) and returns a copy of its bytes.
func (p *Pickle) Done() []byte { return append(bytes.Clone(p.Bytes()), '.') }
