package npy

import (
	"errors"
	"fmt"
)

var (
	// ErrFormat is matched by every error about malformed bytes: .npy,
	// .npz, .safetensors, torch.save.
	ErrFormat = errors.New("malformed .npy data")
	// ErrUnsupported is matched by errors about well-formed dtypes that
	// strider refuses: object, string, structured, datetime, longdouble.
	ErrUnsupported = errors.New("unsupported dtype")
)

// classError carries a one-line message, a class sentinel for errors.Is and
// an optional cause, without repeating the sentinel's text in the message.
type classError struct {
	msg   string
	class error
	cause error
}

func (e *classError) Error() string { return e.msg }

func (e *classError) Is(target error) bool { return target == e.class }

func (e *classError) Unwrap() error { return e.cause }

// Malformed returns an ErrFormat error; a %w verb in format makes its
// argument the cause.
func Malformed(format string, args ...any) error {
	return classify(ErrFormat, format, args...)
}

// Unsupported returns an ErrUnsupported error.
func Unsupported(format string, args ...any) error {
	return classify(ErrUnsupported, format, args...)
}

func classify(class error, format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &classError{msg: err.Error(), class: class, cause: errors.Unwrap(err)}
}
