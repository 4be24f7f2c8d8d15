package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/cmplx"
	"slices"
	"strconv"
	"testing"
)

// compareSeeds are the compare cases FuzzCommand keeps a seed for.
var compareSeeds = []commandSeed{
	{"compare equal", 4, func(c *fcase, line string) bool { return has("compare")(c, line) && c.code == 0 }},
	{"compare different", 284, func(c *fcase, line string) bool { return has("compare", "--json")(c, line) && c.code == 1 }},
	{"compare exact", 4, func(c *fcase, line string) bool { return has("compare", "--exact")(c, line) && c.code == 0 }},
	{"compare tolerance", 267, has("compare", "--atol", "c8")},
	{"compare 0-d", 93, has("compare", "desired", "shape []")},
}

// compare models numpy.testing.assert_allclose between two arrays
// (allClose; --exact: same shape, dtype and bytes): exit 0 and nothing
// printed when they agree, exit 1 and a report when they differ, one JSON
// object with --json.
func (c *fcase) compare(s *fsrc, a *farray) {
	o := &opts{}
	// Bools other than 0 and 1 are left to sort's tests.
	if a.dt.Kind == 'b' {
		for k := range a.data {
			a.data[k] &= 1
		}
	}
	var d *farray
	same := false
	switch s.n(8) {
	case 0, 1:
		d = &farray{dt: a.dt, shape: a.shape, fortran: !a.fortran && s.n(2) == 1, data: make([]byte, len(a.data))}
		each(a.shape, func(idx []int) { copy(d.at(idx), a.at(idx)) })
	case 2, 3:
		d = &farray{dt: a.dt, shape: a.shape, fortran: a.fortran, data: slices.Clone(a.data)}
		for k := 0; k < len(d.data); k += d.dt.Size {
			if s.n(3) == 1 {
				genElem(s, d.dt, d.data[k:k+d.dt.Size])
			}
		}
	case 4:
		d = genArray(s, fuzzDtypes[s.n(len(fuzzDtypes))], a.shape)
	case 5:
		d = genArray(s, fuzzDtypes[s.n(len(fuzzDtypes))], []int{})
	case 6:
		d = genArray(s, fuzzDtypes[s.n(len(fuzzDtypes))], genShape(s, 3))
	case 7:
		same = true
		d = a
	}
	if d.dt.Kind == 'b' {
		for k := range d.data {
			d.data[k] &= 1
		}
	}
	specA, _, shortA := c.input(s, a, "a.npy", true)
	fail := false
	specD := specA
	if same && specA == "-" {
		fail = true // standard input cannot be both
	}
	if !same {
		specD = "@/d.npy"
		c.files["d.npy"] = d.file()
	}
	if s.n(2) == 1 {
		specA, specD = specD, specA
		a, d = d, a
	}
	o.pos = []string{specA, specD}
	tol := struct{ rtol, atol float64 }{1e-7, 0}
	switch s.n(8) {
	case 1:
		tol.rtol = []float64{0, 0.5, 1e-3, 1}[s.n(4)]
		o.flag(s, "--rtol", strconv.FormatFloat(tol.rtol, 'g', -1, 64))
	case 2:
		tol.atol = []float64{0, 1, 0.25, 1e300}[s.n(4)]
		o.flag(s, "--atol", strconv.FormatFloat(tol.atol, 'g', -1, 64))
	case 3:
		o.flag(s, []string{"--rtol", "--atol"}[s.n(2)], []string{"-1", "nan", "x"}[s.n(3)])
		fail = true
	}
	equalNaN := true
	if s.n(4) == 1 {
		equalNaN = false
		o.flags = append(o.flags, "--equal-nan=false")
	}
	exact := s.n(4) == 1
	if exact {
		o.flags = append(o.flags, "--exact")
	}
	asJSON := s.n(3) == 1
	if asJSON {
		o.flags = append(o.flags, "--json")
	}
	switch s.n(10) {
	case 1:
		o.flag(s, "--threads", strconv.Itoa(1+s.n(3)))
	case 2:
		o.flag(s, "--device", "cuda")
		fail = true
	}
	c.args = o.line(s, "compare")
	c.desc += fmt.Sprintf("; desired %s shape %v fortran=%v data %x", d.dt.Descr(), d.shape, d.fortran, d.data[:min(len(d.data), 4096)])
	if fail || shortA {
		c.fail = true
		return
	}
	equal := allClose(a, d, tol.rtol, tol.atol, equalNaN)
	if exact {
		equal = slices.Equal(a.shape, d.shape) && a.dt.Descr() == d.dt.Descr()
		if equal {
			each(a.shape, func(idx []int) {
				if !bytes.Equal(a.at(idx), d.at(idx)) {
					equal = false
				}
			})
		}
	}
	if !equal {
		c.code = 1
	}
	c.stdout = func(t *testing.T, out []byte) {
		switch {
		case asJSON:
			var r struct{ Equal *bool }
			if err := json.Unmarshal(out, &r); err != nil || r.Equal == nil || *r.Equal != equal || bytes.Count(out, []byte("\n")) != 1 {
				t.Fatalf("--json output %q: want one object with equal=%v (%v)", out, equal, err)
			}
		case equal && len(out) != 0:
			t.Fatalf("equal arrays printed %q", out)
		case !equal && len(out) == 0:
			t.Fatalf("different arrays printed nothing")
		}
	}
}

// allClose is numpy.testing.assert_allclose's verdict by the contract:
// integers and bools exactly, any float in float64, any complex by the
// magnitude of the difference; NaN equals NaN when equalNaN; an infinity
// (or a complex value with an infinite part) equals only itself.
func allClose(a, d *farray, rtol, atol float64, equalNaN bool) bool {
	shape := a.shape
	switch {
	case len(a.shape) == 0:
		shape = d.shape
	case len(d.shape) == 0:
	case !slices.Equal(a.shape, d.shape):
		return false
	}
	isInt := func(k byte) bool { return k == 'b' || k == 'i' || k == 'u' }
	elem := func(x *farray, idx []int) []byte {
		if len(x.shape) == 0 {
			return x.at(nil)
		}
		return x.at(idx)
	}
	equal := true
	each(shape, func(idx []int) {
		ea, ed := elem(a, idx), elem(d, idx)
		var close bool
		switch {
		case isInt(a.dt.Kind) && isInt(d.dt.Kind):
			x, y := bigInt(ea, a.dt), bigInt(ed, d.dt)
			diff := new(big.Int).Abs(new(big.Int).Sub(x, y))
			ay, _ := new(big.Float).SetInt(new(big.Int).Abs(y)).Float64()
			thr := atol + float64(rtol*ay)
			close = new(big.Float).SetInt(diff).Cmp(big.NewFloat(thr)) <= 0
		case a.dt.Kind == 'c' || d.dt.Kind == 'c':
			x, y := a.dt.Complex(ea), d.dt.Complex(ed)
			xn, yn := math.IsNaN(real(x)) || math.IsNaN(imag(x)), math.IsNaN(real(y)) || math.IsNaN(imag(y))
			switch {
			case xn || yn:
				close = xn && yn && equalNaN
			case math.IsInf(real(x), 0) || math.IsInf(imag(x), 0) || math.IsInf(real(y), 0) || math.IsInf(imag(y), 0):
				close = x == y
			default:
				close = cmplx.Abs(x-y) <= atol+float64(rtol*cmplx.Abs(y))
			}
		default:
			x, y := a.dt.Float(ea), d.dt.Float(ed)
			switch {
			case math.IsNaN(x) || math.IsNaN(y):
				close = math.IsNaN(x) && math.IsNaN(y) && equalNaN
			case math.IsInf(x, 0) || math.IsInf(y, 0):
				close = x == y
			default:
				close = math.Abs(x-y) <= atol+float64(rtol*math.Abs(y))
			}
		}
		if !close {
			equal = false
		}
	})
	return equal
}
