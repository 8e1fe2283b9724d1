// Package retry has retry loops whose waits sleepretry's fixes rewrite to
// resil's context-aware full-jitter backoff.
package retry

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct {
	hc    *http.Client
	base  string
	delay time.Duration
}

func (c *Client) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// Fetch sleeps a fixed second with time.Sleep, blind to ctx.
func (c *Client) Fetch(ctx context.Context, path string) (int, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.get(ctx, path)
		if err == nil {
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return 0, lastErr
}

// Ping waits the same configured delay in a select.
func (c *Client) Ping(ctx context.Context) error {
	var lastErr error
	for attempt := 1; attempt <= 4; attempt++ {
		resp, err := c.get(ctx, "/ping")
		if err == nil {
			return resp.Body.Close()
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), lastErr)
		case <-time.After(c.delay):
		}
	}
	return lastErr
}

// Watch doubles its wait without jitter.
func (c *Client) Watch(ctx context.Context) error {
	wait := 100 * time.Millisecond
	var lastErr error
	for i := 0; i < 5; i++ {
		resp, err := c.get(ctx, "/watch")
		if err == nil {
			return resp.Body.Close()
		}
		lastErr = err
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait *= 2
	}
	return lastErr
}
