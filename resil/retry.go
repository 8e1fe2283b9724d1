package resil

import (
	"context"
	"time"
)

// Retry calls op until it succeeds, returns a non-retryable error, or the
// attempts, the retry budget or the caller's deadline run out.
//
// The caller's context is the budget. Before each attempt Retry computes the
// time left before ctx's deadline; the attempt gets a context that expires
// after min(time left − [Reserve], [AttemptTimeout]). An attempt that would
// get less than [MinAttemptTime] is not started, and a wait is not started
// if the attempt after it could not get that much. Between attempts Retry
// waits [Backoff](n, [BaseDelay], [MaxDelay]) (full jitter), or longer if the
// error carries a Retry-After ([WithRetryAfter], [HTTPError]) that fits.
//
// What is never retried: [Permanent] errors and anything [RetryIf] (default
// [Retryable]) rejects, which are returned unchanged; and anything once the
// caller's ctx is done. When Retry gives up for any other reason it returns
// a [*RetryError] wrapping the last attempt's real error and the reason
// (never a bare context.DeadlineExceeded).
//
// Retry at one layer only: if ctx is already marked by an outer Retry (or
// [WithRetryOwned]), Retry makes exactly one attempt and returns its error
// unchanged; otherwise, if it may retry, it marks the context it passes to
// op. The mark allocates nothing, so on the success path neither a nested
// nor an outermost call allocates, whatever the context; under a deadline
// each attempt's own earlier deadline is a context.WithDeadline.
//
// A nil ctx counts as context.Background(); a nil op returns
// [ErrNilOperation].
func Retry(ctx context.Context, op func(ctx context.Context) error, opts ...Option) error {
	if op == nil {
		return ErrNilOperation
	}
	_, err := run(ctx, errOp(op), opts)
	return err
}

// RetryValue is [Retry] for an operation that returns a value. On failure
// it returns the zero T.
func RetryValue[T any](ctx context.Context, op func(ctx context.Context) (T, error), opts ...Option) (T, error) {
	if op == nil {
		var zero T
		return zero, ErrNilOperation
	}
	return run(ctx, valueOp[T](op), opts)
}

// caller lets one generic loop serve Retry and RetryValue without wrapping
// op in a closure (which would allocate).
type caller[T any] interface {
	call(ctx context.Context) (T, error)
}

type errOp func(ctx context.Context) error

func (f errOp) call(ctx context.Context) (struct{}, error) { return struct{}{}, f(ctx) }

type valueOp[T any] func(ctx context.Context) (T, error)

func (f valueOp[T]) call(ctx context.Context) (T, error) { return f(ctx) }

// run is the retry loop.
func run[T any, O caller[T]](ctx context.Context, op O, opts []Option) (T, error) {
	var zero T
	if ctx == nil {
		ctx = context.Background()
	}
	c := defaultConfig()
	if len(opts) > 0 {
		c = buildConfig(opts)
	}
	clk := c.clock
	if clk == nil {
		clk = realClock{}
	}

	attempts, actx := c.attempts, ctx
	if RetryOwned(ctx) {
		attempts = 1 // an outer layer owns retries
	} else if attempts > 1 {
		actx = markOwned(ctx)
	}
	if c.budget != nil {
		c.budget.deposit()
	}

	var (
		lastErr error
		timer   *time.Timer // reused across waits on the real clock
	)
	for n := 0; ; {
		// Plan the attempt against the caller's deadline.
		if ctx.Err() != nil {
			return zero, &RetryError{Err: lastErr, Attempts: n, Reason: context.Cause(ctx)}
		}
		timeout := c.attemptTimeout
		deadline, hasDeadline := ctx.Deadline()
		if hasDeadline {
			left := deadline.Sub(clk.Now()) - c.reserve
			if left < MinAttemptTime {
				return zero, &RetryError{Err: lastErr, Attempts: n, Reason: ErrNoTimeLeft}
			}
			if timeout == 0 || left < timeout {
				timeout = left
			}
		}

		v, err := attempt[T](actx, op, timeout, &c, clk)
		n++
		if err == nil {
			return v, nil
		}
		lastErr = err

		// Decide whether to retry.
		if ctx.Err() != nil {
			return zero, &RetryError{Err: err, Attempts: n, Reason: context.Cause(ctx)}
		}
		if attempts == 1 || !c.retryable(err) {
			return zero, err
		}
		if n >= attempts {
			return zero, &RetryError{Err: err, Attempts: n, Reason: ErrAttemptsExhausted}
		}
		delay := Backoff(n-1, c.base, c.max)
		if ra, ok := retryAfterOf(err); ok && ra > delay {
			if !hasDeadline && ra > c.max {
				return zero, &RetryError{Err: err, Attempts: n, Reason: ErrRetryAfterTooLong}
			}
			delay = ra
		}
		if hasDeadline && deadline.Sub(clk.Now()) < delay+c.reserve+MinAttemptTime {
			return zero, &RetryError{Err: err, Attempts: n, Reason: ErrNoTimeLeft}
		}
		if c.budget != nil && !c.budget.withdraw() {
			return zero, &RetryError{Err: err, Attempts: n, Reason: ErrBudgetExhausted}
		}
		if c.onRetry != nil {
			c.onRetry(n, err, delay)
		}
		if werr := wait(ctx, clk, &timer, delay); werr != nil {
			return zero, &RetryError{Err: err, Attempts: n, Reason: werr}
		}
	}
}

// retryable applies the configured classification; Permanent always wins.
func (c *config) retryable(err error) bool {
	if IsPermanent(err) {
		return false
	}
	if c.retryIf != nil {
		return c.retryIf(err)
	}
	return Retryable(err)
}

// attempt runs op once with the planned timeout, inside the configured
// bulkhead and breaker.
func attempt[T any, O caller[T]](ctx context.Context, op O, timeout time.Duration, c *config, clk Clock) (v T, err error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, clk.Now().Add(timeout))
		defer cancel()
	}
	if c.bulkhead != nil {
		if err := c.bulkhead.acquire(ctx); err != nil {
			return v, err
		}
		defer c.bulkhead.release()
	}
	if c.breaker == nil {
		return op.call(ctx)
	}
	ticket, err := c.breaker.admit()
	if err != nil {
		return v, err
	}
	finished := false
	defer func() {
		if !finished { // op panicked: a failure, then let the panic go on
			c.breaker.record(ticket, failure)
		}
	}()
	v, err = op.call(ctx)
	finished = true
	c.breaker.record(ticket, c.breaker.classify(ctx, err))
	return v, err
}

// wait sleeps d on clk, reusing one timer per Retry call on the real clock.
func wait(ctx context.Context, clk Clock, t **time.Timer, d time.Duration) error {
	if _, real := clk.(realClock); !real {
		return clk.Sleep(ctx, d)
	}
	if d <= 0 {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return nil
	}
	if *t == nil {
		*t = time.NewTimer(d)
	} else {
		(*t).Reset(d)
	}
	select {
	case <-(*t).C:
		return nil
	case <-ctx.Done():
		(*t).Stop()
		return context.Cause(ctx)
	}
}
