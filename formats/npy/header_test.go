package npy

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"strider/internal/dtype"
	"strider/internal/testkit"
)

// The expected bytes below were printed by NumPy 1.24's
// numpy.lib.format._write_array_header, which numpy.save calls.
func TestEncodeHeader(t *testing.T) {
	ones32 := make([]int, 32)
	for i := range ones32 {
		ones32[i] = 1
	}
	tests := []struct {
		name  string
		dtype dtype.Dtype
		shape []int
		want  string
	}{
		{"f4le/0-d", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{},
			"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (), }                                                              \n"},
		{"f4le/3x4", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4},
			"\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }                                                          \n"},
		{"b1/5", dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{5},
			"\x93NUMPY\x01\x00v\x00{'descr': '|b1', 'fortran_order': False, 'shape': (5,), }                                                            \n"},
		{"i8be/2x3x4", dtype.Dtype{Kind: 'i', Size: 8, Order: '>'}, []int{2, 3, 4},
			"\x93NUMPY\x01\x00v\x00{'descr': '>i8', 'fortran_order': False, 'shape': (2, 3, 4), }                                                       \n"},
		{"u1/empty", dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{0},
			"\x93NUMPY\x01\x00v\x00{'descr': '|u1', 'fortran_order': False, 'shape': (0,), }                                                            \n"},
		{"c16le/1e18", dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}, []int{1000000000000000000},
			"\x93NUMPY\x01\x00v\x00{'descr': '<c16', 'fortran_order': False, 'shape': (1000000000000000000,), }                                         \n"},
		{"i2le/maxint64", dtype.Dtype{Kind: 'i', Size: 2, Order: '<'}, []int{9223372036854775807},
			"\x93NUMPY\x01\x00v\x00{'descr': '<i2', 'fortran_order': False, 'shape': (9223372036854775807,), }                                          \n"},
		{"c8be/7x0x3", dtype.Dtype{Kind: 'c', Size: 8, Order: '>'}, []int{7, 0, 3},
			"\x93NUMPY\x01\x00v\x00{'descr': '>c8', 'fortran_order': False, 'shape': (7, 0, 3), }                                                       \n"},
		{"f2le/32-d", dtype.Dtype{Kind: 'f', Size: 2, Order: '<'}, ones32,
			"\x93NUMPY\x01\x00\xb6\x00{'descr': '<f2', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }                                \n"},
		{"u4le/15-d", dtype.Dtype{Kind: 'u', Size: 4, Order: '<'}, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
			"\x93NUMPY\x01\x00\xb6\x00{'descr': '<u4', 'fortran_order': False, 'shape': (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), }                                                                             \n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := EncodeHeader(tc.dtype, tc.shape)
			if string(got) != tc.want {
				t.Fatalf("EncodeHeader(%v, %v) =\n%q\nwant\n%q", tc.dtype, tc.shape, got, tc.want)
			}
			if _, ok := CheckedNBytes(tc.shape, tc.dtype.Size); !ok {
				return // too large to read back
			}
			h, err := ReadHeader(bytes.NewReader(got))
			if err != nil {
				t.Fatalf("ReadHeader of the encoded header: %v", err)
			}
			if h.Dtype != tc.dtype || !slices.Equal(h.Shape, tc.shape) || h.Fortran || h.Major != 1 || h.Minor != 0 || h.DataOffset != int64(len(got)) {
				t.Fatalf("ReadHeader = %+v, want dtype %v shape %v, version 1.0, offset %d", h, tc.dtype, tc.shape, len(got))
			}
		})
	}
}

// The lengths and prefixes below were printed by NumPy 1.24's
// numpy.lib.format._wrap_header_guess_version for a text of n bytes.
func TestWrapHeader(t *testing.T) {
	tests := []struct {
		name    string
		textLen int
		total   int
		prefix  string
		padding int // spaces between the text and the final newline
	}{
		{"empty", 0, 64, "\x93NUMPY\x01\x006\x00", 53},
		{"aligned already pads 64", 53, 128, "\x93NUMPY\x01\x00v\x00", 64},
		{"one over", 54, 128, "\x93NUMPY\x01\x00v\x00", 63},
		{"largest 1.0", 65524, 65536, "\x93NUMPY\x01\x00\xf6\xff", 1},
		{"smallest 2.0", 65525, 65600, "\x93NUMPY\x02\x004\x00\x01\x00", 62},
		{"2.0", 70000, 70016, "\x93NUMPY\x02\x00t\x11\x01\x00", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Repeat("x", tc.textLen)
			want := tc.prefix + text + strings.Repeat(" ", tc.padding) + "\n"
			if len(want) != tc.total {
				t.Fatalf("bad test: want is %d bytes, not %d", len(want), tc.total)
			}
			if got := wrapHeader(text); string(got) != want {
				t.Fatalf("wrapHeader(%d bytes) = %d bytes starting %q, want %d bytes starting %q",
					tc.textLen, len(got), got[:min(12, len(got))], len(want), want[:12])
			}
		})
	}
}

func TestWrapHeaderVersion2ReadsBack(t *testing.T) {
	// A dict padded with a comment past 65535 bytes needs format 2.0.
	text := "{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3), } #" + strings.Repeat("x", 70000)
	b := wrapHeader(text)
	h, err := ReadHeader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if h.Major != 2 || h.DataOffset != int64(len(b)) || h.DataOffset%64 != 0 || !h.Fortran || h.Dtype != (dtype.Dtype{Kind: 'f', Size: 8, Order: '>'}) {
		t.Fatalf("got %+v", h)
	}
}

func TestReadHeader(t *testing.T) {
	tests := []struct {
		name    string
		major   byte
		text    string
		dtype   dtype.Dtype
		shape   []int
		fortran bool
	}{
		{"numpy order", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}, false},
		{"shape first", 1, "{'shape': (3, 4), 'descr': '<f4', 'fortran_order': False}", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}, false},
		{"fortran first", 1, "{'fortran_order': True, 'shape': (2,), 'descr': '>i2'}", dtype.Dtype{Kind: 'i', Size: 2, Order: '>'}, []int{2}, true},
		{"descr last", 1, "{'fortran_order': False, 'shape': (), 'descr': '|b1'}", dtype.Dtype{Kind: 'b', Size: 1, Order: '|'}, []int{}, false},
		{"newlines and tabs", 1, "{\n\t'descr' :\n'<c16' ,\r\n 'fortran_order':False,'shape':( 2 , 3 , )\n}\n", dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}, []int{2, 3}, false},
		{"comments", 1, "{'descr': '<u2', # the dtype\n 'fortran_order': False, # order\n 'shape': (5,)} # end", dtype.Dtype{Kind: 'u', Size: 2, Order: '<'}, []int{5}, false},
		{"double quotes", 1, `{"descr": "<i4", "fortran_order": False, "shape": (1, 2)}`, dtype.Dtype{Kind: 'i', Size: 4, Order: '<'}, []int{1, 2}, false},
		{"u prefix", 1, `{u'descr': u'<f8', 'fortran_order': True, 'shape': (7,)}`, dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{7}, true},
		{"escaped key", 1, `{'\x64escr': '\x3cf8', 'fortran_order': True, 'shape': (7,)}`, dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{7}, true},
		{"adjacent strings", 1, `{'des' "cr": '<' 'f4', 'fortran_order': False, 'shape': ()}`, dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{}, false},
		{"(5) is not a tuple but ((5,)) is", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': ((5,))}", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{5}, false},
		{"python 2 longs", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3L, 4L), }", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}, false},
		{"int forms", 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0x10, 0o7, 0b11, 1_000, +2, 00)}", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{16, 7, 3, 1000, 2, 0}, false},
		{"native order", 1, "{'descr': '=f8', 'fortran_order': False, 'shape': (1,)}", dtype.Dtype{Kind: 'f', Size: 8, Order: '<'}, []int{1}, false},
		{"version 2", 2, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}, false},
		{"version 3 utf-8", 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } # é", dtype.Dtype{Kind: 'f', Size: 4, Order: '<'}, []int{3, 4}, false},
		{"large shape", 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (9223372036854775807,)}", dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{9223372036854775807}, false},
		{"empty with huge dims", 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 9223372036854775807)}", dtype.Dtype{Kind: 'u', Size: 1, Order: '|'}, []int{0, 9223372036854775807}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := testkit.NpyHeader(tc.major, tc.text)
			// Data after the header must stay unread.
			r := bytes.NewReader(append(b, "DATA"...))
			h, err := ReadHeader(r)
			if err != nil {
				t.Fatalf("ReadHeader: %v", err)
			}
			if h.Dtype != tc.dtype || !slices.Equal(h.Shape, tc.shape) || h.Fortran != tc.fortran || h.Major != int(tc.major) {
				t.Fatalf("ReadHeader = %+v, want %v %v fortran=%v", h, tc.dtype, tc.shape, tc.fortran)
			}
			if h.DataOffset != int64(len(b)) {
				t.Fatalf("DataOffset = %d, want %d", h.DataOffset, len(b))
			}
			if rest, _ := io.ReadAll(r); string(rest) != "DATA" {
				t.Fatalf("ReadHeader read past the header: %q is left", rest)
			}
		})
	}
}

func TestReadHeaderRefuses(t *testing.T) {
	const ok = "'fortran_order': False, 'shape': (2,)"
	tests := []struct {
		name  string
		input []byte
		want  string // a substring of the error
		class error
	}{
		{"zip magic", []byte("PK\x03\x04\x14\x00\x00\x00\x00\x00"), `bad magic "PK\x03\x04`, ErrFormat},
		{"empty", nil, "ends after 0 of the 8 bytes", io.ErrUnexpectedEOF},
		{"short magic", []byte("\x93NUM"), "ends after 4 of the 8 bytes", io.ErrUnexpectedEOF},
		{"short bad magic", []byte("ab"), `bad magic "ab"`, ErrFormat},
		{"version 4.0", []byte("\x93NUMPY\x04\x00\x10\x00"), "unsupported format version 4.0", ErrFormat},
		{"version 1.1", []byte("\x93NUMPY\x01\x01\x10\x00"), "unsupported format version 1.1", ErrFormat},
		{"no length", []byte("\x93NUMPY\x01\x00\x10"), "ends after 1 of the 2 bytes of the header length", io.ErrUnexpectedEOF},
		{"short text", []byte("\x93NUMPY\x01\x00\x10\x00{'descr'"), "ends after 8 of the 16 bytes of the header text", io.ErrUnexpectedEOF},
		{"length over cap", []byte("\x93NUMPY\x02\x00\x00\x28\x6b\xee"), "header length 4000000000 is over the limit", ErrFormat},
		{"missing shape", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False}"), "header is missing key 'shape'", ErrFormat},
		{"missing descr", testkit.NpyHeader(1, "{"+ok+"}"), "header is missing key 'descr'", ErrFormat},
		// NumPy: "descr is not a valid dtype descriptor: b'<f4'".
		{"bytes descr", testkit.NpyHeader(1, "{'descr': b'<f4', "+ok+"}"), "descr b'<f4' is bytes, not a dtype string", ErrFormat},
		// NumPy: "Header does not contain the correct keys".
		{"bytes key", testkit.NpyHeader(1, "{b'descr': '<f4', "+ok+"}"), "unexpected key b'descr'", ErrFormat},
		{"bytes and str mixed", testkit.NpyHeader(1, "{'descr': '<' b'f4', "+ok+"}"), "cannot mix bytes and nonbytes literals", ErrFormat},
		{"extra key", testkit.NpyHeader(1, "{'descr': '<f4', "+ok+", 'extra': 1}"), "unexpected key 'extra'", ErrFormat},
		{"non-string key", testkit.NpyHeader(1, "{'descr': '<f4', "+ok+", 5: 1}"), "unexpected key 5", ErrFormat},
		{"duplicate key", testkit.NpyHeader(1, "{'descr': '<f4', 'descr': '<f8', "+ok+"}"), "key 'descr' twice", ErrFormat},
		{"not a dict", testkit.NpyHeader(1, "('descr', '<f4')"), "header is a tuple, not a dict", ErrFormat},
		{"object", testkit.NpyHeader(1, "{'descr': '|O', "+ok+"}"), "unsupported dtype '|O' (object arrays are refused)", ErrUnsupported},
		{"string", testkit.NpyHeader(1, "{'descr': '|S5', "+ok+"}"), "unsupported dtype '|S5' (string arrays are refused)", ErrUnsupported},
		{"unicode", testkit.NpyHeader(1, "{'descr': '<U3', "+ok+"}"), "unsupported dtype '<U3' (string arrays are refused)", ErrUnsupported},
		{"void", testkit.NpyHeader(1, "{'descr': '|V8', "+ok+"}"), "(structured arrays are refused)", ErrUnsupported},
		{"structured", testkit.NpyHeader(1, "{'descr': [('a', '<f4'), ('b', '<i8')], "+ok+"}"), "unsupported dtype [('a', '<f4'), ('b', '<i8')] (structured arrays are refused)", ErrUnsupported},
		{"datetime", testkit.NpyHeader(1, "{'descr': '<M8[ns]', "+ok+"}"), "unsupported dtype '<M8[ns]' (datetime arrays are refused)", ErrUnsupported},
		{"timedelta", testkit.NpyHeader(1, "{'descr': '<m8', "+ok+"}"), "(datetime arrays are refused)", ErrUnsupported},
		{"longdouble", testkit.NpyHeader(1, "{'descr': '<f16', "+ok+"}"), "unsupported dtype '<f16' (longdouble is not supported)", ErrUnsupported},
		{"clongdouble", testkit.NpyHeader(1, "{'descr': '<c32', "+ok+"}"), "(longdouble is not supported)", ErrUnsupported},
		{"unknown dtype", testkit.NpyHeader(1, "{'descr': '<x4', "+ok+"}"), "unknown dtype '<x4'", ErrUnsupported},
		{"descr not a string", testkit.NpyHeader(1, "{'descr': 4, "+ok+"}"), "descr 4 is not a dtype string", ErrFormat},
		{"fortran_order int", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': 1, 'shape': (2,)}"), "fortran_order 1 is not True or False", ErrFormat},
		{"fortran_order None", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': None, 'shape': (2,)}"), "fortran_order None is not True or False", ErrFormat},
		{"shape list", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [3, 4]}"), "shape [3, 4] is a list, not a tuple", ErrFormat},
		{"shape int", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5)}"), "shape 5 is an int, not a tuple", ErrFormat},
		{"shape bool", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, True)}"), "shape (3, True) holds True, not an integer", ErrFormat},
		{"shape string", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ('3',)}"), "shape ('3',) holds '3', not an integer", ErrFormat},
		{"shape negative", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3)}"), "shape (-1, 3) has a negative dimension", ErrFormat},
		{"shape 33-d", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ("+strings.Repeat("1, ", 33)+")}"), "has 33 dimensions, more than 32", ErrFormat},
		{"shape overflow", testkit.NpyHeader(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4)}"), "shape (4611686018427387904, 4) of 8-byte elements overflows 64 bits", ErrFormat},
		{"shape overflow with zero", testkit.NpyHeader(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4611686018427387904, 4)}"), "overflows 64 bits", ErrFormat},
		{"shape int overflow", testkit.NpyHeader(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (9223372036854775808,)}"), "integer 9223372036854775808 at byte 51 does not fit in 64 bits", ErrFormat},
		{"long in version 3", testkit.NpyHeader(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (3L,)}"), "invalid character after an integer at byte 52", ErrFormat},
		{"bad utf-8 in version 3", testkit.NpyHeader(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,)} # \xff"), "not valid UTF-8", ErrFormat},
		{"adjacent strings then colon", testkit.NpyHeader(1, "{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}"), `expected ',' or '}' at byte 31, found ": False, 'sh..."`, ErrFormat},
		{"missing colon", testkit.NpyHeader(1, "{'descr' 5, 'fortran_order': False, 'shape': (2,)}"), `expected ':' after a dict key at byte 9, found "5, 'fortran_..."`, ErrFormat},
		{"missing comma", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False 'shape': (2,)}"), `expected ',' or '}' at byte 40, found "'shape': (2,..."`, ErrFormat},
		{"unclosed", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)"), "expected ',' or '}' at byte", ErrFormat},
		{"float", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}"), "float and complex literals are not supported", ErrFormat},
		{"name", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': false, 'shape': (2,)}"), `unexpected name at byte 34, found "false, 'shap..."`, ErrFormat},
		{"call", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': tuple([2])}"), "unexpected name at byte 50", ErrFormat},
		{"unterminated string", testkit.NpyHeader(1, "{'descr': '<f4}"), "unterminated string at byte 10", ErrFormat},
		{"deep nesting", testkit.NpyHeader(1, strings.Repeat("[", 100)+strings.Repeat("]", 100)), "nesting deeper than 64", ErrFormat},
		{"deep parens", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': "+strings.Repeat("(", 100)+"1"+strings.Repeat(")", 100)+"}"), "nesting deeper than 64", ErrFormat},
		{"trailing junk", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} x"), "expected the end of the header at byte 56", ErrFormat},
		{"leading zero", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (012,)}"), "leading zeros", ErrFormat},
		{"double underscore", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1__2,)}"), "invalid underscore", ErrFormat},
		{"null byte", testkit.NpyHeader(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\x00"), `found "\x00`, ErrFormat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadHeader(bytes.NewReader(tc.input))
			if err == nil {
				t.Fatalf("ReadHeader succeeded, want an error containing %q", tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q does not contain %q", msg, tc.want)
			}
			if !errors.Is(err, tc.class) {
				t.Fatalf("error %q is not %v", msg, tc.class)
			}
			testkit.CheckMessage(t, msg)
		})
	}
}

func TestReadHeaderLengthPastEnd(t *testing.T) {
	b := []byte("\x93NUMPY\x02\x00\x00\x28\x6b\xee")
	b = append(b, make([]byte, 108)...)
	_, err := readHeader(bytes.NewReader(b), int64(len(b)), "file")
	want := "header length 4000000000 runs past the end of the file (120 bytes)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

func TestStridesAndCount(t *testing.T) {
	tests := []struct {
		name    string
		shape   []int
		fortran bool
		strides []int
		count   int64
	}{
		{"0-d", []int{}, false, []int{}, 1},
		{"1-d", []int{5}, false, []int{1}, 5},
		{"c/2x3x4", []int{2, 3, 4}, false, []int{12, 4, 1}, 24},
		{"f/2x3x4", []int{2, 3, 4}, true, []int{1, 2, 6}, 24},
		{"empty", []int{3, 0}, false, []int{0, 1}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := Header{Dtype: dtype.Dtype{Kind: 'c', Size: 16, Order: '<'}, Shape: tc.shape, Fortran: tc.fortran}
			if got := h.Strides(); !slices.Equal(got, tc.strides) {
				t.Errorf("Strides = %v, want %v", got, tc.strides)
			}
			if h.Count() != tc.count || h.NBytes() != 16*tc.count {
				t.Errorf("Count, NBytes = %d, %d, want %d, %d", h.Count(), h.NBytes(), tc.count, 16*tc.count)
			}
		})
	}
}
