// Package fixme has findings with mechanical fixes, applied by
// golangci-lint run --fix.
package fixme

import (
	"context"
	"net/http"
	"time"
)

var client = &http.Client{}

// Get builds its request without the caller's context.
func Get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil) // want:ctxdeadline fix:NewRequestWithContext(ctx,
	if err != nil {
		return nil, err
	}
	return client.Do(req)
}

// Sync starts a fresh deadline instead of deriving it from ctx.
func Sync(ctx context.Context, url string) error {
	ctx2, cancel := context.WithTimeout(context.Background(), time.Second) // want:detachedctx fix:context.WithTimeout(ctx,
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
