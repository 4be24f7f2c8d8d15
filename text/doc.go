// Package text is strider's text formats and number formatting: NumPy 1.24's
// loadtxt and savetxt, Python's %-formats, JSON lists, and the repr and
// array2string of a number, byte for byte. As in Go's strconv, each
// algorithm has one file:
//
//	loadtxt.go      np.loadtxt: lines, fields, the row scanner, field parsers
//	savetxt.go      np.savetxt: rows formatted with a %-format
//	pyformat.go     Python's % operator (d i u x X o e E f F g G s r)
//	exp18.go        %.18e (savetxt's default) in 128-bit integer arithmetic
//	atof.go         Python's float() grammar over strconv
//	atoc.go         NumPy's complex field
//	atoi.go         NumPy's integer field (str_to_int64)
//	fastfloat.go    scanDecimal: Clinger's exact path, then Eisel-Lemire
//	pow10tab.go     its powers of ten, written by gen_pow10.go
//	loadjson.go     nested JSON lists into elements
//	writejson.go    json.dumps(a.tolist())
//	repr.go         repr of an element or a float scalar
//	array2string.go a 0-d array as array2string prints it; a difference
//
// # One implementation per algorithm
//
// The shortest digits of a float (repr, str, array2string, %s and %r) are
// internal/npprint's Dragon4 port, for float16, float32 and float64 alike:
// FormatElem, FormatFloatRepr and FormatFloatArray call it and round
// nothing themselves. Correctly rounded digits at a given precision (%e %f
// %g) are strconv's; appendExp18 is a fast path that equals
// strconv.FormatFloat(x, 'e', 18, 64), held to it by TestAppendExp18.
// Parsing goes the other way: scanDecimal is a fast path that equals
// strconv.ParseFloat bit for bit where it answers (FuzzScanDecimal), and
// parsePyFloat takes strconv's answer only where strconv's grammar is
// Python's (floatSyntax, TestParsePyFloatGrammar). A float
// parsed into an integer dtype is cast as ops casts (ops.FloatToInt), a
// float16 rounded by the one rounding, dtype.Float64ToHalf.
//
// # Views and threads
//
// The writers read an ops.View, whose strides count elements, through a
// dtype.Dtype checked against its element size; they write to the caller's
// io.Writer and open no file. The readers parse a []byte the caller holds
// and return elements in C order, or fill the caller's buffer (TextPlan).
// Work is split with ops.Parallel on Options.ThreadCount() threads into
// chunks of whole lines or rows, and the bytes written or parsed are the
// same for any thread count. Package text imports ops; ops never imports
// text, and formats no number: cmd hands ops' results (a Comparison, a
// Diff, Stats) to text.
//
// # Errors
//
// A parse error is a *TextError naming its 1-based line and column; a
// field in a message is quoted by pyQuote, which escapes what a terminal
// would act on. SaveTxt.Write formats a round of rows before writing any
// of it, so a format that fails leaves no partial text behind.
package text
