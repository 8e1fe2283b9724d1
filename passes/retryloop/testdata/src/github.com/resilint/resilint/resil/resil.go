// Package resil is a stub of resilint's runtime package for tests.
package resil

import (
	"context"
	"time"
)

func Sleep(ctx context.Context, d time.Duration) error { return nil }

func Backoff(attempt int, base, max time.Duration) time.Duration { return base }

type Option func(*settings)

type settings struct{}

func Attempts(n int) Option { return nil }

func Retry(ctx context.Context, op func(ctx context.Context) error, opts ...Option) error {
	return op(ctx)
}

func RetryValue[T any](ctx context.Context, op func(ctx context.Context) (T, error), opts ...Option) (T, error) {
	return op(ctx)
}

func Permanent(err error) error { return err }
