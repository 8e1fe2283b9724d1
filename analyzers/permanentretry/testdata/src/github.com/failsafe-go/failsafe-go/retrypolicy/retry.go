// Package retrypolicy is a stub of failsafe-go's retrypolicy for tests.
package retrypolicy

import "github.com/failsafe-go/failsafe-go"

type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	failsafe.FailurePolicyBuilder[Builder[R], R]
	WithMaxRetries(maxRetries int) Builder[R]
	AbortIf(predicate func(R, error) bool) Builder[R]
	Build() RetryPolicy[R]
}

func NewBuilder[R any]() Builder[R] { return nil }
