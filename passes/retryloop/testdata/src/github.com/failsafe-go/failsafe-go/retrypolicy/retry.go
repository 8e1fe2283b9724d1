// Package retrypolicy is a stub of failsafe-go's retrypolicy for tests.
package retrypolicy

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

type RetryPolicy[R any] interface {
	failsafe.Policy[R]
}

type Builder[R any] interface {
	failsafe.FailurePolicyBuilder[Builder[R], R]
	failsafe.DelayablePolicyBuilder[Builder[R], R]
	WithMaxAttempts(maxAttempts int) Builder[R]
	WithMaxRetries(maxRetries int) Builder[R]
	WithMaxDuration(maxDuration time.Duration) Builder[R]
	WithBackoff(delay time.Duration, maxDelay time.Duration) Builder[R]
	WithRandomDelay(delayMin time.Duration, delayMax time.Duration) Builder[R]
	WithJitter(jitter time.Duration) Builder[R]
	WithJitterFactor(jitterFactor float64) Builder[R]
	Build() RetryPolicy[R]
}

func NewBuilder[R any]() Builder[R] { return nil }

func NewWithDefaults[R any]() RetryPolicy[R] { return nil }
