package fixes

import (
	"context"
	"net/http"
)

// The request is sent by a goroutine that the function stops waiting for
// when ctx is done: with ctx, the write would be cancelled then instead of
// finishing. No fix.
func saveAsync(ctx context.Context, url string) error {
	req, err := http.NewRequest(http.MethodPut, url, nil) // want `http.NewRequest gives the request context.Background\(\)`
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Sent in place: the fix passes ctx.
func saveNow(ctx context.Context, url string) error {
	req, err := http.NewRequest(http.MethodPut, url, nil) // want `http.NewRequest gives the request context.Background\(\)`
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
