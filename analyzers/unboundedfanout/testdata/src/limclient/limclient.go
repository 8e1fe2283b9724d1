// Package limclient is a client of another package of the module that
// enforces its own limits on every request.
package limclient

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"
)

type Client struct {
	hc   *http.Client
	base string
	sem  chan struct{}
	w    *semaphore.Weighted
	lim  *rate.Limiter
	mu   sync.Mutex
	fast bool
	gate gate
}

func New(base string, n int) *Client {
	return &Client{hc: &http.Client{}, base: base, sem: make(chan struct{}, 8), gate: make(gate, n), w: semaphore.NewWeighted(int64(n)), lim: rate.NewLimiter(10, 1)}
}

func (c *Client) do(req *http.Request) (*http.Response, error) {
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	return c.hc.Do(req)
}

// Get takes a slot of the client's semaphore around the request.
func (c *Client) Get(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Selected takes the slot in a select that leaves on cancellation.
func (c *Client) Selected(ctx context.Context, id string) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.sem }()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/items/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Weighted waits on a semaphore of the capacity the caller chose.
func (c *Client) Weighted(ctx context.Context, id string) error {
	if err := c.w.Acquire(ctx, 1); err != nil {
		return err
	}
	defer c.w.Release(1)
	return c.Get2(ctx, id)
}

// Get2 has no limit of its own.
func (c *Client) Get2(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v2/"+id, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Paced waits on the client's rate limiter.
func (c *Client) Paced(ctx context.Context, id string) error {
	if err := c.lim.Wait(ctx); err != nil {
		return err
	}
	return c.Get2(ctx, id)
}

// Locked holds the client's mutex around the request.
func (c *Client) Locked(ctx context.Context, id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.Get2(ctx, id)
}

// Sometimes takes the slot on one branch only: the fast path is unlimited.
func (c *Client) Sometimes(ctx context.Context, id string) error {
	if c.fast {
		return c.Get2(ctx, id)
	}
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	return c.Get2(ctx, id)
}

// Branch takes the slot inside an if: the call after it is not held.
func (c *Client) Branch(ctx context.Context, id string) error {
	if !c.fast {
		c.sem <- struct{}{}
		defer func() { <-c.sem }()
	}
	return c.Get2(ctx, id)
}

// TryOrGo takes a slot when one is free and goes ahead without one
// otherwise: no limit.
func (c *Client) TryOrGo(ctx context.Context, id string) error {
	select {
	case c.sem <- struct{}{}:
		defer func() { <-c.sem }()
	default:
	}
	return c.Get2(ctx, id)
}

// A semaphore type of the module's own: enter takes a slot, leave gives
// it back.
type gate chan struct{}

func (g gate) enter() { g <- struct{}{} }

func (g gate) leave() { <-g }

// Gated holds a slot of the client's gate around the request.
func (c *Client) Gated(ctx context.Context, id string) error {
	c.gate.enter()
	defer c.gate.leave()
	return c.Get2(ctx, id)
}
