package shared

import (
	"context"
	"net/http"

	gb2 "github.com/sony/gobreaker/v2"
)

// A helper that wraps its function argument in a closure it runs through
// the breaker: its callers' operations are guarded calls.
type Orders struct {
	ordersURL, usersURL string
	hc                  *http.Client
	cb                  *gb2.CircuitBreaker[any]
}

func (o *Orders) get(ctx context.Context, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := o.hc.Do(req)
	if err != nil {
		return nil, err
	}
	return nil, resp.Body.Close()
}

func wrapped(cb *gb2.CircuitBreaker[any], fn func() ([]byte, error)) ([]byte, error) { // want wrapped:"guards param1 with param0"
	v, err := cb.Execute(func() (any, error) { return fn() })
	if err != nil {
		return nil, err
	}
	b, _ := v.([]byte)
	return b, nil
}

func (o *Orders) Both(ctx context.Context) {
	wrapped(o.cb, func() ([]byte, error) { return o.get(ctx, o.ordersURL+"/a") })
	wrapped(o.cb, func() ([]byte, error) { return o.get(ctx, o.usersURL+"/b") }) // want `breaker o.cb guards o.usersURL here but o.ordersURL`
}

// The closure runs the function argument in a goroutine, outside the
// breaker: not a guarded call.
func detached(cb *gb2.CircuitBreaker[any], fn func() ([]byte, error)) {
	cb.Execute(func() (any, error) {
		go fn()
		return nil, nil
	})
}

func (o *Orders) Detached(ctx context.Context) {
	detached(o.cb, func() ([]byte, error) { return o.get(ctx, o.ordersURL+"/a") })
	detached(o.cb, func() ([]byte, error) { return o.get(ctx, o.usersURL+"/b") })
}
