// Package rhttp calls through hashicorp/go-retryablehttp: every attempt is
// an HTTP call bounded only by the client's HTTPClient.Timeout or the
// request's context.
package rhttp

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func batch() {
	rc := retryablehttp.NewClient()
	req, _ := retryablehttp.NewRequestWithContext(context.Background(), http.MethodGet, "http://push/x", nil)
	resp, err := rc.Do(req) // want `\(\*retryablehttp.Client\).Do gets context.Background\(\), which has no deadline and its client has no Timeout`
	if err == nil {
		resp.Body.Close()
	}
	resp, err = rc.Get("http://push/y") // want `\(\*retryablehttp.Client\).Get has no deadline`
	if err == nil {
		resp.Body.Close()
	}
	resp, err = retryablehttp.Get("http://push/z") // want `retryablehttp.Get has no deadline: it takes no context and the client has no Timeout, .*; set Timeout on the client, or use retryablehttp.NewRequestWithContext`
	if err == nil {
		resp.Body.Close()
	}
}

func bounded() {
	rc := &retryablehttp.Client{HTTPClient: &http.Client{Timeout: 5 * time.Second}, RetryMax: 2}
	resp, err := rc.Get("http://push/y") // every attempt bounded by HTTPClient.Timeout
	if err == nil {
		resp.Body.Close()
	}
	rc2 := retryablehttp.NewClient()
	rc2.HTTPClient.Timeout = 5 * time.Second
	resp, err = rc2.Get("http://push/y")
	if err == nil {
		resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "http://push/x", nil)
	resp, err = rc2.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}
