// Package retrier is a stub of github.com/eapache/go-resiliency/retrier
// (v1.7.0 signatures) for tests.
package retrier

import (
	"context"
	"time"
)

type Action int

type Classifier interface {
	Classify(error) Action
}

type Retrier struct{}

func New(backoff []time.Duration, class Classifier) *Retrier { return &Retrier{} }

func (r *Retrier) WithInfiniteRetry() *Retrier { return r }

func (r *Retrier) Run(work func() error) error { return work() }

func (r *Retrier) RunCtx(ctx context.Context, work func(ctx context.Context) error) error {
	return work(ctx)
}

func (r *Retrier) SetJitter(jit float64) {}

func ConstantBackoff(n int, amount time.Duration) []time.Duration           { return nil }
func ExponentialBackoff(n int, initialAmount time.Duration) []time.Duration { return nil }
