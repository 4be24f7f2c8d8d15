package npy

import (
	"errors"
	"strings"
	"testing"

	"strider/internal/testkit"
)

// The accepted descrs and their str and name are numpy.dtype's answers
// (NumPy 1.24 on x86-64 Linux).
func TestParseDescr(t *testing.T) {
	tests := []struct {
		descr string
		str   string
		name  string
	}{
		{"<f4", "<f4", "float32"},
		{">i8", ">i8", "int64"},
		{"|b1", "|b1", "bool"},
		{"b1", "|b1", "bool"},
		{">b1", "|b1", "bool"},
		{"?", "|b1", "bool"},
		{"|?", "|b1", "bool"},
		{"<?", "|b1", "bool"},
		{"|u1", "|u1", "uint8"},
		{"<u1", "|u1", "uint8"},
		{">u1", "|u1", "uint8"},
		{"|i1", "|i1", "int8"},
		{"b", "|i1", "int8"},
		{"B", "|u1", "uint8"},
		{"=f8", "<f8", "float64"},
		{"|f8", "<f8", "float64"},
		{"f4", "<f4", "float32"},
		{"=i2", "<i2", "int16"},
		{"|i2", "<i2", "int16"},
		{">u2", ">u2", "uint16"},
		{"<u4", "<u4", "uint32"},
		{">u8", ">u8", "uint64"},
		{"<f2", "<f2", "float16"},
		{">f2", ">f2", "float16"},
		{"e", "<f2", "float16"},
		{"<c8", "<c8", "complex64"},
		{">c8", ">c8", "complex64"},
		{">c16", ">c16", "complex128"},
		{"i", "<i4", "int32"},
		{"<i", "<i4", "int32"},
		{"f", "<f4", "float32"},
		{"d", "<f8", "float64"},
		{">d", ">f8", "float64"},
		{"F", "<c8", "complex64"},
		{"D", "<c16", "complex128"},
		{"h", "<i2", "int16"},
		{"H", "<u2", "uint16"},
		{"I", "<u4", "uint32"},
		{"l", "<i8", "int64"},
		{"L", "<u8", "uint64"},
		{"q", "<i8", "int64"},
		{"Q", "<u8", "uint64"},
		{"i08", "<i8", "int64"},
		{"float32", "<f4", "float32"},
		{"int8", "|i1", "int8"},
		{"bool", "|b1", "bool"},
		{"float", "<f8", "float64"},
		{"complex", "<c16", "complex128"},
		{"half", "<f2", "float16"},
	}
	for _, tc := range tests {
		t.Run(tc.descr, func(t *testing.T) {
			d, err := ParseDescr(tc.descr)
			if err != nil {
				t.Fatalf("ParseDescr(%q): %v", tc.descr, err)
			}
			if d.Descr() != tc.str || d.Name() != tc.name {
				t.Fatalf("ParseDescr(%q) = %v: Descr %q, Name %q, want %q, %q", tc.descr, d, d.Descr(), d.Name(), tc.str, tc.name)
			}
			if d.Size == 1 && d.Order != '|' {
				t.Fatalf("one-byte dtype %v has order %q", d, d.Order)
			}
			if d.Native() != (tc.str[0] != '>') {
				t.Fatalf("Native() = %v for %s", d.Native(), tc.str)
			}
		})
	}
}

// Every descr below is one numpy.dtype refuses or strider does not handle.
func TestParseDescrRefuses(t *testing.T) {
	tests := []struct {
		descr string
		want  string
	}{
		{"|O", "unsupported dtype '|O' (object arrays are refused)"},
		{"O", "unsupported dtype 'O' (object arrays are refused)"},
		{"O8", "(object arrays are refused)"},
		{"object", "(object arrays are refused)"},
		{"|S5", "unsupported dtype '|S5' (string arrays are refused)"},
		{"S", "(string arrays are refused)"},
		{"<U10", "(string arrays are refused)"},
		{"a3", "(string arrays are refused)"},
		{"c", "(string arrays are refused)"},
		{"str", "(string arrays are refused)"},
		{"|V16", "unsupported dtype '|V16' (structured arrays are refused)"},
		{"V", "(structured arrays are refused)"},
		{"f4,i4", "(structured arrays are refused)"},
		{"<M8[ns]", "unsupported dtype '<M8[ns]' (datetime arrays are refused)"},
		{"M8", "(datetime arrays are refused)"},
		{"<m8[s]", "(datetime arrays are refused)"},
		{"datetime64", "(datetime arrays are refused)"},
		{"<f16", "unsupported dtype '<f16' (longdouble is not supported)"},
		{"c32", "(longdouble is not supported)"},
		{"g", "(longdouble is not supported)"},
		{"G", "(longdouble is not supported)"},
		{"longdouble", "(longdouble is not supported)"},
		{"", "unknown dtype ''"},
		{"<", "unknown dtype '<'"},
		{"u", "unknown dtype 'u'"},
		{"i3", "unknown dtype 'i3'"},
		{"i0", "unknown dtype 'i0'"},
		{"f1", "unknown dtype 'f1'"},
		{"b2", "unknown dtype 'b2'"},
		{"?1", "unknown dtype '?1'"},
		{"e2", "unknown dtype 'e2'"},
		{"i4 ", "unknown dtype 'i4 '"},
		{"+i4", "unknown dtype '+i4'"},
		{"<<i4", "unknown dtype '<<i4'"},
		{"<float32", "unknown dtype '<float32'"},
		{"f4\n", `unknown dtype 'f4\n'`},
		{"i99999999999999999999999", "unknown dtype 'i99999999999999999999999'"},
		{"it's", `unknown dtype "it's"`},
		{"\xff", `unknown dtype '\xff'`},
		{"mystery", "unknown dtype 'mystery'"},
	}
	for _, tc := range tests {
		t.Run(tc.descr, func(t *testing.T) {
			d, err := ParseDescr(tc.descr)
			if err == nil {
				t.Fatalf("ParseDescr(%q) = %v, want an error", tc.descr, d)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseDescr(%q) error %q does not contain %q", tc.descr, err, tc.want)
			}
			if !errors.Is(err, ErrUnsupported) {
				t.Fatalf("error %q is not ErrUnsupported", err)
			}
			testkit.CheckMessage(t, err.Error())
		})
	}
}
