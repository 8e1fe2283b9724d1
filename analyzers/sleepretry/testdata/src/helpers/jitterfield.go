package helpers

import (
	"context"

	"github.com/cenkalti/backoff/v4"
)

// Jitter turned off by a field assignment.
func v4FieldNoJitter(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `backoff.Retry grows its delay without jitter \(b.RandomizationFactor = 0\): .*; remove b.RandomizationFactor = 0: without it the delays are randomised$`
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
}

// Set to a non-zero value, or only on one path: not reported.
func v4FieldJitter(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0.3
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
}

func v4FieldMaybe(ctx context.Context, fixed bool) error {
	b := backoff.NewExponentialBackOff()
	if fixed {
		b.RandomizationFactor = 0
	}
	return backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
}

func v4FieldAfter(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	err := backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(b, 4), ctx))
	b.RandomizationFactor = 0
	return err
}
