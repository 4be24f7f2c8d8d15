package torch

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"strider/formats/npy"
	"strider/internal/dtype"
)

// A restricted pickle machine for the data.pkl of torch.save archives. It
// admits what torch.load(weights_only=True) of PyTorch 1.13 admits
// (torch/_weights_only_unpickler.py) and nothing more: the opcodes below,
// and only the globals of admittedGlobal. A GLOBAL naming anything else
// stops the load with an error that names it. Nothing is ever called:
// "calling" an admitted global builds a Go value that describes what
// PyTorch would have built (a tensor view, an empty OrderedDict, a tuple).
//
// Resources are bounded whatever the bytes: every value costs at least one
// opcode byte, and the counts of values, memo entries and MARK levels have
// limits, so memory is linear in the (bounded) pickle size; dict keys are
// hashed once per object (keyTable), so hashing is linear too; walking the
// result stops at a nesting depth and a count of visits, and the names it
// builds have bounds (walker), so shared or cyclic containers (a
// billion-laughs pickle) cannot make it explode.

const (
	// maxPickleBytes bounds data.pkl. A state dict costs ~200 bytes a
	// tensor: this is room for a few hundred thousand tensors.
	maxPickleBytes = 64 << 20
	// maxPickleValues bounds the values built, memo entries and walk
	// visits.
	maxPickleValues = 1 << 22
	// maxWalkVisits bounds the containers and tensors visited while
	// naming the tensors: a container held twice is walked twice.
	maxWalkVisits = 1 << 20
	// maxPickleDepth bounds MARK nesting and container nesting.
	maxPickleDepth = 256
)

// Pickle values: nil (None), bool, int64, float64, string, []byte,
// pkTuple, *pkList, *pkDict, *pkSet, pkGlobal, *torchStorage, *torchTensor.
type (
	pkTuple []any
	pkList  struct{ items []any }
	pkSet   struct{}
	pkDict  struct {
		keys, vals []any
		index      map[int]int // by the key's number in the keyTable
	}
	pkGlobal struct{ module, name string }
	// pkMark is the class of a global that is admitted but is no value a
	// state dict holds (a dtype, a tensor class, torch.Tensor).
	pkMark struct{ what string }
)

// set sets d[k] = v; keys names k's equality class.
func (d *pkDict) set(keys *keyTable, k, v any) error {
	h, err := keys.id(k, 0)
	if err != nil {
		return err
	}
	if i, dup := d.index[h]; dup {
		d.vals[i] = v
		return nil
	}
	d.index[h] = len(d.keys)
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	return nil
}

// keyTable numbers dict keys so that keys Python finds equal (1, 1.0 and
// True; tuples of equal items) get one number, by which a dict indexes
// them. A tuple's form is the numbers of its items, not their text, and a
// string, bytes or tuple object is looked up by identity before it is
// hashed, so each object is hashed once: the time is linear in the pickle
// however deep a shared tuple nests (a form spelled out would double at
// each level) or however often the memo repeats a long key.
type keyTable struct {
	ids  map[keyForm]int
	seen map[keyObject]int
}

// keyForm is a key's equality class: a kind and a text.
type keyForm struct {
	kind byte // 'N' None, 'i' integer (and bool), 'f' float, 's' str, 'b' bytes, 't' tuple
	text string
}

// keyObject is the identity of an immutable string, bytes or tuple value:
// its kind, where its contents are and how long it is. Two values with one
// identity have equal contents.
type keyObject struct {
	kind byte
	p    unsafe.Pointer
	n    int
}

// id returns k's number, or an error when k is no key Python can hash or
// nests tuples deeper than maxPickleDepth.
func (kt *keyTable) id(k any, depth int) (int, error) {
	if kt.ids == nil {
		kt.ids, kt.seen = map[keyForm]int{}, map[keyObject]int{}
	}
	var obj keyObject
	switch k := k.(type) {
	case string:
		obj = keyObject{'s', unsafe.Pointer(unsafe.StringData(k)), len(k)}
	case []byte:
		obj = keyObject{'b', unsafe.Pointer(unsafe.SliceData(k)), len(k)}
	case pkTuple:
		obj = keyObject{'t', unsafe.Pointer(unsafe.SliceData(k)), len(k)}
	}
	if obj.kind != 0 {
		if id, ok := kt.seen[obj]; ok {
			return id, nil
		}
	}
	form, err := kt.form(k, depth)
	if err != nil {
		return 0, err
	}
	id, ok := kt.ids[form]
	if !ok {
		id = len(kt.ids)
		kt.ids[form] = id
	}
	if obj.kind != 0 {
		kt.seen[obj] = id
	}
	return id, nil
}

// form returns k's equality class; a tuple's text is its items' numbers.
func (kt *keyTable) form(k any, depth int) (keyForm, error) {
	switch k := k.(type) {
	case nil:
		return keyForm{'N', ""}, nil
	case bool:
		if k {
			return keyForm{'i', "1"}, nil
		}
		return keyForm{'i', "0"}, nil
	case int64:
		return keyForm{'i', strconv.FormatInt(k, 10)}, nil
	case float64:
		if k == math.Trunc(k) && math.Abs(k) < 1<<63 {
			return keyForm{'i', strconv.FormatInt(int64(k), 10)}, nil
		}
		return keyForm{'f', strconv.FormatFloat(k, 'g', -1, 64)}, nil
	case string:
		return keyForm{'s', k}, nil
	case []byte:
		return keyForm{'b', string(k)}, nil
	case pkTuple:
		if depth >= maxPickleDepth {
			return keyForm{}, npy.Malformed("pickle has a dict key of tuples nested deeper than %d", maxPickleDepth)
		}
		text := make([]byte, 0, 2*len(k))
		for _, x := range k {
			id, err := kt.id(x, depth+1)
			if err != nil {
				return keyForm{}, err
			}
			text = binary.AppendUvarint(text, uint64(id))
		}
		return keyForm{'t', string(text)}, nil
	}
	return keyForm{}, npy.Malformed("pickle uses an unhashable %s as a dict key", pkTypeName(k))
}

func pkTypeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case pkTuple:
		return "tuple"
	case *pkList:
		return "list"
	case *pkDict:
		return "dict"
	case *pkSet:
		return "set"
	case pkGlobal:
		return globalName(v.module, v.name)
	case pkMark:
		return v.what
	case *torchStorage:
		return "storage"
	case *torchTensor:
		return "tensor"
	}
	return fmt.Sprintf("%T", v)
}

// admittedGlobal reports whether torch.load(weights_only=True) admits the
// global module.name (PyTorch 1.13's _get_allowed_globals, plus what later
// versions admit and build nothing dangerous: their storage classes,
// _rebuild_parameter_with_state, and _codecs.encode, by which protocol 2
// pickles bytes).
func admittedGlobal(module, name string) bool {
	switch module + "." + name {
	case "collections.OrderedDict", "torch.nn.parameter.Parameter", "torch.serialization._get_layout",
		"torch.Size", "torch.Tensor",
		"torch._utils._rebuild_parameter", "torch._utils._rebuild_tensor", "torch._utils._rebuild_tensor_v2",
		"torch._utils._rebuild_sparse_tensor", "torch._utils._rebuild_meta_tensor_no_storage",
		"torch._utils._rebuild_sparse_csr_tensor", "torch._utils._rebuild_parameter_with_state",
		"_codecs.encode",
		"torch.storage.TypedStorage", "torch.storage.UntypedStorage":
		return true
	}
	switch module {
	case "torch":
		if _, ok := torchStorageTypes[name]; ok {
			return true
		}
		if f, ok := dtype.TorchFormat(name); ok && f.WeightsOnly {
			return true
		}
		return torchTensorClass(name)
	case "torch.cuda":
		_, ok := torchStorageTypes[name]
		return ok || torchTensorClass(name)
	case "torch.sparse", "torch.cuda.sparse":
		return torchTensorClass(name)
	}
	return false
}

// torchTensorClass reports whether name is a legacy tensor class
// (torch.FloatTensor) that torch.load admits.
func torchTensorClass(name string) bool {
	for _, f := range dtype.Formats {
		if f.Tensor != "" && f.Tensor == name {
			return true
		}
	}
	return false
}

// unpickler runs the admitted opcodes over p.
type unpickler struct {
	p      []byte
	pos    int
	stack  []any
	marks  [][]any
	memo   map[uint32]any
	keys   keyTable
	values int
	// persistent turns a persistent id into a storage.
	persistent func(pid any) (any, error)
}

func (u *unpickler) errorf(format string, args ...any) error {
	return npy.Malformed("data.pkl at byte %d: "+format, append([]any{u.pos}, args...)...)
}

func (u *unpickler) take(n int) ([]byte, error) {
	if n < 0 || n > len(u.p)-u.pos {
		return nil, u.errorf("the pickle ends early")
	}
	b := u.p[u.pos : u.pos+n]
	u.pos += n
	return b, nil
}

func (u *unpickler) line() (string, error) {
	for i := u.pos; i < len(u.p) && i < u.pos+256; i++ {
		if u.p[i] == '\n' {
			s := string(u.p[u.pos:i])
			u.pos = i + 1
			return s, nil
		}
	}
	return "", u.errorf("a GLOBAL name runs past 256 bytes or the end of the pickle")
}

func (u *unpickler) push(v any) error {
	u.values++
	if u.values > maxPickleValues {
		return u.errorf("more than %d values", maxPickleValues)
	}
	u.stack = append(u.stack, v)
	return nil
}

func (u *unpickler) pop() (any, error) {
	if len(u.stack) == 0 {
		return nil, u.errorf("the stack is empty")
	}
	v := u.stack[len(u.stack)-1]
	u.stack = u.stack[:len(u.stack)-1]
	return v, nil
}

func (u *unpickler) top() (any, error) {
	if len(u.stack) == 0 {
		return nil, u.errorf("the stack is empty")
	}
	return u.stack[len(u.stack)-1], nil
}

func (u *unpickler) popMark() ([]any, error) {
	if len(u.marks) == 0 {
		return nil, u.errorf("no MARK")
	}
	items := u.stack
	u.stack = u.marks[len(u.marks)-1]
	u.marks = u.marks[:len(u.marks)-1]
	return items, nil
}

func (u *unpickler) popN(n int) ([]any, error) {
	if len(u.stack) < n {
		return nil, u.errorf("the stack is empty")
	}
	items := append([]any(nil), u.stack[len(u.stack)-n:]...)
	u.stack = u.stack[:len(u.stack)-n]
	return items, nil
}

// load runs the pickle to its STOP and returns the value it leaves. It
// runs the frame opcodes itself and hands the others, by family, to a
// method each: constants, containers and what fills them, the memo,
// globals, and the opcodes that call or build with a global.
func (u *unpickler) load() (any, error) {
	u.memo = map[uint32]any{}
	for {
		if u.pos >= len(u.p) {
			return nil, u.errorf("the pickle ends without STOP")
		}
		op := u.p[u.pos]
		u.pos++
		var err error
		switch op {
		case '.': // STOP
			return u.pop()
		case 0x80: // PROTO
			_, err = u.take(1)
		case 0x95: // FRAME (protocol 4): the length is advice only
			_, err = u.take(8)
		case '(': // MARK
			err = u.mark()
		case 'N', 0x88, 0x89, 'J', 'K', 'M', 0x8a, 'G', 'X', 0x8c, 'U', 'C', 'B':
			var v any
			if v, err = u.constant(op); err == nil {
				err = u.push(v)
			}
		case ')', ']', '}', 0x8f, 't', 0x85, 0x86, 0x87:
			var v any
			if v, err = u.container(op); err == nil {
				err = u.push(v)
			}
		case 'a', 'e', 's', 'u':
			err = u.fill(op)
		case 'h', 'j': // BINGET, LONG_BINGET
			err = u.memoGet(op == 'j')
		case 'q', 'r', 0x94: // BINPUT, LONG_BINPUT, MEMOIZE
			err = u.memoPut(op)
		case 'c': // GLOBAL
			err = u.lineGlobal()
		case 0x93: // STACK_GLOBAL
			err = u.stackGlobal()
		case 'R': // REDUCE
			err = u.reduce()
		case 0x81: // NEWOBJ
			err = u.newObj()
		case 'b': // BUILD
			err = u.build()
		case 'Q': // BINPERSID
			err = u.persistentID()
		default:
			err = u.notAdmitted(op)
		}
		if err != nil {
			return nil, err
		}
	}
}

// mark is MARK: the stack so far is put aside until the matching
// popMark.
func (u *unpickler) mark() error {
	if len(u.marks) >= maxPickleDepth {
		return u.errorf("MARKs nest deeper than %d", maxPickleDepth)
	}
	u.marks = append(u.marks, u.stack)
	u.stack = nil
	return nil
}

// notAdmitted refuses op. The family methods end with it too, for an
// opcode load would not send them.
func (u *unpickler) notAdmitted(op byte) error {
	return u.errorf("pickle opcode 0x%02x is not admitted (torch.load(weights_only=True) refuses it too)", op)
}

// constant reads the value of a constant opcode: None, a bool, an
// integer, a float, a string or bytes.
func (u *unpickler) constant(op byte) (any, error) {
	switch op {
	case 'N':
		return nil, nil
	case 0x88:
		return true, nil
	case 0x89:
		return false, nil
	case 'J': // BININT
		b, err := u.take(4)
		if err != nil {
			return nil, err
		}
		return int64(int32(binary.LittleEndian.Uint32(b))), nil
	case 'K': // BININT1
		b, err := u.take(1)
		if err != nil {
			return nil, err
		}
		return int64(b[0]), nil
	case 'M': // BININT2
		b, err := u.take(2)
		if err != nil {
			return nil, err
		}
		return int64(binary.LittleEndian.Uint16(b)), nil
	case 0x8a: // LONG1
		return u.long1()
	case 'G': // BINFLOAT
		b, err := u.take(8)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.BigEndian.Uint64(b)), nil
	case 'X', 0x8c: // BINUNICODE, SHORT_BINUNICODE
		b, err := u.counted(op == 'X')
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(b) {
			return nil, u.errorf("a string is not valid UTF-8")
		}
		return string(b), nil
	case 'U', 'C', 'B': // SHORT_BINSTRING, SHORT_BINBYTES, BINBYTES
		return u.counted(op == 'B')
	}
	return nil, u.notAdmitted(op)
}

// long1 reads LONG1's little-endian two's-complement integer, of at most
// 8 bytes.
func (u *unpickler) long1() (any, error) {
	b, err := u.take(1)
	if err != nil {
		return nil, err
	}
	if b, err = u.take(int(b[0])); err != nil {
		return nil, err
	}
	if len(b) > 8 {
		return nil, u.errorf("an integer of %d bytes is out of range", len(b))
	}
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	if len(b) > 0 && len(b) < 8 && b[len(b)-1]&0x80 != 0 {
		v |= ^uint64(0) << (8 * len(b)) // sign-extend
	}
	return int64(v), nil
}

// counted reads a 4-byte (long) or 1-byte length and that many bytes.
func (u *unpickler) counted(long bool) ([]byte, error) {
	n, err := u.length(long)
	if err != nil {
		return nil, err
	}
	return u.take(n)
}

// container builds an empty list, dict or set, or a tuple of the items
// since the MARK or of the top one to three.
func (u *unpickler) container(op byte) (any, error) {
	switch op {
	case ')':
		return pkTuple{}, nil
	case ']':
		return &pkList{}, nil
	case '}':
		return &pkDict{index: map[int]int{}}, nil
	case 0x8f: // EMPTY_SET
		return &pkSet{}, nil
	case 't': // TUPLE
		items, err := u.popMark()
		if err != nil {
			return nil, err
		}
		return pkTuple(items), nil
	case 0x85, 0x86, 0x87: // TUPLE1, TUPLE2, TUPLE3
		items, err := u.popN(int(op-0x85) + 1)
		if err != nil {
			return nil, err
		}
		return pkTuple(items), nil
	}
	return nil, u.notAdmitted(op)
}

// fill adds items to the list or dict below them: APPEND, APPENDS,
// SETITEM, SETITEMS.
func (u *unpickler) fill(op byte) error {
	switch op {
	case 'a': // APPEND
		v, err := u.pop()
		if err != nil {
			return err
		}
		return u.extend([]any{v})
	case 'e': // APPENDS
		items, err := u.popMark()
		if err != nil {
			return err
		}
		return u.extend(items)
	case 's': // SETITEM
		kv, err := u.popN(2)
		if err != nil {
			return err
		}
		return u.setItems(kv)
	case 'u': // SETITEMS
		items, err := u.popMark()
		if err != nil {
			return err
		}
		if len(items)%2 != 0 {
			return u.errorf("SETITEMS with an odd number of items")
		}
		return u.setItems(items)
	}
	return u.notAdmitted(op)
}

// memoGet pushes a memo entry, named by a 4-byte (long) or 1-byte index.
func (u *unpickler) memoGet(long bool) error {
	i, err := u.operand(long)
	if err != nil {
		return err
	}
	v, ok := u.memo[i]
	if !ok {
		return u.errorf("memo entry %d is not set", i)
	}
	return u.push(v)
}

// memoPut stores the top of the stack in the memo: at the index BINPUT or
// LONG_BINPUT names, or for MEMOIZE at the next one.
func (u *unpickler) memoPut(op byte) error {
	var i uint32
	var err error
	if op == 0x94 {
		i = uint32(len(u.memo))
	} else if i, err = u.operand(op == 'r'); err != nil {
		return err
	}
	v, err := u.top()
	if err != nil {
		return err
	}
	if _, ok := u.memo[i]; !ok && len(u.memo) >= maxPickleValues {
		return u.errorf("more than %d memo entries", maxPickleValues)
	}
	u.memo[i] = v
	return nil
}

// lineGlobal is GLOBAL: the module and name are lines of the pickle.
func (u *unpickler) lineGlobal() error {
	module, err := u.line()
	if err != nil {
		return err
	}
	name, err := u.line()
	if err != nil {
		return err
	}
	return u.global(module, name)
}

// stackGlobal is STACK_GLOBAL: the module and name are the top two
// strings.
func (u *unpickler) stackGlobal() error {
	mn, err := u.popN(2)
	if err != nil {
		return err
	}
	module, ok1 := mn[0].(string)
	name, ok2 := mn[1].(string)
	if !ok1 || !ok2 {
		return u.errorf("STACK_GLOBAL of a %s and a %s", pkTypeName(mn[0]), pkTypeName(mn[1]))
	}
	return u.global(module, name)
}

// reduce is REDUCE: the global below calls the tuple on top (see call).
func (u *unpickler) reduce() error {
	fa, err := u.popN(2)
	if err != nil {
		return err
	}
	fn, args := fa[0], fa[1]
	t, ok := args.(pkTuple)
	if !ok {
		return u.errorf("REDUCE with %s arguments", pkTypeName(args))
	}
	v, err := u.call(fn, t)
	if err != nil {
		return err
	}
	return u.push(v)
}

// newObj is NEWOBJ, admitted only as torch.nn.Parameter(tensor, ...),
// which is the tensor.
func (u *unpickler) newObj() error {
	ca, err := u.popN(2)
	if err != nil {
		return err
	}
	cls, args := ca[0], ca[1]
	t, ok := args.(pkTuple)
	if g, isGlobal := cls.(pkGlobal); !ok || !isGlobal || g != (pkGlobal{"torch.nn.parameter", "Parameter"}) {
		return u.errorf("NEWOBJ of %s: only torch.nn.Parameter is admitted", pkTypeName(cls))
	}
	if len(t) < 1 {
		return u.errorf("torch.nn.Parameter without data")
	}
	tensor, ok := t[0].(*torchTensor)
	if !ok {
		return u.errorf("torch.nn.Parameter of a %s", pkTypeName(t[0]))
	}
	return u.push(tensor)
}

// build is BUILD, admitted on tensors, parameters and OrderedDicts; the
// state it sets (a state_dict's _metadata) holds no tensors and is
// dropped.
func (u *unpickler) build() error {
	if _, err := u.pop(); err != nil {
		return err
	}
	inst, err := u.top()
	if err != nil {
		return err
	}
	switch inst.(type) {
	case *pkDict, *torchTensor:
		return nil
	}
	return u.errorf("BUILD of a %s: only tensors, parameters and OrderedDicts are admitted", pkTypeName(inst))
}

// persistentID is BINPERSID: the id on top names a storage.
func (u *unpickler) persistentID() error {
	pid, err := u.pop()
	if err != nil {
		return err
	}
	v, err := u.persistent(pid)
	if err != nil {
		return err
	}
	return u.push(v)
}

// length reads a 4-byte (long) or 1-byte length.
func (u *unpickler) length(long bool) (int, error) {
	n, err := u.operand(long)
	if err != nil {
		return 0, err
	}
	if long && int64(n) > int64(len(u.p)-u.pos) {
		return 0, u.errorf("a string of %d bytes runs past the end of the pickle", n)
	}
	return int(n), nil
}

// operand reads an opcode's 4-byte (long, little-endian) or 1-byte unsigned
// operand: a memo index or a length.
func (u *unpickler) operand(long bool) (uint32, error) {
	if !long {
		b, err := u.take(1)
		if err != nil {
			return 0, err
		}
		return uint32(b[0]), nil
	}
	b, err := u.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (u *unpickler) extend(items []any) error {
	top, err := u.top()
	if err != nil {
		return err
	}
	l, ok := top.(*pkList)
	if !ok {
		return u.errorf("APPEND to a %s: only lists are admitted", pkTypeName(top))
	}
	l.items = append(l.items, items...)
	return nil
}

func (u *unpickler) setItems(kv []any) error {
	top, err := u.top()
	if err != nil {
		return err
	}
	d, ok := top.(*pkDict)
	if !ok {
		return u.errorf("SETITEM on a %s: only dicts are admitted", pkTypeName(top))
	}
	for i := 0; i < len(kv); i += 2 {
		if err := d.set(&u.keys, kv[i], kv[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// global pushes an admitted global, or refuses it by name.
func (u *unpickler) global(module, name string) error {
	if !admittedGlobal(module, name) {
		return npy.Malformed("data.pkl imports %s, which torch.load(weights_only=True) refuses too; nothing was run", globalName(module, name))
	}
	return u.push(pkGlobal{module, name})
}

// call builds what calling the admitted global fn with args would build.
func (u *unpickler) call(fn any, args pkTuple) (any, error) {
	g, ok := fn.(pkGlobal)
	if !ok {
		return nil, u.errorf("REDUCE calls a %s", pkTypeName(fn))
	}
	switch g.module + "." + g.name {
	case "collections.OrderedDict":
		return u.orderedDict(args)
	case "torch.Size":
		if len(args) == 1 {
			if t, ok := args[0].(pkTuple); ok {
				return t, nil
			}
		}
		return nil, u.errorf("torch.Size called without a tuple")
	case "torch._utils._rebuild_tensor_v2", "torch._utils._rebuild_tensor":
		return rebuildTensor(args)
	case "_codecs.encode":
		return u.encodeLatin1(args)
	case "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state":
		if len(args) >= 1 {
			if t, ok := args[0].(*torchTensor); ok {
				return t, nil
			}
		}
		return nil, u.errorf("torch._utils._rebuild_parameter without a tensor")
	case "torch._utils._rebuild_sparse_tensor", "torch._utils._rebuild_sparse_csr_tensor":
		return &torchTensor{err: npy.Unsupported("a sparse tensor is not read (save t.to_dense())")}, nil
	case "torch._utils._rebuild_meta_tensor_no_storage":
		return &torchTensor{err: npy.Unsupported("a meta tensor has no data to read")}, nil
	case "torch.serialization._get_layout":
		return pkMark{"layout"}, nil
	}
	return nil, u.errorf("REDUCE calls %s, which cannot be called", globalName(g.module, g.name))
}

// orderedDict is collections.OrderedDict(), or OrderedDict of a list of
// (key, value) pairs.
func (u *unpickler) orderedDict(args pkTuple) (any, error) {
	d := &pkDict{index: map[int]int{}}
	if len(args) == 1 {
		if l, ok := args[0].(*pkList); ok {
			for _, it := range l.items {
				kv, ok := it.(pkTuple)
				if !ok || len(kv) != 2 {
					return nil, u.errorf("OrderedDict of a list that holds a %s", pkTypeName(it))
				}
				if err := d.set(&u.keys, kv[0], kv[1]); err != nil {
					return nil, err
				}
			}
			return d, nil
		}
	}
	if len(args) != 0 {
		return nil, u.errorf("OrderedDict called with %d arguments", len(args))
	}
	return d, nil
}

// encodeLatin1 is _codecs.encode(str, 'latin1'), how protocol 2 pickles
// bytes.
func (u *unpickler) encodeLatin1(args pkTuple) (any, error) {
	if len(args) == 2 {
		s, ok1 := args[0].(string)
		enc, ok2 := args[1].(string)
		if ok1 && ok2 && (enc == "latin1" || enc == "latin-1") {
			b := make([]byte, 0, len(s))
			for _, r := range s {
				if r > 0xff {
					return nil, u.errorf("_codecs.encode of a character beyond latin1")
				}
				b = append(b, byte(r))
			}
			return b, nil
		}
	}
	return nil, u.errorf("_codecs.encode called other than as (str, 'latin1')")
}

// unpickle runs the restricted machine over p.
func unpickle(p []byte, persistent func(pid any) (any, error)) (any, error) {
	if len(p) > maxPickleBytes {
		return nil, npy.Malformed("data.pkl is %d bytes, over the limit of %d", len(p), maxPickleBytes)
	}
	u := &unpickler{p: p, persistent: persistent}
	return u.load()
}

// globalName writes module.name as Python would, quoted when either holds
// anything but printable ASCII, so that an error stays one line.
func globalName(module, name string) string {
	s := module + "." + name
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f || s[i] == '"' {
			return strconv.Quote(s)
		}
	}
	return s
}
