package ruby

import (
	"errors"
	"fmt"
)

// ErrUnsupported is matched (errors.Is) by every error about valid Ruby
// this package does not implement, as opposed to an error the Ruby code
// itself raised: a host may then run the code elsewhere (in real Ruby).
var ErrUnsupported = errors.New("unsupported Ruby")

// UnsupportedError is the error about Ruby beyond the subset; its message
// names the file and line ("unsupported Ruby in function F:L: ..."). err,
// when set, is the error it rewords, kept for errors.As.
type UnsupportedError struct {
	msg string
	err error
}

func (e *UnsupportedError) Error() string { return e.msg }

// Unwrap returns the error this one rewords, if any.
func (e *UnsupportedError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrUnsupported) hold.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// unsupportedf formats an UnsupportedError.
func unsupportedf(format string, args ...any) error {
	return &UnsupportedError{msg: fmt.Sprintf(format, args...)}
}
