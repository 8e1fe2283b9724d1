// Package model checks what the retry model says about loops and helpers,
// and the facts it exports.
package model

import (
	"context"
	"errors"
	"io"
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

func (c *Client) Counted(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=true remote=true sleeps=\[randomised\+ctx\] statuses=\[503 500 502 504 429 408\]`
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

func (c *Client) FromOne(ctx context.Context) error {
	var err error
	for attempt := 1; attempt <= 4; attempt++ { // want `loop attempts=4 exit=false remote=true sleeps=\[invariant\]`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *Client) CheckedInBody(ctx context.Context) error {
	attempt := 0
	for { // want `loop attempts=5 exit=false remote=true sleeps=\[grows\]`
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

func (c *Client) CheckedAfter(ctx context.Context) error {
	for attempt := 0; ; attempt++ { // want `loop attempts=3 exit=false remote=true sleeps=\[\]`
		_, err := c.get(ctx)
		if err == nil {
			return nil
		}
		if attempt == 2 {
			return err
		}
	}
}

func (c *Client) Variable(ctx context.Context) error {
	var err error
	for i := 0; i < c.maxTries; i++ { // want `loop attempts=var`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (c *Client) Range(ctx context.Context) error {
	var err error
	for range 2 { // want `loop attempts=2`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

func (c *Client) Schedule(ctx context.Context) error {
	var err error
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second} { // want `loop attempts=3 exit=false remote=true sleeps=\[grows\]`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(d)
	}
	return err
}

func (c *Client) Forever(ctx context.Context) error {
	for { // want `loop attempts=none exit=true remote=true sleeps=\[invariant\+ctx\]`
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
func (c *Client) Get(ctx context.Context) error { return c.Counted(ctx) }

type rooms interface {
	Check(ctx context.Context) error
}

func Codes(ctx context.Context, r rooms) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=false remote=true sleeps=\[\] codes=\[Unavailable ResourceExhausted\]`
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

func (c *Client) Predicate(ctx context.Context, retryable func(error) bool) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=false remote=true sleeps=\[\] predicate`
		_, err = c.get(ctx)
		if !retryable(err) {
			return err
		}
	}
	return err
}

func Helpers(ctx context.Context, op func() error) error {
	_ = backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2)) // want `helper site=true attempts=3 unlimited=false delay=randomised`
	_ = backoff.Retry(op, backoff.NewConstantBackOff(time.Second))                    // want `helper site=true attempts=0 unlimited=true delay=invariant`
	_ = retry.Do(op, retry.Attempts(4), retry.Context(ctx))                           // want `helper site=true attempts=4 unlimited=false delay=randomised`
	return retry.Do(op)                                                               // want `helper site=true attempts=10 unlimited=false delay=randomised`
}

func (c *Client) LocalBound(ctx context.Context) error {
	attempts := 3
	var err error
	for i := 0; i < attempts; i++ { // want `loop attempts=3 exit=false remote=true`
		if _, err = c.get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Polling: errors leave, the status is never read, and what sends the loop
// round is the job not being done yet. Nothing that failed is repeated.
func (c *Client) WaitDone(ctx context.Context) error {
	for i := 0; i < 120; i++ {
		resp, err := c.get(ctx)
		if err != nil {
			return err
		}
		done := resp.Header.Get("X-State") == "done"
		resp.Body.Close()
		if done {
			return nil
		}
		time.Sleep(5 * time.Second)
	}
	return nil
}

// The same loop reading the status retries a 503.
func (c *Client) WaitDoneStatus(ctx context.Context) error {
	for i := 0; i < 120; i++ { // want `loop attempts=120 exit=false remote=true sleeps=\[invariant\] statuses=\[503 500 502 504 429 408\]`
		resp, err := c.get(ctx)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
		time.Sleep(5 * time.Second)
	}
	return nil
}

func (c *Client) post(ctx context.Context) error {
	resp, err := c.get(ctx)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// The call's error compared in the condition itself.
func (c *Client) InlineCond(ctx context.Context) {
	for i := 0; i < 3; i++ { // want `loop attempts=3 exit=false remote=true sleeps=\[invariant\]`
		if c.post(ctx) == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// A 200 whose body could not be read goes round too, and the wait is a
// select with the caller's Done: the caller giving up is not an outcome.
func (c *Client) ReadRetry(ctx context.Context) ([]byte, error) {
	var last error
	for attempt := 0; attempt < 4; attempt++ { // want `loop attempts=4 exit=true remote=true sleeps=\[invariant\+ctx\] statuses=\[503 500 502 504\]`
		resp, err := c.get(ctx)
		if err != nil {
			last = err
		} else {
			body, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && rerr == nil {
				return body, nil
			}
			if resp.StatusCode == http.StatusOK {
				last = rerr
			} else if resp.StatusCode >= 500 {
				last = errors.New("5xx")
			} else {
				return nil, errors.New("4xx")
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return nil, last
}

// The call in the loop condition, retried every second forever.
func (c *Client) CondLoop(ctx context.Context) {
	for c.post(ctx) != nil { // want `loop attempts=none exit=false remote=true sleeps=\[invariant\]`
		time.Sleep(time.Second)
	}
}

func (c *Client) send(ctx context.Context, ev string) error {
	resp, err := c.get(ctx)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A failure inside an inner loop that restarts the outer loop by its label
// retries the failed element: the outer loop retries it.
func (c *Client) deliverBatch(ctx context.Context, batch []string) error {
	sent := 0
	var lastErr error
outer:
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=true remote=true sleeps=\[randomised\+ctx\]`
		for _, ev := range batch[sent:] {
			if err := c.send(ctx, ev); err != nil {
				lastErr = err
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(jitter(attempt)):
				}
				continue outer
			}
			sent++
		}
		return nil
	}
	return lastErr
}

// Each round is another shard: failover, not a retry.
func (c *Client) anyShard(ctx context.Context, shards [][]string) error {
outer:
	for _, shard := range shards {
		for _, ev := range shard {
			if err := c.send(ctx, ev); err != nil {
				time.Sleep(jitter(1))
				continue outer
			}
		}
		return nil
	}
	return errors.New("no shard")
}

// A nested loop without a labelled continue is its own loop.
func (c *Client) each(ctx context.Context, batch []string) error {
	for attempt := 0; attempt < 3; attempt++ {
		failed := false
		for _, ev := range batch {
			if err := c.send(ctx, ev); err != nil {
				failed = true
			}
		}
		if !failed {
			return nil
		}
		time.Sleep(jitter(attempt))
	}
	return errors.New("failed")
}

// An event loop: each reset request received is handled once; a failure
// waits for the next request, it is not retried.
func (c *Client) resets(ctx context.Context, reset <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-reset:
			if err := c.send(ctx, "reset"); err != nil {
				continue
			}
			return
		}
	}
}

// A retry that waits on a timer in a select still is one.
func (c *Client) afterTimer(ctx context.Context) error {
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=true remote=true`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(attempt)):
			if err := c.send(ctx, "x"); err == nil {
				return nil
			}
		}
	}
	return errors.New("failed")
}

// Success is 202 Accepted: a 200 goes round like a failure, and the loop is
// a retry loop all the same.
func (c *Client) Accepted(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `loop attempts=3 exit=true remote=true sleeps=\[randomised\+ctx\] statuses=\[503 500 502 504 429 408\]`
		var resp *http.Response
		resp, err = c.get(ctx)
		if err == nil && resp.StatusCode == http.StatusAccepted {
			resp.Body.Close()
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
