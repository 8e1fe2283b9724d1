// Package calls makes outbound calls: ctxdeadline and detachedctx.
package calls

import (
	"context"
	"net/http"
	"time"

	"example.com/gclmod/wrap"
)

// Status asks a service for its status with the default client.
func Status(url string) (int, error) {
	resp, err := http.Get(url) // want:ctxdeadline
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// Bill tells the billing service.
func Bill() error {
	return wrap.Call("billing") // want:ctxdeadline settings-case
}

// Refresh ignores the caller's deadline.
func Refresh(ctx context.Context, url string) error {
	ctx2, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want:detachedctx
	defer cancel()
	req, err := http.NewRequestWithContext(ctx2, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Probe is a known exception.
func Probe(url string) {
	resp, err := http.Head(url) //nolint:resilint // nolint-case: the probe must not outlive the process anyway
	if err == nil {
		resp.Body.Close()
	}
}

var client = &http.Client{Timeout: 5 * time.Second}
