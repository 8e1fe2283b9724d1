// Package paramlib retries as many times as its caller asks.
package paramlib

import (
	"context"
	"net/http"
)

// Fetch makes up to attempts requests.
func Fetch(ctx context.Context, hc *http.Client, url string, attempts int) error {
	var err error
	for i := 0; i < attempts; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if rerr != nil {
			return rerr
		}
		resp, derr := hc.Do(req)
		if derr == nil {
			return resp.Body.Close()
		}
		err = derr
	}
	return err
}

// Forward passes its count on.
func Forward(ctx context.Context, hc *http.Client, url string, n int) error {
	return Fetch(ctx, hc, url, n)
}
