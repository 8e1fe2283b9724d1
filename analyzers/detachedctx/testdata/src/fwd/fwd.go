// Package fwd forwards its callers' contexts to outbound calls.
package fwd

import (
	"context"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// Notify forwards ctx to a client that has a Timeout.
func Notify(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Local does no outbound call with ctx.
func Local(ctx context.Context) error { return ctx.Err() }

// Lookup adds its own timeout to ctx before querying: the query is bounded,
// but it still ends when the caller's ctx does.
func Lookup(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return Notify(ctx, url)
}

// Fetch derives a new variable.
func Fetch(ctx context.Context, url string) error {
	qctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return Notify(qctx, url)
}

// Detach keeps running without the caller's cancellation on purpose.
func Detach(ctx context.Context, url string) error {
	qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	return Notify(qctx, url)
}
