// Package failsafe is a stub of github.com/failsafe-go/failsafe-go v0.9.8
// with its real signatures, for tests.
package failsafe

import "context"

type Policy[R any] interface {
	ToExecutor(R) any
}

type Executor[R any] interface {
	WithContext(ctx context.Context) Executor[R]
	Compose(innerPolicy Policy[R]) Executor[R]
	Run(fn func() error) error
	Get(fn func() (R, error)) (R, error)
}

type executor[R any] struct{ policies []Policy[R] }

func With[R any](policies ...Policy[R]) Executor[R] { return &executor[R]{policies: policies} }

func (e *executor[R]) WithContext(ctx context.Context) Executor[R] { return e }
func (e *executor[R]) Compose(p Policy[R]) Executor[R] {
	e.policies = append(e.policies, p)
	return e
}
func (e *executor[R]) Run(fn func() error) error           { return fn() }
func (e *executor[R]) Get(fn func() (R, error)) (R, error) { return fn() }
