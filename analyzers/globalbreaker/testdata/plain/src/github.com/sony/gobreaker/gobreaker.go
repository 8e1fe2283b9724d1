// Package gobreaker is a stub of github.com/sony/gobreaker v1.0.0 with its
// real signatures, for tests.
package gobreaker

import "time"

type State int

type Counts struct {
	Requests             uint32
	TotalSuccesses       uint32
	TotalFailures        uint32
	ConsecutiveSuccesses uint32
	ConsecutiveFailures  uint32
}

type Settings struct {
	Name          string
	MaxRequests   uint32
	Interval      time.Duration
	Timeout       time.Duration
	ReadyToTrip   func(counts Counts) bool
	OnStateChange func(name string, from State, to State)
	IsSuccessful  func(err error) bool
}

type CircuitBreaker struct{ name string }

type TwoStepCircuitBreaker struct{ cb *CircuitBreaker }

func NewCircuitBreaker(st Settings) *CircuitBreaker { return &CircuitBreaker{name: st.Name} }

func NewTwoStepCircuitBreaker(st Settings) *TwoStepCircuitBreaker {
	return &TwoStepCircuitBreaker{cb: NewCircuitBreaker(st)}
}

func (cb *CircuitBreaker) Name() string { return cb.name }

func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	return req()
}

func (tscb *TwoStepCircuitBreaker) Allow() (done func(success bool), err error) {
	return func(bool) {}, nil
}
