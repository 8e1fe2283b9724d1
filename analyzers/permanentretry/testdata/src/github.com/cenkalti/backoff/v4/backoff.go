// Package backoff is a stub of github.com/cenkalti/backoff/v4 (v4.3.0
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
	MaxElapsedTime      time.Duration
}

type ExponentialBackOffOpts func(*ExponentialBackOff)

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	return &ExponentialBackOff{}
}

func WithInitialInterval(duration time.Duration) ExponentialBackOffOpts          { return nil }
func WithRandomizationFactor(randomizationFactor float64) ExponentialBackOffOpts { return nil }
func WithMaxElapsedTime(duration time.Duration) ExponentialBackOffOpts           { return nil }

func (b *ExponentialBackOff) Reset()                     {}
func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }

type BackOffContext interface {
	BackOff
	Context() context.Context
}

func WithContext(b BackOff, ctx context.Context) BackOffContext { return nil }

func WithMaxRetries(b BackOff, max uint64) BackOff { return b }

type Operation func() error

type OperationWithData[T any] func() (T, error)

type Notify func(error, time.Duration)

func Retry(o Operation, b BackOff) error { return o() }

func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) { return o() }

func RetryNotify(operation Operation, b BackOff, notify Notify) error { return operation() }

func Permanent(err error) error { return err }
