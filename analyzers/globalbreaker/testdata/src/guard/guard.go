package guard // want package:"guards function arguments with breakers"

// Package guard holds helpers that run their function argument through a
// breaker; package warm calls them. Facts carry what each helper guards
// with across packages.

import (
	"errors"

	"github.com/afex/hystrix-go/hystrix"
	"github.com/resilint/resilint/resil"
	gb2 "github.com/sony/gobreaker/v2"
)

var ErrDegraded = errors.New("dependency degraded")

// Call runs fn through the breaker it is given.
func Call[T any](cb *gb2.CircuitBreaker[T], fn func() (T, error)) (T, error) { // want Call:"guards param1 with param0"
	v, err := cb.Execute(fn)
	if err != nil {
		var zero T
		return zero, ErrDegraded
	}
	return v, err
}

// Run runs fn in a closure through the breaker.
func Run(cb *gb2.CircuitBreaker[any], fn func() error) error { // want Run:"guards param1 with param0"
	_, err := cb.Execute(func() (any, error) { return nil, fn() })
	return err
}

// Command runs fn under the hystrix command it is given.
func Command(name string, fn func() error) error { return hystrix.Do(name, fn, nil) } // want Command:"guards param1 with the breaker named by param0"

// Registry runs fn through the registry's breaker of the name.
func Registry(name string, fn func() (any, error)) (any, error) { // want Registry:"guards param1 with the breaker named by param0"
	return resil.BreakerFor(name).Execute(fn)
}

// Legacy runs fn under one hystrix command for everything.
func Legacy(fn func() error) error { return hystrix.Do("legacy", fn, nil) } // want Legacy:"guards param0 with .legacy."

// shared is one breaker of the package for every operation given to Shared.
var shared = gb2.NewCircuitBreaker[any](gb2.Settings{Name: "shared"})

func Shared(fn func() (any, error)) (any, error) { return shared.Execute(fn) } // want Shared:"guards param0 with guard.shared"

// A Guard keeps its breaker in a field.
type Guard struct{ cb *gb2.CircuitBreaker[any] }

func New(name string) *Guard {
	return &Guard{cb: gb2.NewCircuitBreaker[any](gb2.Settings{Name: name})}
}

func (g *Guard) Do(fn func() (any, error)) (any, error) { return g.cb.Execute(fn) } // want Do:"guards param0 with recv.cb"

// Detached runs fn in a goroutine, outside the breaker: not a guard.
func Detached(cb *gb2.CircuitBreaker[any], fn func() error) {
	cb.Execute(func() (any, error) {
		go fn()
		return nil, nil
	})
}

// After runs fn after the guarded call, outside the breaker: not a guard.
func After(cb *gb2.CircuitBreaker[any], fn func() error) error {
	if _, err := cb.Execute(func() (any, error) { return nil, nil }); err != nil {
		return err
	}
	return fn()
}

// Fresh builds a breaker on every call: nothing identifies it.
func Fresh(fn func() (any, error)) (any, error) {
	return gb2.NewCircuitBreaker[any](gb2.Settings{}).Execute(fn) // want `a new breaker is created on every call of Fresh and guards a single call`
}
