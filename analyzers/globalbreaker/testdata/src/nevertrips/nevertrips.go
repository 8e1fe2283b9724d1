// Package nevertrips holds breakers that are created for a single call, and
// breakers that live long enough to trip.
package nevertrips

import (
	"context"
	"net/http"
	"sync"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/resilint/resilint/resil"
	"github.com/sony/gobreaker"
)

func Availability(ctx context.Context, url string) (any, error) {
	cb := gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "availability"}) // want `breaker cb is created on every call of Availability and guards a single call: it never sees a second failure, so it can never open`
	return cb.Execute(func() (any, error) {
		return http.Get(url)
	})
}

func Inline(url string) (any, error) {
	return gobreaker.NewCircuitBreaker(gobreaker.Settings{}).Execute(func() (any, error) { // want `a new breaker is created on every call of Inline`
		return http.Get(url)
	})
}

func PerItem(urls []string) {
	for _, u := range urls {
		cb := resil.NewBreaker(u) // want `breaker cb is created on every iteration`
		cb.Do(context.Background(), func(ctx context.Context) error {
			_, err := http.Get(u)
			return err
		})
	}
}

func Failsafe(url string) (*http.Response, error) {
	cb := circuitbreaker.NewBuilder[*http.Response]().WithFailureThreshold(5).Build() // want `breaker cb is created on every call of Failsafe`
	return failsafe.With[*http.Response](cb).Get(func() (*http.Response, error) {
		return http.Get(url)
	})
}

// Fine: the breaker guards every call of a loop.
func AcrossLoop(urls []string) {
	cb := gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "batch"})
	for _, u := range urls {
		cb.Execute(func() (any, error) { return http.Get(u) })
	}
}

// Fine: stored in a registry, returned, kept in a struct.
var (
	mu       sync.Mutex
	registry = map[string]*gobreaker.CircuitBreaker{}
)

func For(host string) *gobreaker.CircuitBreaker {
	mu.Lock()
	defer mu.Unlock()
	cb := gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: host})
	registry[host] = cb
	cb.Execute(func() (any, error) { return http.Get("https://" + host + "/warmup") })
	return cb
}

type Client struct{ cb *gobreaker.CircuitBreaker }

func New() *Client {
	cb := gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "client"})
	return &Client{cb: cb}
}

// Fine: the breaker outlives the call in the handler it returns.
func Handler(url string) http.HandlerFunc {
	cb := gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "handler"})
	return func(w http.ResponseWriter, r *http.Request) {
		cb.Execute(func() (any, error) { return http.Get(url) })
	}
}

// Fine: a breaker from the process-wide registry.
func Registry(url string) {
	resil.BreakerFor("availability").Execute(func() (any, error) { return http.Get(url) })
}

// Fine: an executor built once at package level, with its breaker
// constructed inline, lives as long as the process.
var storeExec = failsafe.With[any](circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).Build())

func Store(url string) error {
	return storeExec.Run(func() error { _, err := http.Get(url); return err })
}

func StoreAll(urls []string) {
	for _, u := range urls {
		_ = storeExec.WithContext(context.Background()).Run(func() error { _, err := http.Get(u); return err })
	}
}

// An executor built in the function, with its breaker inline: a new breaker
// on every call.
func InlineExec(url string) error {
	exec := failsafe.With[any](circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).Build()) // want `a new breaker is created on every call of InlineExec`
	return exec.Run(func() error { _, err := http.Get(url); return err })
}

// Fine: that executor guards every call of a loop.
func InlineExecLoop(urls []string) {
	exec := failsafe.With[any](circuitbreaker.NewBuilder[any]().WithFailureThreshold(5).Build())
	for _, u := range urls {
		_ = exec.Run(func() error { _, err := http.Get(u); return err })
	}
}
