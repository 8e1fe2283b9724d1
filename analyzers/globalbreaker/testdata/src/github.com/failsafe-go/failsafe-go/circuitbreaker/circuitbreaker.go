// Package circuitbreaker is a stub of
// github.com/failsafe-go/failsafe-go/circuitbreaker v0.9.8 with its real
// signatures, for tests.
package circuitbreaker

import (
	"time"

	"github.com/failsafe-go/failsafe-go"
)

type CircuitBreaker[R any] interface {
	failsafe.Policy[R]
	TryAcquirePermit() bool
}

type Builder[R any] interface {
	WithFailureThreshold(failureThreshold uint) Builder[R]
	WithFailureThresholdRatio(failureThreshold uint, failureThresholdingCapacity uint) Builder[R]
	WithFailureThresholdPeriod(failureThreshold uint, failureThresholdingPeriod time.Duration) Builder[R]
	WithFailureRateThreshold(failureRateThreshold float64, failureExecutionThreshold uint, failureThresholdingPeriod time.Duration) Builder[R]
	WithSuccessThreshold(successThreshold uint) Builder[R]
	WithDelay(delay time.Duration) Builder[R]
	Build() CircuitBreaker[R]
}

type config[R any] struct{}

type circuitBreaker[R any] struct{}

func (*circuitBreaker[R]) ToExecutor(R) any       { return nil }
func (*circuitBreaker[R]) TryAcquirePermit() bool { return true }

func NewWithDefaults[R any]() CircuitBreaker[R] { return NewBuilder[R]().Build() }

func NewBuilder[R any]() Builder[R] { return &config[R]{} }

func (c *config[R]) WithFailureThreshold(uint) Builder[R]                      { return c }
func (c *config[R]) WithFailureThresholdRatio(uint, uint) Builder[R]           { return c }
func (c *config[R]) WithFailureThresholdPeriod(uint, time.Duration) Builder[R] { return c }
func (c *config[R]) WithFailureRateThreshold(float64, uint, time.Duration) Builder[R] {
	return c
}
func (c *config[R]) WithSuccessThreshold(uint) Builder[R] { return c }
func (c *config[R]) WithDelay(time.Duration) Builder[R]   { return c }
func (c *config[R]) Build() CircuitBreaker[R]             { return &circuitBreaker[R]{} }
