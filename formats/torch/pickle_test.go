package torch

import (
	"strings"
	"testing"

	"strider/formats/npy"
)

func TestUnpickleValues(t *testing.T) {
	noStorage := func(any) (any, error) { return nil, npy.Malformed("no storages here") }
	for _, c := range []struct {
		name, pickle string
		check        func(v any) bool
	}{
		{"bytes by _codecs.encode", "\x80\x02c_codecs\nencode\nX\x03\x00\x00\x00\xc3\xbfaX\x06\x00\x00\x00latin1\x86R.",
			func(v any) bool { b, ok := v.([]byte); return ok && string(b) == "\xffa" }},
		{"LONG1 negative", "\x80\x02\x8a\x02\x00\xff.", func(v any) bool { return v == int64(-256) }},
		{"LONG1 8 bytes", "\x80\x02\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f.", func(v any) bool { return v == int64(1<<63-1) }},
		{"BININT negative", "\x80\x02J\xfe\xff\xff\xff.", func(v any) bool { return v == int64(-2) }},
		{"True and 1 are one key", "\x80\x02}(\x88K\x01K\x01K\x02u.", func(v any) bool {
			d, ok := v.(*pkDict)
			return ok && len(d.keys) == 1 && d.vals[0] == int64(2) && d.keys[0] == true
		}},
		{"OrderedDict of pairs", "\x80\x02ccollections\nOrderedDict\n]((X\x01\x00\x00\x00aK\x01t(X\x01\x00\x00\x00bK\x02te\x85R.", func(v any) bool {
			d, ok := v.(*pkDict)
			return ok && len(d.keys) == 2 && d.keys[1] == "b"
		}},
		{"protocol 4 frame and memoize", "\x80\x04\x95\x10\x00\x00\x00\x00\x00\x00\x00]\x94(\x8c\x01x\x94h\x01e.", func(v any) bool {
			l, ok := v.(*pkList)
			return ok && len(l.items) == 2 && l.items[0] == "x" && l.items[1] == "x"
		}},
	} {
		v, err := unpickle([]byte(c.pickle), noStorage)
		if err != nil || !c.check(v) {
			t.Errorf("%s: %#v, %v", c.name, v, err)
		}
	}
}

func TestUnpickleRefuses(t *testing.T) {
	noStorage := func(any) (any, error) { return nil, npy.Malformed("no storages here") }
	for _, c := range []struct{ name, pickle, want string }{
		{"os.system", "\x80\x02cos\nsystem\nX\x02\x00\x00\x00lsR.", "os.system"},
		{"newline in a global's name", "\x80\x02cposix\x01\nsy\rstem\n.", `"posix\x01.sy\rstem"`},
		{"_codecs.encode to utf-8", "\x80\x02c_codecs\nencode\nX\x01\x00\x00\x00aX\x05\x00\x00\x00utf-8\x86R.", "latin1"},
		{"REDUCE of a dtype", "\x80\x02ctorch\nfloat32\n)R.", "cannot be called"},
		{"BUILD of a list", "\x80\x02]}b.", "BUILD"},
		{"APPEND to a dict", "\x80\x02}K\x01a.", "APPEND"},
		{"NEWOBJ of OrderedDict", "\x80\x02ccollections\nOrderedDict\n)\x81.", "NEWOBJ"},
		{"memo miss", "\x80\x02h\x05.", "memo entry 5"},
		{"string past the end", "\x80\x02X\xff\xff\xff\x7f", "past the end"},
		{"unhashable key", "\x80\x02}]K\x01s.", "unhashable"},
		{"INST", "\x80\x02(iposix\nsystem\n.", "opcode 0x69"},
		{"persistent id", "\x80\x02X\x01\x00\x00\x00xQ.", "no storages"},
	} {
		_, err := unpickle([]byte(c.pickle), noStorage)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("%s: %v, want one line with %q", c.name, err, c.want)
		}
	}
}
