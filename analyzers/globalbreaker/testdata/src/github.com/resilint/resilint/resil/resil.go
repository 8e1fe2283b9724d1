// Package resil is a stub of resilint's runtime package with its real
// signatures, for tests.
package resil

import "context"

type Breaker struct{ name string }

type breakerConfig struct{ probes int }

type BreakerOption func(c breakerConfig) breakerConfig

func HalfOpenProbes(n int) BreakerOption { return nil }

func FailureRatio(r float64) BreakerOption { return nil }

func MinimumThroughput(n int) BreakerOption { return nil }

func NewBreaker(name string, opts ...BreakerOption) *Breaker { return &Breaker{name: name} }

func BreakerFor(name string, opts ...BreakerOption) *Breaker { return NewBreaker(name, opts...) }

func (b *Breaker) Do(ctx context.Context, fn func(ctx context.Context) error) error { return fn(ctx) }

func (b *Breaker) Execute(fn func() (any, error)) (any, error) { return fn() }

func (b *Breaker) Allow() (done func(success bool), err error) { return func(bool) {}, nil }
