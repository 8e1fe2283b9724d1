// Package backoff is a stub of github.com/cenkalti/backoff/v5 (v5.0.3
// signatures) for tests.
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

const Stop time.Duration = -1

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) Reset()                     {}
func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
}

func NewExponentialBackOff() *ExponentialBackOff { return &ExponentialBackOff{} }

func (b *ExponentialBackOff) Reset()                     {}
func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }

type Operation[T any] func() (T, error)

type Notify func(error, time.Duration)

type retryOptions struct {
	maxTries uint
	backOff  BackOff
}

type RetryOption func(*retryOptions)

func WithBackOff(b BackOff) RetryOption              { return nil }
func WithNotify(n Notify) RetryOption                { return nil }
func WithMaxTries(n uint) RetryOption                { return nil }
func WithMaxElapsedTime(d time.Duration) RetryOption { return nil }

// Retry has the library's loop, so that its own code looks like a retry
// helper: the knowledge table must still decide its attempts.
func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	o := retryOptions{backOff: NewExponentialBackOff()}
	for _, opt := range opts {
		opt(&o)
	}
	var zero T
	var err error
	for tries := uint(0); o.maxTries == 0 || tries < o.maxTries; tries++ {
		var v T
		if v, err = operation(); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(o.backOff.NextBackOff()):
		}
	}
	return zero, err
}

func Permanent(err error) error { return err }
