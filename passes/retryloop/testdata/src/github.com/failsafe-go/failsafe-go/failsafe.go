// Package failsafe is a stub of github.com/failsafe-go/failsafe-go (v0.9.8
// signatures) for tests.
package failsafe

import (
	"context"
	"time"
)

type Policy[R any] interface {
	ToExecutor(R) any
}

type Executor[R any] interface {
	WithContext(ctx context.Context) Executor[R]
	Compose(innerPolicy Policy[R]) Executor[R]
	Run(fn func() error) error
	Get(fn func() (R, error)) (R, error)
}

func With[R any](policies ...Policy[R]) Executor[R] { return nil }

type ExecutionAttempt[R any] interface {
	Attempts() int
}

type DelayFunc[R any] func(exec ExecutionAttempt[R]) time.Duration

type FailurePolicyBuilder[S any, R any] interface {
	HandleErrors(errs ...error) S
	HandleIf(predicate func(R, error) bool) S
}

type DelayablePolicyBuilder[S any, R any] interface {
	WithDelay(delay time.Duration) S
	WithDelayFunc(delayFunc DelayFunc[R]) S
}
