// Package b is a client library: Lookup forwards its context to an HTTP
// call made with a client that has no Timeout, so the call's deadline is
// whatever the caller's context carries.
package b

import (
	"context"
	"io"
	"net/http"
)

// Lookup fetches a record.
func Lookup(ctx context.Context, url string) ([]byte, error) {
	return fetch(ctx, url)
}

func fetch(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

type settingsKey struct{}

// Settings reads a value from its context and observes nothing else of
// it: a caller that hands it context.Background() drops no deadline.
func Settings(ctx context.Context) string {
	if v, ok := ctx.Value(settingsKey{}).(string); ok {
		return v
	}
	return ""
}
