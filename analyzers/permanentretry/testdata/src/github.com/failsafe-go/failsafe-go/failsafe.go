// Package failsafe is a stub of github.com/failsafe-go/failsafe-go (v0.9.8
// signatures) for tests.
package failsafe

type Policy[R any] interface {
	ToExecutor(R) any
}

type Executor[R any] interface {
	Get(fn func() (R, error)) (R, error)
}

func With[R any](policies ...Policy[R]) Executor[R] { return nil }

type FailurePolicyBuilder[S any, R any] interface {
	HandleErrors(errs ...error) S
	HandleIf(predicate func(R, error) bool) S
}
