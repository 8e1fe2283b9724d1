// Package gobreaker is a stand-in for github.com/sony/gobreaker (v1), for
// resilint's generated-program tests.
package gobreaker

import (
	"errors"
	"sync"
	"time"
)

// Counts holds the numbers of requests and their successes/failures.
type Counts struct {
	Requests             uint32
	TotalSuccesses       uint32
	TotalFailures        uint32
	ConsecutiveSuccesses uint32
	ConsecutiveFailures  uint32
}

// Settings configures CircuitBreaker.
type Settings struct {
	Name        string
	MaxRequests uint32
	Interval    time.Duration
	Timeout     time.Duration
	ReadyToTrip func(counts Counts) bool
}

// ErrOpenState is returned when the state is open.
var ErrOpenState = errors.New("circuit breaker is open")

// CircuitBreaker is a state machine to prevent sending requests that are
// likely to fail.
type CircuitBreaker struct {
	mu     sync.Mutex
	name   string
	open   bool
	counts Counts
	trip   func(Counts) bool
}

// NewCircuitBreaker returns a new CircuitBreaker configured with st.
func NewCircuitBreaker(st Settings) *CircuitBreaker {
	trip := st.ReadyToTrip
	if trip == nil {
		trip = func(c Counts) bool { return c.ConsecutiveFailures > 5 }
	}
	return &CircuitBreaker{name: st.Name, trip: trip}
}

// Name returns the name of the CircuitBreaker.
func (cb *CircuitBreaker) Name() string { return cb.name }

// Execute runs the given request if the CircuitBreaker accepts it.
func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	cb.mu.Lock()
	if cb.open {
		cb.mu.Unlock()
		return nil, ErrOpenState
	}
	cb.mu.Unlock()
	res, err := req()
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.counts.Requests++
	if err != nil {
		cb.counts.TotalFailures++
		cb.counts.ConsecutiveFailures++
		if cb.trip(cb.counts) {
			cb.open = true
		}
	} else {
		cb.counts.TotalSuccesses++
		cb.counts.ConsecutiveFailures = 0
	}
	return res, err
}
