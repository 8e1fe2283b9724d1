package helpers

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
)

// A delay function of the caller's that returns a constant is a fixed delay.
func retryGoConstFunc(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx), retry.Attempts(3),
		retry.DelayType(func(n uint, err error, c *retry.Config) time.Duration { return 2 * time.Second })) // want `retry.Do waits the same delay before every attempt`
}

func fixedDelay(n uint, err error, c *retry.Config) time.Duration { return time.Second }

func retryGoConstNamed(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx), retry.Attempts(3), retry.DelayType(fixedDelay)) // want `retry.Do waits the same delay before every attempt \(retry.DelayType\(fixedDelay\)\)`
}

// A delay that depends on the attempt, or constants that differ: not fixed.
func retryGoGrowingFunc(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx), retry.Attempts(3),
		retry.DelayType(func(n uint, err error, c *retry.Config) time.Duration { return time.Duration(n) * time.Second }))
}

func retryGoStepFunc(ctx context.Context) error {
	return retry.Do(op, retry.Context(ctx), retry.Attempts(3),
		retry.DelayType(func(n uint, err error, c *retry.Config) time.Duration {
			if n > 2 {
				return 5 * time.Second
			}
			return time.Second
		}))
}
