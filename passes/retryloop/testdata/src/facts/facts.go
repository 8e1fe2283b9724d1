package facts // want package:"has retrying functions"

// The retry facts the model exports.

import (
	"context"
	"math/rand"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type Client struct {
	hc       *http.Client
	base     string
	maxTries int
}

func (c *Client) get(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base, nil)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

func jitter(attempt int) time.Duration {
	return time.Duration(rand.Int63n(int64(time.Millisecond) << attempt))
}

func (c *Client) Counted(ctx context.Context) error { // want Counted:"retries 3@\\(\\*facts.Client\\).Counted"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		resp, err = c.get(ctx)
		if err == nil && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusRequestTimeout {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(attempt)):
		}
	}
	return err
}

func (c *Client) FromOne(ctx context.Context) error { // want FromOne:"retries 4@"
	var err error
	for attempt := 1; attempt <= 4; attempt++ {
		if _, err = c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *Client) CheckedInBody(ctx context.Context) error { // want CheckedInBody:"retries 5@"
	attempt := 0
	for {
		_, err := c.get(ctx)
		if err == nil {
			return nil
		}
		attempt++
		if attempt >= 5 {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
}

func (c *Client) CheckedAfter(ctx context.Context) error { // want CheckedAfter:"retries 3@"
	for attempt := 0; ; attempt++ {
		_, err := c.get(ctx)
		if err == nil {
			return nil
		}
		if attempt == 2 {
			return err
		}
	}
}

func (c *Client) Variable(ctx context.Context) error { // want Variable:"retries n@"
	var err error
	for i := 0; i < c.maxTries; i++ {
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (c *Client) Range(ctx context.Context) error { // want Range:"retries 2@"
	var err error
	for range 2 {
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (c *Client) Schedule(ctx context.Context) error { // want Schedule:"retries 3@"
	var err error
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} {
		if _, err = c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(d)
	}
	return err
}

func (c *Client) Forever(ctx context.Context) error { // want Forever:"retries n@"
	for {
		if _, err := c.get(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Get forwards to Counted: its fact names where the retry is.
func (c *Client) Get(ctx context.Context) error { return c.Counted(ctx) } // want Get:"retries 3@\\(\\*facts.Client\\).Counted"

type rooms interface {
	Check(ctx context.Context) error
}

func Codes(ctx context.Context, r rooms) error { // want Codes:"retries 3@facts.Codes"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = r.Check(ctx)
		switch status.Code(err) {
		case codes.OK:
			return nil
		case codes.Unavailable, codes.ResourceExhausted:
		default:
			return err
		}
	}
	return err
}

func (c *Client) Predicate(ctx context.Context, retryable func(error) bool) error { // want Predicate:"retries 3@"
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		_, err = c.get(ctx)
		if !retryable(err) {
			return err
		}
	}
	return err
}

func Helpers(ctx context.Context, op func() error) error { // want Helpers:"retries its parameter #1 up to 3 attempts"
	_ = backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2))
	_ = backoff.Retry(op, backoff.NewConstantBackOff(time.Second))
	_ = retry.Do(op, retry.Attempts(4), retry.Context(ctx))
	return retry.Do(op)
}

// Team-owned retry helpers: they retry their function parameter.

func Attempts[T any](ctx context.Context, attempts int, f func(context.Context) (T, error)) (T, error) { // want Attempts:"retries its parameter #2 up to parameter #1 attempts"
	var v T
	var err error
	for i := 0; i < attempts; i++ {
		if v, err = f(ctx); err == nil {
			return v, nil
		}
		time.Sleep(jitter(i))
	}
	return v, err
}

func Retries(retries int, f func() error) error { // want Retries:"retries its parameter #1 up to parameter #0\\+1 attempts"
	var err error
	for i := 0; i <= retries; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(jitter(i))
	}
	return err
}

func Three(ctx context.Context, f func(context.Context) error) error { // want Three:"retries its parameter #1 up to 3 attempts"
	var err error
	for i := 0; i < 3; i++ {
		if err = f(ctx); err == nil {
			return nil
		}
		time.Sleep(jitter(i))
	}
	return err
}

// Once calls its parameter once: no fact.
func Once(ctx context.Context, f func(context.Context) error) error {
	return f(ctx)
}

// UsesThree's own layer is Three's, with the operation's calls below it.
func (c *Client) UsesThree(ctx context.Context) error { // want UsesThree:"retries 3@\\(\\*facts.Client\\).UsesThree/facts.Three \\(\\*facts.Client\\).Counted→3@\\(\\*facts.Client\\).Counted"
	return Three(ctx, func(ctx context.Context) error { return c.Counted(ctx) })
}

// A retry a parameter switches off: the fact says when the layer is taken.
func Switched(ctx context.Context, c *Client, retry bool) error { // want Switched:"retries 3@\\(\\*facts.Client\\).Counted\\[if arg2!=0\\]"
	if !retry {
		_, err := c.get(ctx)
		return err
	}
	return c.Counted(ctx)
}
