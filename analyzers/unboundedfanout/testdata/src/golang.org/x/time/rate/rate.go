// Package rate is a stub of golang.org/x/time/rate with its real
// signatures, for tests.
package rate

import "context"

type Limit float64

type Limiter struct{}

func NewLimiter(r Limit, b int) *Limiter { return &Limiter{} }

func (l *Limiter) Wait(ctx context.Context) error { return nil }

func (l *Limiter) Allow() bool { return true }
