// Package gobreaker is a stub of github.com/sony/gobreaker/v2 v2.4.0 with
// its real signatures, for tests.
package gobreaker

import "time"

type State int

type Counts struct {
	Requests             uint32
	TotalSuccesses       uint32
	TotalFailures        uint32
	TotalExclusions      uint32
	ConsecutiveSuccesses uint32
	ConsecutiveFailures  uint32
}

type Settings struct {
	Name          string
	MaxRequests   uint32
	Interval      time.Duration
	BucketPeriod  time.Duration
	Timeout       time.Duration
	ReadyToTrip   func(counts Counts) bool
	OnStateChange func(name string, from State, to State)
	IsSuccessful  func(err error) bool
	IsExcluded    func(err error) bool
}

type CircuitBreaker[T any] struct{ name string }

type TwoStepCircuitBreaker[T any] struct{ cb *CircuitBreaker[T] }

func NewCircuitBreaker[T any](st Settings) *CircuitBreaker[T] {
	return &CircuitBreaker[T]{name: st.Name}
}

func NewTwoStepCircuitBreaker[T any](st Settings) *TwoStepCircuitBreaker[T] {
	return &TwoStepCircuitBreaker[T]{cb: NewCircuitBreaker[T](st)}
}

func (cb *CircuitBreaker[T]) Execute(req func() (T, error)) (T, error) { return req() }

func (tscb *TwoStepCircuitBreaker[T]) Allow() (done func(err error), err error) {
	return func(error) {}, nil
}
