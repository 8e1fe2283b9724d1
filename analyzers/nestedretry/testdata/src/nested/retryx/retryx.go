// Package retryx is a team's own retry helpers, found by their code (no
// configuration): each calls its function parameter on the retried path
// of a retry loop.
package retryx

import (
	"context"
	"math/rand"
	"time"
)

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(rand.Int63n(int64(time.Second)))):
	}
}

// Do is a generic retry helper: attempts attempts of f.
func Do[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) {
	var v T
	var err error
	for i := 0; i < attempts; i++ {
		if v, err = f(ctx); err == nil {
			return v, nil
		}
		pause(ctx)
	}
	return v, err
}

// DoErr is a non-generic retry helper.
func DoErr(ctx context.Context, attempts int, f func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Three makes three attempts of f.
func Three(ctx context.Context, f func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Once calls f once: not a retry helper.
func Once(ctx context.Context, f func(context.Context) error) error {
	return f(ctx)
}

// Stored keeps f for later rather than calling it in the loop: not followed.
func Stored(ctx context.Context, attempts int, f func(context.Context) error) error {
	g := f
	var err error
	for i := 0; i < attempts; i++ {
		if err = g(ctx); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Numbered hands the operation its attempt number, as many retry helpers
// do (for logging, or to pick a fresh idempotency suffix): still the same
// operation, retried.
func Numbered(ctx context.Context, attempts int, f func(ctx context.Context, attempt int) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(ctx, i+1); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Failover tries each replica once: a different operation per iteration,
// not a retry helper.
func Failover(ctx context.Context, replicas []string, f func(ctx context.Context, addr string) error) error {
	var err error
	for i := 0; i < len(replicas); i++ {
		if err = f(ctx, replicas[i]); err == nil {
			return nil
		}
		pause(ctx)
	}
	return err
}

// Value delegates to DoErr through a literal whose one call is f: it
// retries f attempts times, as DoErr does.
func Value[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) {
	var v T
	err := DoErr(ctx, attempts, func(ctx context.Context) error {
		var err error
		v, err = f(ctx)
		return err
	})
	return v, err
}

// Thrice delegates with a constant: 3 attempts.
func Thrice(ctx context.Context, f func(context.Context) error) error {
	return DoErr(ctx, 3, f)
}
