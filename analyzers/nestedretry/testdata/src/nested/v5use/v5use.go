// Package v5use retries through cenkalti/backoff v5, whose Retry has a
// loop of its own: the knowledge table, not that loop, says how many
// attempts a call makes.
package v5use

import (
	"context"
	"errors"
	"math/rand"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v5"
)

type client struct{ hc *http.Client }

// fetch retries 3 times itself.
func (c *client) fetch(ctx context.Context) (int, error) {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://x", nil)
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		time.Sleep(time.Duration(rand.Int63n(int64(time.Second))))
	}
	return 0, errors.New("unavailable")
}

// One try: no second layer.
func single(ctx context.Context, c *client) (int, error) {
	return backoff.Retry(ctx, func() (int, error) {
		return c.fetch(ctx)
	}, backoff.WithMaxTries(1))
}

func twice(ctx context.Context, c *client) (int, error) {
	return backoff.Retry(ctx, func() (int, error) {
		return c.fetch(ctx) // want `retry amplification 2×3 = 6: this backoff.Retry \(2 attempts\) calls \(\*v5use.client\).fetch`
	}, backoff.WithMaxTries(2))
}
