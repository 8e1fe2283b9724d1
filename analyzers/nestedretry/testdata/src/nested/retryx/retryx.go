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
