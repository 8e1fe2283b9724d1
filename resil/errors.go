package resil

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Reasons why Retry stopped before the operation succeeded. A [*RetryError]
// unwraps to one of them (or to the caller's context error), so
// errors.Is(err, ErrBudgetExhausted) tells the cases apart.
var (
	// ErrAttemptsExhausted: every allowed attempt failed.
	ErrAttemptsExhausted = errors.New("resil: attempts exhausted")
	// ErrBudgetExhausted: the dependency's retry budget refused another
	// retry (see [RetryBudget]).
	ErrBudgetExhausted = errors.New("resil: retry budget exhausted")
	// ErrNoTimeLeft: the next attempt, or the wait before it (including a
	// server's Retry-After), could not finish before the caller's deadline.
	// It wraps context.DeadlineExceeded, so code that maps deadline errors
	// to "504 / timed out" keeps working.
	ErrNoTimeLeft = fmt.Errorf("resil: not enough time left before the deadline: %w", context.DeadlineExceeded)
	// ErrRetryAfterTooLong: with no deadline, a server asked to wait longer
	// than MaxDelay before retrying. Retry stops at once rather than sleep
	// that long, or silently ignore the server.
	ErrRetryAfterTooLong = errors.New("resil: server asked to wait longer than MaxDelay")
	// ErrNilOperation is returned when Retry is given a nil operation.
	ErrNilOperation = errors.New("resil: nil operation")
)

// A RetryError is what Retry returns when it gives up. It wraps both the
// last attempt's own error (Err) and the reason for stopping (Reason), so
// errors.Is and errors.As see both. An outer retry loop never retries a
// RetryError: the attempts it stands for were already made (retry at one
// layer only).
type RetryError struct {
	// Err is the error of the last attempt that ran, or nil if no attempt
	// could be started at all.
	Err error
	// Attempts is how many attempts ran.
	Attempts int
	// Reason is why retrying stopped: ErrAttemptsExhausted,
	// ErrBudgetExhausted, ErrNoTimeLeft, ErrRetryAfterTooLong, or
	// context.Cause of the caller's context.
	Reason error
}

func (e *RetryError) Error() string {
	var b strings.Builder
	b.WriteString("resil: gave up after ")
	b.WriteString(strconv.Itoa(e.Attempts))
	if e.Attempts == 1 {
		b.WriteString(" attempt")
	} else {
		b.WriteString(" attempts")
	}
	if e.Reason != nil && e.Reason != ErrAttemptsExhausted {
		b.WriteString(" (")
		b.WriteString(strings.TrimPrefix(e.Reason.Error(), "resil: "))
		b.WriteString(")")
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the last attempt's error and the reason, for errors.Is/As.
func (e *RetryError) Unwrap() []error {
	errs := make([]error, 0, 2)
	if e.Err != nil {
		errs = append(errs, e.Err)
	}
	if e.Reason != nil {
		errs = append(errs, e.Reason)
	}
	return errs
}

// permanentError marks an error that must not be retried.
type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent marks err as not retryable: Retry returns it at once. The mark
// is transparent: the message is err's, and errors.Is/As see err. Permanent
// errors also count as successes for a [Breaker] (the dependency answered;
// the request was wrong). Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	if IsPermanent(err) {
		return err
	}
	return &permanentError{err}
}

// IsPermanent reports whether err, or any error it wraps, was marked with
// [Permanent].
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

// retryAfterError carries a server-dictated delay.
type retryAfterError struct {
	err error
	d   time.Duration
}

func (e *retryAfterError) Error() string             { return e.err.Error() }
func (e *retryAfterError) Unwrap() error             { return e.err }
func (e *retryAfterError) RetryAfter() time.Duration { return e.d }

// WithRetryAfter attaches a server-dictated minimum delay to err (an HTTP
// Retry-After, a gRPC pushback). Retry waits at least d before the next
// attempt if the wait fits the caller's deadline, and stops with
// [ErrNoTimeLeft] otherwise. Any error with a RetryAfter() time.Duration
// method is treated the same way. WithRetryAfter(nil, d) is nil.
func WithRetryAfter(err error, d time.Duration) error {
	if err == nil {
		return nil
	}
	return &retryAfterError{err, d}
}

// retryAfterOf returns the server-dictated delay carried by err, if any.
func retryAfterOf(err error) (time.Duration, bool) {
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) {
		return ra.RetryAfter(), true
	}
	return 0, false
}

// Retryable is the default classification Retry uses (see [RetryIf]). It
// returns false for nil, [Permanent] errors, context.Canceled (cancellation
// is the caller's decision, never a dependency failure), a [*RetryError]
// (its attempts were already made at a lower layer), HTTP errors whose
// status [RetryableStatus] rejects, and gRPC status errors whose code is not
// in the retryable set (see [GRPCCode]). Every other error — a refused
// connection, a reset, an attempt timeout, a 503 — is retryable.
func Retryable(err error) bool {
	if err == nil || IsPermanent(err) || errors.Is(err, context.Canceled) {
		return false
	}
	var re *RetryError
	if errors.As(err, &re) {
		return false
	}
	var he *HTTPError
	if errors.As(err, &he) {
		return RetryableStatus(he.StatusCode)
	}
	if code, ok := GRPCCode(err); ok {
		return retryableGRPC(code)
	}
	return true
}
