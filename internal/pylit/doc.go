// Package pylit reads the Python literals strider meets: the dict of a .npy
// header, the index expression of slice, show and stats (what stands
// between the brackets of a[...]), and the integer arrays of --index. It is
// a leaf package: npy, ops and cmd import it, it imports nothing of
// strider's.
//
// # One front end
//
// One scanner reads the text (space, and in a header # comments and line
// continuations), one integer grammar reads every integer literal (scanInt:
// Python's decimal, 0x, 0o and 0b forms with single underscores and no
// leading zeros), and every parser builds the same tree of *Value: None,
// bools, ints of any size (big.Int), str and bytes with Python's escapes,
// tuples, lists, dicts, and in an index slices and Ellipsis. Nothing is
// evaluated. Nested lists become index arrays through one conversion with
// one ragged-list check (arrayShape), and ShapeString and Quote write
// shapes and strings as Python's repr does.
//
// # Three entry points
//
//   - ParseLiteral: a header value, as ast.literal_eval reads it, for the
//     values a header can hold: ints must fit in 64 bits, floats, sets and
//     calls are refused, nesting stops at MaxDepth. Errors are
//     *LiteralError with a byte offset; npy words them as a header's.
//   - ParseIndex: an index expression, as Python's parser and NumPy read
//     a[...]: ints (slice bounds beyond int64 clamp, as Py_ssize_t does),
//     slices, ..., None/newaxis, True/False, nested lists of ints or bools,
//     any number of unary signs. The whole text is tokenized before it is
//     parsed, so a stray character is reported wherever it stands. Errors
//     name a 1-based column in characters.
//   - ParseIndexArray: --index, an index expression restricted to one
//     integer array (or one integer): no slices, names or booleans, one
//     sign before an integer only. Its integers are read as words that end
//     at space, a comma or a closing bracket, so "1:2" is one word that is
//     not an integer. Errors name a 1-based column in bytes.
//
// Where the grammars differ they keep what each caller accepted before
// they shared this package: a header takes comments, strings and dicts, a
// form feed as space, and "3L" in format 1.0 and 2.0, but only one sign
// and only before digits; an index takes "- - 1" and "-True"; nesting
// stops at 64 in a header and at MaxIndexDepth (NumPy's 32 dimensions) in
// an index.
//
// # Tests
//
// TestLiteralEval compares ParseLiteral with ast.literal_eval and
// ParseIndex with Python's parser and numpy.asarray on the cases
// scripts/gen_pylit_cases.py writes to testdata/literal_eval.json.
// FuzzPylit feeds one text to all three entry points and checks that what
// parses reads back the same when written as Python, and that what
// --index takes the index expression reads as the same one item.
package pylit
