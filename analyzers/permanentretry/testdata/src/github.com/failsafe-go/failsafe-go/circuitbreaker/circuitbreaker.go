// Package circuitbreaker is a stub of failsafe-go's circuitbreaker for tests.
package circuitbreaker

import "github.com/failsafe-go/failsafe-go"

type CircuitBreaker[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	failsafe.FailurePolicyBuilder[Builder[R], R]
	WithFailureThreshold(failureThreshold uint) Builder[R]
	Build() CircuitBreaker[R]
}

func NewBuilder[R any]() Builder[R] { return nil }
