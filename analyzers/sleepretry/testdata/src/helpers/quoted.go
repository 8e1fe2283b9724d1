package helpers

import (
	"context"
	"time"

	backoffv4 "github.com/cenkalti/backoff/v4"
)

// Hints name the package as the file imports it.
func renamedConstant(ctx context.Context) error {
	return backoffv4.Retry(op, backoffv4.WithContext(backoffv4.WithMaxRetries(backoffv4.NewConstantBackOff(time.Second), 3), ctx)) // want `; keep the interval and randomise it: backoffv4.NewExponentialBackOff\(backoffv4.WithInitialInterval\(interval\), backoffv4.WithMultiplier\(1\)\) waits the interval ±50%$`
}

// WithRandomizationFactor(0): drop it.
func zeroFactor(ctx context.Context) error {
	b := backoffv4.NewExponentialBackOff(backoffv4.WithRandomizationFactor(0)) // want `grows its delay without jitter \(backoffv4.WithRandomizationFactor\(0\)\): .*; drop backoffv4.WithRandomizationFactor\(0\): without it the delays are randomised$`
	return backoffv4.Retry(op, backoffv4.WithContext(b, ctx))
}

// A multi-line literal is quoted on one line, cut between words.
func multiLine(ctx context.Context) error {
	b := &backoffv4.ExponentialBackOff{ // want `grows its delay without jitter \(backoffv4.ExponentialBackOff{InitialInterval: 2 \* time.Second, \.\.\.\): .*; set RandomizationFactor \(0.5 randomises each delay by ±50%\)$`
		InitialInterval: 2 * time.Second,
		Multiplier:      3,
		MaxInterval:     time.Minute,
		MaxElapsedTime:  10 * time.Minute,
	}
	return backoffv4.Retry(op, backoffv4.WithContext(b, ctx))
}
